package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// ContinuePrompt is what "Continue" sends after a cut-off reply, in the language in use.
func ContinuePrompt() string { return lang.L("Please continue where you left off.") }

// ErrReplyRunning refuses a send while a reply arrives: never two user messages in a row.
var ErrReplyRunning = say(func() string { return lang.L("a reply is still arriving: wait for it to finish or stop it first") })

// ErrEmptyMessage refuses sending nothing.
var ErrEmptyMessage = say(func() string { return lang.L("type a message first") })

// ChatPhase is where a conversation is in answering; while busy nothing more is sent.
type ChatPhase int

// The phases of a conversation.
const (
	// ChatIdle: opened, nothing sent since.
	ChatIdle ChatPhase = iota
	// ChatSending: the service is being asked to take the message.
	ChatSending
	// ChatStreaming: the reply arrives.
	ChatStreaming
	// ChatRecovering: the stream was cut; the reply is fetched without rerunning the agent.
	ChatRecovering
	// ChatDone: the last reply is complete.
	ChatDone
	// ChatFailed: the last reply failed; ChatState.Err says why.
	ChatFailed
	// ChatStopped: the user stopped the last reply.
	ChatStopped
)

// Busy reports whether a message is on its way or being answered.
func (p ChatPhase) Busy() bool {
	return p == ChatSending || p == ChatStreaming || p == ChatRecovering
}

// ChatState is a conversation as its screen shows it; its slices and maps are shared.
type ChatState struct {
	Phase        ChatPhase
	Conversation Conversation
	// Messages are oldest first; the streaming reply's text is Live.
	Messages []Message
	LiveID   int64
	Live     string
	// WaitingUntil is when the service will take the message after a 429.
	WaitingUntil time.Time
	// Err is why the last reply failed.
	Err error
	// SaveErr is why the last reply, shown whole, is not all in the history.
	SaveErr error
	// Changes counts every change but streamed text, so a screen knows
	// when to rebuild rows rather than append.
	Changes uint64
	// Ended counts the replies that ended (complete, stopped or failed).
	Ended uint64
	// AgentRead counts the times the agent was read from the service: its
	// questions (the reply's settings) may have changed.
	AgentRead uint64
}

// chatHub keeps one session per conversation, so a stream outlives its screen.
type chatHub struct {
	mu       sync.Mutex
	sessions map[int64]*ChatSession
	finished *live.State[[]ChatFinished]
	maxReply int // MaxReplyBytes, smaller in tests
}

// ChatFinished says a reply ended, for a notification when the user looks elsewhere.
type ChatFinished struct {
	// Seq numbers the replies that ended since start, from 1.
	Seq            uint64
	ConversationID int64
	Title          string
	AgentTitle     string
	Status         string // storage.StatusComplete, StatusStopped or StatusFailed
}

// finishedKept is more replies than can end between two frames.
const finishedKept = 16

// Finished are the replies that ended last, in any conversation, oldest first.
func (svc *Chats) Finished() live.Observable[[]ChatFinished] { return svc.a.chat.finished }

// ChatSession is one conversation and its reply stream, owned here, not by a screen.
type ChatSession struct {
	a *App

	// state is the one copy of the conversation, its messages and its phase;
	// its slices are replaced, never changed in place. The streaming reply's
	// text is the stream's own (Live shares it).
	state *live.State[ChatState]

	mu    sync.Mutex
	agent client.Agent
	// draft is the text typed but not sent: kept apart, so typing publishes nothing.
	draft string
	// stop ends the reply under way, from its request to its recovery, with
	// errStopped or errQuitting as the cause the reply is saved by.
	stop context.CancelCauseFunc
	done chan struct{}
}

// The causes a reply ends early by: the user stopped it, or Agent Desk closed.
var (
	errStopped  = errors.New("stopped")
	errQuitting = errors.New("quitting")
)

func newChatSession(a *App, conv storage.Conversation, msgs []storage.Message) *ChatSession {
	return &ChatSession{a: a, draft: conv.Draft, state: live.NewState(ChatState{Conversation: conv, Messages: msgs, Changes: 1})}
}

func (s *ChatSession) State() live.Observable[ChatState] { return s.state }

// change publishes edit of the state; every change but streamed text counts in Changes.
func (s *ChatSession) change(edit func(st *ChatState)) ChatState {
	return s.state.Update(func(st ChatState) ChatState {
		edit(&st)
		if !time.Now().Before(st.WaitingUntil) {
			st.WaitingUntil = time.Time{}
		}
		st.Changes++
		return st
	})
}

