package kittest

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/views/kit"
)

// Frames draws a window's frames as Fyne's desktop driver does, which the
// test driver does not: before each frame the driver asks every object shown
// for its minimum size and lays out again the parent of one whose size
// changed, keeping one such parent at a time (Fyne 2.7's
// common.Canvas.EnsureMinSize). A screen that looks right here looks right
// in the window.
type Frames struct {
	c    fyne.Canvas
	mins map[fyne.CanvasObject]fyne.Size
	// looked: Look has been here, and set the text size its test asks for.
	looked bool
}

func NewFrames(c fyne.Canvas) *Frames {
	return &Frames{c: c, mins: map[fyne.CanvasObject]fyne.Size{}}
}

// Settle draws frames and runs what each queues on q, as the window does
// between a user's action and the next look, until a frame queues no more
// than the layer's settle: an update that arrives is followed by a frame.
func (f *Frames) Settle(q *kit.Queue) {
	for i := 0; i < 200; i++ {
		moved := f.Draw()
		if q.Drain() <= 1 && i >= 2 && !moved {
			return
		}
	}
}

// Draw is one frame's measuring and laying out; it reports whether a size
// asked for changed, which the next frame goes on laying out.
func (f *Frames) Draw() (moved bool) {
	next := make(map[fyne.CanvasObject]fyne.Size, len(f.mins))
	var slot fyne.CanvasObject
	var walk func(o, parent fyne.CanvasObject)
	walk = func(o, parent fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		for _, c := range rendered(o) {
			walk(c, o)
		}
		if slot == o {
			layoutAgain(o)
			slot = nil
		}
		min := o.MinSize()
		next[o] = min
		if f.mins[o] != min {
			moved = true
			if parent != nil {
				slot = parent
			} else {
				layoutAgain(o)
			}
		}
	}
	walk(f.c.Content(), nil)
	for _, o := range f.c.Overlays().List() {
		walk(o, nil)
	}
	f.mins = next
	return moved
}

// rendered is what o draws: a container's objects, a widget's renderer's.
func rendered(o fyne.CanvasObject) []fyne.CanvasObject {
	switch v := o.(type) {
	case *fyne.Container:
		return v.Objects
	case fyne.Widget:
		return test.WidgetRenderer(v).Objects()
	}
	return nil
}

func layoutAgain(o fyne.CanvasObject) {
	switch v := o.(type) {
	case *fyne.Container:
		if v.Layout != nil {
			v.Layout.Layout(v.Objects, v.Size())
		}
	case fyne.Widget:
		test.WidgetRenderer(v).Layout(v.Size())
	}
}

// Overlap names the first two things shown under root that are drawn over
// each other (texts, and controls a user can click or reach by keyboard),
// or "". What a scroll has out of view is not shown; a control's own insides
// are its own.
func Overlap(root fyne.CanvasObject) string {
	var shown []drawn
	collect(root, fyne.Position{}, area{max: fyne.NewPos(1e9, 1e9)}, false, &shown)
	for i, a := range shown {
		for _, b := range shown[i+1:] {
			if a.at.overlaps(b.at) {
				return fmt.Sprintf("%s at %v is drawn over %s at %v", a.what, a.at, b.what, b.at)
			}
		}
	}
	return ""
}

type area struct{ min, max fyne.Position }

func (a area) clip(b area) area {
	return area{
		min: fyne.NewPos(max(a.min.X, b.min.X), max(a.min.Y, b.min.Y)),
		max: fyne.NewPos(min(a.max.X, b.max.X), min(a.max.Y, b.max.Y)),
	}
}

// empty is true for an area with less than a pixel either way.
func (a area) empty() bool { return a.max.X-a.min.X < 1 || a.max.Y-a.min.Y < 1 }

// overlaps allows a pixel of touching either way (rounding).
func (a area) overlaps(b area) bool { return !a.clip(b).shrunk().empty() }

func (a area) shrunk() area {
	return area{min: fyne.NewPos(a.min.X+0.5, a.min.Y+0.5), max: fyne.NewPos(a.max.X-0.5, a.max.Y-0.5)}
}

func (a area) String() string {
	return fmt.Sprintf("(%.0f,%.0f)-(%.0f,%.0f)", a.min.X, a.min.Y, a.max.X, a.max.Y)
}

type drawn struct {
	what string
	at   area
}

// A control is clicked and reached by keyboard: a button, field, check
// box, choice or link.
type control interface {
	fyne.Tappable
	fyne.Focusable
}

