package screen

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2/lang"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/richtext"
)

// TextFormats are the endings Save as… offers for a text.
var TextFormats = []string{".md", ".txt", ".html", ".docx"}

// TextFile is markdown in the form the file name's ending asks for.
func TextFile(name, title, markdown string) []byte {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".txt":
		return []byte(richtext.PlainText(markdown) + "\n")
	case ".html", ".htm":
		return app.MarkdownPage(title, markdown)
	case ".docx":
		return app.MarkdownDocument(title, markdown)
	}
	return []byte(markdown)
}

// SaveText asks where to save markdown and saves it as TextFile.
func SaveText(env Env, title, name, markdown string) {
	SaveFile(env, lang.L("Saved"), name, TextFormats, func(name string) []byte {
		// Off the window's goroutine: a long conversation takes a moment.
		return TextFile(name, title, markdown)
	})
}

// SaveFile asks where to save, writes data off the window's goroutine to an
// owner-only file (app.OwnerOnly), then confirms or says why it failed.
func SaveFile(env Env, saved, name string, endings []string, data func(name string) []byte) {
	w := env.Window
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			kit.ShowInformation(lang.L("Not saved"), app.Describe(err), w)
			return
		}
		if wc == nil {
			return
		}
		chosen := wc.URI().Name()
		var werr error
		kit.ActShowing(env.App, w, lang.L("Saving…"), func(context.Context) {
			if werr = app.OwnerOnly(wc); werr == nil {
				_, werr = wc.Write(data(chosen))
			}
			if cerr := wc.Close(); werr == nil {
				werr = cerr
			}
		}, func() {
			if werr != nil {
				kit.ShowInformation(lang.L("Not saved"), lang.L("The file could not be written: {{.Why}}. Choose another folder or name.", map[string]any{"Why": safe.Text(werr.Error(), 300)}), w)
				return
			}
			ShowSaved(env, saved, wc.URI().Path())
		})
	}, w)
	d.SetFileName(name)
	if len(endings) > 0 {
		d.SetFilter(storage.NewExtensionFileFilter(endings))
	}
	showFileDialog(d, w)
}

func showFileDialog(d *dialog.FileDialog, w fyne.Window) {
	d.Resize(fyne.NewSize(min(w.Canvas().Size().Width*0.9, 760), min(w.Canvas().Size().Height*0.9, 520)))
	kit.ShowDialog(d, w)
}

// Pick asks for a file (one of endings, when given) or a folder and hands
// its path to chosen; failed is the title of why the dialog failed.
func Pick(env Env, folder bool, failed string, endings []string, chosen func(path string)) {
	PickIn(env.Window, folder, failed, endings, chosen)
}

// PickIn is Pick for a part of a screen that knows only its window.
func PickIn(w fyne.Window, folder bool, failed string, endings []string, chosen func(path string)) {
	done := func(u fyne.URI, err error) {
		switch {
		case err != nil:
			kit.ShowInformation(failed, app.Describe(err), w)
		case u != nil:
			chosen(u.Path())
		}
	}
	var d *dialog.FileDialog
	if folder {
		d = dialog.NewFolderOpen(func(u fyne.ListableURI, err error) { done(u, err) }, w)
	} else {
		d = dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			var u fyne.URI
			if r != nil {
				u = r.URI()
				_ = r.Close()
			}
			done(u, err)
		}, w)
	}
	if len(endings) > 0 {
		d.SetFilter(storage.NewExtensionFileFilter(endings))
	}
	showFileDialog(d, w)
}

// ShowSaved confirms a file saved at path, with "Show in folder".
func ShowSaved(env Env, title, path string) {
	w := env.Window
	where := Wrapped(lang.L("Saved to {{.Path}}", map[string]any{"Path": path}))
	var d *dialog.CustomDialog
	show := kit.NewButtonWithIcon(lang.L("Show in folder"), theme.FolderOpenIcon(), func() {
		d.Hide()
		u := &url.URL{Scheme: "file", Path: filepath.Dir(path)}
		if err := env.Open(u); err != nil {
			ShowPath(w, lang.L("Folder not opened"), lang.L("The folder could not be shown. The file is here:"), path)
		}
	})
	closeBtn := kit.NewButton(lang.L("Close"), func() { d.Hide() })
	closeBtn.Importance = widget.HighImportance
	d = dialog.NewCustomWithoutButtons(title, container.NewVBox(where), w)
	d.SetButtons([]fyne.CanvasObject{show, closeBtn})
	d.Resize(fyne.NewSize(min(w.Canvas().Size().Width*0.8, 520), 0))
	kit.ShowDialog(d, w)
}
