package demoservice

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// files of the languages besides English, by Options.Language.
var translated = map[string]string{"pt-BR": "pt_BR", "es": "es"}

// A translation that misses an agent, a file or a question leaves that one in
// English; one whose keys went stale does too. Both are caught here.
func TestTranslationsCoverTheCatalogue(t *testing.T) {
	keys := func(m any) []string {
		var out []string
		switch m := m.(type) {
		case map[string]any:
			out = slices.Collect(maps.Keys(m))
		case []string:
			out = slices.Clone(m)
		}
		slices.Sort(out)
		return out
	}
	var titles, files, resources, memories, tags []string
	for _, a := range catalogue.Agents {
		titles = append(titles, a.Title)
	}
	for _, f := range catalogue.Files {
		files = append(files, f.Name)
	}
	for _, r := range catalogue.Resources {
		resources = append(resources, r.Title)
	}
	for _, m := range catalogue.Memories {
		memories = append(memories, m.Text)
		tags = append(tags, m.Tags...)
	}
	slices.Sort(tags)
	tags = slices.Compact(tags)
	for language, file := range translated {
		var o map[string]map[string]any
		readSeedJSON("seeddata/catalogue."+file+".json", &o)
		for part, want := range map[string][]string{"agents": titles, "files": files, "resources": resources, "collections": catalogue.Collections, "memories": memories, "tags": tags} {
			if got := keys(o[part]); !slices.Equal(got, keys(want)) {
				t.Errorf("%s: %s are %q, want the English %q", language, part, got, keys(want))
			}
		}
		sp := speechFor(language)
		for set, qs := range catalogue.Questions {
			for i, q := range qs {
				got := sp.cat.Questions[set][i]
				if got.Description == q.Description || (q.Placeholder != "") != (got.Placeholder != "") {
					t.Errorf("%s: question %s.%s is not translated: %+v", language, set, q.Name, got)
				}
				if len(slices.Compact(slices.Sorted(slices.Values(got.Options)))) != len(q.Options) {
					t.Errorf("%s: %s.%s options %q read alike", language, set, q.Name, got.Options)
				}
			}
		}
		// The phrases have the English structure: the same keys, lists as long, every %s kept.
		var en, other any
		readSeedJSON("seeddata/phrases.json", &en)
		readSeedJSON("seeddata/phrases."+file+".json", &other)
		sameShape(t, language, "", en, other)
	}
}

func sameShape(t *testing.T, language, path string, en, other any) {
	t.Helper()
	switch en := en.(type) {
	case map[string]any:
		o, ok := other.(map[string]any)
		if !ok || !slices.Equal(keysOf(en), keysOf(o)) {
			t.Errorf("%s: phrases%s has keys %v, English %v", language, path, keysOf(o), keysOf(en))
			return
		}
		for k := range en {
			sameShape(t, language, path+"."+k, en[k], o[k])
		}
	case []any:
		o, ok := other.([]any)
		if !ok || (len(o) != len(en) && !strings.HasPrefix(path, ".asks")) {
			t.Errorf("%s: phrases%s has %d items, English %d", language, path, len(o), len(en))
			return
		}
		for i := range min(len(en), len(o)) {
			sameShape(t, language, fmt.Sprintf("%s[%d]", path, i), en[i], o[i])
		}
	case float64: // a section's n
		if other != en {
			t.Errorf("%s: phrases%s is %v, English %v", language, path, other, en)
		}
	case string:
		o, _ := other.(string)
		// How a section is laid out is the same in every language.
		if k := path[strings.LastIndexByte(path, '.')+1:]; (k == "kind" || k == "lang") && o != en {
			t.Errorf("%s: phrases%s is %q, English %q", language, path, o, en)
		}
		if strings.Count(o, "%s") != strings.Count(en, "%s") || strings.Count(o, "%d") != strings.Count(en, "%d") || (en != "" && strings.TrimSpace(o) == "") {
			t.Errorf("%s: phrases%s is %q, English %q", language, path, o, en)
		}
	}
}

