package chat

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	hist "github.com/agentdesk/agentdesk/storage"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

// testNav is the shell's navigation as far as the Chats screen uses it.
type testNav struct {
	shown  []string
	choose func()     // what "New chat" does: the screen's ChooseAgent
	ui     *kit.Queue // the test's updates from background work
}

func (n *testNav) Show(screen string)                          { n.shown = append(n.shown, screen) }
func (n *testNav) OpenChat(client.Agent)                       {}
func (n *testNav) ChooseChatAgent()                            { n.choose() }
func (n *testNav) OpenConversation(int64)                      {}
func (n *testNav) AgentTabs(client.Agent) []*container.TabItem { return nil }
func (n *testNav) NewAttachments() screen.Attachments          { return nil }
func (n *testNav) ShowCredits()                                {}
func (n *testNav) Restart()                                    {}
func (n *testNav) OpenAgentWith(app.AgentItem, string)         {}

// ui holds the screen's updates from background work until the test draws
// them.
func ui(s *Screen) *kit.Queue { return s.env.Nav.(*testNav).ui }

// openScreen builds the Chats screen in a test window (testScreen).
func openScreen(t *testing.T, change ...func(*app.Config)) (*Screen, *app.App) {
	t.Helper()
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t, change...)
	w := test.NewTempWindow(t, nil)
	s := testScreen(a, w, q)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1000, 700))
	kit.AnswerDialogKeys(w) // as the shell does
	return s, a
}

// testScreen is the Chats screen in w whose slow work runs synchronously,
// its updates drawn right after it (q), so the test is deterministic.
func testScreen(a *app.App, w fyne.Window, q *kit.Queue) *Screen {
	nav := &testNav{ui: q}
	s := New(screen.Env{App: a, Window: w, Nav: nav}).(*Screen)
	s.goFn = func(f func()) { f(); q.Drain() }
	nav.choose = func() { s.ChooseAgent("") }
	return s
}

func startChat(t *testing.T, s *Screen, a *app.App) *convView {
	t.Helper()
	ag, err := a.Client().GetAgent(context.Background(), "101")
	if err != nil {
		t.Fatal(err)
	}
	s.OpenChat(*ag)
	if s.open == nil {
		t.Fatal("opening a chat agent should open a conversation")
	}
	return s.open
}

// settle waits for the reply to end and draws it.
func settle(v *convView) {
	v.sess.Wait()
	ui(v.s).Drain()
	v.frame()
}

func replyText(t *testing.T, v *convView) string {
	t.Helper()
	last := v.msgs[len(v.msgs)-1]
	rc, ok := v.rows[last.ID]
	if !ok {
		v.bindRow(len(v.msgs)-1, container.NewStack())
		rc = v.rows[last.ID]
	}
	md := markdownIn(rc.obj)
	if md == nil {
		t.Fatal("the reply should be shown as markdown")
	}
	return md.Text()
}

// markdownIn is the first Markdown widget under o.
func markdownIn(o fyne.CanvasObject) *richtext.Markdown {
	if m, ok := o.(*richtext.Markdown); ok {
		return m
	}
	if c, ok := o.(*fyne.Container); ok {
		for _, ch := range c.Objects {
			if m := markdownIn(ch); m != nil {
				return m
			}
		}
	}
	return nil
}

func TestEnterSendsAndReplyIsShown(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	agent := v.sess.Conversation().AgentTitle
	if !strings.Contains(v.title.Text, agent) || v.sub.Visible() {
		t.Fatalf("a new chat names its agent once, in the title: title %q, line under it %q", v.title.Text, v.sub.Text)
	}
	if !v.empty.Visible() || !strings.Contains(kittest.Labels(v.empty), "Write your first message") {
		t.Fatalf("a chat with no message yet says what to do; it shows:\n%s", kittest.Labels(v.empty))
	}
	test.Type(v.entry, "How do I book leave?")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle(v)
	if v.entry.Text != "" {
		t.Fatalf("the composer should be empty after sending, got %q", v.entry.Text)
	}
	msgs, _ := a.DB().Messages(context.Background(), v.sess.ID())
	if len(msgs) != 2 || msgs[0].Content != "How do I book leave?" || msgs[1].Status != hist.StatusComplete {
		t.Fatalf("the message and its reply should be stored, got %+v", msgs)
	}
	if v.empty.Visible() {
		t.Fatal("the empty-chat hint stays over the messages")
	}
	if got := replyText(t, v); got != msgs[1].Content {
		t.Fatalf("the screen shows %q, the reply was %q", got, msgs[1].Content)
	}
	if len(s.convs.Items) != 1 || s.convs.Items[0].Title != "How do I book leave?" {
		t.Fatalf("the conversation list should show the new conversation by its first message, got %+v", s.convs.Items)
	}
	if v.frame(); !v.sub.Visible() || v.sub.Text != "with "+agent {
		t.Fatalf("once the chat is named by its first message, the line under the title names the agent, got %q", v.sub.Text)
	}
}

