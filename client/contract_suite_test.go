package client_test

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// TestContractSuite calls every operation once and checks that each succeeds
// and decodes. It runs against the built-in service in both of its readings
// (the real service's, and the interface as first described), or against
// any server named by AGENTDESK_CONTRACT_URL and AGENTDESK_CONTRACT_KEY
// (optionally AGENTDESK_CONTRACT_WORKSPACE); then it relies on no seed data:
// it finds an agent of each type through ListAgents and skips what the
// account lacks or the server does not offer. Against a real account it
// creates one memory, one collection, one webhook, one small file and one
// of 32 MB (the large-file flow), and deletes them again where the server
// allows; it never processes a file. It proves paging on three pages of
// agents however many the account holds, so at the real service's pace
// (about a request a second) it ends within 5 minutes; the built-in runs
// hold 10,000 agents. To try the real pace and its 429s, run it against
// `agentdesk --serve-demo 127.0.0.1:8787` (key "demo", reading real or
// spec by --demo-api).
func TestContractSuite(t *testing.T) {
	if url, key := os.Getenv("AGENTDESK_CONTRACT_URL"), os.Getenv("AGENTDESK_CONTRACT_KEY"); url != "" && key != "" {
		ws := os.Getenv("AGENTDESK_CONTRACT_WORKSPACE")
		c := client.New(client.WithBaseURL(url), client.WithAPIKey(key), client.WithWorkspace(ws),
			client.WithHTTPClient(contractClient(t)))
		contractSuite(t, c, url, key, ws, nil)
		return
	}
	for _, api := range []string{demoservice.APIReal, demoservice.APISpec} {
		t.Run(api, func(t *testing.T) {
			c, svc, srv := demo(t, demoservice.Options{API: api, ExtraAgents: 10_000})
			contractSuite(t, c, srv.URL, testKey, "", svc)
		})
	}
}

// skipUnsupported skips a step the server does not offer (404 on an
// unknown route, or 405).
func skipUnsupported(t *testing.T, err error) {
	t.Helper()
	if client.IsUnsupported(err) {
		t.Skipf("the server does not offer this: %v", err)
	}
}

