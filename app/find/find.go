// Package find matches what staff type in the command box (Ctrl+K) against
// names: agents, chats, memories, screens and actions. It forgives typos,
// case and accents, so "invocie" finds "Invoice Query Assistant" and
// "configuracion" finds "Configuración".
package find

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// maxName is how much of a name is compared: titles come from the service.
const maxName = 300

// Fold is s as names are compared: lower case, without accents, words
// apart by single spaces, at most maxName bytes.
func Fold(s string) string {
	if len(s) > maxName {
		s = s[:maxName]
	}
	if !ascii(s) {
		t := unaccent.Get().(transform.Transformer)
		if out, _, err := transform.String(t, s); err == nil {
			s = out
		}
		unaccent.Put(t)
	}
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '@' && r != '.'
	}), " ")
}

// unaccent takes accents off; a chain holds buffers of some kilobytes, so
// chains are kept for the next name rather than made for each.
var unaccent = sync.Pool{New: func() any {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

// ascii says s has no accent to take off.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Scores of a match, best first: the query starts the name, starts one of
// its words, is inside it, then every word of the query begins a word of
// the name or does with a typo or two, then its letters come in order.
const (
	ScoreStart   = 1000
	ScoreWord    = 800
	ScoreInside  = 600
	ScoreWords   = 400
	ScoreTypos   = 200
	ScoreLetters = 100
)

// Score is how well query matches name, both folded (Fold): 0 when it does
// not. Shorter names score a little higher, so "Chat" comes before "Chat
// history export" for "chat".
func Score(query, name string) int {
	return score(query, strings.Fields(query), name, strings.Fields(name))
}

// score is Score with both split in words once.
func score(query string, qwords []string, name string, words []string) int {
	if query == "" || name == "" {
		return 0
	}
	short := max(0, 50-utf8.RuneCountInString(name)/4)
	switch i := strings.Index(name, query); {
	case i == 0:
		return ScoreStart + short
	case i > 0 && name[i-1] == ' ':
		return ScoreWord + short
	case i > 0:
		return ScoreInside + short
	}
	typos := 0
	for _, q := range qwords {
		n, ok := bestWord(q, words)
		if !ok {
			return initials(query, words, short)
		}
		typos += n
	}
	if typos == 0 {
		return ScoreWords + short
	}
	return ScoreTypos - 10*typos + short
}

// bestWord is the fewest typos with which q begins one of words.
func bestWord(q string, words []string) (typos int, ok bool) {
	allowed := allowedTypos(q)
	best := allowed + 1
	qr := []rune(q)
	for _, w := range words {
		if strings.HasPrefix(w, q) {
			return 0, true
		}
		if allowed == 0 {
			continue
		}
		wr := []rune(w)
		// Against the word's start as long as q, one letter either way (a
		// letter left out or doubled): a word begun is a word found.
		for _, n := range []int{len(qr), len(qr) - 1, len(qr) + 1} {
			if n <= 0 || n > len(wr) {
				continue
			}
			if d := typoDistance(qr, wr[:n], best); d < best {
				best = d
			}
		}
	}
	return best, best <= allowed
}

// allowedTypos are the typos forgiven in a word: none below four letters,
// one up to seven, then two.
func allowedTypos(q string) int {
	switch n := utf8.RuneCountInString(q); {
	case n < 4:
		return 0
	case n < 8:
		return 1
	}
	return 2
}

// initials scores a query that is the first letters of the name's words
// in order, as the last resort: "iqa" for "Invoice Query Assistant".
func initials(query string, words []string, short int) int {
	q := []rune(strings.ReplaceAll(query, " ", ""))
	if len(q) < 2 || len(q) > len(words) {
		return 0
	}
	i := 0
	for _, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); i < len(q) && r == q[i] {
			i++
		}
	}
	if i < len(q) {
		return 0
	}
	return ScoreLetters + short/2
}

// typoDistance is the number of letters to change, add, remove or swap
// with the next to turn a into b (optimal string alignment); once it
// cannot come under limit it gives up and returns limit. Swapped letters
// are the commonest typo, and plain edit distance counts them twice.
func typoDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	// Three rows: the one before last, the last and this one.
	var buf [3][maxWord + 1]int
	if len(b) > maxWord {
		return limit
	}
	prev2, prev, cur := buf[0][:len(b)+1], buf[1][:len(b)+1], buf[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low >= limit {
			return limit
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit)
}

// maxWord is the longest word compared letter by letter.
const maxWord = 64

// Entry is one thing the command box can find, its names folded and
// split in words once.
type Entry[T any] struct {
	names []name
	Value T
}

type name struct {
	folded string
	words  []string
}

// Index holds things by name, to match many of them fast.
type Index[T any] struct{ entries []Entry[T] }

// Add puts value in the index under each of names (the best one counts).
func (x *Index[T]) Add(value T, names ...string) {
	e := Entry[T]{Value: value}
	for _, n := range names {
		if f := Fold(n); f != "" {
			e.names = append(e.names, name{f, strings.Fields(f)})
		}
	}
	x.entries = append(x.entries, e)
}

// All are the things held, in the order added.
func (x *Index[T]) All() []T {
	out := make([]T, len(x.entries))
	for i, e := range x.entries {
		out[i] = e.Value
	}
	return out
}

// Len is how many things the index holds.
func (x *Index[T]) Len() int { return len(x.entries) }

// Hit is a thing found and how well it matched.
type Hit[T any] struct {
	Value T
	Score int
}

// Match is the best limit things for query, best first; equal scores keep
// the order things were added in.
func (x *Index[T]) Match(query string, limit int) []Hit[T] {
	q := Fold(query)
	if q == "" {
		return nil
	}
	var hits []Hit[T]
	qwords := strings.Fields(q)
	for _, e := range x.entries {
		best := 0
		for _, n := range e.names {
			best = max(best, score(q, qwords, n.folded, n.words))
		}
		if best > 0 {
			hits = append(hits, Hit[T]{e.Value, best})
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit[T]) int { return b.Score - a.Score })
	return hits[:min(len(hits), limit)]
}