// "New chat" asks which chat agent the conversation is with: a list of the
// account's chat agents, the first chosen; Up and Down in its search move
// the choice, Enter starts the chat, Esc leaves without one.
func TestNewChatAsksWhichChatAgent(t *testing.T) {
	s, a := openScreen(t)
	s.env.PickerDelay = time.Millisecond
	s.Shown()
	c := s.env.Window.Canvas()
	if !strings.Contains(kittest.AllText(s.Content()), "No conversations yet") {
		t.Fatalf("an empty Chats screen should say how to start:\n%s", kittest.AllText(s.Content()))
	}
	for _, label := range []string{"Start a chat", "New chat"} {
		b := kittest.FindButton(s.Content(), label)
		if b == nil {
			t.Fatalf("no %q button on the empty Chats screen:\n%s", label, kittest.Labels(s.Content()))
		}
		test.Tap(b)
		ui(s).WaitUntil(t, func() bool {
			return c.Overlays().Top() != nil && kittest.FindButton(c.Overlays().Top(), "Start chat") != nil
		},
			func() string { return "the New chat dialog" })
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if c.Overlays().Top() != nil || s.open != nil {
			t.Fatalf("Esc should close %q's dialog and start nothing", label)
		}
	}

	test.Tap(kittest.FindButton(s.Content(), "New chat"))
	var chatAgents []string
	for ag, err := range a.Client().Agents(context.Background(), client.ListAgentsParams{Type: client.AgentChat}) {
		if err != nil {
			t.Fatal(err)
		}
		chatAgents = append(chatAgents, ag.Title)
	}
	var others []string
	for ag, err := range a.Client().Agents(context.Background(), client.ListAgentsParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		if ag.Type != client.AgentChat {
			others = append(others, ag.Title)
		}
	}
	ui(s).WaitUntil(t, func() bool {
		l := overlayText(c)
		return strings.Contains(l, chatAgents[0]) && strings.Contains(l, chatAgents[1])
	}, func() string { return "the chat agents in the dialog:\n" + overlayText(c) })
	for _, title := range others {
		if strings.Contains(overlayText(c), title) {
			t.Fatalf("the New chat dialog lists %q, which is no chat agent", title)
		}
	}
	field := c.Focused()
	if field == nil {
		t.Fatal("the keyboard should be in the dialog's search")
	}
	// Esc with words in the search clears them, and only then closes.
	test.Type(field.(*kit.FormEntry), "zz")
	ui(s).WaitUntil(t, func() bool { return strings.Contains(overlayText(c), "No agent found") }, func() string { return "nothing found for zz" })
	field.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if c.Overlays().Top() == nil || field.(*kit.FormEntry).Text != "" {
		t.Fatal("the first Esc should clear the search and leave the dialog open")
	}
	// The list back has its first agent marked again, so Down goes to the second.
	ui(s).WaitUntil(t, func() bool { return strings.Contains(overlayText(c), chatAgents[1]) }, func() string { return "the list again" })
	field.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	field.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	ui(s).WaitUntil(t, func() bool { return s.open != nil }, func() string { return "the new chat" })
	if got := s.open.sess.Conversation().AgentTitle; got != chatAgents[1] {
		t.Fatalf("Down then Enter started a chat with %q, want the second chat agent, %q", got, chatAgents[1])
	}
	if c.Overlays().Top() != nil {
		t.Fatal("the dialog should close when the chat starts")
	}

	// The next "New chat" chooses the agent of the chat on show.
	test.Tap(kittest.FindButton(s.Content(), "New chat"))
	ui(s).WaitUntil(t, func() bool { return strings.Contains(overlayText(c), chatAgents[1]) },
		func() string { return "the dialog's list" })
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	ui(s).WaitUntil(t, func() bool { return c.Overlays().Top() == nil }, func() string { return "the dialog closed" })
	if got := s.open.sess.Conversation().AgentTitle; got != chatAgents[1] {
		t.Fatalf("Enter started a chat with %q, want the agent of the chat on show, %q", got, chatAgents[1])
	}
}

