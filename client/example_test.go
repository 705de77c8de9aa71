package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// startDemo runs the built-in service on a local port and returns a client
// for it; stop shuts the service down.
func startDemo(opts demoservice.Options) (c *client.Client, stop func()) {
	opts.APIKey = "demo"
	srv, err := demoservice.Listen("127.0.0.1:0", opts)
	if err != nil {
		log.Fatal(err)
	}
	c = client.New(client.WithBaseURL(srv.URL()), client.WithAPIKey("demo"))
	return c, func() { srv.Close() }
}

// firstOf returns the first active agent of a type, with its questions.
func firstOf(ctx context.Context, c *client.Client, typ string) *client.Agent {
	for a, err := range c.Agents(ctx, client.ListAgentsParams{Type: typ}) {
		if err != nil {
			log.Fatal(err)
		}
		if !a.Inactive() {
			full, err := c.GetAgent(ctx, a.ID)
			if err != nil {
				log.Fatal(err)
			}
			return full
		}
	}
	log.Fatalf("no %s agent", typ)
	return nil
}

// pick answers each select question with its first option and every other
// required question by its type: a number within its bounds, a sentence for
// a prompt (see fillAnswers).
func pick(a *client.Agent) map[string]any {
	return fillAnswers(a, func(options []string) string { return options[0] })
}

func Example() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()

	agent := firstOf(ctx, c, client.AgentChat)
	reply, err := c.Run(ctx, agent.ID, client.ExecuteParams{
		Answers:  pick(agent),
		Messages: []client.Message{{Role: client.RoleUser, Content: "Hello!"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(reply.Succeeded(), reply.Output != "", reply.Credits.Valid)
	// Output: true true true
}

func ExampleClient_ListAgents() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	page, err := c.ListAgents(context.Background(), client.ListAgentsParams{Type: client.AgentImage, PerPage: 5})
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range page.Data {
		if a.Type != client.AgentImage {
			log.Fatal("filter ignored")
		}
	}
	fmt.Println(page.CurrentPage, len(page.Data) > 0)
	// Output: 1 true
}

func ExampleClient_Agents() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	types := map[string]bool{}
	for a, err := range c.Agents(context.Background(), client.ListAgentsParams{}) {
		if err != nil {
			log.Fatal(err)
		}
		types[a.Type] = true
	}
	fmt.Println(types[client.AgentChat], types[client.AgentText], types[client.AgentImage], types[client.AgentVideo])
	// Output: true true true true
}

func ExampleClient_GetAgent() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	a := firstOf(ctx, c, client.AgentChat)
	agent, err := c.GetAgent(ctx, a.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(agent.Question("temperature").Options)
	// Output: [0 0.25 0.5 0.75 1]
}

func ExampleClient_Start() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	a := firstOf(ctx, c, client.AgentText)
	e, err := c.Start(ctx, a.ID, client.ExecuteParams{Answers: pick(a)})
	if err != nil {
		log.Fatal(err)
	}
	// Poll once, then wait for the end.
	if _, err := c.Poll(ctx, a.ID, e.ID); err != nil {
		log.Fatal(err)
	}
	done, err := c.Wait(ctx, a.ID, e.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(done.Status, done.Succeeded())
	// Output: succeeded true
}

func ExampleClient_Stream() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	a := firstOf(ctx, c, client.AgentChat)
	s, err := c.Stream(ctx, a.ID, client.ExecuteParams{
		Answers:  pick(a),
		Messages: []client.Message{{Role: client.RoleUser, Content: "Tell me a story."}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	var b strings.Builder
	for s.Next() {
		b.WriteString(s.Fragment()) // a UI would append the fragment here
	}
	if err := s.Err(); err != nil {
		log.Printf("stopped early: %v; kept %d characters", err, len(s.Text()))
		return
	}
	fmt.Println(b.String() == s.Text(), s.Final().Credits.Valid)
	// Output: true true
}

func ExampleClient_ChatCompletion() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	a := firstOf(ctx, c, client.AgentChat)
	cc, err := c.ChatCompletion(ctx, a.ID, client.ChatCompletionParams{
		Model:       a.Question("model").Options[0],
		Messages:    []client.Message{{Role: client.RoleSystem, Content: "Be brief."}, {Role: client.RoleUser, Content: "Hi"}},
		Temperature: client.Float(0.25),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cc.Text() != "")
	// Output: true
}

func ExampleClient_ChatCompletionStream() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	a := firstOf(ctx, c, client.AgentChat)
	s, err := c.ChatCompletionStream(ctx, a.ID, client.ChatCompletionParams{Messages: []client.Message{{Role: client.RoleUser, Content: "Hi"}}})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
	}
	fmt.Println(s.Err() == nil, s.Text() != "")
	// Output: true true
}

func ExampleClient_UploadFile() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	f, err := c.UploadFile(context.Background(), client.UploadParams{
		Reader:   strings.NewReader("quarterly numbers"),
		Filename: "numbers.txt",
		Size:     17,
		Progress: func(sent, total int64) { /* update a progress bar */ },
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.Filename, f.Bytes)
	// Output: numbers.txt 17
}

func ExampleClient_LinkFiles() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	a := firstOf(ctx, c, client.AgentChat)
	f, err := c.UploadFile(ctx, client.UploadParams{Reader: strings.NewReader("brief"), Filename: "brief.txt", Size: 5})
	if err != nil {
		log.Fatal(err)
	}
	set, err := c.LinkFiles(ctx, a.ID, []client.ID{f.ID})
	if err != nil {
		log.Fatal(err)
	}
	list, err := c.ListAgentFiles(ctx, a.ID)
	if err != nil {
		log.Fatal(err)
	}
	un, err := c.UnlinkFile(ctx, a.ID, f.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(set.FilesCount != nil, len(list.Files) > 0, un.Removed)
	// Output: true true true
}

func ExampleClient_Files() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	n := 0
	for _, err := range c.Files(context.Background(), client.ListFilesParams{PerPage: 50, Order: "asc"}) {
		if err != nil {
			log.Fatal(err)
		}
		n++
	}
	fmt.Println(n > 0)
	// Output: true
}

