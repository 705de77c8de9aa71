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
	"time"
	"unicode/utf8"
)

// Records are decoded by decodeLoose, which takes the service's values in
// whatever JSON type they come. Streamed execution records, thousands per
// reply, go first through a single-scan fast path that copies no strings;
// anything it does not expect falls back to decodeLoose, with the same result.

// timeCache remembers the last timestamps parsed in a stream.
type timeCache struct {
	raw [2]string
	t   [2]time.Time
}

func (c *timeCache) parse(slot int, s string) time.Time {
	if c.raw[slot] == s && s != "" {
		return c.t[slot]
	}
	t := parseTime(s)
	c.raw[slot], c.t[slot] = s, t
	return t
}

// decodeExecutionFast decodes one record from s, falling back to the general
// decoder whenever the fast path cannot be sure.
func decodeExecutionFast(s string, e *Execution, cache *timeCache) error {
	if fastExecution(s, e, cache) {
		return nil
	}
	*e = Execution{}
	return decodeLoose([]byte(s), e)
}

var executionKeys = []string{"id", "status", "input", "output", "error", "credits", "root_id", "created_at", "updated_at", "template_id"}

type scanner struct {
	s string
	i int
}

func (p *scanner) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *scanner) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *scanner) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *scanner) literal(lit string) bool {
	if strings.HasPrefix(p.s[p.i:], lit) {
		p.i += len(lit)
		return true
	}
	return false
}

// rawString scans a JSON string at the cursor and returns it with its quotes,
// and whether it holds escapes.
func (p *scanner) rawString() (raw string, escaped, ok bool) {
	start := p.i
	if !p.eat('"') {
		return "", false, false
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return p.s[start:p.i], escaped, true
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", false, false // cut right after the backslash
			}
			escaped = true
			p.i += 2
		case c < 0x20:
			return "", false, false
		default:
			p.i++
		}
	}
	return "", false, false
}

// str reads a string value (null gives "").
func (p *scanner) str() (string, bool) {
	if p.literal("null") {
		return "", true
	}
	raw, escaped, ok := p.rawString()
	if !ok {
		return "", false
	}
	if !escaped {
		return raw[1 : len(raw)-1], true
	}
	var v string
	if json.Unmarshal([]byte(raw), &v) != nil {
		return "", false
	}
	return v, true
}

// number reads a JSON number literal.
func (p *scanner) number() (string, bool) {
	start := p.i
	p.eat('-')
	switch {
	case p.eat('0'):
	case p.peek() >= '1' && p.peek() <= '9':
		p.digits()
	default:
		return "", false
	}
	if p.eat('.') {
		if !p.digits() {
			return "", false
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if !p.digits() {
			return "", false
		}
	}
	return p.s[start:p.i], true
}

func (p *scanner) digits() bool {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// id reads an id: number, string or null.
func (p *scanner) id() (ID, bool) {
	switch c := p.peek(); {
	case c == '"' || c == 'n':
		s, ok := p.str()
		return ID(s), ok
	default:
		n, ok := p.number()
		return ID(n), ok
	}
}

// value skips any JSON value and returns its text. Nested values are only
// delimited here; callers validate what they keep.
func (p *scanner) value() (string, bool) {
	start := p.i
	switch c := p.peek(); {
	case c == '"':
		raw, _, ok := p.rawString()
		return raw, ok
	case c == '{' || c == '[':
		depth := 0
		for p.i < len(p.s) {
			switch p.s[p.i] {
			case '"':
				if _, _, ok := p.rawString(); !ok {
					return "", false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					p.i++
					return p.s[start:p.i], true
				}
			}
			p.i++
		}
		return "", false
	case c == 't':
		return "true", p.literal("true")
	case c == 'f':
		return "false", p.literal("false")
	case c == 'n':
		return "null", p.literal("null")
	default:
		return p.number()
	}
}

func fastExecution(s string, e *Execution, cache *timeCache) bool {
	*e = Execution{}
	p := scanner{s: s}
	p.ws()
	if !p.eat('{') {
		return false
	}
	p.ws()
	if p.eat('}') {
		p.ws()
		return p.i == len(s)
	}
	for {
		p.ws()
		rawKey, escaped, ok := p.rawString()
		if !ok || escaped {
			return false
		}
		key := rawKey[1 : len(rawKey)-1]
		p.ws()
		if !p.eat(':') {
			return false
		}
		p.ws()
		switch key {
		case "id":
			e.ID, ok = p.id()
		case "root_id":
			e.RootID, ok = p.id()
		case "template_id":
			e.TemplateID, ok = p.id()
		case "status":
			e.Status, ok = p.str()
		case "output":
			e.Output, ok = p.str()
		case "input":
			e.Input, ok = p.str()
		case "created_at":
			var t string
			t, ok = p.str()
			e.CreatedAt = Time{cache.parse(0, t)}
		case "updated_at":
			var t string
			t, ok = p.str()
			e.UpdatedAt = Time{cache.parse(1, t)}
		case "credits":
			switch p.peek() {
			case 'n':
				e.Credits, ok = Credits{}, p.literal("null")
			case '"':
				return false
			default:
				var n string
				if n, ok = p.number(); ok {
					v, err := strconv.ParseFloat(n, 64)
					e.Credits, ok = Credits{Value: v, Valid: true}, err == nil
				}
			}
		case "error":
			var raw string
			if raw, ok = p.value(); ok {
				e.Error = nil
				if raw != "null" {
					if !json.Valid([]byte(raw)) {
						return false
					}
					e.Error = json.RawMessage(raw)
				}
			}
		default:
			if slices.ContainsFunc(executionKeys, func(k string) bool { return strings.EqualFold(k, key) }) {
				return false // encoding/json matches keys case-insensitively
			}
			var raw string
			if raw, ok = p.value(); ok {
				if !json.Valid([]byte(raw)) {
					return false
				}
				if e.Extra == nil {
					e.Extra = map[string]json.RawMessage{}
				}
				e.Extra[key] = json.RawMessage(raw)
			}
		}
		if !ok {
			return false
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if p.eat('}') {
			break
		}
		return false
	}
	p.ws()
	return p.i == len(s)
}

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
	p := scanner{s: string(b)}
	p.ws()
	if !p.eat('{') {
		return &json.UnmarshalTypeError{Value: "non-object", Type: t}
	}
	out := reflect.New(t).Elem()
	var extra map[string]json.RawMessage
	for p.ws(); !p.eat('}'); p.ws() {
		rawKey, escaped, _ := p.rawString()
		key := rawKey[1 : len(rawKey)-1]
		if escaped || !utf8.ValidString(key) {
			var k string // not &key, which would put every key on the heap
			json.Unmarshal([]byte(rawKey), &k)
			key = k
		}
		p.ws()
		p.eat(':')
		p.ws()
		raw, _ := p.value()
		p.ws()
		p.eat(',')
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
			if err := setLoose(out.Field(field), raw); err != nil {
				return err
			}
		}
		if !exact && lf.extra >= 0 {
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[key] = json.RawMessage(raw)
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