// New starts a conversation with a chat agent, answered as the user answered last time.
func (svc *Chats) New(ctx context.Context, agent client.Agent) (*ChatSession, error) {
	a := svc.a
	if agent.Inactive() {
		return nil, ErrAgentInactive
	}
	conv, err := a.db.CreateConversation(ctx, storage.Conversation{
		AccountID:  a.AccountID(),
		AgentID:    string(agent.ID),
		AgentTitle: safe.Text(agent.Title, 0),
		Title:      NewChatTitle(agent.Title),
		Answers:    DefaultChatAnswers(agent, a.Settings().LastAnswers[string(agent.ID)]),
	})
	if err != nil {
		return nil, err
	}
	s := newChatSession(a, conv, nil)
	s.agent = agent
	return a.chat.keep(s), nil
}

// DefaultChatAnswers fills select questions from last when still offered, else the first option.
func DefaultChatAnswers(agent client.Agent, last map[string]string) map[string]string {
	out := map[string]string{}
	for _, q := range ChatPickers(agent) {
		v := last[q.Name]
		if !slices.Contains(q.Options, v) && len(q.Options) > 0 {
			v = q.Options[0]
		}
		out[q.Name] = v
	}
	return out
}

// ChatPickers are the agent's select questions, shown as pickers above the composer.
func ChatPickers(agent client.Agent) []client.Question {
	var out []client.Question
	for _, q := range agent.Questions {
		if q.Type == client.QuestionSelect && len(q.Options) > 0 && q.Name != "root_id" && q.Name != "messages" {
			out = append(out, q)
		}
	}
	return out
}

// Open returns a stored conversation's session: the running one while it streams.
func (svc *Chats) Open(ctx context.Context, id int64) (*ChatSession, error) {
	a := svc.a
	if s := a.liveSession(id); s != nil {
		return s, nil
	}
	conv, err := a.db.GetConversation(ctx, id)
	if err != nil {
		return nil, err
	}
	msgs, err := a.db.Messages(ctx, id)
	if err != nil {
		return nil, err
	}
	s := newChatSession(a, conv, msgs)
	s.agent = client.Agent{ID: client.ID(conv.AgentID), Title: conv.AgentTitle, Type: client.AgentChat}
	kept := a.chat.keep(s)
	if kept == s {
		// What is stored shows at once, also with the service slow or
		// away; the agent's questions follow when it answers.
		c := a.Client()
		a.Go(func() { s.readAgent(a.life, c) })
	}
	return kept, nil
}

// readAgent reads the agent the conversation is with from the service; a
// failure leaves the agent as the history names it.
func (s *ChatSession) readAgent(ctx context.Context, c *client.Client) {
	ag, err := c.GetAgent(ctx, s.Agent().ID)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.agent = *ag
	s.mu.Unlock()
	s.state.Update(func(st ChatState) ChatState { st.AgentRead++; return st })
}

// keep registers s, unless its conversation has a session already.
func (h *chatHub) keep(s *ChatSession) *ChatSession {
	id := s.ID()
	h.mu.Lock()
	defer h.mu.Unlock()
	if cur, ok := h.sessions[id]; ok {
		return cur
	}
	h.sessions[id] = s
	return s
}

// List returns the account's conversations, newest first, filtered by every word of query.
func (svc *Chats) List(ctx context.Context, query string) ([]storage.Conversation, error) {
	a := svc.a
	query = strings.TrimSpace(query)
	if query == "" {
		return a.db.ListConversations(ctx, storage.ListParams{AccountID: a.AccountID(), Limit: 1000})
	}
	byTitle, err := a.db.SearchConversations(ctx, a.AccountID(), query, 200)
	if err != nil {
		return nil, err
	}
	hits, err := a.db.SearchMessages(ctx, a.AccountID(), query, 200)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	out := make([]storage.Conversation, 0, len(byTitle)+len(hits))
	for _, c := range byTitle {
		seen[c.ID] = true
		out = append(out, c)
	}
	for _, h := range hits {
		if seen[h.ConversationID] {
			continue
		}
		seen[h.ConversationID] = true
		if c, err := a.db.GetConversation(ctx, h.ConversationID); err == nil {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].UpdatedAt.After(out[j].UpdatedAt) })
	return out, nil
}

