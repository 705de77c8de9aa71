package app

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
)

// A batch can pull the same few facts out of every reply ("Invoice number,
// Date, Total"): each row's request asks for them as one JSON object, the
// reply is read back here, and the results sheet has a column per fact.

// Limits on the facts a batch asks for: a results sheet stays readable and
// the instruction short.
const (
	MaxFields     = 20
	MaxFieldChars = 60
)

// Limits on reading a reply, which may be megabytes of server text: the
// object is looked for from at most fieldsStarts places, each read over at
// most fieldsWindow bytes, and a fact keeps at most factChars characters.
const (
	fieldsStarts = 16
	fieldsWindow = 256 << 10
	factChars    = 2000
)

// ParseFields reads the facts as typed, one per comma, line or tab (a
// sheet's header pasted): trimmed, each once whatever its case or spacing;
// problem says in plain words what is over the limits ("" when none).
func ParseFields(text string) (fields []string, problem string) {
	seen := map[string]bool{}
	long := ""
	for f := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' || r == '\t' }) {
		f = strings.TrimSpace(f)
		if f == "" || seen[fieldKey(f)] {
			continue
		}
		seen[fieldKey(f)] = true
		fields = append(fields, f)
		if long == "" && utf8.RuneCountInString(f) > MaxFieldChars {
			long = f
		}
	}
	switch {
	case len(fields) > MaxFields:
		problem = lang.L("Name at most {{.Most}} facts: there are {{.Count}}.", map[string]any{"Most": MaxFields, "Count": Number(len(fields))})
	case long != "":
		problem = lang.L("«{{.Fact}}» is longer than {{.Most}} characters: name it in fewer words.", map[string]any{"Fact": safe.Text(long, 30), "Most": MaxFieldChars})
	}
	return fields, problem
}

// FieldsQuestion is the question whose answer carries the request for the
// facts: a chat agent's message, else the agent's request; "" for an agent
// that makes pictures or videos, or takes no text.
func FieldsQuestion(agent client.Agent) string {
	switch agent.Type {
	case client.AgentChat:
		return ChatMessage
	case client.AgentText:
		return RequestQuestion(agent)
	}
	return ""
}

// fieldsTemplate is the object asked for, its keys as typed and values empty,
// on one line.
func fieldsTemplate(fields []string) string {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // "R&D" stays readable
		_ = enc.Encode(f)        // a string always encodes
		b.Truncate(b.Len() - 1)  // Encode's newline
		b.WriteString(`: ""`)
	}
	b.WriteByte('}')
	return b.String()
}

// withFieldsRequest is request with the instruction to answer with the facts.
func withFieldsRequest(request string, fields []string) string {
	ask := lang.L("Reply with a single JSON object and nothing else, with exactly these keys and a string for each value:") + "\n" + fieldsTemplate(fields)
	if strings.TrimSpace(request) == "" {
		return ask
	}
	return strings.TrimRight(request, " \n") + "\n\n" + ask
}

// fieldsFollowUp asks a chat agent once more, in the same conversation, for
// what its reply r lacked.
func fieldsFollowUp(r FieldsReply, fields []string) string {
	return r.Problem() + " " + lang.L("Please reply again with only the JSON object, with exactly these keys and a string for each value:") + "\n" + fieldsTemplate(fields)
}

// FieldsReply is what a reply held of the facts asked for.
type FieldsReply struct {
	// Values are the facts in the order asked ("" for those missing).
	Values []string
	// Missing are the facts absent or empty, in the order asked.
	Missing []string
	// Found tells whether the reply held a JSON object at all.
	Found bool
}

// Fits reports a reply with every fact.
func (r FieldsReply) Fits() bool { return r.Found && len(r.Missing) == 0 }

// Problem says in plain words what the reply lacked ("" when it fits).
func (r FieldsReply) Problem() string {
	switch {
	case r.Fits():
		return ""
	case !r.Found:
		return lang.L("The reply did not give the facts in the form asked for.")
	}
	return lang.L("The reply did not give: {{.Facts}}.", map[string]any{"Facts": safe.Text(strings.Join(r.Missing, ", "), 300)})
}

