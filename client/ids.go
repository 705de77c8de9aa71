package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ID identifies a record, sent as a number or a string; its literal text is kept.
type ID string

// UnmarshalJSON accepts a JSON number, a string or null (the empty ID).
func (id *ID) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); !isNull(b) && b[0] != '"' && !isJSONNumber(b) {
		return &json.UnmarshalTypeError{Value: "id " + abbreviate(string(b)), Type: reflect.TypeFor[ID]()}
	}
	*id = ID(looseString(string(b)))
	return nil
}

// MarshalJSON emits a number when numeric, else a string; null when empty.
func (id ID) MarshalJSON() ([]byte, error) {
	if id == "" {
		return []byte("null"), nil
	}
	if id.numeric() {
		return []byte(id), nil
	}
	return json.Marshal(string(id))
}

// String returns the ID's text.
func (id ID) String() string { return string(id) }

// IsZero reports whether the ID is empty.
func (id ID) IsZero() bool { return id == "" }

// Int64 returns the ID as an integer, and false when it is not one.
func (id ID) Int64() (int64, bool) {
	n, err := strconv.ParseInt(string(id), 10, 64)
	return n, err == nil
}

// numericID is an integer of at most 18 digits, the only form safe to send as a number.
var numericID = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,17})$`)

func (id ID) numeric() bool { return numericID.MatchString(string(id)) }

// IDs converts integers to IDs, for convenience in calls such as LinkFiles.
func IDs(ns ...int64) []ID {
	out := make([]ID, len(ns))
	for i, n := range ns {
		out[i] = ID(strconv.FormatInt(n, 10))
	}
	return out
}

// Credits is an amount of credits; Valid is false for null or "".
type Credits struct {
	Value float64
	Valid bool
}

// UnmarshalJSON accepts a number, a numeric string, or null.
func (c *Credits) UnmarshalJSON(b []byte) error {
	*c = Credits{}
	s := strings.TrimSpace(looseString(string(b)))
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return &json.UnmarshalTypeError{Value: "credits " + abbreviate(s), Type: reflect.TypeFor[Credits]()}
	}
	*c = Credits{Value: v, Valid: true}
	return nil
}

// MarshalJSON emits a number, or null when not Valid.
func (c Credits) MarshalJSON() ([]byte, error) {
	if !c.Valid {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, c.Value, 'f', -1, 64), nil
}

// String formats the amount, or "" when not Valid.
func (c Credits) String() string {
	if !c.Valid {
		return ""
	}
	return strconv.FormatFloat(c.Value, 'f', -1, 64)
}

// Time is a service timestamp; null and "" give the zero Time.
type Time struct {
	time.Time
}

// timeLayouts are tried in order; RFC 3339 covers both documented formats.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

// UnmarshalJSON parses the timestamp formats. Assumption: an unknown format
// is the zero Time, so one odd date never loses a list.
func (t *Time) UnmarshalJSON(b []byte) error {
	*t = Time{}
	if b = bytes.TrimSpace(b); isNull(b) {
		return nil
	}
	if b[0] != '"' {
		if isJSONNumber(b) {
			// Assumption: a bare number is Unix seconds.
			if sec, err := strconv.ParseFloat(string(b), 64); err == nil && sec > -1e12 && sec < 1e12 {
				t.Time = time.Unix(int64(sec), 0).UTC()
			}
		}
		return nil
	}
	t.Time = parseTime(looseString(string(b)))
	return nil
}

func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, layout := range timeLayouts {
		if v, err := time.Parse(layout, s); err == nil {
			return v
		}
	}
	return time.Time{}
}

// MarshalJSON emits the service's format in UTC, or null for the zero Time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.UTC().Format("2006-01-02T15:04:05.000000Z07:00") + `"`), nil
}

func isJSONNumber(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	return json.Valid(b) && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9'))
}

func abbreviate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
