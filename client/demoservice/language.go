package demoservice

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"
)

// The demo speaks the language Agent Desk speaks (Options.Language): its
// agents, files, templates and memories, the questions' texts and the
// replies. English is seeddata/catalogue.json and phrases.json; another
// language overlays the catalogue, keyed by its English texts, and has its
// own phrases.

// speech is the demo's words in one language.
type speech struct {
	cat   catalogueData
	words *phrasebook
	// english turns a translated option back into the English value the
	// generator reads (tone, format), by question name and value.
	english map[[2]string]string
}

// speeches are the languages the demo speaks, by primary language subtag;
// files are named after Agent Desk's own (pt_BR). Each is read the first
// time a service speaks it, not at start-up.
var speeches = map[string]func() *speech{
	"en": sync.OnceValue(func() *speech { return &speech{cat: catalogue, words: readPhrasebook("seeddata/phrases.json")} }),
	"pt": sync.OnceValue(func() *speech { return readSpeech("pt_BR") }),
	"es": sync.OnceValue(func() *speech { return readSpeech("es") }),
}

// readSpeech is the language whose seeddata files are named file.
func readSpeech(file string) *speech {
	var o overlay
	readSeedJSON("seeddata/catalogue."+file+".json", &o)
	sp := o.apply(catalogue)
	sp.words = readPhrasebook("seeddata/phrases." + file + ".json")
	return sp
}

// speechFor is the demo's words in language (a BCP 47 tag such as "pt-BR");
// English when it speaks no other.
func speechFor(language string) *speech {
	primary, _, _ := strings.Cut(strings.ToLower(language), "-")
	primary, _, _ = strings.Cut(primary, "_")
	if sp, ok := speeches[primary]; ok {
		return sp()
	}
	return speeches["en"]()
}

func readSeedJSON(name string, v any) {
	data, err := seedFiles.ReadFile(name)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		panic("demoservice: " + name + ": " + err.Error())
	}
}

// overlay is a catalogue's texts in another language, keyed by the English.
type overlay struct {
	Agents map[string]struct {
		Title           string `json:"title"`
		Description     string `json:"description"`
		LongDescription string `json:"long_description"`
	} `json:"agents"`
	Files     map[string]string `json:"files"`
	Resources map[string]struct {
		Title string `json:"title"`
		Desc  string `json:"desc"`
		Long  string `json:"long"`
	} `json:"resources"`
	Collections map[string]string `json:"collections"`
	Memories    map[string]string `json:"memories"`
	Tags        map[string]string `json:"tags"`
	Questions   map[string]map[string]struct {
		Description string            `json:"description"`
		Placeholder string            `json:"placeholder"`
		Options     map[string]string `json:"options"`
	} `json:"questions"`
}

// apply is base in o's language; what o lacks stays English.
func (o overlay) apply(base catalogueData) *speech {
	c := base
	or := func(m map[string]string, k string) string {
		if v := m[k]; v != "" {
			return v
		}
		return k
	}
	c.Agents = slices.Clone(base.Agents)
	for i := range c.Agents {
		a := &c.Agents[i]
		t, ok := o.Agents[a.Title]
		if !ok {
			continue
		}
		a.Title = t.Title
		if a.Description != nil {
			a.Description = &t.Description
		}
		if a.LongDescription != nil {
			a.LongDescription = &t.LongDescription
		}
	}
	c.Files = slices.Clone(base.Files)
	for i := range c.Files {
		c.Files[i].Name = or(o.Files, c.Files[i].Name)
	}
	c.Resources = slices.Clone(base.Resources)
	for i := range c.Resources {
		if t, ok := o.Resources[c.Resources[i].Title]; ok {
			c.Resources[i].Title, c.Resources[i].Desc, c.Resources[i].Long = t.Title, t.Desc, t.Long
		}
	}
	c.Collections = slices.Clone(base.Collections)
	for i, name := range c.Collections {
		c.Collections[i] = or(o.Collections, name)
	}
	c.Memories = slices.Clone(base.Memories)
	for i := range c.Memories {
		m := &c.Memories[i]
		m.Text = or(o.Memories, m.Text)
		m.Tags = slices.Clone(m.Tags)
		for j, tag := range m.Tags {
			m.Tags[j] = or(o.Tags, tag)
		}
	}
	sp := &speech{english: map[[2]string]string{}}
	c.Questions = maps.Clone(base.Questions)
	for set, qs := range c.Questions {
		qs = slices.Clone(qs)
		for i := range qs {
			q := &qs[i]
			t, ok := o.Questions[set][q.Name]
			if !ok {
				continue
			}
			q.Description = t.Description
			if q.Placeholder != "" {
				q.Placeholder = t.Placeholder
			}
			if len(t.Options) > 0 {
				q.Options = slices.Clone(q.Options)
				for j, v := range q.Options {
					q.Options[j] = or(t.Options, v)
					sp.english[[2]string{q.Name, q.Options[j]}] = v
				}
			}
		}
		c.Questions[set] = qs
	}
	sp.cat = c
	return sp
}

// inEnglish is answers with translated options given back their English
// values, as the reply generator reads them.
func (sp *speech) inEnglish(answers map[string]any) map[string]any {
	if len(sp.english) == 0 {
		return answers
	}
	out := maps.Clone(answers)
	for k, v := range answers {
		if s, ok := v.(string); ok {
			if en, ok := sp.english[[2]string{k, s}]; ok {
				out[k] = en
			}
		}
	}
	return out
}
