package app

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/client"
)

func TestChoiceLabelsReadAsStaffWouldSayThem(t *testing.T) {
	q := func(name string, opts ...string) client.Question {
		return client.Question{Type: client.QuestionSelect, Name: name, Options: opts}
	}
	for _, tc := range []struct {
		q     client.Question
		value string
		want  string
	}{
		{q("temperature"), "0", "Precise (0)"},
		{q("temperature"), "0.25", "Mostly precise (0.25)"},
		{q("temperature"), "0.5", "Balanced (0.5)"},
		{q("temperature"), "0.75", "Mostly creative (0.75)"},
		{q("Temperature"), "1", "Creative (1)"},
		{q("temperature"), "2", "Very creative (2)"},
		{q("temperature"), "warm", "warm"},
		{q("temperature"), "NaN", "NaN"},
		{q("model"), "claude-3-5-sonnet-20240620", "Claude 3.5 Sonnet (June 2024)"},
		{q("model"), "claude-3-5-haiku-latest", "Claude 3.5 Haiku (latest)"},
		{q("model"), "claude-3-opus-20240229", "Claude 3 Opus (February 2024)"},
		{q("model"), "gpt-4o", "GPT-4o"},
		{q("model"), "gpt-4o-2024-08-06", "GPT-4o (August 2024)"},
		{q("model"), "gpt-4o-2024-13-06", "GPT-4o 2024 13 06"},
		{q("model"), "gpt-4o-mini", "GPT-4o Mini"},
		{q("model"), "gpt-3.5-turbo", "GPT-3.5 Turbo"},
		{q("model"), "gpt-o1-preview", "GPT-o1 Preview"},
		{q("model"), "gemini-1.5-pro", "Gemini 1.5 Pro"},
		{q("model"), "meta-llama-3.1-405b-instruct", "Llama 3.1 405B Instruct"},
		{q("model"), "llama-2-13b-chat", "Llama 2 13B Chat"},
		{q("model"), "cohere-command-r-plus", "Cohere Command R+"},
		{q("model"), "tess-ai-light", "Tess AI Light"},
		{q("model"), "tess-5", "Tess 5"},
		{q("model"), "My Model (beta)", "My Model (beta)"},
		{q("tools"), "no-tools", "Nothing, only what it knows"},
		{q("tools"), "internet", "The web"},
		{q("tools"), "linkedin", "LinkedIn"},
		{q("tools"), "wikipedia", "Wikipedia"},
		{q("tools"), "web-archive", "Web archive"},
		{q("language"), "de", "German"},
		{q("language"), "pt-BR", "Brazilian Portuguese"},
		{q("target", "en", "fr", "es"), "fr", "French"},
		{q("tone", "neutral", "friendly"), "friendly", "Friendly"},
		{q("style", "flat-vector", "3d-render"), "flat-vector", "Flat vector"},
		{q("style", "flat-vector", "3d-render"), "3d-render", "3D render"},
		{q("style"), "4k_ultra_hd", "4K ultra hd"},
		{q("style", "ilustração", "vetor-plano"), "ilustração", "Ilustração"},
		{q("style", "ilustração", "vetor-plano"), "vetor-plano", "Vetor plano"},
		{q("format", "párrafos", "viñetas"), "viñetas", "Viñetas"},
		{q("style"), "Ilustração", "Ilustração"},
		{q("aspect_ratio"), "16:9", "16:9"},
		{q("tone"), "Warm and Direct", "Warm and Direct"},
		{q("tone"), "-x", "-x"},
		{q("tone"), "2024", "2024"},
		{q("size", "xs", "md"), "md", "md"},
		{q("level", "hi", "lo"), "hi", "hi"},
		{q("style", "de", "en"), "de", "German"},
	} {
		if got := ChoiceLabels(tc.q, []string{tc.value})[0]; got != tc.want {
			t.Errorf("%s %q reads %q, want %q", tc.q.Name, tc.value, got, tc.want)
		}
	}
}

func TestStyleChoicesAreTheEndsAndTheMiddle(t *testing.T) {
	q := client.Question{Name: "temperature", Options: []string{"0", "0.25", "0.5", "0.75", "1"}}
	if got := StyleChoices(q); len(got) != 3 || got[0] != 0 || got[1] != 2 || got[2] != 4 {
		t.Fatalf("styles of %v are options %v, want 0, 2, 4", q.Options, got)
	}
	q.Options = []string{"1", "0.3", "0"}
	if got := StyleChoices(q); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 0 {
		t.Fatalf("styles of %v are options %v, want 2, 1, 0", q.Options, got)
	}
	for _, opts := range [][]string{{"0", "1"}, {"a", "b", "c"}, {"1", "1", "1"}, {"0", "0.05", "0.1"}, {"NaN", "0", "1"}} {
		if got := StyleChoices(client.Question{Name: "temperature", Options: opts}); got != nil {
			t.Errorf("options %v give styles %v, want none", opts, got)
		}
	}
}

// Options come from the service: any text reads as some label, never a
// panic, never invalid text.
func FuzzChoiceLabel(f *testing.F) {
	for _, s := range []string{"0.5", "claude-3-5-sonnet-20240620", "no-tools", "pt-BR", "", "-", "--b", "9999999999-b", "\xff", "zh-Hant-TW"} {
		f.Add("model", s)
		f.Add("temperature", s)
		f.Add("language", s)
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		q := client.Question{Name: name, Options: []string{value}}
		got := ChoiceLabels(q, []string{value})[0]
		if !utf8.ValidString(got) && utf8.ValidString(value) {
			t.Fatalf("%q reads as invalid text %q", value, got)
		}
		_ = StyleChoices(q)
		_ = QuestionLabel(q)
	})
}

// Two options that would read alike are shown as the service wrote them, so
// staff can tell them apart.
func TestOptionsThatWouldReadAlikeKeepTheirValues(t *testing.T) {
	q := client.Question{Name: "style", Options: []string{"flat-vector", "flat_vector", "line-art"}}
	got := ChoiceLabels(q, q.Options)
	if want := []string{"flat-vector", "flat_vector", "Line art"}; !slices.Equal(got, want) {
		t.Fatalf("options %v read %v, want %v", q.Options, got, want)
	}
}
