package chat

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

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
