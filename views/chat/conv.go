package chat

import (
	"cmp"
	"context"
	"errors"
	"image/color"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

// convView is one open conversation; the stream belongs to app.ChatSession,
// so closing the view never stops or loses a reply.
type convView struct {
	s      *Screen
	sess   *app.ChatSession
	unbind func()
	// changes, ended and agentRead are what st had at the last rebuild,
	// end notice and reading of the agent.
	st        app.ChatState
	changes   uint64
	ended     uint64
	agentRead uint64

	msgs     []app.Message
	list     *kit.List
	empty    fyne.CanvasObject // shown over the list while it has no message
	rows     map[int64]*rowCache
	binds    uint64 // counts bindRow calls, to find the row bound longest ago
	rowBytes int
	heights  map[int]float32
	live     *richtext.Markdown
	liveID   int64

	lastAuto float32

	title   *widget.Label
	sub     *widget.Label
	entry   *composer
	sendBtn *kit.PaidButton
	// settings are the agent's questions, behind one button that shows
	// their answers: the conversation keeps the room.
	settings      fyne.CanvasObject
	settingsBtn   *kit.Button
	summary       *widget.Label
	stopBtn       *kit.Button
	noteShown     bool   // errText holds a waiting or recovering note
	waitingToSend bool   // a message waits for its files to finish uploading
	waitFiles     func() // stops that wait
	pastes        *pastes
	pending       string // a message being handed to the session, shown until the service takes it
	errText       *widget.Label
	attach        screen.Attachments
	obj           fyne.CanvasObject
	settingHeight bool
	// showPictures: replies whose pictures the user asked to see (fetched only then).
	showPictures map[int64]bool
}

type rowCache struct {
	key string
	obj fyne.CanvasObject
	// body is kept across row rebuilds: a new one would lay out every line again.
	body *richtext.Markdown
	w    float32
	vh   float32 // the view's height it was measured for (code boxes follow it)
	h    float32
	used uint64 // when it was last bound
	size int    // bytes of the message's text
}

// Off-screen rows keep widgets up to these limits (a long reply's widgets are
// large); heights are kept for all rows so the scroll bar does not jump.
const (
	keptRows    = 24
	minKeptRows = 6
	keptBytes   = 256 << 10
)

func newConvView(s *Screen, sess *app.ChatSession) *convView {
	v := &convView{s: s, sess: sess, rows: map[int64]*rowCache{}, heights: map[int]float32{}, showPictures: map[int64]bool{}}
	v.st, _ = sess.State().Snapshot()
	v.ended = v.st.Ended // a reply that ended before the view opened is not news
	v.agentRead = v.st.AgentRead
	v.build()
	v.unbind = kit.Bind(sess.State(), v.show)
	return v
}

func (v *convView) detach() {
	v.unbind()
	if v.waitFiles != nil {
		v.waitFiles()
	}
	a, id := v.s.a, v.sess.ID()
	v.s.goFn(func() {
		_ = a.FlushDrafts()
		a.Chats().Forget(id)
	})
}

func (v *convView) build() {
	conv := v.sess.Conversation()
	v.title = widget.NewLabelWithStyle(conv.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.SizeName = theme.SizeNameSubHeadingText
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.sub = screen.Quiet("")
	v.showSubtitle()
	more := kit.NewButtonWithIcon("", theme.MoreHorizontalIcon(), nil)
	more.Tip = lang.L("Rename, change the instructions, export or delete this chat")
	more.Importance = widget.LowImportance
	more.OnTapped = func() { v.showMenu(more) }
	header := container.NewBorder(nil, nil, nil, container.NewCenter(more), container.NewVBox(v.title, v.sub))

	v.empty = kit.Empty(assets.ChatIcon, lang.L("Start the conversation"),
		lang.L("Write your first message below. {{.Agent}} answers here, and the chat is kept on this computer.",
			map[string]any{"Agent": v.sess.Conversation().AgentTitle}))
	v.list = kit.NewList(
		func() int { return len(v.msgs) },
		func() fyne.CanvasObject {
			// An unmeasured row gets a line's height so it can be scrolled to and bound.
			filler := canvas.NewRectangle(color.Transparent)
			filler.SetMinSize(fyne.NewSize(1, 48))
			return container.NewStack(filler)
		},
		v.bindRow)
	v.list.HideSeparators = true
	v.list.OnSelected = func(id widget.ListItemID) { v.list.Unselect(id) }

	v.entry = newComposer(v.send, v.sess.Stop)
	v.pastes = newPastes(func() { v.sess.SetDraft(v.composed()) })
	v.entry.onPaste = func(text string) bool {
		if utf8.RuneCountInString(text) <= maxShownChars {
			return false
		}
		v.pastes.add(text)
		return true
	}
	v.setComposed(conv.Draft)
	v.entry.OnChanged = func(string) { v.sess.SetDraft(v.composed()) }
	v.sendBtn = kit.NewPaidButton(lang.L("Send"), theme.MailSendIcon(), v.send)
	v.sendBtn.Tip = lang.L("Send your message (Enter). Each reply uses credits.")
	v.sendBtn.Importance = widget.HighImportance
	v.stopBtn = kit.NewButtonWithIcon(lang.L("Stop"), theme.MediaStopIcon(), func() { v.sess.Stop() })
	v.stopBtn.Tip = lang.L("Stop the reply (Esc)")
	v.stopBtn.Importance = widget.DangerImportance
	v.errText = kit.ErrorText()
	hint := screen.Quiet(lang.L("Enter sends (each reply uses credits) · Shift+Enter adds a line · Esc stops the reply"))
	hint.Truncation = fyne.TextTruncateEllipsis
	hint.SizeName = theme.SizeNameCaptionText

	// One row of settings, the message box and its buttons, the keys: the
	// rest of the height is the conversation's.
	v.settings = v.pickers()
	v.summary = screen.Quiet("")
	v.summary.Truncation = fyne.TextTruncateEllipsis
	v.settingsBtn = kit.NewButtonWithIcon(lang.L("Reply settings"), theme.SettingsIcon(), v.showSettings)
	v.settingsBtn.Importance = widget.LowImportance
	v.settingsBtn.Tip = lang.L("The reply's style, model and what it looks up")
	v.showSummary()
	bottom := container.NewVBox(kit.NewBorder(nil, nil, v.settingsBtn, nil, v.summary))
	var left fyne.CanvasObject
	if v.s.env.Nav != nil {
		if at := v.s.env.Nav.NewAttachments(); at != nil {
			v.attach = at
			add := kit.NewButtonWithIcon("", theme.ContentAddIcon(), at.AddFiles)
			add.Tip = lang.L("Add files to the message")
			add.Importance = widget.LowImportance
			left = container.NewVBox(layout.NewSpacer(), add)
			bottom.Add(at.Object())
		}
	}
	bottom.Add(v.errText)
	bottom.Add(v.pastes.box)
	buttons := container.NewVBox(layout.NewSpacer(), container.NewStack(v.sendBtn, v.stopBtn))
	bottom.Add(kit.NewBorder(nil, hint, left, buttons, v.entry))
	v.updateButtons()

	v.obj = kit.NewBorder(
		container.NewVBox(container.NewPadded(header), widget.NewSeparator()),
		container.NewVBox(widget.NewSeparator(), container.NewPadded(bottom)),
		nil, nil, container.NewStack(container.New(&viewSize{win: v.s.env.Window, code: v.s.wrap, changed: v.viewResized}, v.list), v.empty))
}

func (v *convView) showSubtitle() {
	conv := v.sess.Conversation()
	var parts []string
	if conv.Title != app.NewChatTitle(conv.AgentTitle) { // a new chat's title names the agent already
		parts = append(parts, lang.L("with {{.Agent}}", map[string]any{"Agent": conv.AgentTitle}))
	}
	if conv.DeveloperMessage != "" {
		parts = append(parts, lang.L("has instructions"))
	}
	if conv.UseChatCompletions {
		parts = append(parts, lang.L("compatibility mode"))
	}
	text := strings.Join(parts, " · ")
	v.sub.SetText(text)
	if (text != "") == v.sub.Visible() {
		return
	}
	screen.ShowIf(v.sub, text != "")
	if v.obj != nil { // the header changed height: lay the view out again
		v.obj.Refresh()
	}
}

// showSettings opens the reply settings; their answers show beside the
// button once it closes.
func (v *convView) showSettings() {
	d := dialog.NewCustom(lang.L("Reply settings"), lang.L("Close"), v.settings, v.s.env.Window)
	d.SetOnClosed(v.showSummary)
	kit.ShowDialog(d, v.s.env.Window)
}

// showSummary shows the settings' answers in a line: the style, the model,
// what it looks up.
func (v *convView) showSummary() {
	var parts []string
	// The first row holds the choices in words; the numbers in the fold repeat them.
	for _, sel := range selectsUnder(v.settings.(*fyne.Container).Objects[0]) {
		if s := cmp.Or(sel.Selected, sel.PlaceHolder); s != "" {
			parts = append(parts, s)
		}
	}
	if v.sess.Conversation().UseChatCompletions {
		parts = append(parts, lang.L("compatibility mode"))
	}
	v.summary.SetText(strings.Join(parts, " · "))
}

// selectsUnder are the choices under o, in order.
func selectsUnder(o fyne.CanvasObject) []*kit.Select {
	switch c := o.(type) {
	case *kit.Select:
		return []*kit.Select{c}
	case *fyne.Container:
		var out []*kit.Select
		for _, k := range c.Objects {
			out = append(out, selectsUnder(k)...)
		}
		return out
	}
	return nil
}

// pickers are the agent's questions in plain words, pre-filled with this
// conversation's answers; the raw numbers wait in an Advanced fold.
func (v *convView) pickers() fyne.CanvasObject {
	// Wrap rather than hide behind a sideways scroll.
	row := container.New(layout.NewRowWrapLayout())
	advanced := container.New(layout.NewRowWrapLayout())
	answers := v.sess.Conversation().Answers
	for _, q := range app.ChatPickers(v.sess.Agent()) {
		if styles := app.StyleChoices(q); styles != nil {
			style, numbers := v.stylePickers(q, styles, answers[q.Name])
			row.Add(style)
			advanced.Add(numbers)
			continue
		}
		sel := screen.NewChoice(screen.ChoiceLabels(q, q.Options, pickerChoiceMax), q.Options, nil)
		sel.SetValue(answers[q.Name])
		sel.Select.OnChanged = v.chosen(q, sel, func(string) {})
		row.Add(pickerRow(screen.QuestionName(q, 40), sel.Select))
	}
	conv := v.sess.Conversation()
	cc := kit.NewCheck(lang.L("Compatibility mode: send as a chat-completions request"), func(on bool) {
		if on != v.sess.Conversation().UseChatCompletions {
			v.s.goFn(func() { _ = v.sess.SetUseChatCompletions(context.Background(), on) })
		}
	})
	cc.Checked = conv.UseChatCompletions
	advanced.Add(cc)

	fold := kit.NewFold(lang.L("Advanced"), advanced)
	screen.RememberOpen(fold, v.s.a)
	row.Add(fold.Button)
	return container.NewVBox(row, fold.Content)
}

const pickerChoiceMax = 60

// stylePickers are the temperature as styles and, in the fold, as numbers;
// each follows the other ("Custom" for a number that is no style).
func (v *convView) stylePickers(q client.Question, styles []int, answer string) (style, numbers fyne.CanvasObject) {
	labels := make([]string, len(styles))
	values := make([]string, len(styles))
	for i, o := range styles {
		values[i] = q.Options[o]
		labels[i] = app.StyleName(values[i])
	}
	styleSel := screen.NewChoice(labels, values, nil)
	styleSel.Select.PlaceHolder = lang.L("Custom")
	numSel := screen.NewChoice(screen.ChoiceLabels(client.Question{}, q.Options, pickerChoiceMax), q.Options, nil)
	var set func(val string)
	set = func(val string) {
		styleSel.Select.OnChanged, numSel.Select.OnChanged = nil, nil
		styleSel.SetValue(val)
		numSel.SetValue(val)
		styleSel.Select.OnChanged, numSel.Select.OnChanged = v.chosen(q, styleSel, set), v.chosen(q, numSel, set)
	}
	set(answer)
	return pickerRow(screen.QuestionName(q, 40), styleSel.Select), pickerRow(numbersName(q), numSel.Select)
}

func numbersName(q client.Question) string {
	if strings.EqualFold(strings.TrimSpace(q.Name), "temperature") {
		return lang.L("Temperature (number)")
	}
	// "_" keeps it from reading as a style (QuestionName shows it as a space).
	return lang.L("{{.Question}} (number)", map[string]any{"Question": screen.QuestionName(client.Question{Name: "_" + q.Name}, 40)})
}

// chosen saves a picker's choice and shows it with set.
func (v *convView) chosen(q client.Question, sel screen.Choice, set func(string)) func(string) {
	return func(string) {
		if sel.Select.SelectedIndex() < 0 {
			return
		}
		val := sel.Value()
		set(val)
		v.s.goFn(func() { _ = v.sess.SetAnswer(context.Background(), q.Name, val) })
	}
}

// pickerRow is a picker after its name, as wide as its longest choice.
func pickerRow(name string, sel *kit.Select) fyne.CanvasObject {
	return container.NewHBox(screen.Quiet(name), kit.Widened(sel, 320))
}

func (v *convView) updateButtons() {
	screen.ShowIf(v.sendBtn, !v.st.Phase.Busy())
	screen.ShowIf(v.stopBtn, v.st.Phase.Busy())
	note := ""
	switch until := v.st.WaitingUntil; {
	case v.st.Phase == app.ChatRecovering:
		note = lang.L("Part of the reply did not arrive. Agent Desk is fetching the rest from the service; the agent is not run again.")
	case !until.IsZero():
		note = lang.L("The service asked Agent Desk to slow down. Your message goes in about {{.Time}}.",
			map[string]any{"Time": app.HowLong(time.Until(until).Round(time.Second))})
	}
	if note != "" || v.noteShown {
		kit.ShowError(v.errText, note)
		v.noteShown = note != ""
	}
}

// StoppedBeforeReply is said when Stop gave up an unanswered message.
func StoppedBeforeReply() string {
	return lang.L("Stopped before the agent answered. Your message is still below, to send again.")
}

// Row ids of a message shown from Send until the service takes or refuses it.
const (
	pendingID int64 = -1
	waitingID int64 = -2
)

func (v *convView) load() {
	v.trimRows(1)
	v.msgs = v.st.Messages
	if v.pending != "" && v.st.Phase != app.ChatStreaming {
		v.msgs = append(v.msgs[:len(v.msgs):len(v.msgs)],
			app.Message{ID: pendingID, Role: app.RoleUser, Content: v.pending},
			app.Message{ID: waitingID, Role: app.RoleAssistant})
	}
	id, text := v.st.LiveID, v.st.Live
	if id != v.liveID {
		v.live = nil
		v.liveID = id
		if id != 0 {
			v.live = richtext.NewLiveMarkdown(text, v.s.wrap)
			v.live.SetOuter(v.scrollBy)
			v.live.SetResized(v.resizeLive)
			v.s.text.Drawn(textLines(len(text)))
		}
	} else if v.live != nil {
		v.appendLive(text)
	}
	v.list.Refresh()
	screen.ShowIf(v.empty, len(v.msgs) == 0 && v.live == nil)
}

// appendLive shows the streaming reply grown to text; reports whether it grew.
func (v *convView) appendLive(text string) bool {
	shown := v.live.Text()
	if len(text) <= len(shown) {
		return false
	}
	v.live.Append(text[len(shown):])
	v.s.text.Drawn(1 + textLines(len(text)-len(shown)))
	return v.live.Flush(false)
}

// textLines estimates the lines n bytes fill, as TextRelease counts them.
func textLines(n int) int { return 1 + min(n, 1<<20)/80 }

func (v *convView) frame() {
	st, _ := v.sess.State().Snapshot()
	v.show(st)
}

// show draws a snapshot: appends when only the live text grew, else rebuilds.
func (v *convView) show(st app.ChatState) {
	following := v.list.GetScrollOffset()+2 >= v.lastAuto
	v.st = st
	if st.AgentRead != v.agentRead {
		// The agent as the service describes it now: its questions.
		v.agentRead = st.AgentRead
		v.settings = v.pickers()
		v.showSummary()
	}
	if st.Changes != v.changes {
		v.changes = st.Changes
		if t := kit.Line(st.Conversation.Title, 0); t != v.title.Text {
			v.title.SetText(t)
			v.s.reload()
		}
		v.showSubtitle()
		v.load()
		v.updateButtons()
		if st.Ended != v.ended {
			v.ended = st.Ended
			v.finished()
			v.s.reload()
		}
	} else if v.live != nil {
		if v.appendLive(st.Live) {
			v.resizeLive()
		}
	}
	if following {
		v.scrollToEnd()
	}
}

func (v *convView) scrollToEnd() {
	if len(v.msgs) == 0 {
		return
	}
	v.list.ScrollToBottom()
	v.lastAuto = v.list.GetScrollOffset()
}

func (v *convView) scrollBy(ev *fyne.ScrollEvent) {
	v.list.ScrollToOffset(v.list.GetScrollOffset() - ev.Scrolled.DY)
}

func (v *convView) resizeLive() {
	last := len(v.msgs) - 1
	if last < 0 {
		return
	}
	rc, ok := v.rows[v.msgs[last].ID]
	if !ok {
		v.list.RefreshItem(last)
		return
	}
	h := measure(rc.obj, v.rowWidth())
	if h != rc.h {
		rc.h = h
		v.setHeight(last, h)
	}
}

func (v *convView) rowWidth() float32 {
	w := v.list.Size().Width - theme.Padding()*2
	if w < 200 {
		w = 600
	}
	return w
}

// viewResized remeasures visible rows: width rewraps, height resizes code boxes.
func (v *convView) viewResized(size fyne.Size) {
	v.s.wrap.SetView(size.Height)
	v.list.Refresh()
}

type viewSize struct {
	win     fyne.Window // a release of text in it is no change (kit.Releasing)
	code    *richtext.CodeBlocks
	size    fyne.Size
	changed func(fyne.Size)
}

func (l *viewSize) MinSize(objects []fyne.CanvasObject) fyne.Size { return objects[0].MinSize() }

func (l *viewSize) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Resize(size)
	if size == l.size || kit.Releasing(l.win) {
		return
	}
	first := l.size == fyne.Size{}
	l.size = size
	if first {
		l.code.SetView(size.Height)
		return
	}
	l.changed(size)
}

func measure(o fyne.CanvasObject, w float32) float32 {
	// A part's minimum follows the width it was laid out at (wrapped
	// text, a row of buttons), so lay out again until the height holds:
	// what is drawn is then what was measured.
	h := o.MinSize().Height
	for range 4 {
		o.Resize(fyne.NewSize(w, h))
		kit.Relayout(o)
		next := o.MinSize().Height
		if next == h {
			break
		}
		h = next
	}
	return h
}

func (v *convView) setHeight(id int, h float32) {
	if v.heights[id] == h || v.settingHeight {
		return
	}
	v.heights[id] = h
	v.settingHeight = true
	v.list.SetItemHeight(id, h)
	v.settingHeight = false
}

// bindRow shows message id in a recycled row, building widgets once per message.
func (v *convView) bindRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id >= len(v.msgs) {
		return
	}
	m := v.msgs[id]
	last := id == len(v.msgs)-1
	key := m.Status + "|" + m.Error + "|" + strconv.Itoa(len(m.Content))
	if m.Role != app.RoleUser {
		key += "|" + strconv.FormatBool(last) // Regenerate is offered on the last reply
	}
	live := v.live != nil && m.ID == v.liveID
	if live {
		key = "live"
	}
	rc, ok := v.rows[m.ID]
	if !ok || rc.key != key {
		var body *richtext.Markdown
		shown := 0 // bytes of the message's text its text widget drew already
		if ok {
			v.rowBytes -= rc.size
			if body = rc.body; body != nil {
				shown = len(body.Text())
			}
		}
		obj, kept := v.rowObject(m, last, live, body)
		rc = &rowCache{key: key, obj: obj, body: kept, size: len(m.Content)}
		v.rows[m.ID] = rc
		v.rowBytes += rc.size
		drawn := len(m.Content)
		if kept != nil && kept == body {
			drawn = max(drawn-shown, 0)
		}
		v.s.text.Drawn(textLines(drawn))
	}
	v.binds++
	rc.used = v.binds
	// A refresh rebinds the visible rows, so trim only past twice the limits.
	v.trimRows(2)
	row := o.(*fyne.Container)
	if len(row.Objects) != 1 || row.Objects[0] != rc.obj {
		row.Objects = []fyne.CanvasObject{rc.obj}
		row.Refresh()
	}
	if rc.body != nil {
		// Finished blocks are not redrawn: pictures hear of it, and reload if dropped.
		richtext.PicturesInView(rc.body.Pictures())
	}
	w, vh := v.rowWidth(), v.list.Size().Height
	// A text release lays the window out small and back; rows keep their sizes.
	remeasure := rc.w != w || rc.vh != vh || live
	if rc.h == 0 || (remeasure && !kit.Releasing(v.s.env.Window)) {
		rc.w, rc.vh = w, vh
		rc.h = measure(rc.obj, w)
	}
	v.setHeight(id, rc.h)
}