// overlayText is the text of the dialog open on c, if any.
func overlayText(c fyne.Canvas) string {
	if top := c.Overlays().Top(); top != nil {
		return kittest.AllText(top)
	}
	return ""
}

func TestShiftEnterAddsALine(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	test.Type(v.entry, "first line")
	v.entry.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	v.entry.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	test.Type(v.entry, "second line")
	if v.entry.Text != "first line\nsecond line" {
		t.Fatalf("Shift+Enter should add a line, got %q", v.entry.Text)
	}
	if len(v.sess.Messages()) != 0 {
		t.Fatal("Shift+Enter must not send")
	}
	if v.sess.Conversation().Draft != v.entry.Text {
		t.Fatal("the draft should be kept as it is typed")
	}
}

func TestEscStopsTheReplyAndKeepsText(t *testing.T) {
	s, a := openScreen(t, apptest.WithDemo(demoservice.Options{Pace: 20 * time.Millisecond}))
	v := startChat(t, s, a)
	test.Type(v.entry, "Write a long memo")
	test.Tap(v.sendBtn)
	if !v.stopBtn.Visible() || v.sendBtn.Visible() {
		t.Fatal("while the reply streams, Stop should replace Send")
	}
	for {
		if st, _ := v.sess.State().Snapshot(); st.Live != "" {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.Escape()
	settle(v)
	last := v.msgs[len(v.msgs)-1]
	if last.Status != hist.StatusStopped || last.Content == "" {
		t.Fatalf("a stopped reply keeps its text marked stopped, got %+v", last)
	}
	if replyText(t, v) != last.Content {
		t.Fatal("the kept text should stay on screen")
	}
	if !v.sendBtn.Visible() {
		t.Fatal("Send should come back once the reply stopped")
	}
}

// A reply the history loses while it streams stays on screen whole, and
// the line under the box says it was not all saved and asks to copy it.
func TestAReplyThatCannotBeSavedSaysSo(t *testing.T) {
	s, a := openScreen(t, apptest.WithDemo(demoservice.Options{Pace: 20 * time.Millisecond}))
	v := startChat(t, s, a)
	test.Type(v.entry, "Write a long memo")
	test.Tap(v.sendBtn)
	st, _ := v.sess.State().Snapshot()
	for st.Live == "" {
		time.Sleep(5 * time.Millisecond)
		st, _ = v.sess.State().Snapshot()
	}
	user := st.Messages[len(st.Messages)-2]
	if _, err := a.DB().DeleteMessagesAfter(context.Background(), v.sess.ID(), user.ID); err != nil {
		t.Fatal(err)
	}
	settle(v)
	if !v.errText.Visible() || !strings.Contains(v.errText.Text, "could not save") || !strings.Contains(v.errText.Text, "Copy it") {
		t.Fatalf("the line under the box should say the reply was not all saved, it says %q", v.errText.Text)
	}
	if got, want := replyText(t, v), apptest.Demo(a).Service.Executions()[0].Output; got != want {
		t.Fatalf("the reply on screen is %q, want the whole reply %q", got, want)
	}
}

// Enter pressed twice in quick succession (and again while the reply
// streams) sends one message: the service counts one request, and the
// extra presses show no error.
func TestEnterTwiceSendsOnce(t *testing.T) {
	s, a := openScreen(t, apptest.WithDemo(demoservice.Options{Pace: 10 * time.Millisecond}))
	v := startChat(t, s, a)
	q := ui(s)
	s.goFn = func(f func()) { go f() } // the send runs beside the keys, as in the app
	hold := make(chan struct{})
	apptest.Demo(a).Service.SetFaults(demoservice.Faults{Hold: hold})
	test.Type(v.entry, "Book the meeting room")
	enter := &fyne.KeyEvent{Name: fyne.KeyReturn}
	v.entry.TypedKey(enter)
	time.Sleep(5 * time.Millisecond)
	v.entry.TypedKey(enter)
	q.WaitUntil(t, func() bool { return v.entry.Text == "" }, func() string { return "the composer still holds " + v.entry.Text })
	test.Type(v.entry, "And lunch")
	v.entry.TypedKey(enter) // while the reply streams
	close(hold)
	v.sess.Wait()
	q.Drain()
	v.frame()
	if v.entry.Text != "And lunch" {
		t.Fatalf("a message typed while the reply streams stays in the composer, it holds %q", v.entry.Text)
	}
	if n := len(apptest.Demo(a).Service.Executions()); n != 1 {
		t.Fatalf("Enter pressed three times sent %d messages, want 1", n)
	}
	if v.errText.Visible() && v.errText.Text != "" {
		t.Fatalf("the extra presses should say nothing, the screen says %q", v.errText.Text)
	}
}

func TestOfflineSendKeepsTheDraftAndSaysWhy(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	_ = a.Demo().Close()
	test.Type(v.entry, "Are you there?")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if v.entry.Text != "Are you there?" {
		t.Fatal("the typed message must stay when sending fails")
	}
	if !v.errText.Visible() || !strings.Contains(v.errText.Text, "can't reach") {
		t.Fatalf("the screen should say the service is out of reach, got %q", v.errText.Text)
	}
}

func TestSearchRenameDeleteUndo(t *testing.T) {
	s, a := openScreen(t)
	ctx := context.Background()
	ag, _ := a.Client().GetAgent(ctx, "101")
	for _, text := range []string{"Expenses for the trip", "Holiday rota for December"} {
		sess, err := a.Chats().New(ctx, *ag)
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.Send(ctx, text, nil); err != nil {
			t.Fatal(err)
		}
		sess.Wait()
	}
	s.Shown()
	if len(s.convs.Items) != 2 || s.convs.Items[0].Title != "Holiday rota for December" {
		t.Fatalf("conversations should be listed newest first, got %+v", s.convs.Items)
	}
	test.Type(s.search, "rota")
	if len(s.convs.Items) != 1 || s.convs.Items[0].Title != "Holiday rota for December" {
		t.Fatalf("search should find the matching conversation, got %+v", s.convs.Items)
	}
	s.search.SetText("")

	s.convs.Select(1)
	if s.open == nil || s.open.sess.Conversation().Title != "Expenses for the trip" {
		t.Fatal("selecting a conversation should open it")
	}
	s.renameChat(s.open.sess.ID(), "Trip costs")
	if s.open.title.Text != "Trip costs" && s.open.sess.Conversation().Title != "Trip costs" {
		t.Fatal("rename should change the title")
	}
	found := false
	for _, c := range s.convs.Items {
		found = found || c.Title == "Trip costs"
	}
	if !found {
		t.Fatalf("the list should show the new title, got %+v", s.convs.Items)
	}

	s.open.remove()
	if len(s.convs.Items) != 1 || s.open != nil {
		t.Fatalf("a deleted conversation leaves the list and closes, got %+v", s.convs.Items)
	}
	if len(s.undo.Objects) != 1 {
		t.Fatal("deleting should offer Undo")
	}
	bar := s.undo.Objects[0].(*fyne.Container)
	var undo *kit.Button
	for _, o := range bar.Objects {
		if b, ok := o.(*kit.Button); ok {
			undo = b
		}
	}
	test.Tap(undo)
	if len(s.convs.Items) != 2 {
		t.Fatalf("Undo should bring the conversation back, got %+v", s.convs.Items)
	}
	// The conversation brought back opens, with its messages.
	for i, c := range s.convs.Items {
		if c.Title == "Trip costs" {
			s.convs.Select(i)
		}
	}
	if s.open == nil || s.open.sess.Conversation().Title != "Trip costs" || len(s.open.msgs) != 2 {
		t.Fatal("the conversation brought back by Undo should open with its messages")
	}
}

// slowFiles are attachments whose upload ends when the test says (finish).
type slowFiles struct {
	pending atomic.Bool
	state   *live.State[app.UploadsState]
}

func newSlowFiles() *slowFiles {
	f := &slowFiles{state: live.NewState(app.UploadsState{Items: []*app.Upload{{ID: 1, Name: "notes.txt", State: app.UploadSending}}})}
	f.pending.Store(true)
	return f
}

func (f *slowFiles) finish() {
	f.pending.Store(false)
	f.state.Set(app.UploadsState{Items: []*app.Upload{{ID: 1, Name: "notes.txt", State: app.UploadDone}}, Done: 1})
}

func (f *slowFiles) State() live.Observable[app.UploadsState] { return f.state }

func (f *slowFiles) Dropped([]string)          {}
func (f *slowFiles) DropHint() (string, bool)  { return "attach", true }
func (f *slowFiles) Object() fyne.CanvasObject { return widget.NewLabel("") }
func (f *slowFiles) FileIDs() []client.ID      { return nil }
func (f *slowFiles) Pending() bool             { return f.pending.Load() }
func (f *slowFiles) Clear()                    {}
func (f *slowFiles) AddFiles()                 {}

func TestMessageWaitingForItsFilesIsSentOnceAndNotAfterTheViewCloses(t *testing.T) {
	for _, closeFirst := range []bool{false, true} {
		t.Run(map[bool]string{false: "sent once", true: "view closed"}[closeFirst], func(t *testing.T) {
			s, a := openScreen(t)
			v := startChat(t, s, a)
			q := ui(s)
			files := newSlowFiles()
			v.attach = files
			v.entry.SetText("Summarise the attached notes")
			v.send()
			v.send() // Enter again while the files upload
			if closeFirst {
				v.detach()
			}
			files.finish()
			if closeFirst { // nothing to wait for: a send would follow the uploads' news within a frame
				time.Sleep(5 * kit.Frame)
			} else {
				q.WaitUntil(t, func() bool { return !v.waitingToSend }, func() string { return "the message still waits" })
			}
			q.Drain()
			v.sess.Wait()
			want := 1
			if closeFirst {
				want = 0
			}
			if n := len(apptest.Demo(a).Service.Executions()); n != want {
				t.Fatalf("%d messages sent, want %d", n, want)
			}
		})
	}
}

// A reply that names a picture shows its description and a button; the
// picture is fetched only after the button, and its row grows to show it.
func TestAReplysPictureShowsOnlyWhenAsked(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	test.Type(v.entry, "Could you make a sketch of the new office?")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle(v)
	last := v.msgs[len(v.msgs)-1]
	v.bindRow(len(v.msgs)-1, container.NewStack())
	rc := v.rows[last.ID]
	before := rc.h
	var show *kit.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if b, ok := o.(*kit.Button); ok && b.Text == richtext.ShowPictures() {
			show = b
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, ch := range c.Objects {
				walk(ch)
			}
		}
	}
	walk(rc.obj)
	if show == nil {
		t.Fatalf("a reply naming a picture offers no button to show it: %q", last.Content)
	}
	pics := markdownIn(rc.obj).Pictures()
	if len(pics) != 1 || pics[0].Loaded() {
		t.Fatalf("pictures %v before asking, want one not loaded", pics)
	}
	test.Tap(show)
	ui(s).WaitUntil(t, func() bool { return pics[0].Loaded() || pics[0].Err() != nil }, func() string { return "the picture is still loading" })
	if !pics[0].Loaded() {
		t.Fatalf("the picture did not load: %v", pics[0].Err())
	}
	ui(s).WaitUntil(t, func() bool {
		v.bindRow(len(v.msgs)-1, container.NewStack())
		return v.rows[last.ID].h > before+100
	}, func() string { return "the row did not grow to show the picture" })
}

// storeMessages adds n questions, each answered with reply, to the stored
// conversation id (as if it had been held on another day).
func storeMessages(tb testing.TB, a *app.App, id int64, n int, reply string) {
	tb.Helper()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		if _, err := a.DB().AddMessage(ctx, hist.Message{ConversationID: id, Role: hist.RoleUser, Content: fmt.Sprintf("Question %d about the budget?", i)}); err != nil {
			tb.Fatal(err)
		}
		if _, err := a.DB().AddMessage(ctx, hist.Message{ConversationID: id, Role: hist.RoleAssistant, Content: reply}); err != nil {
			tb.Fatal(err)
		}
	}
	a.Chats().Forget(id)
}