// contractSuite runs the suite; svc is the built-in service, nil for another server.
func contractSuite(t *testing.T, c *client.Client, baseURL, key, workspace string, svc *demoservice.Service) {
	// At the real service's pace (about a request a second) it takes a few minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	agents := map[string]*client.Agent{}
	types := []string{client.AgentChat, client.AgentText, client.AgentImage, client.AgentVideo}
	t.Run("ListAgents", func(t *testing.T) {
		// Paging is proven on the first, second and last pages only: an
		// account may hold thousands of agents, at about a request a second.
		first := agentPage(t, ctx, c, 1, nil)
		if first.PerPage > 0 && first.LastPage != max(1, (first.Total+first.PerPage-1)/first.PerPage) {
			t.Fatalf("total %d in pages of %d, but last_page %d", first.Total, first.PerPage, first.LastPage)
		}
		if first.LastPage > 1 {
			second, err := first.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			agentPage(t, ctx, c, 2, second)
			for _, a := range second.Data {
				if slices.ContainsFunc(first.Data, func(b client.Agent) bool { return a.ID == b.ID }) {
					t.Fatalf("agent %s is on pages 1 and 2", a.ID)
				}
			}
		}
		if first.LastPage > 2 {
			if last := agentPage(t, ctx, c, first.LastPage, nil); last.HasNext() {
				t.Fatal("the last page has a next one")
			}
		}
		// An active agent of each type, from the first page of its type.
		for _, typ := range types {
			p, err := c.ListAgents(ctx, client.ListAgentsParams{Type: typ, PerPage: 50})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range p.Data {
				if a.Type == typ && !a.Inactive() {
					agents[typ] = &a
					break
				}
			}
		}
		if len(first.Data) > 0 && len(agents) == 0 {
			t.Fatal("no active agent found")
		}
	})
	need := func(t *testing.T, typ string) *client.Agent {
		a := agents[typ]
		if a == nil {
			t.Skipf("the account has no active %s agent", typ)
		}
		return a
	}
	t.Run("GetAgent", func(t *testing.T) {
		for typ, a := range agents {
			full, err := c.GetAgent(ctx, a.ID)
			if err != nil {
				t.Fatalf("%s agent %s: %v", typ, a.ID, err)
			}
			agents[typ] = full
		}
	})
	params := func(a *client.Agent) client.ExecuteParams {
		p := client.ExecuteParams{Answers: answersFor(a)}
		if a.Type == client.AgentChat {
			p.Answers = chatAnswers(a)
			p.Messages = hello()
		}
		return p
	}
	for _, typ := range types {
		t.Run("Run/"+typ, func(t *testing.T) {
			a := need(t, typ)
			e, err := c.Run(ctx, a.ID, params(a))
			if err != nil {
				t.Fatal(err)
			}
			if !e.Terminal() || e.ID == "" {
				t.Fatalf("record: %+v", e)
			}
		})
	}
	t.Run("StartPollWait", func(t *testing.T) {
		a := agents[client.AgentText]
		if a == nil {
			a = need(t, client.AgentChat)
		}
		e, err := c.Start(ctx, a.ID, params(a))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Poll(ctx, a.ID, e.ID); errors.Is(err, client.ErrPollingUnsupported) {
			t.Skip("the server does not offer polling")
		} else if err != nil {
			t.Fatal(err)
		}
		if w, err := c.Wait(ctx, a.ID, e.ID); err != nil || !w.Terminal() {
			t.Fatalf("%+v %v", w, err)
		}
	})
	t.Run("Stream", func(t *testing.T) {
		a := need(t, client.AgentChat)
		s, err := c.Stream(ctx, a.ID, params(a))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for s.Next() {
		}
		if s.Err() != nil || s.Final() == nil {
			t.Fatalf("%v (text %q)", s.Err(), s.Text())
		}
	})
	chat := func(a *client.Agent) client.ChatCompletionParams {
		p := client.ChatCompletionParams{Messages: hello(), Temperature: client.Float(0.5), Tools: "no-tools"}
		if q := a.Question("model"); q != nil && len(q.Options) > 0 {
			p.Model = q.Options[0]
		}
		return p
	}
	t.Run("ChatCompletion", func(t *testing.T) {
		a := need(t, client.AgentChat)
		if cc, err := c.ChatCompletion(ctx, a.ID, chat(a)); err != nil || len(cc.Choices) == 0 {
			t.Fatalf("%+v %v", cc, err)
		}
	})
	t.Run("ChatCompletionStream", func(t *testing.T) {
		a := need(t, client.AgentChat)
		s, err := c.ChatCompletionStream(ctx, a.ID, chat(a))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for s.Next() {
		}
		if s.Err() != nil {
			t.Fatal(s.Err())
		}
	})
	var uploaded *client.File
	t.Run("UploadFile", func(t *testing.T) {
		f, err := c.UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("Agent Desk contract suite.\n"), Filename: "contract-suite.txt", Size: 27, ContentType: "text/plain"})
		if err != nil {
			t.Fatal(err)
		}
		uploaded = f
	})
	t.Run("UploadLargeFile", func(t *testing.T) {
		size := client.LargeFileBytes + 1
		f, err := c.UploadFile(ctx, client.UploadParams{Reader: io.NewSectionReader(suiteText{}, 0, size), Filename: "contract-suite-large.txt", Size: size, ContentType: "text/plain"})
		if err != nil {
			t.Fatal(err)
		}
		if f.Bytes != size {
			t.Fatalf("%d bytes stored of %d", f.Bytes, size)
		}
		if svc != nil && svc.API() == demoservice.APIReal && svc.UploadPuts() != 1 {
			t.Fatalf("%d PUTs to a signed address: the large-file flow was not taken", svc.UploadPuts())
		}
		if err := c.DeleteFile(ctx, f.ID); err != nil {
			skipUnsupported(t, err)
			t.Fatal(err)
		}
	})
	t.Run("ListFiles", func(t *testing.T) {
		if _, err := c.ListFiles(ctx, client.ListFilesParams{PerPage: 5, Order: "desc"}); err != nil {
			t.Fatal(err)
		}
		for _, err := range c.Files(ctx, client.ListFilesParams{PerPage: 100}) {
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("AgentFiles", func(t *testing.T) {
		a := need(t, client.AgentChat)
		if uploaded == nil {
			t.Skip("no uploaded file")
		}
		if _, err := c.LinkFiles(ctx, a.ID, []client.ID{uploaded.ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ListAgentFiles(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := c.UnlinkFile(ctx, a.ID, uploaded.ID); err != nil {
			t.Fatal(err)
		}
	})
	var memory *client.Memory
	t.Run("Memories", func(t *testing.T) {
		m, err := c.CreateMemory(ctx, client.MemoryParams{Content: "Written by the Agent Desk contract suite."})
		if err != nil {
			t.Fatal(err)
		}
		if c.MemoryVariant() == client.MemoryAuto {
			t.Fatal("variant not detected")
		}
		if _, err := c.UpdateMemory(ctx, m.ID, client.MemoryParams{Content: "Updated by the Agent Desk contract suite."}); err != nil {
			t.Fatal(err)
		}
		memory = m
	})
	t.Run("UpdateCollection", func(t *testing.T) {
		if memory == nil || memory.CollectionID == "" {
			t.Skip("no collection known (variant B, or a memory without collection)")
		}
		if _, err := c.UpdateCollection(ctx, memory.CollectionID, "Agent Desk"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Collections", func(t *testing.T) {
		if _, err := c.ListCollections(ctx, client.ListCollectionsParams{}); err != nil {
			skipUnsupported(t, err)
			t.Fatal(err)
		}
		col, err := c.CreateCollection(ctx, "Agent Desk contract suite")
		if err != nil {
			t.Fatal(err)
		}
		m, err := c.CreateMemory(ctx, client.MemoryParams{Content: "Written by the Agent Desk contract suite.", CollectionID: col.ID})
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.ListMemories(ctx, client.ListMemoriesParams{CollectionID: col.ID})
		if err != nil || len(p.Data) != 1 || p.Data[0].ID != m.ID {
			t.Fatalf("the collection's memories: %+v %v", p, err)
		}
		if err := c.DeleteMemory(ctx, m.ID); err != nil {
			t.Fatal(err)
		}
		if err := c.DeleteCollection(ctx, col.ID); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("DeleteMemory", func(t *testing.T) {
		if memory == nil {
			t.Skip("no memory created")
		}
		if err := c.DeleteMemory(ctx, memory.ID); err != nil {
			skipUnsupported(t, err)
			t.Fatal(err)
		}
	})
	t.Run("WebhookCreateDelete", func(t *testing.T) {
		a := need(t, client.AgentChat)
		w, err := c.CreateWebhook(ctx, a.ID, client.WebhookParams{URL: "https://example.com/agent-desk-contract-suite", Status: client.WebhookInactive})
		if err != nil {
			skipUnsupported(t, err)
			t.Fatal(err)
		}
		if err := c.DeleteWebhook(ctx, w.ID); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("FileGetProcessDelete", func(t *testing.T) {
		if uploaded == nil {
			t.Skip("no uploaded file")
		}
		if _, err := c.GetFile(ctx, uploaded.ID); err != nil {
			skipUnsupported(t, err)
			t.Fatal(err)
		}
		if svc != nil { // processing costs credits on a real account
			if _, err := c.ProcessFile(ctx, uploaded.ID); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.DeleteFile(ctx, uploaded.ID); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("OpenAIClient", func(t *testing.T) {
		a := need(t, client.AgentChat)
		model := ""
		if q := a.Question("model"); q != nil && len(q.Options) > 0 {
			model = q.Options[0]
		}
		openAISuite(t, ctx, baseURL+"/agents/"+string(a.ID)+"/openai/", key, workspace, model)
	})
	t.Run("Resources", func(t *testing.T) {
		if _, err := c.ListResources(ctx, client.ListResourcesParams{}); err != nil {
			skipUnsupported(t, err)
			t.Fatal(err)
		}
	})
	t.Run("Webhooks", func(t *testing.T) {
		wl, err := c.ListWebhooks(ctx, client.ListWebhooksParams{})
		if err != nil {
			t.Fatal(err)
		}
		if wl.Variant != client.WebhooksA && wl.Variant != client.WebhooksB {
			t.Fatalf("variant %q", wl.Variant)
		}
		a := need(t, client.AgentChat)
		if _, err := c.ListAgentWebhooks(ctx, a.ID, client.PageParams{}); err != nil {
			t.Fatal(err)
		}
	})
}

// suiteText is an endless text of one sentence, to read at any offset.
type suiteText struct{}

func (suiteText) ReadAt(p []byte, off int64) (int, error) {
	const line = "Written by the Agent Desk contract suite.\n"
	for i := range p {
		p[i] = line[(off+int64(i))%int64(len(line))]
	}
	return len(p), nil
}

// agentPage checks page n of the agent list (got, or read when nil): its
// number, and as many agents as total and per_page leave for it, each with
// an id and a type.
func agentPage(t *testing.T, ctx context.Context, c *client.Client, n int, got *client.Page[client.Agent]) *client.Page[client.Agent] {
	t.Helper()
	if got == nil {
		var err error
		if got, err = c.ListAgents(ctx, client.ListAgentsParams{Page: n}); err != nil {
			t.Fatalf("page %d: %v", n, err)
		}
	}
	if got.CurrentPage != n {
		t.Fatalf("page %d reads as page %d", n, got.CurrentPage)
	}
	if want := min(got.PerPage, got.Total-(n-1)*got.PerPage); got.PerPage > 0 && len(got.Data) != want {
		t.Fatalf("page %d holds %d agents, want %d of %d in pages of %d", n, len(got.Data), want, got.Total, got.PerPage)
	}
	for _, a := range got.Data {
		if a.ID == "" || a.Type == "" {
			t.Fatalf("agent without id or type: %+v", a)
		}
	}
	return got
}

// openAISuite drives the chat-completions endpoint with the official Go
// client of that format: a plain answer, a streamed one, and a bad key,
// which that client must report as an authentication failure.
//
// The model is one the agent lists: the interface takes no other, while the
// real service takes any name (and uses the agent's default).
func openAISuite(t *testing.T, ctx context.Context, base, key, workspace, model string) {
	// The client's own retries wait out a paced server's 429s (it honours Retry-After).
	opts := []option.RequestOption{option.WithBaseURL(base), option.WithAPIKey(key), option.WithMaxRetries(4)}
	if workspace != "" {
		opts = append(opts, option.WithHeader("x-workspace-id", workspace))
	}
	oc := openai.NewClient(opts...)
	params := openai.ChatCompletionNewParams{
		Model:    model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("Answer briefly."), openai.UserMessage("Hello, who are you?")},
	}
	res, err := oc.Chat.Completions.New(ctx, params)
	if err != nil || len(res.Choices) == 0 || res.Choices[0].Message.Content == "" {
		t.Fatalf("plain: %+v %v", res, err)
	}
	stream := oc.Chat.Completions.NewStreaming(ctx, params)
	var text strings.Builder
	for stream.Next() {
		for _, ch := range stream.Current().Choices {
			text.WriteString(ch.Delta.Content)
		}
	}
	if err := stream.Err(); err != nil || text.Len() == 0 {
		t.Fatalf("streamed: %q %v", text.String(), err)
	}
	stream.Close()
	_, err = oc.Chat.Completions.New(ctx, params, option.WithAPIKey("not-the-key"))
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || (apiErr.StatusCode != 401 && apiErr.StatusCode != 403) {
		t.Fatalf("a bad key: %v", err)
	}
}
