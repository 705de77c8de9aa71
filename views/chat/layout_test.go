package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
)

// overflow names what under root is drawn outside root's size w × h, or
// a text shorter than it needs; the content of scroll areas is left out
// (it is clipped and scrolls).
func overflow(root fyne.CanvasObject, w, h float32) string {
	var found string
	var walk func(o fyne.CanvasObject, at fyne.Position)
	walk = func(o fyne.CanvasObject, at fyne.Position) {
		if found != "" || !o.Visible() {
			return
		}
		end := at.Add(fyne.NewPos(o.Size().Width, o.Size().Height))
		if end.X > w+1 || end.Y > h+1 {
			found = fmt.Sprintf("%T %q ends at %.0f, %.0f", o, short(kittest.AllText(o)), end.X, end.Y)
			return
		}
		if r, ok := o.(*widget.RichText); ok && r.Size().Height+1 < r.MinSize().Height {
			found = fmt.Sprintf("text %q is %.0f px tall, needs %.0f", short(kittest.AllText(r)), r.Size().Height, r.MinSize().Height)
			return
		}
		if _, ok := o.(*kit.Scroller); ok {
			return
		}
		for _, c := range kittest.Children(o) {
			walk(c, at.Add(c.Position()))
		}
	}
	walk(root, fyne.Position{})
	return found
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// TestARichReplyFitsAtEveryWidth: after a 20 kB reply with headings,
// nested lists, a 60-line code block, a table, four scripts and emoji, at
// 800, 1024, 1920 and 3840 px every message is as tall as its content (so
// the next starts below it), nothing runs past its row's edges, and
// scrolled to the end the reply's last actions are in view.
func TestARichReplyFitsAtEveryWidth(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	test.Type(v.entry, "Please write a long answer with a table and the code")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle(v)
	test.Type(v.entry, "Thank you")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle(v)
	if len(v.msgs) != 4 || len(v.msgs[1].Content) < 18_000 {
		t.Fatalf("want two replies, the first a rich one; got %d messages", len(v.msgs))
	}

	for _, width := range []float32{800, 1024, 1920, 3840} {
		s.env.Window.Resize(fyne.NewSize(width, 900))
		v.rows = map[int64]*rowCache{}
		for i, m := range v.msgs {
			v.bindRow(i, container.NewStack())
			rc := v.rows[m.ID]
			h := v.heights[i]
			rc.obj.Resize(fyne.NewSize(v.rowWidth(), h))
			if need := rc.obj.MinSize().Height; need > h+1 {
				t.Fatalf("at %v px message %d needs %.0f px and is given %.0f: it would run into the next", width, i, need, h)
			}
			if what := overflow(rc.obj, v.rowWidth(), h); what != "" {
				t.Fatalf("at %v px, in message %d: %s (row %.0f × %.0f)", width, i, what, v.rowWidth(), h)
			}
		}

		// the end of the conversation is reachable: scrolled to it, the
		// last reply's Regenerate is inside the list's view
		v.list.Refresh()
		v.list.ScrollToBottom()
		var regen fyne.CanvasObject
		for _, b := range buttonsIn(v.list) {
			if b.Text == "Regenerate" {
				regen = b.CanvasObject
			}
		}
		if regen == nil {
			t.Fatalf("at %v px Regenerate is not on screen after scrolling to the end", width)
		}
		p := kittest.AbsolutePos(regen, v.list)
		if p.Y < 0 || p.Y+regen.Size().Height > v.list.Size().Height+1 {
			t.Fatalf("at %v px Regenerate is at %.0f–%.0f, outside the list's %.0f px", width, p.Y, p.Y+regen.Size().Height, v.list.Size().Height)
		}
	}
	if !strings.Contains(v.msgs[1].Content, "```python") {
		t.Fatal("the rich reply should hold its code block")
	}
}

// A conversation of many long replies keeps the widgets of only a few
// messages out of view, and builds a message again when it comes back.
func TestALongConversationKeepsFewMessagesBuilt(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	reply := longReply(20 << 10)
	storeMessages(t, a, v.sess.ID(), 40, reply)
	v = reopen(s, v.sess.ID())
	if len(v.msgs) != 80 {
		t.Fatalf("want 80 messages, got %d", len(v.msgs))
	}
	// the list shows a few rows at a time in the same row objects
	pool := []*fyne.Container{container.NewStack(), container.NewStack(), container.NewStack()}
	for i := range v.msgs {
		v.bindRow(i, pool[i%len(pool)])
	}
	if len(v.rows) > 2*keptRows || (len(v.rows) > minKeptRows && v.rowBytes > 2*keptBytes) {
		t.Fatalf("after scrolling through, %d messages (%d bytes of text) keep their widgets", len(v.rows), v.rowBytes)
	}
	v.load() // a new message: down to the limits
	if len(v.rows) > keptRows || (len(v.rows) > minKeptRows && v.rowBytes > keptBytes) {
		t.Fatalf("%d messages (%d bytes of text) keep their widgets", len(v.rows), v.rowBytes)
	}
	row := pool[0]
	v.bindRow(1, row)
	if md := markdownIn(row.Objects[0]); md == nil || md.Text() != reply {
		t.Fatal("a message built again should show its whole text")
	}

	// rows on screen are never dropped: a tall window showing 14 replies
	// (more text than is kept out of view) binds them again and again
	// without building any again
	screen := make([]*fyne.Container, 14)
	for i := range screen {
		screen[i] = container.NewStack()
	}
	first := 80 - 2*len(screen)
	built := map[int64]fyne.CanvasObject{}
	for pass := 0; pass < 3; pass++ {
		for i := range screen {
			id := v.msgs[first+2*i+1].ID // the replies
			v.bindRow(first+2*i+1, screen[i])
			if pass == 0 {
				built[id] = v.rows[id].obj
			} else if v.rows[id].obj != built[id] {
				t.Fatalf("a reply on screen was built again on refresh %d", pass)
			}
		}
	}
}

// Choosing to wrap a code block's lines in a reply on screen gives the
// reply the height its wrapped lines need.
func TestWrappingCodeGivesTheReplyItsNewHeight(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	code := "```\n" + strings.Repeat(strings.Repeat("word ", 40)+"\n", 20) + "```"
	storeMessages(t, a, v.sess.ID(), 1, code)
	v = reopen(s, v.sess.ID())
	row := container.NewStack()
	v.bindRow(1, row)
	before := v.heights[1]
	var c *richtext.CodeBlock
	walkObjects(row, func(o fyne.CanvasObject) {
		if x, ok := o.(*richtext.CodeBlock); ok {
			c = x
		}
	})
	if c == nil {
		t.Fatal("no code block in the reply")
	}
	test.Tap(kittest.FindButton(c, "Wrap lines"))
	v.bindRow(1, row) // the list binds the row it was asked to refresh
	rc := v.rows[v.msgs[1].ID]
	if need := rc.obj.MinSize().Height; v.heights[1] < need-1 || v.heights[1] <= before {
		t.Fatalf("after wrapping, the reply is given %.0f px (was %.0f) and needs %.0f", v.heights[1], before, need)
	}
}

// rowsOnScreen are the message rows the list shows now, each with the
// height the list gave it.
func rowsOnScreen(v *convView) map[int64]float32 {
	objs := map[fyne.CanvasObject]int64{}
	for id, rc := range v.rows {
		objs[rc.obj] = id
	}
	out := map[int64]float32{}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if c, ok := o.(*fyne.Container); ok && len(c.Objects) == 1 {
			if id, ok := objs[c.Objects[0]]; ok && c.Visible() {
				out[id] = c.Size().Height
				return
			}
		}
		for _, c := range kittest.Children(o) {
			walk(c)
		}
	}
	walk(v.list)
	return out
}