// trimRows drops widgets of the rows bound longest ago, before the list
// rebinds, so a dropped visible row is rebuilt once.
func (v *convView) trimRows(times int) {
	for len(v.rows) > minKeptRows && (len(v.rows) > times*keptRows || v.rowBytes > times*keptBytes) {
		if !v.forgetOldestRow() {
			return
		}
	}
}

func (v *convView) forgetOldestRow() bool {
	var oldest int64
	var at uint64
	found := false
	for id, rc := range v.rows {
		if id == v.liveID || (found && rc.used >= at) {
			continue
		}
		oldest, at, found = id, rc.used, true
	}
	if found {
		v.rowBytes -= v.rows[oldest].size
		delete(v.rows, oldest)
	}
	return found
}

// rowObject builds m's row, reusing before as the text widget if it shows m.
func (v *convView) rowObject(m app.Message, last, live bool, before *richtext.Markdown) (fyne.CanvasObject, *richtext.Markdown) {
	if m.Role == app.RoleUser {
		return v.userRow(m), nil
	}
	if m.ID == waitingID {
		l := widget.NewLabelWithStyle(lang.L("Waiting for the agent… (Esc or Stop cancels)"), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		l.Importance = widget.LowImportance
		l.Wrapping = fyne.TextWrapWord
		return kit.Column(container.NewPadded(l), ChatWidth()), nil
	}
	if live {
		return kit.Column(container.NewPadded(container.NewVBox(v.live, kit.Wrap(screen.Quiet(lang.L("Writing…"))))), ChatWidth()), v.live
	}
	md := before
	if md == nil || !md.Finish(m.Content) {
		md = richtext.NewMarkdown(m.Content, v.s.wrap)
	}
	md.SetOuter(v.scrollBy)
	id := m.ID
	md.SetResized(func() { v.remeasure(id) })
	actions := kit.Wrap()
	var footer fyne.CanvasObject = actions
	if note := app.StatusNote(m); note != "" {
		l := widget.NewLabelWithStyle(note, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		if m.Status == app.MessageFailed {
			l.Importance = widget.DangerImportance
		} else {
			l.Importance = widget.WarningImportance
		}
		l.Wrapping = fyne.TextWrapWord
		footer = container.NewVBox(l, actions)
	}
	if m.Credits != nil {
		actions.Add(screen.Quiet(app.Credits(*m.Credits)))
	}
	// Copy pastes readable into a mail or a document; the marks are second.
	actions.Add(smallButton(lang.L("Copy"), theme.ContentCopyIcon(), func() { copyText(richtext.ReplyText(m.Content)) }))
	actions.Add(smallButton(lang.L("Copy as Markdown"), theme.ContentCopyIcon(), func() { copyText(m.Content) }))
	actions.Add(smallButton(lang.L("Save as…"), theme.DocumentSaveIcon(), func() {
		title := v.sess.Conversation().Title
		screen.SaveText(v.s.env, title, safe.FileName(lang.L("{{.Title}} reply", map[string]any{"Title": title}), ".md", lang.L("reply")), m.Content)
	}))
	if pics := md.Pictures(); len(pics) > 0 {
		v.offerPictures(m.ID, pics, actions)
	}
	if last && m.Status == app.MessageInterrupted {
		actions.Add(paidSmallButton(lang.L("Continue"), theme.MediaPlayIcon(), func() { v.run(func(ctx context.Context) error { return v.sess.Continue(ctx) }) }))
	}
	if last {
		// A reply recovered whole is complete: asking again is a new reply, not a retry.
		label := lang.L("Regenerate")
		if m.Status != app.MessageComplete && m.Status != app.MessageRecovered {
			label = lang.L("Retry")
		}
		actions.Add(paidSmallButton(label, theme.ViewRefreshIcon(), func() { v.run(v.sess.Retry) }))
	}
	return kit.Column(container.NewPadded(container.NewVBox(md, footer)), ChatWidth()), md
}

// ChatWidth is the widest messages are drawn: about 80 characters a line.
func ChatWidth() float32 {
	return fyne.MeasureText(strings.Repeat("n", 80), theme.TextSize(), fyne.TextStyle{}).Width + 4*theme.Padding()
}

// offerPictures adds "Show pictures": the reply chose the addresses, so
// nothing is fetched until the user asks.
func (v *convView) offerPictures(id int64, pics []*richtext.Picture, actions *fyne.Container) {
	load := func() {
		v.showPictures[id] = true
		richtext.LoadPictures(screen.Pictures(v.s.a), pics, func() { v.remeasure(id) })
	}
	if v.showPictures[id] {
		load()
		return
	}
	var btn *kit.Button
	btn = smallButton(richtext.ShowPictures(), theme.FileImageIcon(), func() {
		btn.Hide()
		load()
	})
	actions.Add(btn)
}

func (v *convView) remeasure(id int64) {
	if rc, ok := v.rows[id]; ok {
		rc.h = 0
	}
	for i, m := range v.msgs {
		if m.ID == id {
			v.list.RefreshItem(i)
		}
	}
}

func (v *convView) userRow(m app.Message) fyne.CanvasObject {
	text := screen.Wrapped(shownText(m.Content))
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameSelection))
	bg.CornerRadius = theme.Size(theme.SizeNameSelectionRadius) * 3
	bubble := container.NewStack(bg, container.NewPadded(text))
	actions := container.NewHBox(layout.NewSpacer(),
		smallButton(lang.L("Copy"), theme.ContentCopyIcon(), func() { copyText(m.Content) }))
	if utf8.RuneCountInString(m.Content) <= maxShownChars {
		// A long text would take seconds to wrap in the edit box.
		actions.Add(smallButton(lang.L("Edit & resend"), theme.DocumentCreateIcon(), func() { v.editMessage(m) }))
	}
	if len(m.FileIDs) > 0 {
		n := len(m.FileIDs)
		files := widget.NewLabelWithStyle(lang.N("{{.Count}} file attached", n, map[string]any{"Count": app.Number(n)}), fyne.TextAlignTrailing, fyne.TextStyle{Italic: true})
		files.Importance = widget.LowImportance
		actions.Objects = append([]fyne.CanvasObject{files}, actions.Objects...)
	}
	return kit.Column(container.NewPadded(container.NewVBox(container.New(&rightAligned{frac: 0.75, text: text}, bubble), actions)), ChatWidth())
}

