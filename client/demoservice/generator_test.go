package demoservice

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGeneratorReplies(t *testing.T) {
	svc := New(Options{})
	defer svc.Close()
	words := svc.speech.words
	// Minutes (a shape with a heading), a chat agent without a shape (as
	// one made on the service would be), a text agent.
	plain := *svc.agents[105]
	plain.reply = ""
	agents := []*Agent{svc.agents[chatAgentID], &plain, svc.agents[textAgentID]}
	if agents[0].reply != "minutes" || agents[2].reply != "" {
		t.Fatalf("the seed's shapes moved: %q, %q", agents[0].reply, agents[2].reply)
	}
	prompts := []string{
		"How should we plan the quarterly budget review?",
		"Our printer keeps jamming on the second floor",
		"Please explain the termination clause in the supplier contract",
		"What is the best way to onboard three new accountants?",
		"Draft a reply to a customer whose delivery arrived damaged",
		"hi",
		"",
		"Wie organisieren wir die Weihnachtsfeier für das Büro?",
	}
	features := map[string]bool{}
	for i, p := range prompts {
		for _, a := range agents {
			answers := map[string]any{"tone": []string{"neutral", "friendly", "formal", "persuasive"}[i%4], "length": 80 + i*60}
			if i%3 == 0 {
				answers["format"] = []string{"bullets", "email", "paragraphs"}[i%3]
			}
			reply := words.reply(a, p, answers, []Message{{Role: "user", Content: p}}, nil)
			if n := len(reply); n < minReplyChars || n > maxReplyChars {
				t.Fatalf("%s / %q: %d characters", a.Title, p, n)
			}
			if again := words.reply(a, p, answers, []Message{{Role: "user", Content: p}}, nil); again != reply {
				t.Fatalf("not deterministic for %q", p)
			}
			if !utf8.ValidString(reply) {
				t.Fatalf("invalid UTF-8 for %q", p)
			}
			for _, kw := range words.keywords(p) {
				if !strings.Contains(strings.ToLower(reply), kw) {
					t.Fatalf("%s's reply to %q does not echo %q:\n%s", a.Title, p, kw, reply)
				}
			}
			for name, mark := range map[string]string{"heading": "#", "bullets": "\n- ", "numbered": "\n1. ", "table": "|---|", "code": "```"} {
				if strings.Contains(reply, mark) {
					features[name] = true
				}
			}
		}
	}
	for _, f := range []string{"heading", "bullets", "numbered", "table", "code"} {
		if !features[f] {
			t.Errorf("no reply used a %s", f)
		}
	}
	if a, b := words.reply(agents[1], "budget review", nil, nil, nil), words.reply(agents[1], "holiday planning", nil, nil, nil); a == b {
		t.Fatal("different inputs gave the same reply")
	}
}

func TestSplitFragments(t *testing.T) {
	inputs := []string{
		"Hello there, this is a short answer.",
		"# Heading\n\n- one item\n- another item with más acentos — and dashes\n\n```go\nfmt.Println(\"x\")\n```\n",
		"http://127.0.0.1:43121/generated/images/48201.png",
		"a",
		"ab cd",
		strings.Repeat("word ", 200),
	}
	for _, in := range inputs {
		frags := splitFragments(in)
		if strings.Join(frags, "") != in {
			t.Fatalf("fragments of %q do not rejoin", in)
		}
		short := 0
		for _, f := range frags {
			n := utf8.RuneCountInString(f)
			if n == 0 || n > 12 || !utf8.ValidString(f) {
				t.Fatalf("fragment %q of %q", f, in)
			}
			if n < 3 {
				short++
			}
		}
		if len(in) > 20 && short > len(frags)/10 {
			t.Fatalf("%d of %d fragments shorter than 3 in %q", short, len(frags), in)
		}
	}
}

func TestKeywords(t *testing.T) {
	for _, c := range []struct{ language, text, want string }{
		{"en", "Please explain the termination clause in the supplier contract", "termination clause,supplier contract"},
		{"en", "hi to you", ""},
		// The head noun first, with the little word that joins its complement.
		{"pt-BR", "Por favor, explique a cláusula de rescisão do contrato de fornecimento", "cláusula de rescisão,contrato de fornecimento"},
		{"es", "Por favor, explica la cláusula de rescisión del contrato de suministro", "cláusula de rescisión,contrato de suministro"},
		{"pt-BR", "olá, tudo bem?", ""},
	} {
		if got := strings.Join(speechFor(c.language).words.keywords(c.text), ","); got != c.want {
			t.Errorf("%s: keywords of %q are %q, want %q", c.language, c.text, got, c.want)
		}
	}
}