// collect adds what o shows; textsOnly, inside a label, leaves out the
// part a selectable label lays over its text to be selected.
func collect(o fyne.CanvasObject, parent fyne.Position, clip area, textsOnly bool, out *[]drawn) {
	if o == nil || !o.Visible() {
		return
	}
	if _, ok := o.(*kit.Layer); ok {
		return
	}
	pos := parent.Add(o.Position())
	box := area{min: pos, max: pos.Add(o.Size())}
	switch v := o.(type) {
	case *canvas.Text:
		if strings.TrimSpace(v.Text) == "" || isClear(v.Color) {
			return
		}
		// The text is drawn at its own width within its box, by its alignment.
		w := min(v.MinSize().Width, v.Size().Width)
		switch v.Alignment {
		case fyne.TextAlignCenter:
			box.min.X += (v.Size().Width - w) / 2
		case fyne.TextAlignTrailing:
			box.min.X += v.Size().Width - w
		}
		box.max.X = box.min.X + w
		if at := box.clip(clip); !at.empty() {
			*out = append(*out, drawn{fmt.Sprintf("the text %q", v.Text), at})
		}
		return
	case *widget.Label:
		textsOnly = true
	case control:
		if textsOnly {
			return
		}
		if at := box.clip(clip); !at.empty() {
			*out = append(*out, drawn{fmt.Sprintf("%T %q", o, FirstWords(o)), at})
		}
		return
	case fyne.Scrollable:
		clip = clip.clip(box)
		if clip.empty() {
			return
		}
	}
	for _, c := range rendered(o) {
		collect(c, pos, clip, textsOnly, out)
	}
}

func isClear(c color.Color) bool {
	if c == nil {
		return false
	}
	_, _, _, a := c.RGBA()
	return a == 0
}

// Look settles w as the window would after an action and fails t when two
// things shown are drawn over each other or one is cut off; where names the
// moment.
func Look(t testing.TB, f *Frames, q *kit.Queue, w fyne.Window, where string) {
	t.Helper()
	if !f.looked {
		f.looked = true
		if LargeText(t) {
			s := fyne.CurrentApp().Settings()
			s.SetTheme(kit.TextScaled{Theme: s.Theme(), Scale: LargeTextPercent / 100.0})
			where += fmt.Sprintf(", text at %d %%", LargeTextPercent)
		}
	}
	f.Settle(q)
	root := w.Canvas().Content()
	if s := Overlap(root); s != "" {
		t.Fatalf("%s at %v: %s", where, w.Canvas().Size(), s)
	}
	if s := Clipped(root); s != "" {
		t.Fatalf("%s at %v: %s", where, w.Canvas().Size(), s)
	}
	for _, o := range w.Canvas().Overlays().List() {
		if s := Overlap(o); s != "" {
			t.Fatalf("%s at %v, in the dialog: %s", where, w.Canvas().Size(), s)
		}
	}
}

// Clipped names the first visible object under o laid out narrower than it
// asks to be (its end is cut off), or "". A vertical scroll's content may be
// taller than the scroll, not wider.
func Clipped(o fyne.CanvasObject) string { return clippedIn(o, "") }

func clippedIn(o fyne.CanvasObject, path string) string {
	path += fmt.Sprintf("/%T(%v)", o, o.Size().Width)
	if !o.Visible() {
		return ""
	}
	inner := o
	if sc, ok := o.(*container.Scroll); ok {
		if sc.Direction != container.ScrollVerticalOnly {
			return "" // it scrolls sideways: nothing is cut off
		}
		inner = sc.Content
	}
	// The deepest object cut off is the one to blame: its parents are cut
	// off because it is. A field's insides (a date field's calendar button)
	// are Fyne's own.
	_, field := inner.(interface{ SetPlaceHolder(string) })
	if s := cutHint(inner); s != "" {
		return s
	}
	switch inner.(type) {
	case *widget.RichText:
		field = true // its lines are Fyne's: it wraps them itself
	case *widget.ProgressBarInfinite:
		field = true // its bar runs back and forth, out of its box and in again
	}
	for _, c := range Children(inner) {
		if field {
			break
		}
		if s := clippedIn(c, path); s != "" {
			return s
		}
	}
	if inner != o && inner.MinSize().Width > o.Size().Width+1 {
		return fmt.Sprintf("the scroll holding %T %q is %v wide and its content asks for %v", inner, FirstWords(inner), o.Size().Width, inner.MinSize().Width)
	}
	if tabs, ok := o.(*container.AppTabs); ok {
		// A tab not shown is not in the tree, but its width counts.
		for _, it := range tabs.Items {
			if m := it.Content.MinSize(); m.Width > o.Size().Width+1 || m.Height > o.Size().Height+1 {
				return fmt.Sprintf("the %q tab's %T %q is in %v and asks for %v", it.Text, it.Content, FirstWords(it.Content), o.Size(), m)
			}
		}
	}
	if min, got := o.MinSize(), o.Size(); min.Width > got.Width+1 || min.Height > got.Height+1 {
		var tabs []string
		if at, ok := o.(*container.AppTabs); ok {
			for _, it := range at.Items {
				tabs = append(tabs, fmt.Sprintf("%s %v", it.Text, it.Content.MinSize()))
			}
		}
		return fmt.Sprintf("%T %q is %v and asks for %v (in %s) %v", o, FirstWords(o), got, min, path, tabs)
	}
	return ""
}

