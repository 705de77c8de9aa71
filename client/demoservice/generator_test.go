package demoservice

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGeneratorReplies(t *testing.T) {
	svc := New(Options{})
	defer svc.Close()
	chat := svc.agents[chatAgentID]
	text := svc.agents[textAgentID]
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
		for _, a := range []*Agent{chat, text} {
			answers := map[string]any{"tone": []string{"neutral", "friendly", "formal", "persuasive"}[i%4], "length": 80 + i*60}
			if i%3 == 0 {
				answers["format"] = []string{"bullets", "email", "paragraphs"}[i%3]
			}
			reply := generateReply(a, p, answers, []Message{{Role: "user", Content: p}}, nil)
			if n := len(reply); n < minReplyChars || n > maxReplyChars {
				t.Fatalf("%s / %q: %d characters", a.Title, p, n)
			}
			if again := generateReply(a, p, answers, []Message{{Role: "user", Content: p}}, nil); again != reply {
				t.Fatalf("not deterministic for %q", p)
			}
			if !utf8.ValidString(reply) {
				t.Fatalf("invalid UTF-8 for %q", p)
			}
			for _, kw := range keywords(p) {
				if !strings.Contains(strings.ToLower(reply), kw) {
					t.Fatalf("reply to %q does not echo %q:\n%s", p, kw, reply)
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
	if a, b := generateReply(chat, "budget review", nil, nil, nil), generateReply(chat, "holiday planning", nil, nil, nil); a == b {
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
	got := keywords("Please explain the termination clause in the supplier contract")
	if strings.Join(got, ",") != "termination clause,supplier contract" {
		t.Fatalf("keywords %v", got)
	}
	if len(keywords("hi to you")) != 0 {
		t.Fatal("stopwords kept")
	}
}