func smallButton(label string, icon fyne.Resource, tap func()) *kit.Button {
	b := kit.NewButtonWithIcon(label, icon, tap)
	b.Importance = widget.LowImportance
	return b
}

// paidSmallButton costs credits: a click runs it, Space does not.
func paidSmallButton(label string, icon fyne.Resource, tap func()) *kit.PaidButton {
	b := kit.NewPaidButton(label, icon, tap)
	b.Importance = widget.LowImportance
	return b
}

func copyText(s string) {
	if a := fyne.CurrentApp(); a != nil {
		a.Clipboard().SetContent(s)
	}
}

// rightAligned puts its object at the right, frac of the width wide, or as
// wide as text's one line when narrower.
type rightAligned struct {
	frac float32
	text *widget.Label
}

func (r *rightAligned) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, objs[0].MinSize().Height)
}

func (r *rightAligned) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	o := objs[0]
	natural := fyne.MeasureText(r.text.Text, theme.TextSize(), r.text.TextStyle).Width + theme.Padding()*4 + theme.InnerPadding()*2
	w := min(size.Width*r.frac, natural)
	o.Resize(fyne.NewSize(w, o.MinSize().Height))
	o.Resize(fyne.NewSize(w, o.MinSize().Height))
	o.Move(fyne.NewPos(size.Width-w, 0))
}