// FirstWords is the start of what o says, to name it in a failure.
func FirstWords(o fyne.CanvasObject) string {
	s := strings.Join(strings.Fields(AllText(o)), " ")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// cutHint names a one-line field whose hint (placeholder) does not fit it:
// "Buscar memór…" tells nobody what to type.
func cutHint(o fyne.CanvasObject) string {
	var e *widget.Entry
	switch v := o.(type) {
	case *widget.Entry:
		e = v
	case *kit.FormEntry:
		e = &v.Entry
	default:
		return ""
	}
	if e.MultiLine || e.PlaceHolder == "" || e.Text != "" || e.Size().Width == 0 {
		return ""
	}
	room := e.Size().Width - 2*theme.InnerPadding()
	if e.ActionItem != nil {
		room -= e.ActionItem.MinSize().Width + theme.Padding()
	}
	if need := fyne.MeasureText(e.PlaceHolder, theme.TextSize(), e.TextStyle).Width; need > room+1 {
		return fmt.Sprintf("the hint %q needs %v but its field leaves %v", e.PlaceHolder, need, room)
	}
	return ""
}

// Sizes are the windows the layout checks look at: the smallest Agent Desk
// takes, a laptop's, and a full HD screen's.
var Sizes = []fyne.Size{{Width: 800, Height: 600}, {Width: 1024, Height: 768}, {Width: 1920, Height: 1080}}

// LargeTextSize is the window the layout checks also look at with text at
// LargeTextPercent, the largest staff can choose: a laptop's.
var LargeTextSize = fyne.Size{Width: 1024, Height: 768}

// LargeTextPercent is the text size of the large-text looks.
const LargeTextPercent = 150

// largeTextMark names the subtests that look with large text.
const largeTextMark = "large-text"

// LargeTextName is the name of a subtest whose Looks set the text to
// LargeTextPercent (before the first, which then sees every screen redrawn
// as a change of text size does) at size.
func LargeTextName(size fyne.Size) string {
	return fmt.Sprintf("%vx%v/%s", size.Width, size.Height, largeTextMark)
}

// LargeText reports whether t is a subtest named by LargeTextName.
func LargeText(t testing.TB) bool { return strings.Contains(t.Name(), "/"+largeTextMark) }

// EachSize runs look as a subtest at each of Sizes, then at LargeTextSize
// with large text.
func EachSize(t *testing.T, look func(t *testing.T, size fyne.Size)) {
	for _, size := range Sizes {
		t.Run(fmt.Sprintf("%vx%v", size.Width, size.Height), func(t *testing.T) { look(t, size) })
	}
	t.Run(LargeTextName(LargeTextSize), func(t *testing.T) { look(t, LargeTextSize) })
}

// Languages are those Agent Desk speaks besides English, whose words run
// longer: the layout checks look at them in the smallest window.
var Languages = []string{"pt-BR", "es"}

// EachLanguage runs look as a subtest in English at each of Sizes, then in
// each of Languages at the smallest size; speak sets the language
// (apptest.Speak: kit imports no app).
func EachLanguage(t *testing.T, speak func(testing.TB, string), look func(t *testing.T, size fyne.Size)) {
	t.Run("en", func(t *testing.T) { EachSize(t, look) })
	for _, lang := range Languages {
		t.Run(fmt.Sprintf("%s/%vx%v", lang, Sizes[0].Width, Sizes[0].Height), func(t *testing.T) {
			speak(t, lang)
			look(t, Sizes[0])
		})
	}
}