// Rename changes a conversation's title.
func (svc *Chats) Rename(ctx context.Context, id int64, title string) error {
	a := svc.a
	title = strings.TrimSpace(title)
	if title == "" {
		return say(func() string { return lang.L("a conversation needs a title") })
	}
	if err := a.db.RenameConversation(ctx, id, title); err != nil {
		return err
	}
	if s := a.liveSession(id); s != nil {
		s.change(func(st *ChatState) { st.Conversation.Title = title })
	}
	return nil
}

// Delete hides a conversation (RestoreChat undoes it) and stops its reply.
func (svc *Chats) Delete(ctx context.Context, id int64) error {
	if s := svc.a.liveSession(id); s != nil {
		s.Stop()
	}
	return svc.a.db.DeleteConversation(ctx, id)
}

// Restore undoes DeleteChat.
func (svc *Chats) Restore(ctx context.Context, id int64) error {
	return svc.a.db.RestoreConversation(ctx, id)
}

func (a *App) liveSession(id int64) *ChatSession {
	h := a.chat
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

// Forget drops a session no screen shows, unless its reply still streams.
func (svc *Chats) Forget(id int64) {
	h := svc.a.chat
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.sessions[id]; ok && !s.Streaming() && s.state.Subscribers() == 0 {
		delete(h.sessions, id)
	}
}

func (s *ChatSession) ID() int64 { return s.state.Get().Conversation.ID }

// Conversation is a copy of the conversation's record, with the draft as typed.
func (s *ChatSession) Conversation() storage.Conversation {
	c := s.state.Get().Conversation
	c.Answers = maps.Clone(c.Answers)
	c.Draft = locked(&s.mu, func() string { return s.draft })
	return c
}

// Agent is the agent the conversation is with.
func (s *ChatSession) Agent() client.Agent {
	return locked(&s.mu, func() client.Agent { return s.agent })
}

// Messages is a copy of the messages, oldest first.
func (s *ChatSession) Messages() []storage.Message {
	st := s.state.Get()
	out := append(make([]storage.Message, 0, len(st.Messages)), st.Messages...)
	if st.LiveID != 0 && len(out) > 0 && out[len(out)-1].ID == st.LiveID {
		out[len(out)-1].Content = st.Live
	}
	return out
}

// Streaming reports whether a message is on its way or being answered.
func (s *ChatSession) Streaming() bool { return s.state.Get().Phase.Busy() }

// Wait blocks until the streaming reply (if any) has ended and been saved.
func (s *ChatSession) Wait() {
	if d := locked(&s.mu, func() chan struct{} { return s.done }); d != nil {
		<-d
	}
}

// SetDraft keeps the text typed but not sent; it is written after a pause.
func (s *ChatSession) SetDraft(text string) {
	s.mu.Lock()
	s.draft = text
	s.mu.Unlock()
	s.a.drafts.chats.set(s.ID(), text)
}

// SetAnswer changes one picker and remembers it for the agent's next chat.
func (s *ChatSession) SetAnswer(ctx context.Context, name, value string) error {
	return s.save(ctx, func(c *storage.Conversation) {
		answers := maps.Clone(c.Answers) // published snapshots share the old map
		if answers == nil {
			answers = map[string]string{}
		}
		answers[name] = value
		c.Answers = answers
	})
}

// SetInstructions sets the instructions sent first with every message.
func (s *ChatSession) SetInstructions(ctx context.Context, text string) error {
	return s.save(ctx, func(c *storage.Conversation) { c.DeveloperMessage = strings.TrimSpace(text) })
}

// SetUseChatCompletions switches to the chat-completions endpoint, or back.
func (s *ChatSession) SetUseChatCompletions(ctx context.Context, on bool) error {
	return s.save(ctx, func(c *storage.Conversation) { c.UseChatCompletions = on })
}

func (s *ChatSession) save(ctx context.Context, change func(*storage.Conversation)) error {
	s.change(func(st *ChatState) { change(&st.Conversation) })
	return s.a.db.UpdateConversation(ctx, s.Conversation())
}

// Send sends a user message and streams the reply; on error nothing is stored.
func (s *ChatSession) Send(ctx context.Context, text string, fileIDs []client.ID) error {
	// a pasted block keeps its indent
	text = strings.TrimRight(strings.TrimLeft(text, "\r\n"), " \t\r\n")
	if strings.TrimSpace(text) == "" {
		return ErrEmptyMessage
	}
	if s.Streaming() {
		return ErrReplyRunning
	}
	user := storage.Message{ConversationID: s.ID(), Role: storage.RoleUser, Content: text, Status: storage.StatusComplete}
	for _, f := range fileIDs {
		user.FileIDs = append(user.FileIDs, string(f))
	}
	if err := s.start(ctx, user); err != nil {
		return err
	}
	// A recent agent not kept costs only the Recent list.
	_ = s.a.Agents().Used(ctx, locked(&s.mu, func() client.Agent { return s.agent }))
	// Words typed while the message was on its way are a new draft.
	draft := locked(&s.mu, func() string { return s.draft })
	if rest, ok := strings.CutPrefix(strings.TrimLeft(draft, "\r\n"), text); ok {
		// what was typed after the sent words stays, without them
		s.SetDraft(strings.TrimLeft(rest, " \t\r\n"))
	}
	return nil
}

// Continue asks the agent to go on after a reply that was cut off.
func (s *ChatSession) Continue(ctx context.Context) error {
	return s.Send(ctx, ContinuePrompt(), nil)
}

// Retry replaces the last reply with a new one.
func (s *ChatSession) Retry(ctx context.Context) error {
	if s.Streaming() {
		return ErrReplyRunning
	}
	msgs := s.Messages()
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == storage.RoleUser {
			last = i
			break
		}
	}
	if last < 0 {
		return say(func() string { return lang.L("there is no message to answer yet") })
	}
	return s.start(ctx, msgs[last])
}