func (v *convView) send() {
	text := v.composed()
	if strings.TrimSpace(text) == "" {
		return
	}
	if v.pending != "" || v.st.Phase.Busy() {
		return // Enter pressed again while the message goes: it goes once
	}
	kit.ShowError(v.errText, "")
	if v.attach != nil && v.attach.Pending() {
		if v.waitingToSend {
			return // the message already waits for its files
		}
		v.waitingToSend = true
		kit.ShowError(v.errText, lang.L("Your files are still uploading; the message goes as soon as they are ready."))
		// The wait ends with the view: never send from a conversation nobody watches.
		v.waitFiles = kit.Bind(v.attach.State(), func(st app.UploadsState) {
			if st.Pending() || !v.waitingToSend {
				return
			}
			v.waitingToSend = false
			v.waitFiles()
			kit.ShowError(v.errText, "")
			v.sendNow(text)
		})
		return
	}
	v.sendNow(text)
}

// sendNow sends text, asking first when its reply would pass the daily limit.
func (v *convView) sendNow(text string) {
	screen.ConfirmSpend(v.s.env, v.sess.Agent(), 1, func() { v.sendChecked(text) })
}

// sendChecked sends text as it is: the limit was looked at.
func (v *convView) sendChecked(text string) {
	var ids []client.ID
	if v.attach != nil {
		ids = v.attach.FileIDs()
	}
	v.sendBtn.Disable()
	// Show the message and Stop at once: a slow first byte never looks like nothing.
	v.pending = text
	v.sendBtn.Hide()
	v.stopBtn.Show()
	v.load()
	v.scrollToEnd()
	v.s.act(func(ctx context.Context) error { return v.sess.Send(ctx, text, ids) }, func(err error) {
		v.pending = ""
		v.frame() // the session as it is now: taken, or as it was
		v.load()
		v.updateButtons()
		v.sendBtn.Enable()
		if errors.Is(err, app.ErrReplyRunning) {
			return // sent already: this press did nothing
		}
		if errors.Is(err, context.Canceled) {
			kit.ShowError(v.errText, StoppedBeforeReply())
			return
		}
		if err != nil {
			kit.ShowError(v.errText, app.Describe(err))
			return
		}
		if rest, ok := strings.CutPrefix(v.composed(), text); ok {
			// words typed while the message went stay, without it
			v.pastes.clear()
			v.entry.SetText(strings.TrimLeft(rest, " \t\r\n"))
		}
		if v.attach != nil {
			v.attach.Clear()
		}
		v.frame()
		v.scrollToEnd()
	})
}

