package client_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// TestContractSuite calls every operation once and checks that each succeeds
// and decodes. It runs against the built-in service, or against any server
// named by AGENTDESK_CONTRACT_URL and AGENTDESK_CONTRACT_KEY (optionally
// AGENTDESK_CONTRACT_WORKSPACE); then it relies on no seed data: it finds an
// agent of each type through ListAgents and skips what the account lacks.
// Against a real account it creates one memory and uploads one small file.
func TestContractSuite(t *testing.T) {
	var c *client.Client
	if url, key := os.Getenv("AGENTDESK_CONTRACT_URL"), os.Getenv("AGENTDESK_CONTRACT_KEY"); url != "" && key != "" {
		c = client.New(client.WithBaseURL(url), client.WithAPIKey(key), client.WithWorkspace(os.Getenv("AGENTDESK_CONTRACT_WORKSPACE")),
			client.WithHTTPClient(contractClient(t)))
	} else {
		c, _, _ = demo(t, demoservice.Options{})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	agents := map[string]*client.Agent{}
	t.Run("ListAgents", func(t *testing.T) {
		p, err := c.ListAgents(ctx, client.ListAgentsParams{})
		if err != nil {
			t.Fatal(err)
		}
		for a, err := range c.Agents(ctx, client.ListAgentsParams{}) {
			if err != nil {
				t.Fatal(err)
			}
			if a.ID == "" || a.Type == "" {
				t.Fatalf("agent without id or type: %+v", a)
			}
			if agents[a.Type] == nil && a.Active {
				a := a
				agents[a.Type] = &a
			}
		}
		if len(p.Data) > 0 && len(agents) == 0 {
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
	for _, typ := range []string{client.AgentChat, client.AgentText, client.AgentImage, client.AgentVideo} {
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
	t.Run("Resources", func(t *testing.T) {
		if _, err := c.ListResources(ctx, client.ListResourcesParams{}); err != nil {
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