// storedChat is a new stored conversation with the first chat agent
// holding n questions answered with reply.
func storedChat(tb testing.TB, a *app.App, n int, reply string) int64 {
	tb.Helper()
	ctx := context.Background()
	ag, err := a.Client().GetAgent(ctx, "101")
	if err != nil {
		tb.Fatal(err)
	}
	sess, err := a.Chats().New(ctx, *ag)
	if err != nil {
		tb.Fatal(err)
	}
	storeMessages(tb, a, sess.ID(), n, reply)
	return sess.ID()
}

// reopen closes the open conversation and opens id again from storage.
func reopen(s *Screen, id int64) *convView {
	s.closeOpen()
	s.OpenConversation(id)
	ui(s).Drain()
	return s.open
}

// A reply is laid out once: the text that showed it while it arrived shows
// it, whole, once it has ended, and still after the next question (only
// the buttons under it change). Where a footnote came after its mark, the
// block with the mark is built again, so that the mark reads [1].
func TestAReplyIsLaidOutOnce(t *testing.T) {
	s, a := openScreen(t, apptest.WithDemo(demoservice.Options{Pace: 5 * time.Millisecond}))
	v := startChat(t, s, a)
	// ask sends q and returns the text showing the reply while it arrives,
	// once arrived shows true; a hold keeps the reply from ending before.
	svc := apptest.Demo(a).Service
	ask := func(q string, hold chan struct{}, arrived func(*richtext.Markdown) bool) *richtext.Markdown {
		test.Type(v.entry, q)
		v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		ui(s).WaitUntil(t, func() bool { v.frame(); return v.live != nil && arrived(v.live) }, func() string { return "no reply arriving" })
		streamed := v.live
		if hold != nil {
			close(hold)
		}
		settle(v)
		return streamed
	}
	started := func(*richtext.Markdown) bool { return true }
	held := func() chan struct{} {
		hold := make(chan struct{})
		svc.SetFaults(demoservice.Faults{Hold: hold})
		return hold
	}
	// shown is the text of the reply at i, as the list draws it.
	shown := func(i int) *richtext.Markdown {
		v.bindRow(i, container.NewStack())
		return markdownIn(v.rows[v.msgs[i].ID].obj)
	}
	streamed := ask("Please write a long answer", held(), started)
	reply := v.msgs[1]
	if got := shown(1); got != streamed || got.Text() != reply.Content {
		t.Fatalf("the ended reply should be shown by the text that showed it arriving (same: %v), whole (%d of %d bytes)", got == streamed, len(got.Text()), len(reply.Content))
	}
	if got, want := kittest.AllText(streamed), kittest.AllText(richtext.NewMarkdown(reply.Content, nil)); got != want {
		t.Fatalf("the reply should read as one built from its whole text:\n%s\nnot:\n%s", want, got)
	}
	ask("Next question", held(), started)
	if got := shown(1); got != streamed {
		t.Fatal("the first reply should keep its text when it is no longer the last")
	}

	// the block with the mark is finished before the note arrives
	svc.SetFaults(demoservice.Faults{Reply: "Costs rose[^1] this year.\n\n" + strings.Repeat("The rest is on plan. ", 100) + "\n\n[^1]: Before tax."})
	streamed = ask("And the costs?", nil, func(m *richtext.Markdown) bool { return m.AwaitsNotes() })
	got := shown(len(v.msgs) - 1)
	if text := kittest.AllText(got); got != streamed || strings.Contains(text, "[^1]") || strings.Count(text, "[1]") != 2 {
		t.Fatalf("a reply whose footnote came after its mark should keep its text (kept: %v), the mark reading [1]: %q", got == streamed, text)
	}
}