func (v *convView) run(f func(context.Context) error) {
	kit.ShowError(v.errText, "")
	v.s.act(f, func(err error) {
		if err != nil {
			kit.ShowError(v.errText, app.Describe(err))
			return
		}
		v.frame()
		v.scrollToEnd()
	})
}

// finished reports an ended reply: its error, and a notification if unfocused.
func (v *convView) finished() {
	switch {
	case v.st.Phase == app.ChatFailed && v.st.Err != nil:
		kit.ShowError(v.errText, lang.L("{{.Why}} Use Retry under the reply to ask again.", map[string]any{"Why": app.Describe(v.st.Err)}))
	case v.st.SaveErr != nil:
		kit.ShowError(v.errText, lang.L("This reply is shown, but Agent Desk could not save all of it: {{.Why}} Copy it to keep it.", map[string]any{"Why": app.Describe(v.st.SaveErr)}))
	}
}

func (v *convView) editMessage(m app.Message) {
	// Resending costs credits: Ctrl+Enter or the button, never Enter.
	v.askText(lang.L("Edit and resend"), lang.L("Resend"), m.Content, "", nil, true, func(text string) {
		v.run(func(ctx context.Context) error { return v.sess.Edit(ctx, m.ID, text) })
	})
}

// askText asks for a longer text in a dialog (above it note, when not nil);
// Ctrl+Enter confirms, Enter too unless paid.
func (v *convView) askText(title, confirm, text, hint string, note fyne.CanvasObject, paid bool, done func(string)) {
	if v.s.env.Window == nil {
		return
	}
	e := kit.NewFormMultiLineEntry()
	e.SetPlaceHolder(hint)
	e.SetText(text)
	e.SetMinRowsVisible(5)
	body := container.NewBorder(note, nil, nil, nil, e)
	screen.Ask(v.s.env, title, confirm, body, fyne.NewSize(560, 320), !paid, []*kit.FormEntry{e}, func() { done(e.Text) })
}

