package kit

import (
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
)

// Loading is the state of a screen waiting for the service. Show it with
// SetBody, which stops it when it is replaced.
func Loading(text string) fyne.CanvasObject {
	bar := widget.NewProgressBarInfinite()
	label := widget.NewLabel(text)
	label.Alignment = fyne.TextAlignCenter
	state := container.NewCenter(container.NewVBox(label, container.NewGridWrap(fyne.NewSize(240, bar.MinSize().Height), bar)))
	loadingMu.Lock()
	loadingBars[state] = bar
	loadingMu.Unlock()
	return state
}

// loadingBars are the bars of the loading states not stopped yet.
var (
	loadingMu   sync.Mutex
	loadingBars = map[fyne.CanvasObject]*widget.ProgressBarInfinite{}
)

// StopLoading stops o if it is a loading state (anything else is left as
// it is). Fyne animates an infinite progress bar until it is stopped or
// until it drops the bar's renderer from its cache, a minute after the bar
// was last drawn; meanwhile the window is redrawn every frame. Measured
// after the agents list replaced its "Loading agents…": half a core busy
// and the heap growing by some 2 MB a second, for that minute.
func StopLoading(o fyne.CanvasObject) {
	loadingMu.Lock()
	bar, ok := loadingBars[o]
	delete(loadingBars, o)
	loadingMu.Unlock()
	if ok {
		bar.Stop()
	}
}

// SetBody shows o alone in c, stopping the loading state it replaces. The
// screens show their loading, error, empty and loaded states with it.
func SetBody(c *fyne.Container, o fyne.CanvasObject) {
	for _, old := range c.Objects {
		if old != o {
			StopLoading(old)
		}
	}
	c.Objects = []fyne.CanvasObject{o}
	c.Refresh()
}

// ShowBody is SetBody for a container that may already show o: then it is
// left as it is, so a list that stays shown is not redrawn.
func ShowBody(c *fyne.Container, o fyne.CanvasObject) {
	if len(c.Objects) == 1 && c.Objects[0] == o {
		return
	}
	SetBody(c, o)
}

// Empty is the state of a list with nothing in it: an icon, a title that
// says so, and a line that says what to do.
func Empty(icon fyne.Resource, title, detail string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	img := widget.NewIcon(icon)
	t := widget.NewLabelWithStyle(title, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	d := widget.NewLabel(detail)
	d.Alignment = fyne.TextAlignCenter
	d.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(
		container.NewCenter(container.NewGridWrap(fyne.NewSquareSize(48), img)),
		t, container.NewGridWrap(fyne.NewSize(380, d.MinSize().Height*2), d))
	if len(actions) > 0 {
		box.Add(container.NewCenter(container.NewHBox(actions...)))
	}
	return container.NewCenter(box)
}

// Error is the state of a screen whose load failed: app.Explain's title and
// sentence, and the buttons for what can be done about it (ProblemActions).
func Error(err error, retry func()) fyne.CanvasObject {
	p := app.Explain(err)
	return Empty(theme.ErrorIcon(), p.Title, p.Sentence, ProblemActions(p, retry)...)
}

// ProblemActions are the buttons a problem offers: the account's settings
// when its key or workspace needs a look, and retry (when not nil) as "Try
// again", or "Check again" for work that goes on at the service.
func ProblemActions(p app.Problem, retry func()) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	if p.Action == app.ActionOpenSettings {
		if open := settingsOpener.Load(); open != nil {
			out = append(out, widget.NewButtonWithIcon(p.Action.Label(), theme.SettingsIcon(), *open))
		}
	}
	if retry != nil {
		label := app.ActionTryAgain.Label()
		if p.Action == app.ActionCheckLater {
			label = "Check again"
		}
		out = append(out, widget.NewButtonWithIcon(label, theme.ViewRefreshIcon(), retry))
	}
	return out
}

var settingsOpener atomic.Pointer[func()]

// SetSettingsOpener is how the window shows the account settings; problems
// with the key offer it (the shell sets it once).
func SetSettingsOpener(open func()) { settingsOpener.Store(&open) }

// Header is a screen's title with an optional subtitle and actions on the
// right.
func Header(title, subtitle string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.SizeName = theme.SizeNameSubHeadingText
	left := container.NewVBox(t)
	if subtitle != "" {
		s := widget.NewLabel(subtitle)
		s.Importance = widget.LowImportance
		s.Wrapping = fyne.TextWrapWord
		left.Add(s)
	}
	right := container.NewHBox(actions...)
	return container.NewBorder(nil, nil, nil, container.NewVBox(layout.NewSpacer(), right, layout.NewSpacer()), left)
}

// ErrorText is a red line for an error shown beside a field or under a form.
func ErrorText() *widget.Label {
	l := widget.NewLabel("")
	l.Importance = widget.DangerImportance
	l.Wrapping = fyne.TextWrapWord
	l.Hide()
	return l
}

// ShowError sets an ErrorText's message, hiding it when msg is empty.
func ShowError(l *widget.Label, msg string) {
	l.SetText(msg)
	if msg == "" {
		l.Hide()
	} else {
		l.Show()
	}
}

// NewTwoLineRow is a list row every screen uses alike: a bold first line and
// a quieter second one, both cut short with an ellipsis. Fill it with
// SetTwoLineRow.
func NewTwoLineRow() fyne.CanvasObject {
	return container.NewVBox(TwoLines("Title", "Detail"))
}

// TwoLines are the labels of a two-line row: first bold, second quieter,
// both cut short with an ellipsis (a long title never widens the window).
func TwoLines(first, second string) (*widget.Label, *widget.Label) {
	f := widget.NewLabelWithStyle(first, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	f.Truncation = fyne.TextTruncateEllipsis
	s := widget.NewLabel(second)
	s.Importance = widget.LowImportance
	s.Truncation = fyne.TextTruncateEllipsis
	return f, s
}

// SetTwoLineRow shows first and second in a row made by NewTwoLineRow.
func SetTwoLineRow(o fyne.CanvasObject, first, second string) {
	box := o.(*fyne.Container)
	box.Objects[0].(*widget.Label).SetText(first)
	box.Objects[1].(*widget.Label).SetText(second)
}