// Ctrl+Enter sends as Enter does, in the box and wherever else the
// keyboard is (the window gives it to the screen); Space on the focused
// Send button sends nothing (a message costs credits).
func TestCtrlEnterSendsAndSpaceOnSendDoesNot(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	test.Type(v.entry, "Book the meeting room")
	s.env.Window.Canvas().Focus(v.sendBtn)
	v.sendBtn.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	settle(v)
	if n := len(apptest.Demo(a).Service.Executions()); n != 0 || v.entry.Text == "" {
		t.Fatalf("Space on Send sent %d messages; the box holds %q", n, v.entry.Text)
	}
	s.Submit()
	settle(v)
	test.Type(v.entry, "And lunch")
	v.entry.TypedShortcut(kit.CtrlEnterShortcut)
	settle(v)
	if n := len(apptest.Demo(a).Service.Executions()); n != 2 || v.entry.Text != "" {
		t.Fatalf("Ctrl+Enter should have sent both messages: %d sent, the box holds %q", n, v.entry.Text)
	}
}

// Ctrl+K in the message box reaches the window (which opens the agents
// search) and leaves the box as it was.
func TestCtrlKInTheMessageBoxReachesTheWindow(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	searches := 0
	s.env.Window.Canvas().AddShortcut(kit.SearchShortcut, func(fyne.Shortcut) { searches++ })
	test.Type(v.entry, "Half a question")
	v.entry.TypedShortcut(kit.SearchShortcut)
	if searches != 1 || v.entry.Text != "Half a question" {
		t.Fatalf("Ctrl+K reached the window %d times; the box holds %q", searches, v.entry.Text)
	}
	// F1 too (the list of keys), which Fyne gives the box alone.
	var keys []fyne.KeyName
	s.env.Window.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { keys = append(keys, ev.Name) })
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF1})
	if len(keys) != 1 || keys[0] != fyne.KeyF1 {
		t.Fatalf("F1 in the message box should reach the window, it got %v", keys)
	}
	// Tab leaves the box (Fyne's window types it into a box that takes it).
	if v.entry.AcceptsTab() {
		t.Fatal("Tab in the message box types a tab instead of moving to Send")
	}
}