func (v *convView) showMenu(anchor fyne.CanvasObject) {
	if v.s.env.Window == nil {
		return
	}
	menu := fyne.NewMenu("",
		fyne.NewMenuItem(lang.L("Rename…"), v.rename),
		fyne.NewMenuItem(lang.L("Instructions…"), v.instructions),
		fyne.NewMenuItem(lang.L("Export…"), v.export),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(lang.L("Delete"), v.remove),
	)
	c := v.s.env.Window.Canvas()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(anchor).Add(fyne.NewPos(0, anchor.Size().Height))
	widget.ShowPopUpMenuAtPosition(menu, c, pos)
}

func (v *convView) rename() {
	e := kit.NewFormEntry()
	e.SetText(v.sess.Conversation().Title)
	body := widget.NewForm(widget.NewFormItem(lang.L("Title"), e))
	screen.Ask(v.s.env, lang.L("Rename conversation"), lang.L("Rename"), body, fyne.Size{}, true, []*kit.FormEntry{e}, func() { v.s.renameChat(v.sess.ID(), e.Text) })
}

func (s *Screen) renameChat(id int64, title string) {
	s.change(func(ctx context.Context) error { return s.a.Chats().Rename(ctx, id, title) })
}

func (v *convView) remove() {
	s, c := v.s, v.sess.Conversation()
	s.act(func(ctx context.Context) error { return s.a.Chats().Delete(ctx, c.ID) }, func(err error) {
		if err != nil {
			s.showErr(err)
			return
		}
		s.deleted(c)
	})
}

