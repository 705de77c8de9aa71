package demoservice

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A request can ask, as Agent Desk's batches do, for facts as one JSON
// object: its text ends with the object to fill in, every value empty
// ({"Invoice number": "", "Total": ""}), whatever the language of the words
// before it. The service answers in that shape with made-up values, and,
// like a real model, sometimes not: about one reply in five (chosen by the
// request's text, so tests are stable) leaves a fact out or gives words
// without the object. A chat asked again in the same conversation answers
// right.

// factsReply is the reply to input when it asks for facts; false when not.
func factsReply(input string, msgs []Message) (string, bool) {
	keys := askedFacts(input)
	if len(keys) == 0 {
		return "", false
	}
	sum := seedOf("facts", input)
	again := len(msgs) > 1
	switch {
	case !again && sum%10 == 0:
		return "I read it through. The details you asked for are in the document, but I could not set them out as asked.", true
	case !again && sum%10 == 1:
		keys = keys[:len(keys)-1] // one fact left out (none, when one was asked)
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		kj, _ := json.Marshal(k)
		vj, _ := json.Marshal(factFor(k, sum+uint64(i)))
		b.Write(kj)
		b.WriteString(": ")
		b.Write(vj)
	}
	b.WriteByte('}')
	if sum%3 == 0 {
		// As models often do: a fence, and a word before it.
		return "Here are the details:\n\n```json\n" + b.String() + "\n```", true
	}
	return b.String(), true
}

// askedFacts are the keys of the empty object one of input's last lines is,
// in order; nil when there is none.
func askedFacts(input string) []string {
	lines := strings.Split(strings.TrimSpace(input), "\n")
	for i := len(lines) - 1; i >= max(0, len(lines)-5); i-- {
		line := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(line, "{") || !strings.HasSuffix(line, "}") {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil
		}
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			key, isKey := k.(string)
			if err != nil || !isKey {
				return nil
			}
			v, err := dec.Token()
			if s, isStr := v.(string); err != nil || !isStr || s != "" {
				return nil
			}
			keys = append(keys, key)
		}
		return keys
	}
	return nil
}

// factFor is a plausible value for a fact named key.
func factFor(key string, n uint64) string {
	k := strings.ToLower(key)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(k, w) {
				return true
			}
		}
		return false
	}
	names := []string{"Northwind Traders", "Contoso Ltd", "Fabrikam Supplies", "Tailspin Paper Co.", "Litware Office"}
	switch {
	case has("date", "fecha", "data"):
		return fmt.Sprintf("2026-%02d-%02d", 1+n%12, 1+n/12%28)
	case has("total", "amount", "price", "sum", "importe", "valor"):
		return fmt.Sprintf("%d.%02d", 20+n%1900, n/7%100)
	case has("mail"):
		return fmt.Sprintf("accounts%d@example.com", n%100)
	case has("number", "id", "ref", "número", "numero"):
		return fmt.Sprintf("INV-%05d", n%100000)
	case has("supplier", "vendor", "company", "customer", "name", "proveedor", "fornecedor"):
		return names[n%uint64(len(names))]
	}
	return fmt.Sprintf("%s %d", key, 1+n%99)
}