// shownIn reports whether target is on show under o: it and every object
// between them visible.
func shownIn(o, target fyne.CanvasObject) bool {
	if !o.Visible() {
		return false
	}
	if o == target {
		return true
	}
	for _, c := range kittest.Children(o) {
		if shownIn(c, target) {
			return true
		}
	}
	return false
}

// findCheck is the first check box under o whose text starts with text.
func findCheck(o fyne.CanvasObject, text string) *kit.Check {
	if c, ok := o.(*kit.Check); ok && strings.HasPrefix(c.Text, text) {
		return c
	}
	for _, c := range kittest.Children(o) {
		if f := findCheck(c, text); f != nil {
			return f
		}
	}
	return nil
}

// selectsIn are the choices under o, in order.
func selectsIn(o fyne.CanvasObject) []*kit.Select {
	if s, ok := o.(*kit.Select); ok {
		return []*kit.Select{s}
	}
	var out []*kit.Select
	for _, c := range kittest.Children(o) {
		out = append(out, selectsIn(c)...)
	}
	return out
}

// The chat's choices read in plain words: the style of the reply, models
// by name, where it looks things up; the temperature's numbers and the
// compatibility switch wait in an Advanced fold, closed at first and
// remembered. What is sent is the service's own value.
func TestChatChoicesSpeakPlainWords(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	// One button holds them, its line shows their answers.
	if got := v.summary.Text; got != "Precise · GPT-4o (August 2024) · Nothing, only what it knows" {
		t.Fatalf("the settings' line reads %q", got)
	}
	test.Tap(v.settingsBtn)
	box := s.env.Window.Canvas().Overlays().Top()
	if box == nil {
		t.Fatal("Reply settings should open the settings")
	}
	text := kittest.AllText(box)
	for _, want := range []string{"Style", "Model", "Looks up"} {
		if !strings.Contains(text, want) {
			t.Errorf("the chat's choices should include %q:\n%s", want, text)
		}
	}
	var style, model, tools, numbers *kit.Select
	for _, sel := range selectsIn(box) {
		switch {
		case slices.Contains(sel.Options, "Balanced"):
			style = sel
		case slices.Contains(sel.Options, "0.25"):
			numbers = sel
		case slices.Contains(sel.Options, "The web"):
			tools = sel
		case slices.ContainsFunc(sel.Options, func(o string) bool { return strings.HasPrefix(o, "GPT-4o") }):
			model = sel
		}
	}
	if style == nil || model == nil || tools == nil || numbers == nil {
		t.Fatalf("style %v, model %v, tools %v, numbers %v", style != nil, model != nil, tools != nil, numbers != nil)
	}
	if !slices.Equal(style.Options, []string{"Precise", "Balanced", "Creative"}) {
		t.Fatalf("the styles are %v", style.Options)
	}
	for _, o := range append(append([]string{}, model.Options...), tools.Options...) {
		if strings.Contains(o, "-tools") || o == "internet" || strings.HasPrefix(o, "claude-") {
			t.Errorf("a choice shows the service's id %q", o)
		}
	}
	if shownIn(box, numbers) || v.sess.Conversation().UseChatCompletions {
		t.Fatal("the numbers belong in the Advanced fold, closed at first")
	}
	test.Tap(kittest.FindButton(box, "Advanced"))
	if !shownIn(box, numbers) {
		t.Fatal("Advanced should show the temperature's numbers")
	}

	// A style is sent as its number, and the numbers follow it.
	style.SetSelected("Creative")
	if got := v.sess.Conversation().Answers["temperature"]; got != "1" || numbers.Selected != "1" {
		t.Fatalf("Creative should answer temperature 1 (answer %q, numbers show %q)", got, numbers.Selected)
	}
	numbers.SetSelected("0.25")
	if got := v.sess.Conversation().Answers["temperature"]; got != "0.25" || style.Selected != "" || style.PlaceHolder != "Custom" {
		t.Fatalf("0.25 is no style: answer %q, style shows %q", got, style.Selected)
	}
	tools.SetSelected("The web")
	test.Tap(kittest.FindButton(box, "Close"))
	if got := v.summary.Text; got != "Custom · GPT-4o (August 2024) · The web" {
		t.Fatalf("after the settings close their line reads %q", got)
	}
	test.Type(v.entry, "Where is the meeting?")
	v.send()
	settle(v)
	ex := apptest.Demo(a).Service.Executions()
	if len(ex) != 1 || ex[0].Answers["tools"] != "internet" || fmt.Sprint(ex[0].Answers["temperature"]) != "0.25" {
		t.Fatalf("the service should get its own values, got %v", ex[len(ex)-1].Answers)
	}
	// The reply can be saved (the question has Copy only).
	if rc := v.rows[v.msgs[1].ID]; rc == nil || kittest.FindButton(rc.obj, "Save as…") == nil {
		t.Fatal("a reply should offer Save as…")
	}
	if rc := v.rows[v.msgs[0].ID]; rc != nil && kittest.FindButton(rc.obj, "Save as…") != nil {
		t.Fatal("the user's own message offers Save as…")
	}
	// The compatibility switch is in the fold too.
	test.Tap(v.settingsBtn)
	box = s.env.Window.Canvas().Overlays().Top()
	cc := findCheck(box, "Compatibility mode")
	if cc == nil || !shownIn(box, cc) {
		t.Fatal("the Advanced fold should hold the compatibility switch")
	}
	test.Tap(cc)
	if !v.sess.Conversation().UseChatCompletions {
		t.Fatal("the switch should turn compatibility mode on")
	}
	a.Close()
	if !a.Settings().ShowAdvanced {
		t.Fatal("the open fold should be remembered")
	}
}

