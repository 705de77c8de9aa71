package client

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Records are decoded by decodeLoose, which takes the service's values in
// whatever JSON type they come.

// looseFields describes a record type for decodeLoose and encodeLoose.
type looseFields struct {
	names []string // JSON name of each field, "" for fields JSON ignores
	extra int      // index of the Extra field, or -1
	plain reflect.Type
}

var looseCache sync.Map // reflect.Type -> *looseFields

func fieldsOf(t reflect.Type) *looseFields {
	if v, ok := looseCache.Load(t); ok {
		return v.(*looseFields)
	}
	lf := &looseFields{names: make([]string, t.NumField()), extra: -1}
	plain := make([]reflect.StructField, t.NumField())
	for i := range lf.names {
		f := t.Field(i)
		plain[i] = reflect.StructField{Name: f.Name, PkgPath: f.PkgPath, Type: f.Type, Tag: f.Tag, Anonymous: f.Anonymous}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Name == "Extra" && f.Type == extraType:
			lf.extra = i
		case !f.IsExported() || name == "-":
		case name == "":
			lf.names[i] = f.Name
		default:
			lf.names[i] = name
		}
	}
	lf.plain = reflect.StructOf(plain)
	looseCache.Store(t, lf)
	return lf
}

var extraType = reflect.TypeFor[map[string]json.RawMessage]()

// decodeLoose decodes the JSON object b into the struct v points to, the way
// encoding/json would (keys match case-insensitively, the last duplicate
// wins), but takes strings, integers and booleans in whatever form the
// service sends them and keeps the members no field names in Extra. null
// leaves v untouched; on error v is unchanged.
func decodeLoose(b []byte, v any) error {
	dst := reflect.ValueOf(v).Elem()
	if isNull(b) {
		return nil
	}
	if !json.Valid(b) {
		var x any
		return json.Unmarshal(b, &x)
	}
	t := dst.Type()
	lf := fieldsOf(t)
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return &json.UnmarshalTypeError{Value: "non-object", Type: t}
	}
	out := reflect.New(t).Elem()
	var extra map[string]json.RawMessage
	for dec.More() {
		tok, _ := dec.Token()
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		field, exact := -1, false
		for i, name := range lf.names {
			if name == "" {
				continue
			}
			if name == key {
				field, exact = i, true
				break
			}
			if field < 0 && strings.EqualFold(name, key) {
				field = i
			}
		}
		if field >= 0 {
			if err := setLoose(out.Field(field), string(raw)); err != nil {
				return err
			}
		}
		if !exact && lf.extra >= 0 {
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[key] = raw
		}
	}
	if extra != nil {
		out.Field(lf.extra).Set(reflect.ValueOf(extra))
	}
	dst.Set(out)
	return nil
}

// setLoose stores one JSON value in f: types with their own decoder use it,
// strings, integers and booleans are coerced, anything else goes through
// encoding/json.
func setLoose(f reflect.Value, raw string) error {
	if u, ok := f.Addr().Interface().(json.Unmarshaler); ok {
		return u.UnmarshalJSON([]byte(raw))
	}
	switch f.Kind() {
	case reflect.Pointer:
		if raw == "null" {
			f.SetZero()
			return nil
		}
		if f.IsNil() {
			f.Set(reflect.New(f.Type().Elem()))
		}
		return setLoose(f.Elem(), raw)
	case reflect.String:
		f.SetString(looseString(raw))
	case reflect.Int, reflect.Int64, reflect.Int32:
		f.SetInt(looseInt(raw))
	case reflect.Bool:
		f.SetBool(looseBool(raw))
	case reflect.Slice:
		if f.Type().Elem() != reflect.TypeFor[string]() || raw == "null" {
			return json.Unmarshal([]byte(raw), f.Addr().Interface())
		}
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(raw), &items); err != nil {
			return err
		}
		ss := reflect.MakeSlice(f.Type(), len(items), len(items))
		for i, item := range items {
			ss.Index(i).SetString(looseString(string(item)))
		}
		f.Set(ss)
	default:
		return json.Unmarshal([]byte(raw), f.Addr().Interface())
	}
	return nil
}

// looseString reads a string; null gives "" and any other value its JSON text.
func looseString(raw string) string {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "null":
		return ""
	case strings.HasPrefix(raw, `"`):
		var s string
		json.Unmarshal([]byte(raw), &s)
		return s
	}
	return raw
}

// looseInt reads an integer from a number or a numeric string; anything else
// is 0.
func looseInt(raw string) int64 {
	s := strings.Trim(strings.TrimSpace(raw), `"`)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return int64(v)
	}
	return 0
}

// looseBool reads 1/0, true/false, their quoted forms and null (false).
func looseBool(raw string) bool {
	switch s := strings.Trim(strings.TrimSpace(raw), `"`); s {
	case "", "null", "0", "false", "0.0":
		return false
	default:
		if n, err := strconv.ParseFloat(s, 64); err == nil {
			return n != 0
		}
		return s == "true"
	}
}

// encodeLoose encodes the record v with encoding/json, ignoring v's own
// MarshalJSON, and appends its Extra members.
func encodeLoose(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	lf := fieldsOf(rv.Type())
	var extra map[string]json.RawMessage
	if lf.extra >= 0 {
		extra = rv.Field(lf.extra).Interface().(map[string]json.RawMessage)
	}
	return encodeExtra(rv.Convert(lf.plain).Interface(), extra)
}

func isNull(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) == 0 || string(b) == "null"
}

// encodeExtra marshals v (a JSON object) and appends the extra members in a
// stable order.
func encodeExtra(v any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	b = b[:len(b)-1]
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		if raw := extra[k]; json.Valid(raw) {
			if b[len(b)-1] != '{' {
				b = append(b, ',')
			}
			kb, _ := json.Marshal(k)
			b = append(append(append(b, kb...), ':'), raw...)
		}
	}
	return append(b, '}'), nil
}