// Edit changes a user message and resends it, dropping every message after it.
func (s *ChatSession) Edit(ctx context.Context, messageID int64, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return ErrEmptyMessage
	}
	if s.Streaming() {
		return ErrReplyRunning
	}
	for _, m := range s.Messages() {
		if m.ID == messageID && m.Role == storage.RoleUser {
			m.Content = text
			return s.start(ctx, m)
		}
	}
	return say(func() string { return lang.L("that message is no longer in the conversation") })
}

// history is the turns before upTo, without an unanswered user message or empty replies.
func (s *ChatSession) history(upTo int64) []storage.Message {
	msgs := s.Messages()
	var out []storage.Message
	for _, m := range msgs {
		if upTo != 0 && m.ID == upTo {
			break
		}
		if m.Role != storage.RoleUser && m.Role != storage.RoleAssistant {
			continue
		}
		if m.Role == storage.RoleAssistant && strings.TrimSpace(m.Content) == "" {
			if n := len(out); n > 0 && out[n-1].Role == storage.RoleUser {
				out = out[:n-1]
			}
			continue
		}
		if m.Role == storage.RoleUser && len(out) > 0 && out[len(out)-1].Role == storage.RoleUser {
			out = out[:len(out)-1]
		}
		out = append(out, m)
	}
	return out
}

// MaxReplyBytes is the most of one reply kept.
const MaxReplyBytes = 64 << 20

func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:max(n, 0)]
}

// ErrReplyTooLarge ends a reply that grew past MaxReplyBytes.
var ErrReplyTooLarge = errors.New("the reply is larger than Agent Desk keeps")

// replyStream is what the two endpoints' streams share.
type replyStream interface {
	Next() bool
	Fragment() string
	Err() error
	Close() error
	Text() string
}

