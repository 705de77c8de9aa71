package demoservice

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
)

// The reply generator writes natural, deterministic answers echoing the
// request's key nouns, mixing in markdown so clients meet realistic content.

const (
	minReplyChars = 100
	maxReplyChars = 2500
)

// phrases are the generator's words: stopwords, templates whose %s takes a
// key phrase, a text's opening by tone ("": no tone) and a table's owners and
// dates.
var phrases = func() (p struct {
	Stopwords                                               string
	Openers, Continuers, Sentences, Bullets, Steps, Closers []string
	SectionTitles, Owners, When                             []string
	Tones                                                   map[string]string
}) {
	if err := json.Unmarshal(phrasesJSON, &p); err != nil {
		panic("demoservice: seeddata/phrases.json: " + err.Error())
	}
	return p
}()

//go:embed seeddata/phrases.json
var phrasesJSON []byte

var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(phrases.Stopwords) {
		m[w] = true
	}
	return m
}()

// keywords returns up to three key phrases of text in order, preferring
// two-word phrases (English puts the head noun last).
func keywords(text string) []string {
	var phrases []string
	seen := map[string]bool{}
	var run []string
	flush := func() {
		if len(run) > 2 {
			run = run[len(run)-2:]
		}
		if p := strings.Join(run, " "); p != "" && !seen[p] {
			seen[p] = true
			phrases = append(phrases, p)
		}
		run = nil
	}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != ',' && r != '.' && r != '?' && r != '!' && r != ';' && r != ':'
	}) {
		end := strings.ContainsAny(f, ",.?!;:")
		w := strings.Trim(strings.ToLower(f), "-,.?!;:")
		if len([]rune(w)) < 3 || stopwords[w] {
			flush()
		} else {
			run = append(run, w)
		}
		if end {
			flush()
		}
	}
	flush()
	if len(phrases) <= 3 {
		return phrases
	}
	// The three with the most words, then the longest; earlier ones first on a tie.
	ranked := slices.Clone(phrases)
	slices.SortStableFunc(ranked, func(a, b string) int {
		return cmp.Or(cmp.Compare(strings.Count(b, " "), strings.Count(a, " ")), cmp.Compare(len(b), len(a)))
	})
	return slices.DeleteFunc(phrases, func(p string) bool { return !slices.Contains(ranked[:3], p) })
}

// fill puts phrase into template's %s, capitalised at a sentence's start.
func fill(template, phrase string) string {
	if strings.HasPrefix(template, "%s") {
		phrase = capitalizeFirst(phrase)
	}
	return strings.ReplaceAll(template, "%s", phrase)
}

