package views

import (
	"context"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// Started in the Portuguese or Spanish its settings keep, Agent Desk's
// demo speaks it too, and
// the default collection the real service names in English reads in it:
// staff train in their own language.
func TestTheDemoSpeaksAsAgentDeskDoes(t *testing.T) {
	for lang, want := range map[string]struct{ agent, collection string }{
		"en":    {"Meeting Minutes Writer", "My Memories"},
		"pt-BR": {"Redator de atas de reunião", "Minhas memórias"},
		"es":    {"Redactor de actas de reuniones", "Mis memorias"},
	} {
		t.Run(lang, func(t *testing.T) {
			// The language is kept in the settings; the program starts in English.
			apptest.Speak(t, "en")
			ctx := context.Background()
			paths := storage.PathsIn(t.TempDir())
			before := apptest.Open(t, func(c *app.Config) { c.Paths = paths })
			if err := before.UpdateSettings(ctx, func(s *storage.Settings) { s.Language = lang }); err != nil {
				t.Fatal(err)
			}
			if err := before.Close(); err != nil {
				t.Fatal(err)
			}
			a := apptest.Open(t, func(c *app.Config) { c.Paths, c.Speak = paths, true })
			if got := app.LanguageInUse(); got != lang {
				t.Fatalf("speaks %q, want %q", got, lang)
			}
			agents, err := a.Client().ListAgents(ctx, client.ListAgentsParams{Page: 1, PerPage: 1})
			if err != nil || len(agents.Data) == 0 || agents.Data[0].Title != want.agent {
				t.Fatalf("the first agent: %+v, %v; want %q", agents, err, want.agent)
			}
			if _, err := a.Memories().Sync(ctx); err != nil {
				t.Fatal(err)
			}
			cols, err := a.DB().Collections(ctx, a.AccountID())
			if err != nil || !slices.ContainsFunc(cols, func(c storage.CollectionEntry) bool { return c.Name == want.collection }) {
				t.Fatalf("collections %+v, %v; want %q among them", cols, err, want.collection)
			}
		})
	}
}
