package agents

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
	"github.com/agentdesk/agentdesk/views/screen"
)

// outputView shows a run's result with Save as… and its cost.
type outputView struct {
	s        *Screen
	content  *fyne.Container
	run      app.Run
	unbind   func()
	onLoaded func()
	// onCheckAgain looks up a run that was still going (Check again).
	onCheckAgain func(app.Run)
	// got is the last downloaded output (from gotURL), for Save as…'s name.
	got    app.Output
	gotURL string
}

func newOutputView(s *Screen) *outputView {
	o := &outputView{s: s, content: container.NewVBox(), onLoaded: func() {}}
	o.clear()
	return o
}

func (o *outputView) clear() {
	o.stopPreview()
	l := screen.Quiet(lang.L("The result appears here after a run."))
	o.content.Objects = []fyne.CanvasObject{l}
	o.content.Refresh()
}

func (o *outputView) note(msg string) {
	l := screen.Wrapped(msg)
	l.Importance = widget.WarningImportance
	o.content.Add(l)
}

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
		objs = append(objs, container.NewHBox(kit.NewButtonWithIcon(lang.L("Check again"), theme.ViewRefreshIcon(), func() { o.onCheckAgain(r) })))
	}
	switch {
	case app.IsMediaOutput(r.AgentType, r.Output) && r.AgentType == client.AgentImage:
		objs = append(objs, o.image(r))
	case app.IsMediaOutput(r.AgentType, r.Output):
		objs = append(objs, o.video(r))
	case r.Output != "":
		objs = append(objs, o.text(r.Output, r.AgentTitle))
	case r.Error == "" && !app.CanCheckAgain(r):
		objs = append(objs, widget.NewLabel(lang.L("The agent returned no output.")))
	}
	o.content.Objects = objs
	o.content.Refresh()
}

func statusLine(r app.Run, took time.Duration) string {
	_, first := statusOf(r.Status)
	parts := []string{first}
	if took > 0 {
		parts = append(parts, app.HowLong(took))
	} else if !r.CreatedAt.IsZero() {
		parts = append(parts, app.DateTime(r.CreatedAt))
	}
	if r.Credits != nil {
		parts = append(parts, app.Credits(*r.Credits))
	}
	return strings.Join(parts, " · ")
}

func (o *outputView) text(out, agentTitle string) fyne.CanvasObject {
	rich, pics := richtext.NewMarkdownText(out)
	plain := screen.Wrapped(out)
	plain.Selectable = true
	plain.Hide()
	body := container.NewStack(rich, plain)
	var toggle *kit.Button
	toggle = kit.NewButtonWithIcon(lang.L("Select text"), theme.VisibilityIcon(), func() {
		if plain.Visible() {
			plain.Hide()
			rich.Show()
			toggle.SetText(lang.L("Select text"))
		} else {
			rich.Hide()
			plain.Show()
			toggle.SetText(lang.L("Formatted"))
		}
	})
	// Copy pastes readable into a mail or a document; the marks are second.
	copyBtn := kit.NewButtonWithIcon(lang.L("Copy"), theme.ContentCopyIcon(), nil)
	copyBtn.OnTapped = func() {
		fyne.CurrentApp().Clipboard().SetContent(richtext.ReplyText(out))
		copyBtn.SetText(lang.L("Copied"))
	}
	mdBtn := kit.NewButtonWithIcon(lang.L("Copy as Markdown"), theme.ContentCopyIcon(), nil)
	mdBtn.OnTapped = func() {
		fyne.CurrentApp().Clipboard().SetContent(out)
		mdBtn.SetText(lang.L("Copied as Markdown"))
	}
	save := kit.NewButtonWithIcon(lang.L("Save as…"), theme.DocumentSaveIcon(), func() {
		screen.SaveText(o.s.env, agentTitle, safe.FileName(agentTitle, ".md", lang.L("result")), out)
	})
	// The buttons wrap: in Portuguese or Spanish one row is wider than the narrowest pane.
	bar := kit.Wrap(copyBtn, mdBtn, save, toggle)
	if len(pics) > 0 {
		// Pictures come from addresses the result chose: fetched only on request.
		var show *kit.Button
		show = kit.NewButtonWithIcon(richtext.ShowPictures(), theme.FileImageIcon(), func() {
			show.Hide()
			richtext.LoadPictures(screen.Pictures(o.s.app), pics, o.onLoaded)
		})
		bar.Add(show)
	}
	return container.NewVBox(bar, body)
}

func (o *outputView) stopPreview() {
	if o.unbind != nil {
		o.unbind()
		o.unbind = nil
	}
}

// image downloads the picture and shows it when its content (never its
// address) is PNG, JPEG, GIF or WebP small enough to decode safely; else
// it says so, and Save as… stays.
func (o *outputView) image(r app.Run) fyne.CanvasObject {
	box := container.NewStack()
	enlarge := kit.NewButtonWithIcon(lang.L("Open large"), theme.ZoomInIcon(), nil)
	enlarge.Tip = lang.L("Show the picture in your computer's picture viewer")
	enlarge.Hide()
	o.follow(r, box, lang.L("Downloading the picture…"), true, func(out app.Output) fyne.CanvasObject {
		switch {
		case out.Kind != safe.Image:
			return screen.Wrapped(lang.L("This file is not a picture (Agent Desk looked at what it contains), so it is not shown. You can still save it with the Save as… button."))
		case out.NotShown != nil:
			return screen.Wrapped(lang.L("{{.Why}} You can still save it with the Save as… button.", map[string]any{"Why": app.Describe(out.NotShown)}))
		}
		// Its content is a picture: the computer's own viewer shows it large.
		path := out.Path
		enlarge.OnTapped = func() {
			if err := o.s.env.Open(&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}); err != nil {
				screen.ShowPath(o.s.env.Window, lang.L("Not opened"), lang.L("No program on this computer opened the picture. It is here:"), path)
			}
		}
		enlarge.Show()
		// Decoded by the app within its limits: Fyne's loader takes any format.
		return richtext.NewPictureFile(screen.Pictures(o.s.app), out.Path, "", o.onLoaded)
	})
	return container.NewVBox(container.NewHBox(o.saveButton(r), enlarge), box)
}