// After the window is made narrower or shorter, the messages on screen are
// measured again: none runs into the next, and a long code block's box
// stays shorter than the conversation's view, so that the box and the
// lines around it can be seen together.
func TestRowsOnScreenFitAfterTheWindowResizes(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	code := "Here is the log:\n\n```\n" + strings.Repeat("line of the log\n", 300) + "```\n\nAnd a long paragraph after it. " + strings.Repeat("The budget review went well and every team met its plan. ", 30)
	storeMessages(t, a, v.sess.ID(), 3, code)
	v = reopen(s, v.sess.ID())
	v.list.ScrollToTop()
	for _, size := range []fyne.Size{{Width: 1000, Height: 700}, {Width: 800, Height: 700}, {Width: 800, Height: 420}, {Width: 1400, Height: 900}, {Width: 800, Height: 600}} {
		s.env.Window.Resize(size)
		on := rowsOnScreen(v)
		if len(on) == 0 {
			t.Fatalf("at %v no message is on screen", size)
		}
		for id, h := range on {
			if need := v.rows[id].obj.MinSize().Height; need > h+1 {
				t.Fatalf("at %v a message on screen needs %.0f px and has %.0f: it runs into the next", size, need, h)
			}
		}
		view := v.list.Size().Height
		for id := range on {
			for _, c := range codeBlocksIn(v.rows[id].obj) {
				if c.Size().Height > view {
					t.Fatalf("at %v a code box is %.0f px tall in a view of %.0f", size, c.Size().Height, view)
				}
			}
		}
	}
}