// topicOf joins key words into a phrase: "budget", "budget and travel", ...
func topicOf(words []string) string {
	switch len(words) {
	case 0:
		return "your request"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

func pick(rng *rand.Rand, list []string) string { return list[rng.IntN(len(list))] }

func generateReply(a *Agent, input string, answers map[string]any, msgs []Message, fileIDs []int64) string {
	sum := seedOf(fmt.Sprint(a.ID), input, fmt.Sprint(len(msgs)))
	rng := rand.New(rand.NewPCG(sum, sum^0x9e3779b97f4a7c15))
	words := keywords(input)
	if p := promptAnswer(answers); len(msgs) == 0 && p != "" {
		// What the user asked for is the subject.
		words = keywords(p)
	} else if len(msgs) == 0 && a.Type == TypeText {
		// Without a prompt the subject is the agent's purpose, not its question names.
		if a.Description != nil {
			words = keywords(*a.Description)
		}
	}
	if len(words) == 0 {
		words = keywords(a.Title)
	}
	topic := topicOf(words)
	noun := func() string { return words[rng.IntN(len(words))] }
	if len(words) == 0 {
		noun = func() string { return "the task" }
	}
	var out string
	if a.Type == TypeText {
		out = textBody(rng, topic, noun, answers)
		if p := promptAnswer(answers); p != "" && len(msgs) == 0 {
			// The request, cut short, closes the text, so whoever ran it sees what was asked.
			if r := []rune(p); len(r) > 300 {
				p = string(r[:299]) + "…"
			}
			note := "\n\n---\n\n*Written from your request:* " + strings.Join(strings.Fields(p), " ")
			return clampTo(out, maxReplyChars-len(note)) + note
		}
	} else {
		out = chatBody(rng, a, topic, noun, len(msgs) > 2, len(fileIDs), asked{
			table: asksFor(msgs, "table"),
			code:  asksFor(msgs, "code", "script", "formula", "macro"),
		})
	}
	return clampTo(out, maxReplyChars)
}

// asked is what the last message asked the reply to hold.
type asked struct{ table, code bool }

// chatBody is a conversational answer with optional markdown sections; a
// table or code asked for is there.
func chatBody(rng *rand.Rand, a *Agent, topic string, noun func() string, continued bool, files int, want asked) string {
	var b strings.Builder
	if continued {
		b.WriteString(fill(pick(rng, phrases.Continuers), topic))
	} else {
		b.WriteString(fill(pick(rng, phrases.Openers), topic))
	}
	if files == 1 {
		b.WriteString(" I have taken the attached file into account.")
	} else if files > 1 {
		fmt.Fprintf(&b, " I have taken the %d attached files into account.", files)
	}
	b.WriteString("\n\n")
	writeParagraph(&b, rng, noun, 2+rng.IntN(2))
	shape := rng.IntN(6)
	if want.table && shape != 2 && shape != 5 {
		shape = 2
	}
	if shape == 0 || shape == 3 || shape == 5 {
		b.WriteString("### Key points\n\n")
		for _, s := range pickN(rng, phrases.Bullets, 3+rng.IntN(2)) {
			b.WriteString("- " + fill(s, noun()) + "\n")
		}
		b.WriteString("\n")
	}
	if shape == 1 || shape == 3 {
		b.WriteString("### Next steps\n\n")
		for i, s := range pickN(rng, phrases.Steps, 3+rng.IntN(2)) {
			fmt.Fprintf(&b, "%d. %s\n", i+1, fill(s, noun()))
		}
		b.WriteString("\n")
	}
	if shape == 2 || shape == 5 {
		b.WriteString("| Step | Owner | When |\n|---|---|---|\n")
		owners, when := phrases.Owners, phrases.When
		for i, s := range pickN(rng, phrases.Steps, 3) {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", strings.TrimSuffix(fill(s, noun()), "."), owners[(i+rng.IntN(2))%len(owners)], when[i%len(when)])
		}
		b.WriteString("\n")
	}
	if shape == 4 || want.code || strings.Contains(strings.ToLower(a.Title), "spreadsheet") {
		b.WriteString("Here is a formula you can adapt:\n\n```excel\n=SUMIFS(C:C, A:A, \"" + noun() + "\", B:B, \">=\"&DATE(2024,1,1))\n```\n\n")
		b.WriteString("Replace the column letters with the ones in your sheet.\n\n")
	}
	b.WriteString(pick(rng, phrases.Closers))
	return b.String()
}

// textBody is a finished piece of writing shaped by tone, length and format.
func textBody(rng *rand.Rand, topic string, noun func() string, answers map[string]any) string {
	target := 180
	if n, ok := asInt(answers["length"]); ok {
		target = int(n)
	}
	target = min(max(target, 40), 350)
	tone, _ := answers["tone"].(string)
	format, _ := answers["format"].(string)

	var b strings.Builder
	if format == "email" {
		greeting := map[bool]string{true: "Dear Sir or Madam,", false: "Hello everyone,"}[tone == "formal"]
		fmt.Fprintf(&b, "Subject: %s\n\n%s\n\n", capitalizeFirst(topic), greeting)
	} else {
		fmt.Fprintf(&b, "# %s\n\n", titleCase(topic))
	}
	opening, ok := phrases.Tones[tone]
	if !ok {
		opening = phrases.Tones[""]
	}
	b.WriteString(fill(opening, topic) + "\n\n")
	titles := pickN(rng, phrases.SectionTitles, len(phrases.SectionTitles))
	for section := 0; len(strings.Fields(b.String())) < target; section++ {
		if format == "bullets" {
			b.WriteString("- " + fill(pick(rng, phrases.Bullets), noun()) + "\n")
			continue
		}
		if format != "email" && section%2 == 1 && section/2 < len(titles) {
			fmt.Fprintf(&b, "## %s\n\n", titles[section/2])
		}
		writeParagraph(&b, rng, noun, 2+rng.IntN(2))
	}
	if format == "email" {
		b.WriteString("Kind regards,\nThe Acme Office team")
	}
	return strings.TrimSpace(b.String())
}

func writeParagraph(b *strings.Builder, rng *rand.Rand, noun func() string, n int) {
	for i, s := range pickN(rng, phrases.Sentences, n) {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(fill(s, noun()))
	}
	b.WriteString("\n\n")
}

func pickN(rng *rand.Rand, list []string, n int) []string {
	out := make([]string, 0, n)
	for _, i := range rng.Perm(len(list))[:min(n, len(list))] {
		out = append(out, list[i])
	}
	return out
}

// clampTo bounds a reply's length in bytes, cutting at a paragraph or sentence.
func clampTo(s string, maxChars int) string {
	s = strings.TrimSpace(s)
	for len(s) < minReplyChars {
		s += "\n\nIf anything is unclear, just ask and I will explain it in another way."
	}
	if len(s) <= maxChars {
		return s
	}
	cut := s[:maxChars]
	if i := strings.LastIndex(cut, "\n\n"); i > maxChars/2 {
		cut = cut[:i]
	} else if i := strings.LastIndex(cut, ". "); i > 0 {
		cut = cut[:i+1]
	}
	return strings.TrimSpace(cut)
}

func capitalizeFirst(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if w != "and" {
			words[i] = capitalizeFirst(w)
		}
	}
	return strings.Join(words, " ")
}

// splitFragments cuts text into stream fragments of at most 12 characters,
// ending after a word where it can and leaving no scrap shorter than 3;
// joined, they give the text exactly.
func splitFragments(text string) []string {
	const maxLen = 12
	var out []string
	for r := []rune(text); len(r) > 0; {
		n := min(len(r), maxLen)
		for k := n; n < len(r) && k >= 3; k-- {
			if unicode.IsSpace(r[k-1]) && !unicode.IsSpace(r[k]) {
				n = k
				break
			}
		}
		if rest := len(r) - n; rest > 0 && rest < 3 {
			n = len(r) - 3
		}
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return out
}

// richReply is a long reply using everything agents write (code, tables,
// quotes, footnotes, raw HTML, mixed scripts, about 19 kB).
//
//go:embed seeddata/rich-reply.md
var richReply string

// RichReply is the long reply sent when a chat asks for code, a table or a
// long answer.
func RichReply() string { return richReply }
