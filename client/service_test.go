package client_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// chatAnswers picks the first option of each select question of a chat
// agent and fills its other required questions (see fillAnswers).
func chatAnswers(a *client.Agent) map[string]any {
	return fillAnswers(a, func(opts []string) string { return opts[0] })
}

// answersFor fills every required question of any agent with a plausible
// value, taking the middle option of each select question.
func answersFor(a *client.Agent) map[string]any {
	return fillAnswers(a, func(opts []string) string { return opts[len(opts)/2] })
}

func firstAgent(t *testing.T, c *client.Client, typ string) *client.Agent {
	t.Helper()
	ctx := context.Background()
	for a, err := range c.Agents(ctx, client.ListAgentsParams{Type: typ}) {
		if err != nil {
			t.Fatalf("Agents(%s): %v", typ, err)
		}
		if a.Type != typ || a.Active == nil || !bool(*a.Active) {
			continue
		}
		full, err := c.GetAgent(ctx, a.ID)
		if err != nil {
			t.Fatalf("GetAgent(%s): %v", a.ID, err)
		}
		return full
	}
	t.Fatalf("no active %s agent", typ)
	return nil
}

func hello() []client.Message {
	return []client.Message{{Role: client.RoleUser, Content: "Hello, who are you?"}}
}

func TestAgentsListAndGet(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{})
	ctx := context.Background()
	p, err := c.ListAgents(ctx, client.ListAgentsParams{PerPage: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Data) == 0 || p.CurrentPage != 1 || p.Total == 0 {
		t.Fatalf("page: %+v", p)
	}
	n := 0
	seen := map[client.ID]bool{}
	for a, err := range c.Agents(ctx, client.ListAgentsParams{PerPage: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		if seen[a.ID] {
			t.Fatalf("agent %s listed twice", a.ID)
		}
		seen[a.ID] = true
		n++
	}
	if n != p.Total {
		t.Fatalf("iterated %d agents, total %d", n, p.Total)
	}
	a := firstAgent(t, c, client.AgentChat)
	if a.Question("model") == nil || len(a.Question("model").Options) == 0 || a.CreatedAt.IsZero() {
		t.Fatalf("chat agent incomplete: %+v", a)
	}
	// Search and filter.
	q, err := c.ListAgents(ctx, client.ListAgentsParams{Type: client.AgentImage})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range q.Data {
		if a.Type != client.AgentImage {
			t.Fatalf("type filter ignored: %s", a.Type)
		}
	}
}

func TestRunStartPollWait(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{})
	ctx := context.Background()
	a := firstAgent(t, c, client.AgentText)
	e, err := c.Run(ctx, a.ID, client.ExecuteParams{Answers: answersFor(a)})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Succeeded() || e.Output == "" || !e.Credits.Valid {
		t.Fatalf("run: %+v", e)
	}
	s, err := c.Start(ctx, a.ID, client.ExecuteParams{Answers: answersFor(a)})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID == "" || s.Terminal() && !s.Succeeded() {
		t.Fatalf("start: %+v", s)
	}
	p, err := c.Poll(ctx, a.ID, s.ID)
	if err != nil || p.ID != s.ID {
		t.Fatalf("poll: %+v %v", p, err)
	}
	w, err := c.Wait(ctx, a.ID, s.ID)
	if err != nil || !w.Succeeded() {
		t.Fatalf("wait: %+v %v", w, err)
	}
	if n := len(svc.Executions()); n != 2 {
		t.Fatalf("service saw %d executions, want 2", n)
	}
}

func TestRunOutlivesServerWait(t *testing.T) {
	// The service answers the blocking call with a running record after its
	// wait cap; Run must poll on its own.
	c, _, _ := demo(t, demoservice.Options{WaitCap: 1, Pace: 2 * 1e6})
	a := firstAgent(t, c, client.AgentText)
	e, err := c.Run(context.Background(), a.ID, client.ExecuteParams{Answers: answersFor(a)})
	if err != nil || !e.Succeeded() {
		t.Fatalf("run: %+v %v", e, err)
	}
}

func TestPollUnsupported(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{})
	a := firstAgent(t, c, client.AgentText)
	_, err := c.Poll(context.Background(), a.ID, "999999")
	if !errors.Is(err, client.ErrPollingUnsupported) || !client.IsNotFound(err) {
		t.Fatalf("want ErrPollingUnsupported and 404, got %v", err)
	}
}