func keysOf(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// In Portuguese or Spanish the demo's agents, questions and replies speak it:
// staff train on it in their language.
func TestTheDemoSpeaksTheLanguageInUse(t *testing.T) {
	prompts := map[string]string{
		"pt-BR": "Notas da reunião de orçamento: decidimos contratar duas pessoas para o suporte",
		"es":    "Notas de la reunión de presupuesto: acordamos contratar a dos personas para soporte",
	}
	english := speechFor("en").words.Shapes["minutes"]
	for language := range translated {
		t.Run(language, func(t *testing.T) {
			e := start(t, Options{Language: language})
			sp := speechFor(language)
			agent := e.call("GET", "/agents/"+itoa(chatAgentID), nil, 200)
			if agent["title"] != sp.cat.Agents[0].Title || agent["title"] == catalogue.Agents[0].Title {
				t.Fatalf("agent %d is called %q", chatAgentID, agent["title"])
			}
			question := agent["questions"].([]any)[0].(map[string]any)
			if question["description"] == catalogue.Questions[TypeChat][0].Description {
				t.Fatalf("its question reads in English: %v", question)
			}

			out := e.call("POST", "/agents/"+itoa(chatAgentID)+"/execute", chatReq(map[string]any{"wait_execution": true}, prompts[language]), 200)
			reply := out["responses"].([]any)[0].(map[string]any)["output"].(string)
			minutes := sp.words.Shapes["minutes"]
			for i, s := range minutes.Sections {
				if s.Title == "" {
					continue
				}
				if !strings.Contains(reply, "## "+s.Title+"\n") {
					t.Errorf("the minutes lack their %q section:\n%s", s.Title, reply)
				}
				if en := english.Sections[i].Title; en != s.Title && strings.Contains(reply, en) {
					t.Errorf("the minutes carry the English %q:\n%s", en, reply)
				}
			}

			// A text agent takes the tone as the language names it, and writes in it.
			var friendly string
			for _, q := range sp.cat.Questions[TypeText] {
				if q.Name == "tone" {
					friendly = q.Options[slices.Index(catalogue.Questions[TypeText][1].Options, "friendly")]
				}
			}
			prompt := prompts[language]
			out = e.call("POST", "/agents/"+itoa(textAgentID)+"/execute", map[string]any{"wait_execution": true, "answers": map[string]any{"prompt": prompt, "tone": friendly}}, 200)
			text := out["responses"].([]any)[0].(map[string]any)["output"].(string)
			opening := fill(sp.words.Tones["friendly"], sp.words.topicOf(sp.words.keywords(prompt)))
			if friendly == "friendly" || !strings.Contains(text, opening) {
				t.Fatalf("tone %q: the text does not open with %q:\n%s", friendly, opening, text)
			}
		})
	}
}

// Each agent with a shape of its own answers in it, in every language: the
// minutes writer writes minutes, the formula helper a formula.
func TestShapedAgentsReplyInTheirShape(t *testing.T) {
	for _, language := range []string{"en", "pt-BR", "es"} {
		svc := New(Options{Language: language})
		words := svc.speech.words
		shaped := 0
		for _, a := range agentsInOrder(svc) {
			if a.reply == "" {
				continue
			}
			shaped++
			sh, ok := words.Shapes[a.reply]
			if !ok {
				t.Fatalf("%s: %s has no shape %q", language, a.Title, a.reply)
			}
			msgs := []Message{{Role: "user", Content: prompts(language)}}
			reply := words.reply(a, msgs[0].Content, nil, msgs, []int64{seededFileID})
			for _, s := range sh.Sections {
				want := map[string]string{"table": "|---|", "rows": "|---|", "code": "```", "numbered": "\n1. "}[s.Kind]
				if (s.Title != "" && !strings.Contains(reply, "# "+s.Title+"\n")) || !strings.Contains(reply, want) {
					t.Errorf("%s: %s's reply lacks its %s %q:\n%s", language, a.Title, s.Kind, s.Title, reply)
				}
			}
			if !strings.Contains(reply, words.OneFile) {
				t.Errorf("%s: %s's reply does not say it read the attached file:\n%s", language, a.Title, reply)
			}
		}
		if shaped < 10 {
			t.Fatalf("%s: only %d agents have a shape", language, shaped)
		}
		svc.Close()
	}
}

func prompts(language string) string {
	return map[string]string{
		"en":    "We need to sort out the new printer contract before Friday",
		"pt-BR": "Precisamos resolver o contrato da nova impressora antes de sexta",
		"es":    "Tenemos que cerrar el contrato de la nueva impresora antes del viernes",
	}[language]
}

func TestSpeechForFallsBackToEnglish(t *testing.T) {
	for tag, want := range map[string]string{"": "en", "en-GB": "en", "de": "en", "pt": "pt", "pt-BR": "pt", "pt_BR": "pt", "es-419": "es", "ES": "es"} {
		if speechFor(tag) != speeches[want]() {
			t.Errorf("speechFor(%q) is not the %s speech", tag, want)
		}
	}
}

// A search ignores accents, as the real service's does: staff type
// "estudio" for "Estúdio" and "formula" for "fórmula".
func TestSearchIgnoresAccents(t *testing.T) {
	e := start(t, Options{Language: "pt-BR"})
	for q, want := range map[string]string{"estudio de FOTOS": "Estúdio de fotos de produto", "Estúdio": "Estúdio de fotos de produto", "formulas de planilha": "Ajudante de fórmulas de planilha"} {
		got := e.call("GET", "/agents?q="+url.QueryEscape(q), nil, 200)["data"].([]any)
		if len(got) != 1 || got[0].(map[string]any)["title"] != want {
			t.Errorf("a search for %q found %v, want %q", q, got, want)
		}
	}
	if !asksFor([]Message{{Role: "user", Content: "Me dê uma FÓRMULA"}}, "formula") {
		t.Error("a request for a fórmula was not heard as one for a formula")
	}
}

// An agent's address name (slug) keeps its accented letters as plain ones.
func TestSlugsKeepAccentedLetters(t *testing.T) {
	for title, want := range map[string]string{"Redator de atas de reunião": "redator-de-atas-de-reuniao", "Guía de políticas de RR. HH.": "guia-de-politicas-de-rr-hh", "会議": "", "Café 2.0!": "cafe-2-0"} {
		if got := slugify(title); got != want {
			t.Errorf("slugify(%q) = %q, want %q", title, got, want)
		}
	}
}