// ReadFields reads the facts out of a reply: the first JSON object holding
// them all, even inside a ```json fence or with words around it, or one
// level down inside another object; keys match whatever their case, spaces
// or underscores. A reply without all of them gives the object that held
// the most.
func ReadFields(reply string, fields []string) FieldsReply {
	best := FieldsReply{Values: make([]string, len(fields)), Missing: fields}
	for _, at := range objectStarts(reply) {
		obj, ok := decodeObject(reply[at:min(len(reply), at+fieldsWindow)])
		if !ok {
			continue
		}
		objs := []map[string]json.RawMessage{obj}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if v := bytes.TrimSpace(obj[k]); len(v) > 0 && v[0] == '{' {
				if inner, ok := decodeObject(string(v)); ok {
					objs = append(objs, inner)
				}
			}
		}
		for _, o := range objs {
			r := matchFields(o, fields)
			if r.Fits() {
				return r
			}
			if !best.Found || len(r.Missing) < len(best.Missing) {
				best = r
			}
		}
	}
	return best
}

// objectStarts are where an object may start: after each ``` fence first,
// then each "{" in order; at most fieldsStarts places.
func objectStarts(s string) []int {
	var out []int
	add := func(i int) {
		for _, j := range out {
			if j == i {
				return
			}
		}
		out = append(out, i)
	}
	for from, fences := 0, 0; fences < 4 && len(out) < fieldsStarts; fences++ {
		i := strings.Index(s[from:], "```")
		if i < 0 {
			break
		}
		from += i + 3
		if j := strings.IndexByte(s[from:], '{'); j >= 0 {
			add(from + j)
		}
	}
	for from := 0; len(out) < fieldsStarts; {
		i := strings.IndexByte(s[from:], '{')
		if i < 0 {
			break
		}
		add(from + i)
		from += i + 1
	}
	return out
}

// decodeObject reads the JSON object s starts with, what follows aside; its
// values are kept as written, so nesting costs no more than its bytes.
func decodeObject(s string) (map[string]json.RawMessage, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, false
	}
	return obj, true
}

// matchFields is what obj holds of fields, keys matched by fieldKey (of two
// keys that match alike, the first in order with a value).
func matchFields(obj map[string]json.RawMessage, fields []string) FieldsReply {
	byKey := make(map[string]string, len(obj))
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if key := fieldKey(k); byKey[key] == "" {
			byKey[key] = factValue(obj[k])
		}
	}
	r := FieldsReply{Values: make([]string, len(fields)), Found: true}
	for i, f := range fields {
		r.Values[i] = byKey[fieldKey(f)]
		if r.Values[i] == "" {
			r.Missing = append(r.Missing, f)
		}
	}
	return r
}

// factValue is a value as one line of text: a string, a number or yes/no
// as written, a list of those joined; "" for null, an object or nothing.
func factValue(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var v string
	switch raw[0] {
	case '"':
		if json.Unmarshal(raw, &v) != nil {
			return ""
		}
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return ""
		}
		var parts []string
		for _, item := range list {
			if item = bytes.TrimSpace(item); len(item) > 0 && item[0] != '[' {
				if p := factValue(item); p != "" {
					parts = append(parts, p)
				}
			}
		}
		v = strings.Join(parts, "; ")
	case '{', 'n':
		return ""
	default: // a number, true or false
		v = string(raw)
	}
	return strings.TrimSpace(safe.Text(v, factChars))
}

// fieldKey is how a fact's name and a reply's key are matched: letters and
// digits in lower case ("Invoice number", "invoice_number", "InvoiceNumber"),
// or the name lower-cased when it has neither.
func fieldKey(s string) string {
	if k := columnKey(s); k != "" {
		return k
	}
	return strings.ToLower(strings.TrimSpace(s))
}
