package find

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Configuración › Idioma":        "configuracion idioma",
		"  Invoice   Query\tAssistant ": "invoice query assistant",
		"São Paulo – Relatório":         "sao paulo relatorio",
		"":                              "",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
	if n := len(Fold(strings.Repeat("a", 5000))); n > maxName {
		t.Errorf("a 5000-letter name folds to %d bytes", n)
	}
}

// What staff would type finds what they mean, typos and all, and nothing
// that merely shares a letter or two.
func TestScoreForgivesTyposNotNonsense(t *testing.T) {
	finds := []struct{ query, name string }{
		{"invoice", "Invoice Query Assistant"},
		{"query", "Invoice Query Assistant"},
		{"invocie", "Invoice Query Assistant"}, // letters swapped
		{"invoce", "Invoice Query Assistant"},  // one left out
		{"invoiice", "Invoice Query Assistant"},
		{"quer asist", "Invoice Query Assistant"},
		{"contrat clause", "Contract Clause Explainer"},
		{"configuracion", "Configuración › Idioma"},
		{"idiom", "Configuración › Idioma"},
		{"spredsheet formula", "Spreadsheet Formula Helper"},
		{"iqa", "Invoice Query Assistant"},
	}
	for _, c := range finds {
		if Score(Fold(c.query), Fold(c.name)) == 0 {
			t.Errorf("%q does not find %q", c.query, c.name)
		}
	}
	misses := []struct{ query, name string }{
		{"zebra", "Invoice Query Assistant"},
		{"cat", "Contract Clause Explainer"}, // too short to forgive a typo
		{"hr", "Invoice Query Assistant"},
		{"payroll", "Meeting Minutes Writer"},
	}
	for _, c := range misses {
		if s := Score(Fold(c.query), Fold(c.name)); s != 0 {
			t.Errorf("%q finds %q (score %d)", c.query, c.name, s)
		}
	}
}

func TestMatchOrdersBestFirst(t *testing.T) {
	var x Index[string]
	for _, n := range []string{"Chat history export", "Email Reply Assistant", "Chat", "Start a chat", "Charts maker"} {
		x.Add(n, n)
	}
	got := []string{}
	for _, h := range x.Match("chat", 10) {
		got = append(got, h.Value)
	}
	want := []string{"Chat", "Chat history export", "Start a chat", "Charts maker"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("chat finds %v, want %v", got, want)
	}
	if hits := x.Match("chat", 2); len(hits) != 2 {
		t.Fatalf("a limit of 2 gives %d", len(hits))
	}
	if hits := x.Match("  ", 5); hits != nil {
		t.Fatalf("a blank query finds %v", hits)
	}
	var y Index[int]
	y.Add(1, "Settings › Language", "Idioma")
	if len(y.Match("idioma", 1)) != 1 {
		t.Fatal("a second name is not matched")
	}
}

func FuzzScore(f *testing.F) {
	for _, s := range [][2]string{{"invocie", "Invoice Query Assistant"}, {"é", "\u0301\u0301"}, {"a b c", ""}, {"\xff\xfe", "\x00"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, query, name string) {
		q, n := Fold(query), Fold(name)
		s := Score(q, n)
		if s < 0 {
			t.Fatalf("Score(%q, %q) = %d", q, n, s)
		}
		if q != "" && Score(q, q) == 0 {
			t.Fatalf("%q does not find itself", q)
		}
		var x Index[int]
		x.Add(1, name)
		x.Match(query, 3)
	})
}

// agentNames are n made-up agent titles of three or four words.
func agentNames(n int) []string {
	words := strings.Fields("invoice query assistant contract clause explainer meeting minutes writer email reply spreadsheet formula helper policy guide translate summary report drafter press release legal review sales lead customer support ticket triage onboarding checklist budget forecast")
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, n)
	for i := range out {
		k := 3 + r.IntN(2)
		parts := make([]string, k)
		for j := range parts {
			parts[j] = words[r.IntN(len(words))]
		}
		out[i] = strings.Join(parts, " ") + fmt.Sprint(" ", i)
	}
	return out
}

// BenchmarkMatch10000: the command box's first results over 10,000 agents,
// for a word as typed, the same with a typo (the slow path: every name is
// compared letter by letter), and two words; the baseline is a plain
// substring scan of the same names.
func BenchmarkMatch10000(b *testing.B) {
	names := agentNames(10000)
	var x Index[int]
	folded := make([]string, len(names))
	for i, n := range names {
		x.Add(i, n)
		folded[i] = Fold(n)
	}
	b.Run("baseline-substring", func(b *testing.B) {
		for b.Loop() {
			n := 0
			for _, f := range folded {
				if strings.Contains(f, "invoice") {
					n++
				}
			}
		}
	})
	for _, q := range []string{"invoice", "invocie", "sprdsheet formla", "zzzzzz"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				x.Match(q, 20)
			}
		})
	}
}
