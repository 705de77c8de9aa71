package demoservice

import (
	"cmp"
	_ "embed"
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

// phrasebook is the generator's words in one language: stopwords,
// templates whose %s takes a key phrase, a text's opening by tone ("": no
// tone), a table's owners and dates, and the shapes of agents' replies.
type phrasebook struct {
	Stopwords, Joiners, And, YourRequest, TheTask  string
	HeadFirst, TitleCase                           bool
	Asks                                           struct{ Table, Code, Picture, Long []string }
	OneFile, ManyFiles, KeyPoints, NextSteps       string
	TableHead                                      []string
	Unclear, FromRequest, Subject, SignOff, Sketch string
	Greetings, Tones                               map[string]string
	Openers, Continuers, Sentences, Bullets, Steps []string
	Closers, SectionTitles, Owners, When           []string
	Shapes                                         map[string]shape
	stopwords, joiners                             map[string]bool
}

// shape is how one kind of agent lays out its reply: a heading, sections,
// a closing question.
type shape struct {
	Title    string
	Sections []section
	Closers  []string
}

// section is part of a shape: a line, a paragraph, bullets, a numbered
// list, a table (or rows, whose columns stay beside their item) or a code
// block made of n of its items.
type section struct {
	Title, Kind, Lang string
	N                 int
	Items, Head       []string
	Cols              [][]string // a table's further columns, one value per row
}

func readPhrasebook(name string) *phrasebook {
	p := &phrasebook{}
	readSeedJSON(name, p)
	set := func(words string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(words) {
			m[w] = true
		}
		return m
	}
	p.stopwords, p.joiners = set(p.Stopwords), set(p.Joiners)
	return p
}

// keywords returns up to three key phrases of text in order, preferring
// two-word phrases: English keeps the last two words of a run (the head
// noun comes last), a language with HeadFirst the first two, with a joiner
// between them kept ("relatório de vendas").
func (p *phrasebook) keywords(text string) []string {
	var phrases []string
	seen := map[string]bool{}
	var run []string // content words, each but the first may carry its joiner
	joiner := ""
	flush := func() {
		if len(run) > 2 {
			if p.HeadFirst {
				run = run[:2]
			} else {
				run = run[len(run)-2:] // English has no joiners
			}
		}
		if phrase := strings.Join(run, " "); phrase != "" && !seen[phrase] {
			seen[phrase] = true
			phrases = append(phrases, phrase)
		}
		run, joiner = nil, ""
	}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != ',' && r != '.' && r != '?' && r != '!' && r != ';' && r != ':'
	}) {
		end := strings.ContainsAny(f, ",.?!;:")
		w := strings.Trim(strings.ToLower(f), "-,.?!;:")
		switch {
		case p.joiners[w] && len(run) >= 2:
			// A second complement starts a phrase of its own.
			flush()
		case p.joiners[w] && len(run) == 1 && joiner == "" && !end:
			joiner = w
		case len([]rune(w)) < 3 || p.stopwords[w] || p.joiners[w]:
			flush()
		default:
			if joiner != "" {
				w = joiner + " " + w
				joiner = ""
			}
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
func (p *phrasebook) topicOf(words []string) string {
	switch len(words) {
	case 0:
		return p.YourRequest
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + p.And + words[len(words)-1]
}

func pick(rng *rand.Rand, list []string) string { return list[rng.IntN(len(list))] }

// reply is agent a's answer to input: a text agent's piece of writing, a
// chat agent's reply in its shape, else a conversational answer.
func (p *phrasebook) reply(a *Agent, input string, answers map[string]any, msgs []Message, fileIDs []int64) string {
	sum := seedOf(fmt.Sprint(a.ID), input, fmt.Sprint(len(msgs)))
	rng := rand.New(rand.NewPCG(sum, sum^0x9e3779b97f4a7c15))
	words := p.keywords(input)
	if prompt := promptAnswer(answers); len(msgs) == 0 && prompt != "" {
		// What the user asked for is the subject.
		words = p.keywords(prompt)
	} else if len(msgs) == 0 && a.Type == TypeText {
		// Without a prompt the subject is the agent's purpose, not its question names.
		if a.Description != nil {
			words = p.keywords(*a.Description)
		}
	}
	if len(words) == 0 {
		words = p.keywords(a.Title)
	}
	topic := p.topicOf(words)
	noun := func() string { return words[rng.IntN(len(words))] }
	if len(words) == 0 {
		noun = func() string { return p.TheTask }
	}
	if a.Type == TypeText {
		var out string
		format, _ := answers["format"].(string)
		if sh, ok := p.Shapes[a.reply]; ok && format != "email" && format != "bullets" {
			// The agent's own layout; an e-mail or a list asked for is
			// written as one.
			var b strings.Builder
			p.writeShape(&b, rng, sh, topic, noun, len(fileIDs), true)
			out = b.String()
		} else {
			out = p.textBody(rng, topic, noun, answers)
		}
		if prompt := promptAnswer(answers); prompt != "" && len(msgs) == 0 {
			// The request, cut short, closes the text, so whoever ran it sees what was asked.
			if r := []rune(prompt); len(r) > 300 {
				prompt = string(r[:299]) + "…"
			}
			note := "\n\n---\n\n*" + p.FromRequest + "* " + strings.Join(strings.Fields(prompt), " ")
			return p.clampTo(out, maxReplyChars-len(note)) + note
		}
		return p.clampTo(out, maxReplyChars)
	}
	var b strings.Builder
	want := asked{table: asksFor(msgs, p.Asks.Table...), code: asksFor(msgs, p.Asks.Code...)}
	if sh, ok := p.Shapes[a.reply]; ok && sh.holds(want) {
		p.writeShape(&b, rng, sh, topic, noun, len(fileIDs), false)
	} else {
		p.chatBody(&b, rng, topic, noun, len(msgs) > 2, len(fileIDs), want)
	}
	return p.clampTo(b.String(), maxReplyChars)
}

// filesTaken is the sentence saying the reply took n attached files into account.
func (p *phrasebook) filesTaken(n int) string {
	if n == 1 {
		return p.OneFile
	}
	return strings.ReplaceAll(p.ManyFiles, "%d", fmt.Sprint(n))
}

// writeShape writes a reply in shape sh; sections come under a
// second-level heading when the shape has a title of its own. A chat's
// reply ends with a question; a finished text only when its shape has one.
func (p *phrasebook) writeShape(b *strings.Builder, rng *rand.Rand, sh shape, topic string, noun func() string, files int, finished bool) {
	level := "### "
	if sh.Title != "" {
		fmt.Fprintf(b, "# %s\n\n", fill(sh.Title, p.heading(topic)))
		level = "## "
	}
	if files > 0 {
		b.WriteString(p.filesTaken(files) + "\n\n")
	}
	for _, s := range sh.Sections {
		if s.Title != "" {
			b.WriteString(level + s.Title + "\n\n")
		}
		n := max(s.N, 1)
		switch s.Kind {
		case "para":
			for i, it := range pickN(rng, s.Items, n) {
				if i > 0 {
					b.WriteString(" ")
				}
				b.WriteString(fill(it, noun()))
			}
			b.WriteString("\n")
		case "bullets", "numbered":
			for i, it := range pickN(rng, s.Items, n) {
				mark := "-"
				if s.Kind == "numbered" {
					mark = fmt.Sprintf("%d.", i+1)
				}
				fmt.Fprintf(b, "%s %s\n", mark, fill(it, noun()))
			}
		case "table", "rows":
			// A table's further columns start anywhere; rows keep each
			// item with the values beside it.
			b.WriteString("| " + strings.Join(s.Head, " | ") + " |\n|" + strings.Repeat("---|", len(s.Head)) + "\n")
			offsets := make([]int, len(s.Cols))
			for j, col := range s.Cols {
				if s.Kind == "table" {
					offsets[j] = rng.IntN(len(col))
				}
			}
			for i, it := range s.Items[:min(n, len(s.Items))] {
				cells := []string{cell(fill(it, noun()))}
				for j, col := range s.Cols {
					cells = append(cells, cell(fill(col[(i+offsets[j])%len(col)], noun())))
				}
				b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
			}
		case "code":
			fmt.Fprintf(b, "```%s\n%s\n```\n", s.Lang, fill(pick(rng, s.Items), noun()))
		default: // a line
			b.WriteString(fill(pick(rng, s.Items), noun()) + "\n")
		}
		b.WriteString("\n")
	}
	closers := sh.Closers
	if len(closers) == 0 && !finished {
		closers = p.Closers
	}
	if len(closers) > 0 {
		b.WriteString(pick(rng, closers))
	}
}

// holds reports whether a reply in sh has the table or code asked for.
func (sh shape) holds(want asked) bool {
	has := func(kind string) bool {
		return slices.ContainsFunc(sh.Sections, func(s section) bool { return s.Kind == kind })
	}
	return (!want.table || has("table") || has("rows")) && (!want.code || has("code"))
}

// cell is text fit for a table cell: no pipe, no full stop at the end.
func cell(s string) string {
	return strings.TrimSuffix(strings.ReplaceAll(s, "|", "/"), ".")
}

// asked is what the last message asked the reply to hold.
type asked struct{ table, code bool }

// chatBody is a conversational answer with optional markdown sections; a
// table or code asked for is there.
func (p *phrasebook) chatBody(b *strings.Builder, rng *rand.Rand, topic string, noun func() string, continued bool, files int, want asked) {
	if continued {
		b.WriteString(fill(pick(rng, p.Continuers), topic))
	} else {
		b.WriteString(fill(pick(rng, p.Openers), topic))
	}
	if files > 0 {
		b.WriteString(" " + p.filesTaken(files))
	}
	b.WriteString("\n\n")
	p.writeParagraph(b, rng, noun, 2+rng.IntN(2))
	shape := rng.IntN(6)
	if want.table && shape != 2 && shape != 5 {
		shape = 2
	}
	if shape == 0 || shape == 3 || shape == 5 {
		b.WriteString("### " + p.KeyPoints + "\n\n")
		for _, s := range pickN(rng, p.Bullets, 3+rng.IntN(2)) {
			b.WriteString("- " + fill(s, noun()) + "\n")
		}
		b.WriteString("\n")
	}
	if shape == 1 || shape == 3 {
		b.WriteString("### " + p.NextSteps + "\n\n")
		for i, s := range pickN(rng, p.Steps, 3+rng.IntN(2)) {
			fmt.Fprintf(b, "%d. %s\n", i+1, fill(s, noun()))
		}
		b.WriteString("\n")
	}
	if shape == 2 || shape == 5 {
		b.WriteString("| " + strings.Join(p.TableHead, " | ") + " |\n|---|---|---|\n")
		for i, s := range pickN(rng, p.Steps, 3) {
			fmt.Fprintf(b, "| %s | %s | %s |\n", cell(fill(s, noun())), p.Owners[(i+rng.IntN(2))%len(p.Owners)], p.When[i%len(p.When)])
		}
		b.WriteString("\n")
	}
	if shape == 4 || want.code {
		if sh, ok := p.Shapes["formula"]; ok {
			for _, s := range sh.Sections {
				if s.Kind == "code" {
					fmt.Fprintf(b, "```%s\n%s\n```\n\n", s.Lang, fill(s.Items[0], noun()))
				}
			}
		}
	}
	b.WriteString(pick(rng, p.Closers))
}

// textBody is a finished piece of writing shaped by tone, length and format.
func (p *phrasebook) textBody(rng *rand.Rand, topic string, noun func() string, answers map[string]any) string {
	target := 180
	if n, ok := asInt(answers["length"]); ok {
		target = int(n)
	}
	target = min(max(target, 40), 350)
	tone, _ := answers["tone"].(string)
	format, _ := answers["format"].(string)

	var b strings.Builder
	if format == "email" {
		greeting, ok := p.Greetings[tone]
		if !ok {
			greeting = p.Greetings[""]
		}
		fmt.Fprintf(&b, "%s\n\n%s\n\n", fill(p.Subject, capitalizeFirst(topic)), greeting)
	} else {
		fmt.Fprintf(&b, "# %s\n\n", p.heading(topic))
	}
	opening, ok := p.Tones[tone]
	if !ok {
		opening = p.Tones[""]
	}
	b.WriteString(fill(opening, topic) + "\n\n")
	titles := pickN(rng, p.SectionTitles, len(p.SectionTitles))
	for section := 0; len(strings.Fields(b.String())) < target; section++ {
		if format == "bullets" {
			b.WriteString("- " + fill(pick(rng, p.Bullets), noun()) + "\n")
			continue
		}
		if format != "email" && section%2 == 1 && section/2 < len(titles) {
			fmt.Fprintf(&b, "## %s\n\n", titles[section/2])
		}
		p.writeParagraph(&b, rng, noun, 2+rng.IntN(2))
	}
	if format == "email" {
		b.WriteString(p.SignOff)
	}
	return strings.TrimSpace(b.String())
}

func (p *phrasebook) writeParagraph(b *strings.Builder, rng *rand.Rand, noun func() string, n int) {
	for i, s := range pickN(rng, p.Sentences, n) {
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
func (p *phrasebook) clampTo(s string, maxChars int) string {
	s = strings.TrimSpace(s)
	for len(s) < minReplyChars {
		s += "\n\n" + p.Unclear
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

// heading is topic as a heading: title case where the language writes
// headings so, else a capital first letter.
func (p *phrasebook) heading(topic string) string {
	if !p.TitleCase {
		return capitalizeFirst(topic)
	}
	words := strings.Fields(topic)
	for i, w := range words {
		if w != strings.TrimSpace(p.And) {
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