func codeBlocksIn(o fyne.CanvasObject) []*richtext.CodeBlock {
	if c, ok := o.(*richtext.CodeBlock); ok {
		return []*richtext.CodeBlock{c}
	}
	var out []*richtext.CodeBlock
	for _, c := range kittest.Children(o) {
		out = append(out, codeBlocksIn(c)...)
	}
	return out
}

// Once a reply has streamed in and the conversation rests, the text drawn
// while it arrived is let go; the user sees the same conversation, and the
// composer keeps the focus and what was typed in it.
func TestTextDrawnForAReplyIsLetGoAtRest(t *testing.T) {
	s, cw := countingScreen(t, 1)
	v := startChat(t, s, s.env.App)
	test.Type(v.entry, "Please write a long answer")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle(v)
	cw.Canvas().Focus(v.entry)
	test.Type(v.entry, "Next question")
	ui(s).WaitUntil(t, func() bool { return cw.Sets.Load() > 0 && s.text.Pending() == 0 },
		func() string { return fmt.Sprintf("%d releases, %d lines pending", cw.Sets.Load(), s.text.Pending()) })
	if cw.Content() != s.Content() {
		t.Fatal("the window should show the same screen")
	}
	if cw.Canvas().Focused() != v.entry || v.entry.Text != "Next question" {
		t.Fatalf("the composer should keep the focus and %q; focus on %T, text %q", "Next question", cw.Canvas().Focused(), v.entry.Text)
	}
	if !strings.Contains(replyText(t, v), "Quarterly budget review") {
		t.Fatal("the reply should still be shown")
	}
}

// A reply drawn while it arrives counts all its lines as text drawn, in
// whatever pieces it comes and though its text is kept when it ends: at
// the usual limits, the conversation lets that text go once it rests.
func TestAReplyDrawnAsItArrivesIsLetGoAtRest(t *testing.T) {
	s, cw := countingScreen(t, textLimits.Few, apptest.WithDemo(demoservice.Options{Pace: 5 * time.Millisecond}))
	v := startChat(t, s, s.env.App)
	test.Type(v.entry, "Please write a long answer")
	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	ui(s).WaitUntil(t, func() bool { v.frame(); return v.live != nil }, func() string { return "no reply arriving" })
	settle(v)
	ui(s).WaitUntil(t, func() bool { return cw.Sets.Load() > 0 },
		func() string { return fmt.Sprintf("no release; %d lines counted since the last", s.text.Pending()) })
}

// countingScreen is the Chats screen in a window that counts releases of
// text, which come at rest once few lines were drawn (never for many).
func countingScreen(t *testing.T, few int, change ...func(*app.Config)) (*Screen, *kittest.CountingWindow) {
	t.Helper()
	s, a := openScreen(t, change...)
	cw := &kittest.CountingWindow{Window: s.env.Window}
	s = testScreen(a, cw, ui(s))
	s.text = kit.NewTextRelease(cw, a.Life(), kit.ReleaseLimits{Many: 1 << 30, Few: few, Rest: time.Millisecond})
	cw.Window.SetContent(s.Content())
	return s, cw
}