func (v *convView) instructions() {
	note := screen.Quiet(lang.L("Sent first with every message of this conversation."))
	v.askText(lang.L("Instructions"), lang.L("Save"), v.sess.Conversation().DeveloperMessage,
		lang.L("For example: Answer briefly, in British English, for office staff."), note, false, func(text string) {
			v.s.goFn(func() { _ = v.sess.SetInstructions(context.Background(), text) })
		})
}

func (v *convView) export() {
	title := v.sess.Conversation().Title
	screen.SaveText(v.s.env, title, safe.FileName(title, ".md", lang.L("conversation")), v.sess.Markdown())
}

// composer is the message box: Enter sends, Shift+Enter adds a line, Esc
// stops the reply.
type composer struct {
	kit.FormEntry
	shift   bool
	onPaste func(text string) bool
}

// TypedShortcut lets onPaste take a long paste before the box wraps it.
func (c *composer) TypedShortcut(s fyne.Shortcut) {
	if p, ok := s.(*fyne.ShortcutPaste); ok && c.onPaste != nil {
		cb := p.Clipboard
		if cb == nil && fyne.CurrentApp() != nil {
			cb = fyne.CurrentApp().Clipboard()
		}
		if cb != nil && c.onPaste(cb.Content()) {
			return
		}
	}
	c.FormEntry.TypedShortcut(s)
}