func ExampleClient_CreateMemory() {
	c, stop := startDemo(demoservice.Options{MemoryVariant: "B"})
	defer stop()
	ctx := context.Background()
	m, err := c.CreateMemory(ctx, client.MemoryParams{Content: "Prefers short answers.", Metadata: map[string]any{"source": "settings"}})
	if err != nil {
		log.Fatal(err)
	}
	// The variant was detected; store it with the account.
	fmt.Println(c.MemoryVariant(), m.Content)
	m, err = c.UpdateMemory(ctx, m.ID, client.MemoryParams{Content: "Prefers long answers."})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Content)
	// Output:
	// B Prefers short answers.
	// Prefers long answers.
}

func ExampleClient_UpdateCollection() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	_, err := c.UpdateCollection(ctx, "999999", "Work")
	fmt.Println(client.IsNotFound(err))
	// Output: true
}

func ExampleClient_ListResources() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	page, err := c.ListResources(context.Background(), client.ListResourcesParams{PerPage: 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Meta.PerPage, len(page.Data))
	// Output: 3 3
}

func ExampleClient_ListWebhooks() {
	c, stop := startDemo(demoservice.Options{WebhookVariant: "B", API: demoservice.APISpec})
	defer stop()
	list, err := c.ListWebhooks(context.Background(), client.ListWebhooksParams{Limit: 10})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(list.Variant, list.PerPage)
	// Output: B 10
}

func ExampleClient_ListAgentWebhooks() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	a := firstOf(ctx, c, client.AgentChat)
	page, err := c.ListAgentWebhooks(ctx, a.ID, client.PageParams{PerPage: 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.PerPage)
	// Output: 5
}

func ExampleClient_Download() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	ctx := context.Background()
	a := firstOf(ctx, c, client.AgentImage)
	e, err := c.Run(ctx, a.ID, client.ExecuteParams{Answers: pick(a)})
	if err != nil {
		log.Fatal(err)
	}
	var img bytes.Buffer
	ctype, err := c.Download(ctx, e.Output, &img)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ctype, img.Len() > 0)
	// Output: image/png true
}

func ExampleIsAuth() {
	c, stop := startDemo(demoservice.Options{})
	defer stop()
	_, err := c.ListAgents(context.Background(), client.ListAgentsParams{}, client.WithAPIKey("wrong"))
	switch {
	case client.IsAuth(err):
		fmt.Println("the API key was rejected")
	case client.IsOffline(err):
		fmt.Println("offline")
	}
	// Output: the API key was rejected
}

func ExampleCheckChatMessages() {
	err := client.CheckChatMessages([]client.Message{
		{Role: client.RoleUser, Content: "Hi"},
		{Role: client.RoleUser, Content: "Hello?"},
	})
	fmt.Println(err, errors.Is(err, client.ErrChatRules))
	// Output: Chat messages must be a pair of user/assistant true
}
