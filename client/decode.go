package client

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// This file holds the fast decoder for streamed execution records. A stream
// carries thousands of small records; decoding each with encoding/json (and
// again for the unknown fields) costs more than reading the stream. The fast
// path scans the record once, takes strings without escapes as substrings of
// the event (no copy) and reuses parsed timestamps, which repeat from event to
// event. Anything it does not expect (a surprising type, an escaped key)
// sends the record to the general decoder, so the result is always the same.

// timeCache remembers the last timestamps parsed in a stream.
type timeCache struct {
	raw [2]string
	t   [2]time.Time
}

func (c *timeCache) parse(slot int, s string) time.Time {
	if c == nil {
		return parseTime(s)
	}
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
	return decodeExecution([]byte(s), e, true)
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
		case "created_at", "updated_at":
			var t string
			if t, ok = p.str(); ok {
				slot := 0
				if key == "updated_at" {
					slot = 1
				}
				if key == "created_at" {
					e.CreatedAt = Time{cache.parse(slot, t)}
				} else {
					e.UpdatedAt = Time{cache.parse(slot, t)}
				}
			}
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
			for _, k := range executionKeys {
				if strings.EqualFold(k, key) {
					return false // encoding/json matches keys case-insensitively
				}
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