// The list reloading (a search typed, the screen shown again) leaves what
// the right shows while a conversation opens or failed to: only the empty
// state follows the list.
func TestReloadingTheListLeavesAnOpeningConversation(t *testing.T) {
	s, _ := openScreen(t)
	s.Shown()
	if !strings.Contains(kittest.AllText(s.right), "No conversations yet") {
		t.Fatalf("the empty screen shows %q", kittest.AllText(s.right))
	}
	s.setRight(kit.Loading("Opening the conversation…"))
	test.Type(s.search, "x")
	s.reload()
	if got := kittest.AllText(s.right); !strings.Contains(got, "Opening the conversation") {
		t.Fatalf("a reload replaced the opening conversation with %q", got)
	}
}

// A reply whose stream was cut and then fetched whole is a finished reply:
// it offers Regenerate like any other, never Retry, and shows no error.
func TestAReplyRecoveredWholeOffersNoRetry(t *testing.T) {
	s, a := openScreen(t, apptest.WithDemo(demoservice.Options{Faults: demoservice.Faults{CutStreamAfter: 2}}))
	v := startChat(t, s, a)
	test.Type(v.entry, "How do I book leave?")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle(v)
	msgs, _ := a.DB().Messages(context.Background(), v.sess.ID())
	if len(msgs) != 2 || msgs[1].Status != hist.StatusRecovered {
		t.Fatalf("the cut reply should be recovered, got %+v", msgs)
	}
	last := v.msgs[len(v.msgs)-1]
	if _, ok := v.rows[last.ID]; !ok {
		v.bindRow(len(v.msgs)-1, container.NewStack())
	}
	row := v.rows[last.ID].obj
	if kittest.FindButton(row, "Regenerate") == nil || kittest.FindButton(row, "Retry") != nil {
		t.Fatalf("a reply recovered whole should offer Regenerate, not Retry:\n%s", kittest.AllText(row))
	}
	if v.errText.Visible() {
		t.Fatalf("a recovered reply shows an error: %q", v.errText.Text)
	}
}

// A stored conversation shows before the service has described its agent
// (slow, busy or away), its reply settings blank meanwhile; they show,
// with the conversation's answers, once it has.
func TestAConversationShowsItsSettingsOnceTheAgentIsRead(t *testing.T) {
	hold := apptest.NewHolding("/agents/101")
	s, a := openScreen(t, func(c *app.Config) { c.HTTPClient = &http.Client{Transport: hold} })
	id := storedChat(t, a, 2, "Paid within 30 days.")
	a.Chats().Forget(id)
	hold.Hold()
	v := reopen(s, id)
	if v == nil || len(v.msgs) != 4 {
		t.Fatal("the conversation should show from the history while the service is slow")
	}
	if v.summary.Text != "" {
		t.Fatalf("the settings' line reads %q before the agent is read", v.summary.Text)
	}
	hold.Let()
	ui(s).WaitUntil(t, func() bool { return v.summary.Text != "" }, func() string { return "the settings never showed" })
	if got := v.summary.Text; got != "Precise · GPT-4o (August 2024) · Nothing, only what it knows" {
		t.Fatalf("the settings' line reads %q", got)
	}
}
