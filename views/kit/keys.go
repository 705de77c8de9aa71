package kit

import (
	"runtime"
	"slices"

	"fyne.io/fyne/v2/lang"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CtrlEnterShortcut is the one key that starts what costs credits: Enter in a
// field or Space on a button is pressed by mistake too easily.
var CtrlEnterShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}

// CtrlEnterName is how the keyboard names CtrlEnterShortcut here.
var CtrlEnterName = func() string {
	if runtime.GOOS == "darwin" {
		return "⌘ Return"
	}
	return "Ctrl+Enter"
}()

// FieldShortcut runs submit on Ctrl+Enter and hands the window's own
// shortcuts to the window showing o, reporting whether s was one of those:
// Fyne gives every shortcut to the focused field and none to the window.
func FieldShortcut(o fyne.CanvasObject, s fyne.Shortcut, submit func()) bool {
	c, ok := s.(*desktop.CustomShortcut)
	switch {
	case !ok:
		return false
	case c.Modifier == fyne.KeyModifierShortcutDefault && (c.KeyName == fyne.KeyReturn || c.KeyName == fyne.KeyEnter):
		if submit != nil {
			submit()
		}
		return true
	case !isWindowShortcut(c):
		return false
	}
	if w, ok := canvasOf(o).(fyne.Shortcutable); ok {
		w.TypedShortcut(s)
	}
	return true
}

var (
	// SearchShortcut (Ctrl+K) opens the command box from anywhere.
	SearchShortcut = ctrl(fyne.KeyK)
	// FindShortcut (Ctrl+F) focuses the current screen's search.
	FindShortcut = ctrl(fyne.KeyF)
	// NewChatShortcut (Ctrl+N) starts a new chat.
	NewChatShortcut = ctrl(fyne.KeyN)
	// KeysShortcut (Ctrl+/, or F1) lists the keys Agent Desk answers to.
	KeysShortcut = ctrl(fyne.KeySlash)
	// LargerTextShortcuts (Ctrl+= and Ctrl++), SmallerTextShortcut (Ctrl+-)
	// and NormalTextShortcut (Ctrl+0) change the text size, as browsers do.
	LargerTextShortcuts = []*desktop.CustomShortcut{ctrl(fyne.KeyEqual), ctrl(fyne.KeyPlus),
		{KeyName: fyne.KeyEqual, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}}
	SmallerTextShortcut = ctrl(fyne.KeyMinus)
	NormalTextShortcut  = ctrl(fyne.Key0)
	// NextTabShortcuts and PrevTabShortcuts move between tabs, which Fyne's
	// take no keyboard for. Control on a Mac too: ⌘Tab is the system's app switcher.
	NextTabShortcuts = []*desktop.CustomShortcut{{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}, ctrl(fyne.KeyPageDown)}
	PrevTabShortcuts = []*desktop.CustomShortcut{
		{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift},
		ctrl(fyne.KeyPageUp),
	}
)

// ScreenShortcuts (Ctrl+1 … Ctrl+9) go to the navigation rail's screens.
var ScreenShortcuts = func() (s []*desktop.CustomShortcut) {
	for k := '1'; k <= '9'; k++ {
		s = append(s, ctrl(fyne.KeyName(string(k))))
	}
	return s
}()

func ctrl(k fyne.KeyName) *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
}

// CtrlName is how the keyboard names Ctrl (⌘ on a Mac) with key.
func CtrlName(key string) string {
	if runtime.GOOS == "darwin" {
		return "⌘" + key
	}
	return "Ctrl+" + key
}

func isWindowShortcut(c *desktop.CustomShortcut) bool {
	all := []*desktop.CustomShortcut{SearchShortcut, FindShortcut, NewChatShortcut, KeysShortcut, SmallerTextShortcut, NormalTextShortcut}
	all = append(append(append(append(all, ScreenShortcuts...), NextTabShortcuts...), PrevTabShortcuts...), LargerTextShortcuts...)
	return slices.ContainsFunc(all, func(w *desktop.CustomShortcut) bool { return w.ShortcutName() == c.ShortcutName() })
}

// Submitter is a screen that submits on Ctrl+Enter when no field has the keyboard.
type Submitter interface {
	Submit()
}

// FormEntry is a form's text field that runs the form on Ctrl+Enter only.
type FormEntry struct {
	Field
	OnCtrlEnter func()
	// OnKey, when set, sees each key first; true means it took it.
	OnKey func(*fyne.KeyEvent) bool
	// outer is the widget drawn: e, or the one that embeds it. Keys passed
	// on and the focus ring look it up in the window, where e is not.
	outer fyne.Widget
}

