package agents

import (
	"net/url"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
)

// outputView shows a run's result: text as rendered markdown with Copy,
// a picture as a preview with Save as…, a video as a link to the system
// player with Save as…, and what it cost.
type outputView struct {
	s       *Screen
	content *fyne.Container
	run     app.Run
	// unbind stops hearing of the preview of the run shown.
	unbind func()
	// onLoaded is called when a preview has arrived and the result grew.
	onLoaded func()
	// onCheckAgain looks on the service for the result of a run that was
	// still going (the Check again button).
	onCheckAgain func(app.Run)
}

func newOutputView(s *Screen) *outputView {
	o := &outputView{s: s, content: container.NewVBox()}
	o.clear()
	return o
}

func (o *outputView) clear() {
	o.stopPreview()
	l := widget.NewLabel("The result appears here after a run.")
	l.Importance = widget.LowImportance
	o.content.Objects = []fyne.CanvasObject{l}
	o.content.Refresh()
}

// note adds a line under the result.
func (o *outputView) note(msg string) {
	l := widget.NewLabel(msg)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	o.content.Add(l)
}

// show displays a finished (or past) run. took is zero for a past run.
func (o *outputView) show(r app.Run, took time.Duration) {
	o.stopPreview()
	o.run = r
	var objs []fyne.CanvasObject
	objs = append(objs, widget.NewLabelWithStyle(statusLine(r, took), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	if r.Error != "" {
		msg := kit.ErrorText()
		kit.ShowError(msg, r.Error)
		objs = append(objs, msg)
	}
	if app.CanCheckAgain(r) && o.onCheckAgain != nil {
		objs = append(objs, container.NewHBox(widget.NewButtonWithIcon("Check again", theme.ViewRefreshIcon(), func() { o.onCheckAgain(r) })))
	}
	switch {
	case app.IsMediaOutput(r.AgentType, r.Output) && r.AgentType == client.AgentImage:
		objs = append(objs, o.image(r))
	case app.IsMediaOutput(r.AgentType, r.Output):
		objs = append(objs, o.video(r))
	case r.Output != "":
		objs = append(objs, o.text(r.Output))
	case r.Error == "" && !app.CanCheckAgain(r):
		objs = append(objs, widget.NewLabel("The agent returned no output."))
	}
	o.content.Objects = objs
	o.content.Refresh()
}

func statusLine(r app.Run, took time.Duration) string {
	var s string
	switch r.Status {
	case app.RunFailed:
		s = "The run did not finish"
	case app.RunCancelled:
		s = "Cancelled"
	case app.RunRunning:
		s = "This run had not finished when Agent Desk last saw it"
	case app.RunStillRunning:
		s = "Still running on the service"
	default:
		s = "Result"
	}
	if took > 0 {
		s += " · " + app.HowLong(took)
	} else if !r.CreatedAt.IsZero() {
		s += " · " + r.CreatedAt.Local().Format("2 Jan 2006 15:04")
	}
	if r.Credits != nil {
		s += " · " + app.Credits(*r.Credits)
	}
	return s
}

// text is the output as rendered markdown, with a plain selectable view
// and a Copy button.
func (o *outputView) text(out string) fyne.CanvasObject {
	rich := widget.NewRichTextFromMarkdown(out)
	rich.Wrapping = fyne.TextWrapWord
	plain := widget.NewLabel(out)
	plain.Wrapping = fyne.TextWrapWord
	plain.Selectable = true
	plain.Hide()
	body := container.NewStack(rich, plain)
	var toggle *widget.Button
	toggle = widget.NewButtonWithIcon("Select text", theme.VisibilityIcon(), func() {
		if plain.Visible() {
			plain.Hide()
			rich.Show()
			toggle.SetText("Select text")
		} else {
			rich.Hide()
			plain.Show()
			toggle.SetText("Formatted")
		}
	})
	copyBtn := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), nil)
	copyBtn.OnTapped = func() {
		fyne.CurrentApp().Clipboard().SetContent(out)
		copyBtn.SetText("Copied")
	}
	return container.NewVBox(container.NewHBox(copyBtn, toggle), body)
}

func (o *outputView) stopPreview() {
	if o.unbind != nil {
		o.unbind()
		o.unbind = nil
	}
}

// image has the app download the picture into the preview cache, and shows
// it once there.
func (o *outputView) image(r app.Run) fyne.CanvasObject {
	box := container.NewStack(kit.Loading("Downloading the picture…"))
	o.unbind = bindUntil(o.s.app.OutputFile(r.Output), func(f app.Loaded[string]) bool {
		var obj fyne.CanvasObject
		switch {
		case f.Loading:
			return false
		case f.Err != nil:
			obj = kit.Error(f.Err, func() { o.show(r, 0) })
		case f.Loaded:
			img := canvas.NewImageFromFile(f.Value)
			img.FillMode = canvas.ImageFillContain
			img.SetMinSize(fyne.NewSize(360, 270))
			obj = img
		default:
			return true // the app is closing
		}
		kit.SetBody(box, obj)
		if o.onLoaded != nil {
			o.onLoaded()
		}
		return true
	})
	return container.NewVBox(container.NewHBox(o.saveButton(r)), box)
}

// video offers the clip in the system player and Save as….
func (o *outputView) video(r app.Run) fyne.CanvasObject {
	play := widget.NewButtonWithIcon("Play video", theme.MediaPlayIcon(), func() {
		// The local copy when it can be had, else the service's address.
		bindUntil(o.s.app.OutputFile(r.Output), func(f app.Loaded[string]) bool {
			if f.Loading {
				return false
			}
			target := r.Output
			switch {
			case f.Loaded:
				target = storage.NewFileURI(f.Value).String()
			case f.Err == nil:
				return true // the app is closing
			}
			if u, err := url.Parse(target); err == nil {
				_ = fyne.CurrentApp().OpenURL(u)
			}
			return true
		})
	})
	link := widget.NewLabel("The video opens in your computer's video player.")
	link.Importance = widget.LowImportance
	return container.NewVBox(container.NewHBox(play, o.saveButton(r)), link)
}

func (o *outputView) saveButton(r app.Run) *widget.Button {
	return widget.NewButtonWithIcon("Save as…", theme.DocumentSaveIcon(), func() {
		w := o.s.env.Window
		d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
			if err != nil {
				showSaveError(err, w)
				return
			}
			if wc == nil {
				return
			}
			bindUntil(o.s.app.SaveOutputTo(r.Output, wc), func(saved app.Loaded[bool]) bool {
				if saved.Err != nil {
					showSaveError(saved.Err, w)
				}
				return !saved.Loading
			})
		}, w)
		d.SetFileName(app.OutputFileName(r.AgentType, r.Output))
		d.Show()
	})
}