// start streams a reply to user: a new message (ID 0), or one already in the
// conversation, whose followers are dropped. Once the service accepts, user
// is stored.
func (s *ChatSession) start(ctx context.Context, user storage.Message) error {
	newUser := user.ID == 0
	hist := append(s.history(user.ID), user)
	fileIDs := client.IDs()
	for _, f := range user.FileIDs {
		fileIDs = append(fileIDs, client.ID(f))
	}
	conv := s.Conversation()
	var msgs []client.Message
	if conv.DeveloperMessage != "" {
		role := client.RoleDeveloper
		if conv.UseChatCompletions {
			role = client.RoleSystem
		}
		msgs = append(msgs, client.Message{Role: role, Content: conv.DeveloperMessage})
	}
	for _, m := range hist {
		msgs = append(msgs, client.Message{Role: m.Role, Content: m.Content})
	}
	if !conv.UseChatCompletions {
		if err := client.CheckChatMessages(msgs); err != nil {
			return err
		}
	}
	c := s.a.Client()
	if c == nil {
		return say(func() string { return lang.L("no account is open") })
	}
	// The stream ends with the reply or Stop, never the caller's context.
	// While it opens the session is busy, so a second Send does nothing.
	streamCtx, stop := context.WithCancelCause(context.WithoutCancel(ctx))
	before := ChatPhase(-1)
	s.state.Update(func(st ChatState) ChatState {
		if !st.Phase.Busy() {
			before, st.Phase = st.Phase, ChatSending
			st.Changes++
			s.mu.Lock()
			s.stop = stop
			s.mu.Unlock()
		}
		return st
	})
	if before < 0 {
		stop(nil)
		return ErrReplyRunning
	}
	opened := false
	defer func() {
		if !opened {
			// not sent: the conversation is as it was
			stop(nil)
			s.change(func(st *ChatState) { st.Phase, st.WaitingUntil = before, time.Time{} })
		}
	}()
	var (
		rs    replyStream
		cs    *client.Stream
		err   error
		agent = client.ID(conv.AgentID)
	)
	if conv.UseChatCompletions {
		p := client.ChatCompletionParams{Model: conv.Answers["model"], Messages: msgs, Tools: conv.Answers["tools"]}
		if t, perr := strconv.ParseFloat(conv.Answers["temperature"], 64); perr == nil {
			p.Temperature = client.Float(t)
		}
		var ccs *client.ChatCompletionStream
		if ccs, err = c.ChatCompletionStream(streamCtx, agent, p, client.WithRateLimitNotice(s.rateLimited)); err == nil {
			rs = ccs
		}
	} else {
		answer := map[string]any{}
		for k, v := range conv.Answers {
			answer[k] = v
		}
		if root, perr := strconv.ParseInt(conv.RootID, 10, 64); perr == nil && root > 0 {
			answer["root_id"] = root
		}
		if cs, err = c.Stream(streamCtx, agent, client.ExecuteParams{Answers: answer, Messages: msgs, FileIDs: fileIDs},
			client.WithRateLimitNotice(s.rateLimited)); err == nil {
			rs = cs
		}
	}
	if err != nil {
		return err
	}
	s.a.Accounts().RememberDetected(context.WithoutCancel(ctx))

	// The service accepted: store the turn.
	db := s.a.db
	dbCtx := context.WithoutCancel(ctx)
	userMsg := user
	if newUser {
		userMsg, err = db.AddMessage(dbCtx, user)
	} else {
		if _, err = db.DeleteMessagesAfter(dbCtx, conv.ID, userMsg.ID); err == nil {
			err = db.UpdateMessage(dbCtx, userMsg)
		}
	}
	if err != nil {
		_ = rs.Close()
		return err
	}
	reply, err := db.AddMessage(dbCtx, storage.Message{ConversationID: conv.ID, Role: storage.RoleAssistant, Status: storage.StatusStreaming})
	if err != nil {
		_ = rs.Close()
		return err
	}
	w := db.NewReplyWriter(dbCtx, reply.ID)

	done := make(chan struct{})
	s.mu.Lock()
	s.done = done
	s.mu.Unlock()
	s.change(func(st *ChatState) {
		kept := st.Messages[:0:0]
		for _, m := range st.Messages {
			if !newUser && m.ID == userMsg.ID {
				break
			}
			kept = append(kept, m)
		}
		if newUser && isNewChatTitle(st.Conversation.Title) && !slices.ContainsFunc(kept, func(m storage.Message) bool { return m.Role == storage.RoleUser }) {
			st.Conversation.Title = titleFrom(userMsg.Content)
		}
		st.Messages, st.LiveID, st.Live = append(kept, userMsg, reply), reply.ID, ""
		st.Phase, st.Err, st.SaveErr, st.WaitingUntil = ChatStreaming, nil, nil, time.Time{}
	})
	opened = true
	saveErr := s.rememberAnswers(dbCtx, conv)

	read := func() {
		s.pump(dbCtx, streamCtx, rs, cs, w, reply, done, saveErr)
		stop(nil)
	}
	if !s.a.Go(read) {
		// Closing: keep what the service took as an interrupted reply.
		s.end(errQuitting)
		read()
	}
	return nil
}

// NewChatTitle is a new chat's title until its first message names it.
func NewChatTitle(agent string) string {
	return lang.L("New chat with {{.Agent}}", map[string]any{"Agent": agent})
}