func TestStreamAgainstService(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{})
	ctx := context.Background()
	a := firstAgent(t, c, client.AgentChat)
	s, err := c.Stream(ctx, a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: hello()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var b strings.Builder
	events := 0
	for s.Next() {
		events++
		b.WriteString(s.Fragment())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if events < 2 || s.Final() == nil || !s.Final().Credits.Valid || b.String() != s.Text() || s.Text() == "" {
		t.Fatalf("events=%d final=%+v text=%q", events, s.Final(), s.Text())
	}
	ex := svc.Executions()
	if got := ex[len(ex)-1].Output; got != s.Text() {
		t.Fatalf("text %q, service produced %q", s.Text(), got)
	}
	// Continue the conversation with root_id.
	answers := chatAnswers(a)
	answers["root_id"] = s.Final().RootID
	msgs := append(hello(), client.Message{Role: client.RoleAssistant, Content: s.Text()}, client.Message{Role: client.RoleUser, Content: "Thanks"})
	e, err := c.Run(ctx, a.ID, client.ExecuteParams{Answers: answers, Messages: msgs})
	if err != nil || e.RootID != s.Final().RootID {
		t.Fatalf("continue: %+v %v", e, err)
	}
}

func TestChatCompletions(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{})
	ctx := context.Background()
	a := firstAgent(t, c, client.AgentChat)
	params := client.ChatCompletionParams{
		Model:       a.Question("model").Options[0],
		Messages:    []client.Message{{Role: client.RoleSystem, Content: "Be brief."}, {Role: client.RoleUser, Content: "Hi"}},
		Temperature: client.Float(0.5),
		Tools:       "no-tools",
	}
	cc, err := c.ChatCompletion(ctx, a.ID, params)
	if err != nil || cc.Text() == "" {
		t.Fatalf("completion: %+v %v", cc, err)
	}
	s, err := c.ChatCompletionStream(ctx, a.ID, params)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
	}
	if s.Err() != nil || s.Text() == "" {
		t.Fatalf("stream: %q %v", s.Text(), s.Err())
	}
}

func TestFiles(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{})
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("agent desk ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	var last int64
	f, err := c.UploadFile(ctx, client.UploadParams{Path: path, Progress: func(sent, total int64) { last = sent }})
	if err != nil {
		t.Fatal(err)
	}
	if f.Filename != "notes.txt" || f.Bytes != 11000 || last != 11000 {
		t.Fatalf("upload: %+v (progress %d)", f, last)
	}
	r, err := c.UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("streamed"), Filename: "s.txt"})
	if err != nil || r.Bytes != 8 {
		t.Fatalf("reader upload: %+v %v", r, err)
	}
	if len(svc.Files()) < 2 {
		t.Fatal("service has no files")
	}
	page, err := c.ListFiles(ctx, client.ListFilesParams{PerPage: 100, Order: "desc"})
	if err != nil || len(page.Data) == 0 {
		t.Fatalf("list: %v", err)
	}
	total := 0
	for _, err := range c.Files(ctx, client.ListFilesParams{PerPage: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		total++
	}
	if total < len(page.Data) {
		t.Fatalf("iterated %d files, first page alone had %d", total, len(page.Data))
	}
	a := firstAgent(t, c, client.AgentChat)
	set, err := c.LinkFiles(ctx, a.ID, []client.ID{f.ID})
	if err != nil || set.FilesCount == nil {
		t.Fatalf("link: %+v %v", set, err)
	}
	list, err := c.ListAgentFiles(ctx, a.ID)
	if err != nil || len(list.Files) == 0 {
		t.Fatalf("list agent files: %+v %v", list, err)
	}
	un, err := c.UnlinkFile(ctx, a.ID, f.ID)
	if err != nil || !un.Removed || un.File.ID != f.ID {
		t.Fatalf("unlink: %+v %v", un, err)
	}
	// Run with an attached file.
	if _, err := c.Run(ctx, a.ID, client.ExecuteParams{Answers: chatAnswers(a), Messages: hello(), FileIDs: []client.ID{f.ID}}); err != nil {
		t.Fatal(err)
	}
}