// ExtendBaseWidget remembers w, the widget that embeds e, as Fyne's does.
func (e *FormEntry) ExtendBaseWidget(w fyne.Widget) {
	e.outer = w
	e.Field.ExtendBaseWidget(w)
}

func (e *FormEntry) self() fyne.CanvasObject {
	if e.outer != nil {
		return e.outer
	}
	return e
}

func NewFormEntry() *FormEntry {
	e := &FormEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// NewSearchEntry is a one-line search FormEntry: Esc clears it first, and goes
// to the window only when it is empty.
func NewSearchEntry() *FormEntry {
	e := NewFormEntry()
	e.OnKey = func(ev *fyne.KeyEvent) bool {
		if ev.Name == fyne.KeyEscape && e.Text != "" {
			e.SetText("")
			return true
		}
		return false
	}
	return e
}

func NewFormMultiLineEntry() *FormEntry {
	e := NewFormEntry()
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	return e
}

// NewFormPasswordEntry is a one-line FormEntry shown as dots until its eye is pressed.
func NewFormPasswordEntry() *FormEntry {
	e := NewFormEntry()
	e.Password = true
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	var eye *Button
	eye = NewButtonWithIcon("", theme.VisibilityOffIcon(), func() {
		e.Password = !e.Password
		if e.Password {
			eye.SetIcon(theme.VisibilityOffIcon())
			eye.Tip = lang.L("Show the key")
		} else {
			eye.SetIcon(theme.VisibilityIcon())
			eye.Tip = lang.L("Hide the key")
		}
		e.Refresh()
	})
	eye.Tip = lang.L("Show the key")
	eye.Importance = widget.LowImportance
	e.ActionItem = eye
	return e
}

func (e *FormEntry) TypedShortcut(s fyne.Shortcut) {
	if !FieldShortcut(e.self(), s, e.OnCtrlEnter) {
		e.Field.TypedShortcut(s)
	}
}

// TypedKey passes Esc, F1, and Enter in a one-line field that ignores it, on
// to the window; other keys are Entry's.
func (e *FormEntry) TypedKey(ev *fyne.KeyEvent) {
	if e.OnKey != nil && e.OnKey(ev) {
		return
	}
	switch {
	case ev.Name == fyne.KeyEscape || ev.Name == fyne.KeyF1,
		(ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && !e.MultiLine && e.OnSubmitted == nil:
		PassKey(e.self(), ev)
	default:
		e.Field.TypedKey(ev)
	}
}

// CreateRenderer lays a wheelPass over a one-line field (wheel.go).
func (e *FormEntry) CreateRenderer() fyne.WidgetRenderer {
	r := e.Field.CreateRenderer()
	if e.MultiLine {
		return r
	}
	return &wheelRenderer{WidgetRenderer: r, pass: newWheelPass(e.self())}
}

// AcceptsTab is false: Tab leaves even a multi-line field, which Fyne's would trap.
func (e *FormEntry) AcceptsTab() bool { return false }

func (e *FormEntry) FocusGained() {
	e.Field.FocusGained()
	ShowFocused(e.self())
}

// PaidButton is the button of an action that costs credits: a click, Enter
// on it or Ctrl+Enter runs it. Space, easily pressed while typing, does
// not: it says to press Enter.
type PaidButton struct {
	Button
}

// NewPaidButton's tip says it uses credits until the caller words its own.
func NewPaidButton(label string, icon fyne.Resource, tapped func()) *PaidButton {
	b := &PaidButton{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.Tip = lang.L("Uses credits.")
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey runs on Enter, says so on Space, and passes Esc and F1 to the
// window.
func (b *PaidButton) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape, fyne.KeyF1:
		PassKey(b, ev)
	case fyne.KeyReturn, fyne.KeyEnter:
		if !b.Disabled() && b.OnTapped != nil {
			b.OnTapped()
		}
	case fyne.KeySpace:
		if l := LayerOf(canvasOf(b)); l != nil {
			l.showTip(b, lang.L("Press Enter to do this. It uses credits."))
		}
	}
}

// DownInto has Down in the search field e take the keyboard to the first row
// of l, the list it searches.
func DownInto(e *FormEntry, l *List) {
	before := e.OnKey
	e.OnKey = func(ev *fyne.KeyEvent) bool {
		if before != nil && before(ev) {
			return true
		}
		c := canvasOf(e.self())
		if ev.Name != fyne.KeyDown || c == nil || l.Length == nil || l.Length() == 0 {
			return false
		}
		l.moveKeyboardRow(0)
		c.Focus(l)
		return true
	}
}