// isNewChatTitle reports a title NewChatTitle gave, in any language.
func isNewChatTitle(title string) bool {
	for _, words := range inEveryLanguage("New chat with {{.Agent}}") {
		if start, _, _ := strings.Cut(words, "{{.Agent}}"); start != "" && strings.HasPrefix(title, start) {
			return true
		}
	}
	return false
}

func titleFrom(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	if len(r) > 60 {
		return string(r[:57]) + "…"
	}
	return text
}

func (s *ChatSession) rememberAnswers(ctx context.Context, conv storage.Conversation) error {
	err := s.a.db.UpdateConversation(ctx, s.Conversation())
	if len(conv.Answers) == 0 {
		return err
	}
	return errors.Join(err, s.a.Agents().RememberAnswers(ctx, client.ID(conv.AgentID), conv.Answers))
}

// pump reads the stream to its end, saving and announcing every fragment;
// stream is the stream's context, its cause why the reply ended early;
// saveErr, a failure to store the turn so far.
func (s *ChatSession) pump(ctx, stream context.Context, rs replyStream, cs *client.Stream, w *storage.ReplyWriter, reply storage.Message, done chan struct{}, saveErr error) {
	rootSeen, tooLarge, limit := false, false, s.a.chat.maxReply
	for rs.Next() {
		frag := rs.Fragment()
		if cs != nil && !rootSeen {
			if root := string(cs.Current().RootID); root != "" {
				rootSeen = true
				if s.state.Get().Conversation.RootID != root {
					s.state.Update(func(st ChatState) ChatState { st.Conversation.RootID = root; return st })
					saveErr = errors.Join(saveErr, s.a.db.UpdateConversation(ctx, s.Conversation()))
				}
			}
		}
		if frag == "" {
			continue
		}
		// The stream keeps the text; the state shows it as it grows.
		text := rs.Text()
		if tooLarge = len(text) > limit; tooLarge {
			// keep what fits, up to a whole letter
			frag = cutUTF8(frag, limit-(len(text)-len(frag)))
			_ = rs.Close()
		}
		if frag != "" {
			w.Append(frag)
		}
		if tooLarge {
			break
		}
		s.state.Update(func(st ChatState) ChatState { st.Live = text; return st })
	}
	err := rs.Err()
	text := rs.Text()
	if tooLarge {
		// Keep what fits; the rest is not asked for again.
		text, err = cutUTF8(text, limit), ErrReplyTooLarge
	}
	var final *client.Execution
	if cs != nil && !tooLarge {
		final = cs.Final()
		if rec := s.recover(stream, cs, err); rec != nil {
			final, err = rec, nil
			if rec.Output != "" {
				text = rec.Output
			}
		}
	}
	cause := context.Cause(stream)
	stopped, quitting := cause == errStopped, cause == errQuitting

	status, errText := storage.StatusComplete, ""
	var credits *float64
	switch {
	case quitting && err != nil:
		status, err = storage.StatusInterrupted, nil
	case stopped:
		status, err = storage.StatusStopped, nil
	case err != nil:
		status, errText = storage.StatusFailed, Describe(err)
	default:
		if final != nil && final != cs.Final() {
			status = storage.StatusRecovered
		}
		if f := final; f != nil {
			reply.ResponseID = string(f.ID)
			if credits = creditsOf(f.Credits); credits != nil {
				conv := s.Conversation()
				s.a.Ledger().Record(ctx, storage.CreditsExecution, conv.AgentID, conv.AgentTitle, string(f.ID), f.Credits)
			}
		}
	}
	if ferr := w.Finish(status, credits, errText); ferr != nil {
		// The disk refused; keep trying once more, the text is in memory.
		time.Sleep(100 * time.Millisecond)
		saveErr = errors.Join(saveErr, w.Finish(status, credits, errText))
	}
	reply.Content, reply.Status, reply.Error, reply.Credits = text, status, errText, credits
	if reply.ResponseID != "" || status == storage.StatusRecovered {
		saveErr = errors.Join(saveErr, s.a.db.UpdateMessage(ctx, reply))
	}
	saveErr = errors.Join(saveErr, w.Close())

	s.mu.Lock()
	s.done = nil
	s.mu.Unlock()
	// The end is published before Wait returns, so whoever waits sees it.
	defer close(done)
	phase := map[string]ChatPhase{storage.StatusStopped: ChatStopped, storage.StatusInterrupted: ChatStopped, storage.StatusFailed: ChatFailed}[status]
	s.change(func(st *ChatState) {
		st.Messages = slices.Clone(st.Messages) // published snapshots keep the old one
		if i := slices.IndexFunc(st.Messages, func(m storage.Message) bool { return m.ID == reply.ID }); i >= 0 {
			st.Messages[i] = reply
		}
		st.LiveID, st.Live, st.Err, st.SaveErr, st.Phase = 0, "", err, saveErr, cmp.Or(phase, ChatDone)
		st.Ended++
	})
	conv := s.Conversation()
	s.a.chat.finished.Update(func(old []ChatFinished) []ChatFinished {
		f := ChatFinished{ConversationID: conv.ID, Title: conv.Title, AgentTitle: conv.AgentTitle, Status: status, Seq: 1}
		if n := len(old); n > 0 {
			f.Seq = old[n-1].Seq + 1
			old = old[max(0, n+1-finishedKept):]
		}
		return append(old[:len(old):len(old)], f)
	})
}

