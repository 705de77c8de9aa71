package demoservice

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
)

// maxJSONBody bounds a JSON request body; a memory of 32000 characters with
// metadata fits many times over.
const maxJSONBody = 4 << 20

// writeJSON writes v as the JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"message":"Server Error","error":"the answer could not be encoded"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeError writes {"message": msg}; every error body carries message.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

// fieldErrors collects validation messages per field, keeping the order in
// which fields failed so the summary names the first one.
type fieldErrors struct {
	order []string
	byKey map[string][]string
}

func (e *fieldErrors) add(field, msg string) {
	if e.byKey == nil {
		e.byKey = map[string][]string{}
	}
	if _, ok := e.byKey[field]; !ok {
		e.order = append(e.order, field)
	}
	e.byKey[field] = append(e.byKey[field], msg)
}

func (e *fieldErrors) any() bool { return len(e.order) > 0 }

// write answers 422 {"message": first message (and N more errors), "errors": {...}}.
//
// Assumption: validation errors follow the widely used
// {"message","errors":{"field":["..."]}} shape; the interface shows only
// message.
func (e *fieldErrors) write(w http.ResponseWriter) {
	total := 0
	for _, msgs := range e.byKey {
		total += len(msgs)
	}
	msg := e.byKey[e.order[0]][0]
	switch more := total - 1; {
	case more == 1:
		msg += " (and 1 more error)"
	case more > 1:
		msg += fmt.Sprintf(" (and %d more errors)", more)
	}
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": msg, "errors": e.byKey})
}

// validationError answers 422 naming a single field.
func validationError(w http.ResponseWriter, field, msg string) {
	var e fieldErrors
	e.add(field, msg)
	e.write(w)
}

// readJSONObject decodes the body as a JSON object with numbers kept as
// json.Number. An empty body is an empty object. On failure it answers 400
// or 413 and returns ok false.
//
// Assumption: a body that is not a JSON object answers 422 {"message": ...}
// without field errors; the contract lists no 400.
func readJSONObject(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "The request body is too large.")
		} else {
			writeError(w, http.StatusUnprocessableEntity, "The request body could not be read.")
		}
		return nil, false
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, true
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		writeError(w, http.StatusUnprocessableEntity, "The request body is not valid JSON.")
		return nil, false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		writeError(w, http.StatusUnprocessableEntity, "The request body must be a JSON object.")
		return nil, false
	}
	return obj, true
}

// asInt reads an integer from a JSON number or a numeric string.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, true
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), true
		}
	case string:
		return asInt(json.Number(strings.TrimSpace(x)))
	case float64:
		if x == math.Trunc(x) {
			return int64(x), true
		}
	}
	return 0, false
}

// isNumeric reports whether v is a JSON number or a numeric string.
func isNumeric(v any) bool {
	switch x := v.(type) {
	case json.Number:
		_, err := x.Float64()
		return err == nil
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return false
		}
		_, err := json.Number(s).Float64()
		return err == nil && json.Valid([]byte(s))
	}
	return false
}

// roundCredits keeps credits to four decimals, as the service reports them.
func roundCredits(c float64) float64 { return math.Round(c*1e4) / 1e4 }