// video downloads the clip on Play and hands it to the player only if its
// content is a video: a program, script or shortcut is never opened, and
// the service's address is never opened instead of the local copy.
func (o *outputView) video(r app.Run) fyne.CanvasObject {
	box := container.NewStack()
	note := screen.Wrapped(lang.L("The video opens in your computer's video player."))
	note.Importance = widget.LowImportance
	var play *kit.Button
	play = kit.NewButtonWithIcon(lang.L("Play video"), theme.MediaPlayIcon(), func() {
		o.follow(r, box, lang.L("Downloading the video…"), false, func(out app.Output) fyne.CanvasObject {
			if !safe.Openable(out.Kind) {
				play.Hide()
				note.Hide()
				return screen.Wrapped(lang.L("This file is not a video (Agent Desk looked at what it contains), so it is not opened. It can only be saved, with the Save as… button."))
			}
			u, err := url.Parse(storage.NewFileURI(out.Path).String())
			if err == nil {
				err = o.s.env.Open(u) // the computer's own viewer or player
			}
			if err != nil {
				return screen.Wrapped(lang.L("Your computer could not open the video. Save it with the Save as… button, then open it from there."))
			}
			return container.NewStack()
		})
	})
	// Without a player Play would do nothing: say so (asked off the UI).
	noPlayer := false
	kit.Act(o.s.app, func(ctx context.Context) {
		noPlayer = !o.s.hasPlayer(ctx, filepath.Ext(app.OutputFileName(r.AgentType, r.Output)))
	}, func() {
		if noPlayer {
			play.Hide()
			note.Importance = widget.MediumImportance
			note.SetText(lang.L("This computer has no video player. Save the video with Save as… to watch it in a web browser or on another computer."))
		}
	})
	return container.NewVBox(container.NewHBox(play, o.saveButton(r)), box, note)
}

// follow downloads the output into box with progress and Cancel, then shows
// done's view; leaving the run cancels it.
func (o *outputView) follow(r app.Run, box *fyne.Container, what string, reveal bool, done func(app.Output) fyne.CanvasObject) {
	o.stopPreview()
	dl := o.s.app.Runs().OutputFile(r.AgentType, r.Output)
	progress := widget.NewLabel(what)
	loading := container.NewVBox(progress, container.NewHBox(kit.NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), dl.Cancel)))
	showingLoading := false
	stop := kit.Bind(dl.State(), func(s app.OutputState) {
		var obj fyne.CanvasObject
		switch {
		case s.Loading:
			text := what
			if s.Received > 0 {
				text = lang.L("{{.What}} {{.Amount}} so far", map[string]any{"What": what, "Amount": app.HumanBytes(s.Received)})
			}
			progress.SetText(text)
			if !showingLoading {
				showingLoading = true
				kit.SetBody(box, loading)
			}
			return
		case s.Loaded:
			o.got, o.gotURL = s.Output, r.Output
			obj = done(s.Output)
		case s.Cancelled:
			obj = container.NewVBox(screen.Wrapped(lang.L("You cancelled the download. Nothing was kept.")),
				container.NewHBox(kit.NewButtonWithIcon(lang.L("Try again"), theme.ViewRefreshIcon(), dl.Retry)))
		case s.Err != nil:
			var big *app.OutputTooLargeError
			if errors.As(s.Err, &big) {
				obj = screen.Wrapped(app.Describe(s.Err))
			} else {
				obj = screen.Error(s.Err, dl.Retry)
			}
		default:
			return
		}
		showingLoading = false
		kit.SetBody(box, obj)
		if reveal {
			o.onLoaded()
		}
	})
	o.unbind = func() {
		stop()
		dl.Cancel()
	}
}

// saveButton offers the output under a safe name: its address's last part
// without folders or hidden characters, with the real content's extension.
func (o *outputView) saveButton(r app.Run) *kit.Button {
	return kit.NewButtonWithIcon(lang.L("Save as…"), theme.DocumentSaveIcon(), func() {
		w := o.s.env.Window
		d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
			if err != nil {
				showSaveError(err, w)
				return
			}
			if wc == nil {
				return
			}
			path := wc.URI().Path()
			bindUntil(o.s.app.Runs().SaveOutputTo(r.Output, wc), func(saved app.Loaded[bool]) bool {
				switch {
				case saved.Err != nil:
					showSaveError(saved.Err, w)
				case !saved.Loading && saved.Value:
					screen.ShowSaved(o.s.env, lang.L("Saved"), path)
				}
				return !saved.Loading
			})
		}, w)
		d.SetFileName(o.saveName(r))
		kit.ShowDialog(d, w)
	})
}

func (o *outputView) saveName(r app.Run) string {
	if o.gotURL == r.Output && r.Output != "" {
		return app.RunFileName(r, o.got.FileName(r.AgentType, r.Output))
	}
	return app.RunFileName(r, app.OutputFileName(r.AgentType, r.Output))
}