const recoverLimit = 2 * time.Minute

// recover polls for the finished reply of a cut stream until stream ends;
// nil keeps the partial text.
func (s *ChatSession) recover(stream context.Context, cs *client.Stream, err error) *client.Execution {
	id := cs.ExecutionID()
	if id == "" || stream.Err() != nil || !errors.Is(err, client.ErrStreamIncomplete) && !errors.Is(err, client.ErrEventUnreadable) {
		return nil
	}
	c := s.a.Client()
	pctx, cancel := context.WithTimeout(stream, recoverLimit)
	defer cancel()
	s.change(func(st *ChatState) { st.Phase = ChatRecovering })
	rec, werr := c.Wait(pctx, client.ID(s.Conversation().AgentID), id, client.WithPollLimit(recoverLimit))
	if werr != nil || rec == nil || !rec.Succeeded() {
		return nil
	}
	return rec
}

func (s *ChatSession) rateLimited(wait time.Duration) {
	s.change(func(st *ChatState) { st.WaitingUntil = time.Now().Add(wait) })
}

// Stop ends the streaming reply; the text so far stays, marked stopped.
func (s *ChatSession) Stop() { s.end(errStopped) }

// end ends the reply under way, if any, for cause: the first cause counts.
func (s *ChatSession) end(cause error) {
	if stop := locked(&s.mu, func() context.CancelCauseFunc { return s.stop }); stop != nil {
		stop(cause)
	}
}

func (a *App) quitChats() {
	h := a.chat
	h.mu.Lock()
	live := slices.Collect(maps.Values(h.sessions))
	h.mu.Unlock()
	for _, s := range live {
		s.end(errQuitting)
	}
}

// Markdown is the conversation as a Markdown document, for export.
func (s *ChatSession) Markdown() string {
	conv := s.Conversation()
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", conv.Title)
	fmt.Fprintf(&b, "_%s_\n\n", lang.L("Conversation with {{.Agent}}, {{.Date}}", map[string]any{"Agent": conv.AgentTitle, "Date": longDateTime(conv.CreatedAt)}))
	if conv.DeveloperMessage != "" {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", lang.L("Instructions"), conv.DeveloperMessage)
	}
	for _, m := range s.Messages() {
		who := lang.L("You")
		if m.Role == storage.RoleAssistant {
			who = conv.AgentTitle
		}
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", who, strings.TrimSpace(m.Content))
		if note := StatusNote(m); note != "" {
			fmt.Fprintf(&b, "_%s_\n\n", note)
		}
	}
	return b.String()
}

// StatusNote is the line under a reply that did not complete ("" otherwise).
func StatusNote(m storage.Message) string {
	switch m.Status {
	case storage.StatusStopped:
		return lang.L("Stopped. The text so far is kept.")
	case storage.StatusFailed:
		if m.Error != "" {
			return m.Error
		}
		return lang.L("The reply could not be finished.")
	case storage.StatusInterrupted:
		return lang.L("Agent Desk closed before this reply was finished.")
	case storage.StatusRecovered:
		return lang.L("The connection dropped; this is the finished reply, fetched again from the service.")
	}
	return ""
}

// longDateTime is a day written out and the time, for a document's header.
func longDateTime(t time.Time) string {
	t = t.Local()
	return longDate(t) + " " + t.Format("15:04")
}

// Chats are the account's conversations with its chat agents (App.Chats).
type Chats struct{ a *App }

func (a *App) Chats() *Chats { return &Chats{a} }