func TestMemoriesBothVariants(t *testing.T) {
	for _, variant := range []string{"A", "B"} {
		t.Run(variant, func(t *testing.T) {
			c, svc, _ := demo(t, demoservice.Options{MemoryVariant: variant})
			ctx := context.Background()
			if c.MemoryVariant() != client.MemoryAuto {
				t.Fatal("variant known before any call")
			}
			m, err := c.CreateMemory(ctx, client.MemoryParams{Content: "The user prefers short answers.", Metadata: map[string]any{"source": "test"}})
			if err != nil {
				t.Fatal(err)
			}
			if string(c.MemoryVariant()) != variant || string(m.Variant) != variant || m.Content == "" {
				t.Fatalf("detected %q, record %+v", c.MemoryVariant(), m)
			}
			n, _ := m.ID.Int64()
			if got, ok := svc.Memory(n); !ok || got.Content != m.Content {
				t.Fatalf("service memory: %+v", got)
			}
			u, err := c.UpdateMemory(ctx, m.ID, client.MemoryParams{Content: "The user prefers long answers."})
			if err != nil || u.Content != "The user prefers long answers." {
				t.Fatalf("update: %+v %v", u, err)
			}
			// A second client told the variant up front never probes.
			c2, _, _ := demo(t, demoservice.Options{MemoryVariant: variant}, client.WithMemoryVariant(client.MemoryVariant(variant)))
			if _, err := c2.CreateMemory(ctx, client.MemoryParams{Content: "x"}); err != nil {
				t.Fatal(err)
			}
			_, err = c.UpdateMemory(ctx, "987654", client.MemoryParams{Content: "y"})
			if !client.IsNotFound(err) {
				t.Fatalf("missing memory: %v", err)
			}
		})
	}
}

func TestCollections(t *testing.T) {
	c, svc, _ := demo(t, demoservice.Options{})
	ctx := context.Background()
	m, err := c.CreateMemory(ctx, client.MemoryParams{Content: "in a collection", CollectionID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	id := m.CollectionID
	if id == "" {
		id = "1"
	}
	col, err := c.UpdateCollection(ctx, id, "Renamed")
	if err != nil || col.Name != "Renamed" {
		t.Fatalf("rename: %+v %v", col, err)
	}
	n, _ := id.Int64()
	if got, ok := svc.Collection(n); !ok || got.Name != "Renamed" {
		t.Fatalf("service collection: %+v", got)
	}
	_, err = c.UpdateCollection(ctx, "424242", "x")
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Message != "Collection not found" {
		t.Fatalf("missing collection: %v", err)
	}
}

func TestResourcesAndWebhooks(t *testing.T) {
	for _, variant := range []string{"A", "B"} {
		t.Run(variant, func(t *testing.T) {
			// Variant B exists only in the interface as first described.
			c, _, _ := demo(t, demoservice.Options{WebhookVariant: variant, API: demoservice.APISpec})
			ctx := context.Background()
			r, err := c.ListResources(ctx, client.ListResourcesParams{PerPage: 2})
			if err != nil || r.Meta == nil || len(r.Data) == 0 {
				t.Fatalf("resources: %+v %v", r, err)
			}
			n := 0
			for _, err := range c.Resources(ctx, client.ListResourcesParams{PerPage: 2}) {
				if err != nil {
					t.Fatal(err)
				}
				n++
			}
			if n != r.Meta.Total {
				t.Fatalf("iterated %d resources, total %d", n, r.Meta.Total)
			}
			wl, err := c.ListWebhooks(ctx, client.ListWebhooksParams{})
			if err != nil || wl.Variant != variant {
				t.Fatalf("webhooks: %+v %v", wl, err)
			}
			var ag client.ID
			for _, w := range wl.Data {
				if w.URL == "" {
					t.Fatalf("webhook without url: %+v", w)
				}
				if w.TemplateID != "" {
					ag = w.TemplateID
				}
			}
			if ag == "" {
				ag = firstAgent(t, c, client.AgentChat).ID
			}
			if _, err := c.ListAgentWebhooks(ctx, ag, client.PageParams{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestDownloadMedia(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{})
	ctx := context.Background()
	a := firstAgent(t, c, client.AgentImage)
	e, err := c.Run(ctx, a.ID, client.ExecuteParams{Answers: answersFor(a)})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	ct, err := c.Download(ctx, strings.TrimSpace(e.Output), &b)
	if err != nil || !strings.HasPrefix(ct, "image/") || b.Len() == 0 {
		t.Fatalf("download %q: %s %d %v", e.Output, ct, b.Len(), err)
	}
}

func TestMemoryUpdateDetectsVariantB(t *testing.T) {
	c, _, _ := demo(t, demoservice.Options{MemoryVariant: "B"})
	ctx := context.Background()
	m, err := c.CreateMemory(ctx, client.MemoryParams{Content: "first"}, client.WithMemoryVariant(client.MemoryB))
	if err != nil {
		t.Fatal(err)
	}
	if c.MemoryVariant() != client.MemoryAuto {
		t.Fatal("a per-call override changed the detected variant")
	}
	u, err := c.UpdateMemory(ctx, m.ID, client.MemoryParams{Content: "second", Metadata: map[string]any{"tags": []string{"a"}}})
	if err != nil || u.Content != "second" || c.MemoryVariant() != client.MemoryB {
		t.Fatalf("%+v %v (variant %q)", u, err, c.MemoryVariant())
	}
}
