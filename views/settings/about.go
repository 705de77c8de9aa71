package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/assets"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// AboutContent is the About dialog's body: icon, name and version, what
// Agent Desk is, and the folders where it keeps its files (selectable, so
// they can be copied).
func AboutContent(a *app.App) fyne.CanvasObject {
	icon := canvas.NewImageFromResource(assets.Icon)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSquareSize(72))
	name := widget.NewLabelWithStyle("Agent Desk", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	version := widget.NewLabel(lang.L("Version {{.Version}}", map[string]any{"Version": a.Version()}))
	what := screen.Wrapped(lang.L("Agent Desk runs the AI agents of your Agent Execution Service account: fill in an agent's questions, run it, chat with it, and keep its files and memories tidy."))

	folders := widget.NewForm()
	for _, f := range a.Folders() {
		path := widget.NewLabel(f.Path)
		path.Selectable = true
		path.Wrapping = fyne.TextWrapBreak
		folders.Append(f.What, path)
	}
	head := container.NewBorder(nil, nil, icon, nil, container.NewVBox(name, version))
	return container.NewVBox(head, what,
		widget.NewLabelWithStyle(lang.L("Where Agent Desk keeps its files"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		folders)
}

// ShowAbout opens the About dialog over win.
func ShowAbout(a *app.App, win fyne.Window) {
	d := dialog.NewCustom(lang.L("About Agent Desk {{.Version}}", map[string]any{"Version": a.Version()}), lang.L("Close"), AboutContent(a), win)
	d.Resize(fyne.NewSize(620, 0))
	kit.ShowDialog(d, win)
}