// glWindow sets its content as Fyne's desktop driver does: laid out at
// its smallest size first, then at the window's, then refreshed whole.
type glWindow struct{ fyne.Window }

func (w *glWindow) SetContent(o fyne.CanvasObject) {
	size := o.Size()
	o.Resize(o.MinSize())
	w.Window.SetContent(o)
	o.Resize(size)
	o.Refresh()
}

// A release of text (which sets the window's content again) leaves the
// conversation as it was, without measuring its rows again: the same size,
// the code box as tall, every row on screen fitting its content.
func TestAReleaseLeavesTheConversationAsItWas(t *testing.T) {
	s, a := openScreen(t)
	gw := &glWindow{Window: s.env.Window}
	s = testScreen(a, gw, ui(s))
	gw.Window.SetContent(container.NewStack(s.Content(), kit.NewLayer(gw.Canvas()))) // as the shell does
	gw.Resize(fyne.NewSize(900, 650))
	v := startChat(t, s, a)
	code := "Here is the log:\n\n```\n" + strings.Repeat("line of the log\n", 300) + "```\n\n" + strings.Repeat("The budget review went well and every team met its plan. ", 30)
	storeMessages(t, a, v.sess.ID(), 2, code)
	v = reopen(s, v.sess.ID())
	gw.Canvas().Focus(v.entry)
	listSize, box := v.list.Size(), v.s.wrap.View()
	binds := v.binds
	kit.ReleaseText(gw)
	// the window refreshed whole binds each row on screen once; the
	// layout at the smallest size and back binds nothing more
	if n, on := v.binds-binds, len(rowsOnScreen(v)); n > uint64(on) {
		t.Fatalf("a release bound rows %d times, %d are on screen", n, on)
	}
	if v.list.Size() != listSize || v.s.wrap.View() != box {
		t.Fatalf("after a release the conversation is %v (was %v), the code box %v (was %v)", v.list.Size(), listSize, v.s.wrap.View(), box)
	}
	for id, h := range rowsOnScreen(v) {
		if need := v.rows[id].obj.MinSize().Height; need > h+1 {
			t.Fatalf("after a release a message needs %.0f px and has %.0f", need, h)
		}
	}
	if gw.Canvas().Focused() != v.entry {
		t.Fatal("the composer keeps the focus")
	}
}

// TestAChatLaysOutAfterEachAction: a chat started, a message sent and its
// reply shown, the reply settings opened and closed, the service gone and
// the error said, at each size: nothing drawn over anything, nothing cut.
func TestAChatLaysOutAfterEachAction(t *testing.T) {
	kittest.EachLanguage(t, apptest.Speak, func(t *testing.T, size fyne.Size) {
		s, a := openScreen(t)
		w := s.env.Window
		q := ui(s)
		w.SetContent(container.NewStack(s.Content(), kit.NewLayer(w.Canvas())))
		w.Resize(size)
		frames := kittest.NewFrames(w.Canvas())
		v := startChat(t, s, a)
		kittest.Look(t, frames, q, w, "a chat started")
		test.Type(v.entry, "What should the minutes of the supplier review say?")
		v.send()
		settle(v)
		kittest.Look(t, frames, q, w, "a reply shown")
		test.Tap(v.settingsBtn)
		kittest.Look(t, frames, q, w, "the reply settings open")
		test.Tap(kittest.FindButton(w.Canvas().Overlays().Top(), lang.L("Close")))
		kittest.Look(t, frames, q, w, "the reply settings closed")
		_ = a.Demo().Close()
		test.Type(v.entry, "Are you there?")
		v.send()
		kittest.Look(t, frames, q, w, "the service out of reach")
		w.Resize(fyne.NewSize(800, 600))
		kittest.Look(t, frames, q, w, "the window made small")
	})
}
