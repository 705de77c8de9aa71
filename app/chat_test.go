package app_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/storage"
)

func paced(d time.Duration) func(*app.Config) {
	return apptest.WithDemo(demoservice.Options{Pace: d})
}

func chatAgent(t *testing.T, a *app.App) client.Agent {
	t.Helper()
	ag, err := a.Client().GetAgent(context.Background(), "101")
	if err != nil {
		t.Fatal(err)
	}
	return *ag
}

func newChat(t *testing.T, a *app.App) *app.ChatSession {
	t.Helper()
	s, err := a.Chats().New(context.Background(), chatAgent(t, a))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func lastExecution(t *testing.T, a *app.App) demoservice.ExecutionRecord {
	t.Helper()
	ex := apptest.Demo(a).Service.Executions()
	if len(ex) == 0 {
		t.Fatal("the service received no execution")
	}
	return ex[len(ex)-1]
}

func storedReply(t *testing.T, a *app.App, convID int64) storage.Message {
	t.Helper()
	msgs, err := a.DB().Messages(context.Background(), convID)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != storage.RoleAssistant {
		t.Fatalf("the conversation should end with a reply, got %+v", msgs)
	}
	return msgs[len(msgs)-1]
}

func sendAndWait(t *testing.T, s *app.ChatSession, text string) {
	t.Helper()
	if err := s.Send(context.Background(), text, nil); err != nil {
		t.Fatalf("send: %v", err)
	}
	s.Wait()
}

func TestChatReplyIsStoredExactlyAsSent(t *testing.T) {
	a := apptest.Open(t)
	s := newChat(t, a)
	var mu sync.Mutex
	var seen []string
	unsub := s.State().Subscribe(func() {
		st, _ := s.State().Snapshot()
		mu.Lock()
		seen = append(seen, st.Live)
		mu.Unlock()
	})
	defer unsub()
	sendAndWait(t, s, "How do I plan the quarterly budget review?")

	ex := lastExecution(t, a)
	reply := storedReply(t, a, s.ID())
	if reply.Content != ex.Output || reply.Status != storage.StatusComplete {
		t.Fatalf("stored reply differs from what the service sent:\nstored %q (%s)\nsent   %q", reply.Content, reply.Status, ex.Output)
	}
	mu.Lock()
	grew := 0
	for _, live := range seen {
		if !strings.HasPrefix(ex.Output, live) {
			t.Fatalf("the screen was shown %q, which is not the start of the reply %q", live, ex.Output)
		}
		if live != "" {
			grew++
		}
	}
	mu.Unlock()
	if grew < 2 {
		t.Fatalf("the reply was shown growing %d times, want it to appear as it arrives", grew)
	}
	st, _ := s.State().Snapshot()
	if st.Phase != app.ChatDone || st.Live != "" || st.Messages[len(st.Messages)-1].Content != ex.Output {
		t.Fatalf("after the reply: phase %d, live %q, last message %q; want done with the whole reply", st.Phase, st.Live, st.Messages[len(st.Messages)-1].Content)
	}
	if reply.Credits == nil || *reply.Credits <= 0 {
		t.Fatalf("the reply's credits should be kept, got %v", reply.Credits)
	}
	if spent, _ := a.Ledger().Today(context.Background()); spent <= 0 {
		t.Fatal("the reply's credits should be recorded for the meter")
	}
	if c := s.Conversation(); !strings.HasPrefix(c.Title, "How do I plan") {
		t.Fatalf("the conversation should be named after its first message, got %q", c.Title)
	}
}

// sendUntilText sends text and returns once the reply's first text shows.
func sendUntilText(t *testing.T, s *app.ChatSession, text string) {
	t.Helper()
	first := make(chan struct{}, 1)
	s.State().Subscribe(func() {
		if st, _ := s.State().Snapshot(); st.Live != "" {
			select {
			case first <- struct{}{}:
			default:
			}
		}
	})
	if err := s.Send(context.Background(), text, nil); err != nil {
		t.Fatal(err)
	}
	<-first
}

func TestChatStopKeepsPartialText(t *testing.T) {
	a := apptest.Open(t, paced(20*time.Millisecond))
	s := newChat(t, a)
	sendUntilText(t, s, "Write a long memo about office moves")
	s.Stop()
	s.Wait()
	reply := storedReply(t, a, s.ID())
	if reply.Status != storage.StatusStopped || reply.Content == "" {
		t.Fatalf("a stopped reply keeps its text and says stopped, got %q (%s)", reply.Content, reply.Status)
	}
	if full := lastExecution(t, a).Output; !strings.HasPrefix(full, reply.Content) {
		t.Fatalf("kept text %q is not the start of the reply %q", reply.Content, full)
	}
	if app.StatusNote(reply) == "" {
		t.Fatal("a stopped reply needs a note saying so")
	}
}

// A reply whose row is gone from the history while it streams is still
// shown whole, and the session says it could not be saved.
func TestChatReplyThatCannotBeSavedSaysSo(t *testing.T) {
	a := apptest.Open(t, paced(20*time.Millisecond))
	s := newChat(t, a)
	sendUntilText(t, s, "Write a long memo about office moves")
	st, _ := s.State().Snapshot()
	user := st.Messages[len(st.Messages)-2]
	if _, err := a.DB().DeleteMessagesAfter(context.Background(), s.ID(), user.ID); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	st, _ = s.State().Snapshot()
	if st.SaveErr == nil || st.Err != nil || st.Phase != app.ChatDone {
		t.Fatalf("after a reply the history lost: phase %d, error %v, save error %v; want done with a save error", st.Phase, st.Err, st.SaveErr)
	}
	if got, want := st.Messages[len(st.Messages)-1].Content, lastExecution(t, a).Output; got != want {
		t.Fatalf("the reply shown is %q, want the whole reply %q", got, want)
	}
	if app.Describe(st.SaveErr) == "" {
		t.Fatal("the save error needs words")
	}
}

func TestChatRootIDContinuesAfterRestart(t *testing.T) {
	p := storage.PathsIn(t.TempDir())
	a := apptest.Open(t, func(c *app.Config) { c.Paths = p })
	s := newChat(t, a)
	sendAndWait(t, s, "First question about invoices")
	root := s.Conversation().RootID
	if root == "" {
		t.Fatal("the conversation should keep the service's root_id")
	}
	id := s.ID()
	_ = a.Close()

	b := apptest.Open(t, func(c *app.Config) { c.Paths = p })
	s2, err := b.Chats().Open(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(s2.Messages()) != 2 {
		t.Fatalf("the conversation should reopen with its messages, got %d", len(s2.Messages()))
	}
	sendAndWait(t, s2, "And a follow-up")
	ex := lastExecution(t, b)
	if got := ex.Answers["root_id"]; fmt.Sprint(got) != root {
		t.Fatalf("root_id %q should be sent to continue, got %v", root, got)
	}
	if len(ex.Messages) != 3 {
		t.Fatalf("the history should be sent along, got %d messages", len(ex.Messages))
	}
}

func TestChatRegenerateAndEdit(t *testing.T) {
	a := apptest.Open(t)
	s := newChat(t, a)
	sendAndWait(t, s, "Plan a team lunch")
	sendAndWait(t, s, "Make it vegetarian")
	if err := s.Regenerate(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	msgs := s.Messages()
	if len(msgs) != 4 || msgs[3].Content != lastExecution(t, a).Output {
		t.Fatalf("regenerate should replace the last reply, got %d messages", len(msgs))
	}

	if err := s.Edit(context.Background(), msgs[0].ID, "Plan a team breakfast"); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	stored, _ := a.DB().Messages(context.Background(), s.ID())
	if len(stored) != 2 || stored[0].Content != "Plan a team breakfast" || stored[1].Status != storage.StatusComplete {
		t.Fatalf("edit & resend should continue from the edited message, got %+v", stored)
	}
	if ex := lastExecution(t, a); len(ex.Messages) != 1 || ex.Messages[0].Content != "Plan a team breakfast" {
		t.Fatalf("the edited message should be sent, got %+v", ex.Messages)
	}
	if md := s.Markdown(); !strings.Contains(md, "Plan a team breakfast") || !strings.Contains(md, "## You") {
		t.Fatalf("the export should hold the conversation, got %q", md)
	}
}

func TestChatInterruptedReplyOnReopenCanContinue(t *testing.T) {
	p := storage.PathsIn(t.TempDir())
	a := apptest.Open(t, func(c *app.Config) { c.Paths = p })
	ctx := context.Background()
	s := newChat(t, a)
	id := s.ID()
	// What a kill mid-stream leaves behind: a reply still marked streaming.
	_, _ = a.DB().AddMessage(ctx, storage.Message{ConversationID: id, Role: storage.RoleUser, Content: "Draft a notice"})
	_, _ = a.DB().AddMessage(ctx, storage.Message{ConversationID: id, Role: storage.RoleAssistant, Content: "Dear all,", Status: storage.StatusStreaming})
	_ = a.Close()

	b := apptest.Open(t, func(c *app.Config) { c.Paths = p })
	s2, err := b.Chats().Open(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	msgs := s2.Messages()
	if msgs[1].Status != storage.StatusInterrupted || msgs[1].Content != "Dear all," {
		t.Fatalf("a reply cut by a crash comes back marked interrupted with its text, got %+v", msgs[1])
	}
	if err := s2.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	s2.Wait()
	ex := lastExecution(t, b)
	if n := len(ex.Messages); n != 3 || ex.Messages[1].Content != "Dear all," || ex.Messages[2].Content != app.ContinuePrompt() {
		t.Fatalf("continue should send the partial reply and ask to go on, got %+v", ex.Messages)
	}
}

func TestChatCompletionsEndpointSendsSystemRole(t *testing.T) {
	a := apptest.Open(t)
	ctx := context.Background()
	s := newChat(t, a)
	if err := s.SetInstructions(ctx, "Answer in one sentence."); err != nil {
		t.Fatal(err)
	}
	if err := s.SetUseChatCompletions(ctx, true); err != nil {
		t.Fatal(err)
	}
	sendAndWait(t, s, "What is a purchase order?")
	ex := lastExecution(t, a)
	if ex.Mode != demoservice.ModeChatCompletions || len(ex.Messages) != 2 || ex.Messages[0].Role != "system" || ex.Messages[0].Content != "Answer in one sentence." {
		t.Fatalf("the instructions should go as the system message of a chat completion, got %s %+v", ex.Mode, ex.Messages)
	}
	reply := storedReply(t, a, s.ID())
	if reply.Status != storage.StatusComplete || reply.Content != ex.Output {
		t.Fatalf("the completion should be stored exactly, got %q want %q", reply.Content, ex.Output)
	}

	// On the ordinary endpoint the same instructions are the developer message.
	_ = s.SetUseChatCompletions(ctx, false)
	sendAndWait(t, s, "And a sales order?")
	if ex := lastExecution(t, a); ex.Messages[0].Role != "developer" {
		t.Fatalf("instructions should be the developer message, got %+v", ex.Messages[0])
	}
}

func TestChatOfflineRefusesAndKeepsDraft(t *testing.T) {
	a := apptest.Open(t)
	s := newChat(t, a)
	s.SetDraft("Please book the meeting room")
	_ = a.Demo().Close()
	err := s.Send(context.Background(), "Please book the meeting room", nil)
	if err == nil || !client.IsOffline(err) {
		t.Fatalf("sending offline should be refused as offline, got %v", err)
	}
	if !strings.Contains(app.Describe(err), "can't reach") {
		t.Fatalf("the refusal should say so plainly, got %q", app.Describe(err))
	}
	if s.Conversation().Draft != "Please book the meeting room" || len(s.Messages()) != 0 {
		t.Fatal("the draft must stay and nothing be stored")
	}
}

func TestChatTwoConversationsStreamAtOnce(t *testing.T) {
	a := apptest.Open(t, paced(5*time.Millisecond))
	s1, s2 := newChat(t, a), newChat(t, a)
	if err := s1.Send(context.Background(), "Explain expenses", nil); err != nil {
		t.Fatal(err)
	}
	if err := s2.Send(context.Background(), "Explain holidays", nil); err != nil {
		t.Fatal(err)
	}
	if !s1.Streaming() || !s2.Streaming() {
		t.Fatal("both conversations should stream at the same time")
	}
	if err := s1.Send(context.Background(), "again", nil); err != app.ErrReplyRunning {
		t.Fatalf("a second send during a reply should be refused, got %v", err)
	}
	s1.Wait()
	s2.Wait()
	for _, s := range []*app.ChatSession{s1, s2} {
		if r := storedReply(t, a, s.ID()); r.Status != storage.StatusComplete || r.Content == "" {
			t.Fatalf("both replies should complete, got %+v", r)
		}
	}
	list, err := a.Chats().List(context.Background(), "holidays")
	if err != nil || len(list) != 1 || list[0].ID != s2.ID() {
		t.Fatalf("search should find the conversation by its messages, got %+v %v", list, err)
	}
}

// A service that sends a reply without end fills neither memory nor disk:
// Agent Desk keeps the first MaxReplyBytes, says why it stopped, and does
// not ask again.
func TestAnEndlessReplyIsCutAtTheLimitAndKept(t *testing.T) {
	const limit = 3<<20 + 1000
	a := apptest.Open(t)
	app.SetMaxReplyBytes(a, limit)
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{ReplyBytes: limit + 3<<20})
	s := newChat(t, a)
	if err := s.Send(context.Background(), "Write everything", nil); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	r := storedReply(t, a, s.ID())
	if len(r.Content) < limit-3 || len(r.Content) > limit || !utf8.ValidString(r.Content) {
		t.Fatalf("kept %d bytes of the reply, want all that fits in %d, whole letters", len(r.Content), limit)
	}
	if r.Status != storage.StatusFailed || !strings.Contains(r.Error, "kept") {
		t.Errorf("reply status %q, note %q: want it to say the text so far is kept", r.Status, r.Error)
	}
	if n := len(apptest.Demo(a).Service.Executions()); n != 1 {
		t.Errorf("the service was asked %d times, want once", n)
	}
}

// A long code block sent in one event of 2 MiB is read whole.
func TestAReplyOf2MiBInOneEventIsReadWhole(t *testing.T) {
	a := apptest.Open(t)
	code := "```\n" + strings.Repeat("total = sum(row for row in sheet)  # 字\n", (2<<20)/40) + "```"
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{Reply: code, OneEvent: true})
	s := newChat(t, a)
	if err := s.Send(context.Background(), "Write the code", nil); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	r := storedReply(t, a, s.ID())
	if r.Status != storage.StatusComplete || r.Content != code {
		t.Fatalf("reply %q with %d of %d bytes, note %q", r.Status, len(r.Content), len(code), r.Error)
	}
}

// An agent title with a line break and a right-to-left override is kept
// for the conversation (and its notifications and history) as one plain
// line.
func TestAChatKeepsItsAgentsTitleOnOneLine(t *testing.T) {
	a := apptest.Open(t)
	ag := chatAgent(t, a)
	ag.Title = "Invoices\u202efdp.exe\nBot"
	s, err := a.Chats().New(context.Background(), ag)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Conversation().AgentTitle; got != "Invoicesfdp.exe Bot" {
		t.Fatalf("the conversation names its agent %q", got)
	}
}

// A pasted block of code keeps its indent when sent; blank lines around
// the message go.
func TestAMessageKeepsTheIndentOfItsFirstLine(t *testing.T) {
	a := apptest.Open(t)
	s := newChat(t, a)
	if err := s.Send(context.Background(), "\n\n    def f():\n        return 1\n\n", nil); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	msgs, err := a.DB().Messages(context.Background(), s.ID())
	if err != nil || len(msgs) == 0 || msgs[0].Content != "    def f():\n        return 1" {
		t.Fatalf("stored %+v %v", msgs, err)
	}
	if got := lastExecution(t, a).Messages; len(got) == 0 || got[len(got)-1].Content != "    def f():\n        return 1" {
		t.Fatalf("the service received %+v", got)
	}
}

// Words typed while a message is on its way stay as the draft; the draft
// that was sent goes.
func TestWordsTypedWhileSendingStayAsTheDraft(t *testing.T) {
	a := apptest.Open(t)
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{SlowFirstByte: 400 * time.Millisecond})
	s := newChat(t, a)
	s.SetDraft("Plan the offsite")
	go func() {
		time.Sleep(100 * time.Millisecond) // the message is on its way
		s.SetDraft("And book the rooms")
	}()
	if err := s.Send(context.Background(), "Plan the offsite", nil); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	if d := s.Conversation().Draft; d != "And book the rooms" {
		t.Fatalf("the words typed while sending should stay as the draft, it is %q", d)
	}

	// words typed after the message in the same box stay, without it
	s.SetDraft("Book the rooms")
	go func() {
		time.Sleep(100 * time.Millisecond)
		s.SetDraft("Book the rooms\nfor Friday")
	}()
	if err := s.Send(context.Background(), "Book the rooms", nil); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	if d := s.Conversation().Draft; d != "for Friday" {
		t.Fatalf("the words typed after the sent ones should stay alone, the draft is %q", d)
	}

	s.SetDraft("Thanks")
	if err := s.Send(context.Background(), "Thanks", nil); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	if d := s.Conversation().Draft; d != "" {
		t.Fatalf("the draft that was sent should go, it is %q", d)
	}
}

// A stored conversation opens from the history without waiting for the
// service (slow, busy or away); the agent's questions, the reply's
// settings, follow when it answers.
func TestAStoredConversationOpensBeforeTheServiceAnswers(t *testing.T) {
	p := storage.PathsIn(t.TempDir())
	a := apptest.Open(t, func(c *app.Config) { c.Paths = p })
	s := newChat(t, a)
	sendAndWait(t, s, "First question about invoices")
	id, asked := s.ID(), len(app.ChatPickers(s.Agent()))
	if asked == 0 {
		t.Fatal("the chat agent should ask how to reply")
	}
	_ = a.Close()

	hold := apptest.NewHolding("/agents/" + string(s.Agent().ID))
	hold.Hold()
	b := apptest.Open(t, func(c *app.Config) { c.Paths = p; c.HTTPClient = &http.Client{Transport: hold} })
	opened := make(chan *app.ChatSession, 1)
	go func() {
		s, err := b.Chats().Open(context.Background(), id)
		if err != nil {
			t.Error(err)
		}
		opened <- s
	}()
	var again *app.ChatSession
	select {
	case again = <-opened:
	case <-time.After(10 * time.Second):
		hold.Let()
		t.Fatal("opening a stored conversation waited for the service")
	}
	if len(again.Messages()) != 2 || again.Agent().Title != s.Agent().Title {
		t.Fatalf("opened with %d messages, the agent named %q", len(again.Messages()), again.Agent().Title)
	}
	hold.Let()
	eventually(t, "the agent read", func() bool { st, _ := again.State().Snapshot(); return st.AgentRead == 1 })
	if got := len(app.ChatPickers(again.Agent())); got != asked {
		t.Fatalf("the agent asks %d questions once read, want %d", got, asked)
	}
}