func newComposer(onSend, onEsc func()) *composer {
	c := &composer{}
	c.ExtendBaseWidget(c)
	c.MultiLine = true
	c.Wrapping = fyne.TextWrapWord
	c.SetMinRowsVisible(2)
	c.SetPlaceHolder(lang.L("Write a message…"))
	c.OnCtrlEnter = onSend
	c.OnKey = func(ev *fyne.KeyEvent) bool {
		switch {
		case (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && !c.shift:
			onSend()
		case ev.Name == fyne.KeyEscape:
			onEsc()
		default:
			return false
		}
		return true
	}
	return c
}

// KeyDown tracks Shift so Enter can tell "send" from "new line".
func (c *composer) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		c.shift = true
	}
	c.FormEntry.KeyDown(ev)
}

func (c *composer) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		c.shift = false
	}
	c.FormEntry.KeyUp(ev)
}

// maxShownChars: wrapping cost grows faster than length, so a longer paste
// becomes a "Pasted text" chip and a longer sent message shows its start.
const maxShownChars = 2000

// pastes are long pasted texts, shown as chips and sent after the typed text.
type pastes struct {
	texts    []string
	box      *fyne.Container
	onChange func()
}

func newPastes(onChange func()) *pastes {
	return &pastes{box: container.NewVBox(), onChange: onChange}
}

func (p *pastes) add(text string) {
	p.texts = append(p.texts, text)
	p.show()
	p.onChange()
}

func (p *pastes) clear() {
	if len(p.texts) == 0 {
		return
	}
	p.texts = nil
	p.show()
	p.onChange()
}

func (p *pastes) show() {
	p.box.Objects = p.box.Objects[:0]
	for i, text := range p.texts {
		label := widget.NewLabel(pasteLabel(text))
		label.Truncation = fyne.TextTruncateEllipsis
		remove := kit.NewButtonWithIcon(lang.L("Remove"), theme.CancelIcon(), func() {
			p.texts = append(p.texts[:i:i], p.texts[i+1:]...)
			p.show()
			p.onChange()
		})
		remove.Importance = widget.LowImportance
		icon := widget.NewIcon(theme.ContentPasteIcon())
		p.box.Add(container.NewBorder(nil, nil, icon, remove, label))
	}
	p.box.Refresh()
}

func pasteLabel(text string) string {
	n := utf8.RuneCountInString(text)
	return lang.N("Pasted text · {{.Count}} character · {{.Start}}", n, map[string]any{"Count": app.Number(n), "Start": kit.Line(text, 80)})
}

func joinMessage(typed string, pasted []string) string {
	parts := make([]string, 0, 1+len(pasted))
	if t := strings.TrimSpace(typed); t != "" {
		parts = append(parts, t)
	}
	for _, p := range pasted {
		// Only blank lines go: pasted code keeps its indent.
		if t := strings.Trim(p, "\r\n"); strings.TrimSpace(t) != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n")
}

func (v *convView) composed() string { return joinMessage(v.entry.Text, v.pastes.texts) }

// setComposed puts text back in the box; a long one as a chip.
func (v *convView) setComposed(text string) {
	v.pastes.texts = nil
	if utf8.RuneCountInString(text) > maxShownChars {
		typed, rest, found := strings.Cut(text, "\n\n")
		if !found || utf8.RuneCountInString(typed) > maxShownChars {
			typed, rest = "", text
		}
		v.entry.SetText(typed)
		v.pastes.add(rest)
		return
	}
	v.pastes.show()
	v.entry.SetText(text)
}

func shownText(text string) string {
	n := 0
	for i := range text {
		if n == maxShownChars {
			more := utf8.RuneCountInString(text[i:])
			return text[:i] + "…\n\n" + lang.N("({{.Count}} more character. Copy copies the whole message.)", more, map[string]any{"Count": app.Number(more)})
		}
		n++
	}
	return text
}
