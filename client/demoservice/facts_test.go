package demoservice

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Asked for facts in Agent Desk's shape, in any language, the service
// answers with them, about one time in five wrongly (a fact left out, or
// words without the object), the same each time for the same request; a
// chat asked again answers right; a request that asks for none is not
// answered so.
func TestAskedForFactsTheServiceAnswersWithThemMostly(t *testing.T) {
	template := `{"Invoice number": "", "Date": "", "Total": "", "Supplier": ""}`
	wrong := 0
	for i := range 200 {
		input := fmt.Sprintf("Lee la factura %d.\n\nResponde solo con un objeto JSON:\n%s", i, template)
		reply, ok := factsReply(input, nil)
		if again, _ := factsReply(input, nil); !ok || again != reply {
			t.Fatalf("request %d: answered %v, the same twice %v", i, ok, again == reply)
		}
		if !fits(reply) {
			wrong++
		}
		asked := []Message{{Role: "user", Content: input}, {Role: "assistant", Content: reply}, {Role: "user", Content: "Again:\n" + template}}
		if again, _ := factsReply(asked[2].Content, asked); !fits(again) {
			t.Fatalf("asked again, request %d is answered %q", i, again)
		}
	}
	if wrong < 20 || wrong > 60 {
		t.Fatalf("%d of 200 replies do not fit, want about 40", wrong)
	}
	for _, input := range []string{"Write a note on the spring catalogue", `Fill {"a": "x"} in`, "{}", `{"a": ""} and more words`} {
		if reply, ok := factsReply(input, nil); ok {
			t.Fatalf("%q asks for no facts, answered %q", input, reply)
		}
	}
}

// fits reports a reply whose object, bare or fenced, has the four facts filled.
func fits(reply string) bool {
	i, j := strings.Index(reply, "{"), strings.LastIndex(reply, "}")
	var obj map[string]string
	if i < 0 || j < i || json.Unmarshal([]byte(reply[i:j+1]), &obj) != nil {
		return false
	}
	for _, k := range []string{"Invoice number", "Date", "Total", "Supplier"} {
		if obj[k] == "" {
			return false
		}
	}
	return true
}
