// Package files handles files: dropping or picking them to upload, the chips
// of files attached to the next execution, the Files screen and an agent's
// Files tab. Views bind the app's state; actions run in the background.
package files

import (
	"context"
	"errors"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// sender turns dropped or picked paths into uploads: it walks folders off
// the UI goroutine, asks before many files, and queues nothing offline.
type sender struct {
	env   screen.Env
	queue *app.Uploads
	// status says the connection is being checked, so a slow drop does not look ignored.
	status   *widget.Label
	onStatus func()
}

func newSender(env screen.Env, q *app.Uploads) *sender {
	s := &sender{env: env, queue: q, status: widget.NewLabel(lang.L("Checking the connection before uploading…"))}
	s.status.Importance = widget.LowImportance
	s.status.Hide()
	return s
}

// confirm asks before many files, Yes or No (Fyne's words), and starts them on Yes.
func (s *sender) confirm(plan app.UploadPlan) {
	n := len(plan.Files)
	msg := lang.N("You are about to upload {{.Count}} file ({{.Size}} in all). Upload it?", n,
		map[string]any{"Count": app.Number(n), "Size": app.HumanBytes(plan.TotalBytes)})
	d := dialog.NewConfirm(lang.L("Upload many files?"), msg, func(yes bool) {
		if yes {
			s.start(plan)
		}
	}, s.env.Window)
	d.SetConfirmText(lang.L("Upload"))
	kit.ShowDialog(d, s.env.Window)
}

func (s *sender) notify(title, msg string) {
	if s.env.Window != nil {
		kit.ShowInformation(title, msg, s.env.Window)
	}
}

// Dropped plans and starts the upload of paths without blocking the window.
func (s *sender) Dropped(paths []string) {
	if len(paths) == 0 {
		return
	}
	var plan app.UploadPlan
	kit.Act(s.env.App, func(context.Context) { plan = app.PlanUpload(paths) }, func() {
		switch {
		case len(plan.Files) == 0:
			s.notify(lang.L("Nothing to upload"), lang.L("There were no files to upload there (hidden files are left out)."))
		case plan.NeedsConfirm():
			s.confirm(plan)
		default:
			s.start(plan)
		}
	})
}

func (s *sender) start(plan app.UploadPlan) {
	s.setChecking(true)
	var err error
	kit.Act(s.env.App, func(ctx context.Context) { _, err = s.queue.Start(ctx, plan) }, func() {
		s.setChecking(false)
		if errors.Is(err, app.ErrOffline) {
			s.notify(lang.L("You are offline"), lang.L("Agent Desk can't reach the service, so nothing was uploaded. Check your internet connection, then drop the files again."))
		} else if err != nil {
			s.notify(lang.L("Files not uploaded"), app.Describe(err))
		}
	})
}

func (s *sender) setChecking(on bool) {
	screen.ShowIf(s.status, on)
	if s.onStatus != nil {
		s.onStatus()
	}
}

func (s *sender) pickFiles() {
	screen.Pick(s.env, false, lang.L("Files not added"), nil, func(path string) { s.Dropped([]string{path}) })
}

func (s *sender) addButtons() (files, folder *kit.Button) {
	files = kit.NewButtonWithIcon(lang.L("Add files…"), theme.ContentAddIcon(), s.pickFiles)
	folder = kit.NewButtonWithIcon(lang.L("Add folder…"), theme.FolderOpenIcon(), func() {
		screen.Pick(s.env, true, lang.L("Folder not added"), nil, func(path string) { s.Dropped([]string{path}) })
	})
	return files, folder
}

// uploadList is a widget.List so a drop of hundreds of files stays quick.
type uploadList struct {
	queue *app.Uploads
	list  *screen.Rows[*app.Upload]
	box   *fyne.Container
	clear *kit.Button
	title *widget.Label
	sized *canvas.Rectangle
}

func newUploadList(q *app.Uploads) *uploadList {
	u := &uploadList{queue: q}
	u.list = screen.NewRows("",
		func() fyne.CanvasObject {
			r := newUploadView(false)
			r.icon.SetResource(theme.UploadIcon())
			r.name.SetText(sampleName)
			r.close.Tip = lang.L("Stop this upload, or take it off the list")
			mid := container.NewGridWithColumns(2, r.name, container.NewStack(r.bar, r.status))
			r.obj = container.NewBorder(nil, nil, r.icon, container.NewHBox(r.retry, r.close), mid)
			return r
		},
		func(_ int, u *app.Upload, o fyne.CanvasObject) {
			it, r := *u, o.(*uploadView)
			uid := it.ID
			r.retry.OnTapped = func() { q.Retry(uid) }
			r.close.OnTapped = func() {
				if it.Settled() {
					q.Remove(uid)
				} else {
					q.Cancel(uid)
				}
			}
			r.show(it)
		})
	u.title = widget.NewLabelWithStyle(lang.L("Uploads"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	u.clear = kit.NewButtonWithIcon(lang.L("Clear finished"), theme.ContentClearIcon(), func() {
		q.ClearSettled()
		st, _ := q.State().Snapshot()
		u.show(st)
	})
	u.sized = canvas.NewRectangle(color.Transparent)
	u.box = kit.NewBorder(container.NewBorder(nil, nil, nil, u.clear, u.title), widget.NewSeparator(), nil, nil,
		container.NewStack(u.sized, u.list.List))
	kit.Bind(q.State(), u.show)
	return u
}

// uploadView shows an upload: as a chip of an attachment, or as a row of
// the upload list.
type uploadView struct {
	widget.BaseWidget
	chip   bool
	shown  *app.Upload // the snapshot of the upload it shows
	obj    fyne.CanvasObject
	icon   *widget.Icon
	name   *widget.Label
	bar    *widget.ProgressBar
	status *widget.Label
	retry  *kit.Button
	close  *kit.Button
}

func newUploadView(chip bool) *uploadView {
	r := &uploadView{chip: chip, icon: widget.NewIcon(theme.FileIcon()), name: widget.NewLabel(""), bar: widget.NewProgressBar(), status: widget.NewLabel("")}
	r.name.Truncation = fyne.TextTruncateEllipsis
	r.status.Truncation = fyne.TextTruncateEllipsis
	r.retry = kit.NewButtonWithIcon(lang.L("Retry"), theme.ViewRefreshIcon(), nil)
	r.close = kit.NewButtonWithIcon("", theme.CancelIcon(), nil)
	r.ExtendBaseWidget(r)
	return r
}

func (r *uploadView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.obj) }

// show shows an upload's state; a chip names a finished file by its size
// alone and keeps its ×, a list row says what ended it.
func (r *uploadView) show(u app.Upload) {
	r.name.SetText(safe.Text(u.Name, 0)) // one line, whatever the name holds
	r.bar.SetValue(u.Fraction())
	screen.ShowIf(r.bar, u.State == app.UploadSending)
	screen.ShowIf(r.status, u.State != app.UploadSending)
	r.retry.Hide()
	r.status.Importance = widget.MediumImportance
	if r.chip {
		r.status.Importance = widget.LowImportance
	}
	switch u.State {
	case app.UploadWaiting:
		r.icon.SetResource(theme.HistoryIcon())
		r.status.SetText(lang.L("Waiting…"))
	case app.UploadSending:
		r.icon.SetResource(theme.UploadIcon())
		r.status.SetText("")
	case app.UploadDone:
		if r.chip {
			r.icon.SetResource(fileIcon(u.Name))
			r.status.SetText(app.HumanBytes(u.Size))
		} else {
			r.icon.SetResource(theme.ConfirmIcon())
			r.status.SetText(lang.L("Uploaded · {{.Size}}", map[string]any{"Size": app.HumanBytes(u.Size)}))
		}
	case app.UploadFailed, app.UploadCancelled:
		r.icon.SetResource(theme.ErrorIcon())
		if u.State == app.UploadCancelled && !r.chip {
			r.icon.SetResource(theme.CancelIcon())
		}
		r.status.Importance = widget.DangerImportance
		r.status.SetText(u.Message)
		if r.chip { // the reason is read in full under the chips
			r.status.SetText(lang.L("Not added"))
		}
		r.retry.Show()
	}
	if !r.chip {
		r.close.SetIcon(theme.CancelIcon())
		if u.Settled() {
			r.close.SetIcon(theme.ContentClearIcon())
		}
	}
	r.status.Refresh()
}

func (u *uploadList) show(st app.UploadsState) {
	u.list.Items = st.Items
	n := len(st.Items)
	if n == 0 {
		u.box.Hide()
		return
	}
	done := 0
	for _, it := range st.Items {
		if it.State == app.UploadDone {
			done++
		}
	}
	u.title.SetText(lang.L("Uploads: {{.Done}} of {{.Count}} done", map[string]any{"Done": app.Number(done), "Count": app.Number(n)}))
	rowHeight := kit.NewButton(lang.L("Retry"), nil).MinSize().Height + theme.Padding()
	u.sized.SetMinSize(fyne.NewSize(0, float32(min(n, 4))*rowHeight))
	u.box.Show()
	u.list.Refresh()
}

// Samples size a row before its first file is bound; never shown.
const (
	sampleName     = "name of a file.pdf"
	sampleLongName = "a file name that is long.pdf"
)

func sampleInfo() string {
	return app.HumanBytes(999_000_000) + " · " + app.FileStatusText("processing")
}

// Attachments are the chips of files attached to a message or run, following
// the upload queue: progress, × to cancel or remove, Retry on failure.
type Attachments struct {
	env   screen.Env
	queue *app.Uploads
	send  *sender
	row   *fyne.Container
	// why says in full why the last file that failed was not added: a
	// chip is too narrow for the reason and what to do.
	why   *widget.Label
	obj   fyne.CanvasObject
	chips map[int64]*uploadView
}

// NewAttachments makes the chips of a chat composer or run form.
func NewAttachments(env screen.Env) screen.Attachments { return newAttachments(env) }

func newAttachments(env screen.Env) *Attachments {
	q := env.App.Files().NewUploads()
	at := &Attachments{env: env, queue: q, send: newSender(env, q), chips: map[int64]*uploadView{}}
	at.row = container.New(layout.NewRowWrapLayout())
	at.why = kit.ErrorText()
	at.obj = container.NewBorder(nil, at.why, at.send.status, nil, at.row)
	at.obj.Hide()
	at.send.onStatus = at.showOrHide
	kit.Bind(q.State(), at.show)
	return at
}

func (at *Attachments) Dropped(paths []string) { at.send.Dropped(paths) }

// DropHint: files dropped go with the next message.
func (at *Attachments) DropHint() (string, bool) {
	return lang.L("Drop the files to attach them to your message"), true
}

func (at *Attachments) Object() fyne.CanvasObject { return at.obj }

func (at *Attachments) FileIDs() []client.ID {
	st, _ := at.queue.State().Snapshot()
	return st.FileIDs()
}

func (at *Attachments) Pending() bool {
	st, _ := at.queue.State().Snapshot()
	return st.Pending()
}

func (at *Attachments) State() live.Observable[app.UploadsState] { return at.queue.State() }

func (at *Attachments) Clear() {
	at.queue.Clear()
	at.showNow()
}

// AddFiles opens the system file dialog; each pick adds a chip.
func (at *Attachments) AddFiles() { at.send.pickFiles() }

func (at *Attachments) showNow() {
	st, _ := at.queue.State().Snapshot()
	at.show(st)
}

func (at *Attachments) show(st app.UploadsState) {
	keep := make(map[int64]bool, len(st.Items))
	var why []string
	failed := 0
	for _, u := range st.Items {
		keep[u.ID] = true
		if u.State == app.UploadFailed {
			if failed++; failed <= maxReasons {
				why = append(why, lang.L("{{.Name}} was not added: {{.Why}}", map[string]any{"Name": safe.Text(u.Name, 80), "Why": u.Message}))
			}
		}
		c, ok := at.chips[u.ID]
		if !ok {
			c = at.newChip(u.ID)
			at.chips[u.ID] = c
			at.row.Add(c.obj)
		}
		if c.shown != u {
			c.shown = u
			c.show(*u)
		}
	}
	for id, c := range at.chips {
		if !keep[id] {
			delete(at.chips, id)
			at.row.Remove(c.obj)
		}
	}
	if more := failed - maxReasons; more > 0 {
		why = append(why, lang.N("{{.Count}} more file was not added.", more, map[string]any{"Count": app.Number(more)}))
	}
	kit.ShowError(at.why, strings.Join(why, "\n"))
	at.showOrHide()
}

func (at *Attachments) showOrHide() {
	screen.ShowIf(at.obj, len(at.chips) > 0 || at.send.status.Visible())
}

const chipWidth = 230

// maxReasons is how many failed files' reasons are spelled out under the
// chips: the rest are counted, so a failed drop of hundreds of files does
// not push the message box off the window.
const maxReasons = 3

func (at *Attachments) newChip(id int64) *uploadView {
	c := newUploadView(true)
	c.bar.TextFormatter = func() string { return "" }
	c.retry.OnTapped = func() { at.queue.Retry(id) }
	c.retry.Importance = widget.LowImportance
	c.close.OnTapped = func() {
		at.queue.Remove(id)
		at.showNow()
	}
	c.close.Tip = lang.L("Take this file off the message")
	c.close.Importance = widget.LowImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	line := container.NewStack(container.NewCenter(container.NewGridWrap(fyne.NewSize(chipWidth-2*theme.Padding(), 6), c.bar)), c.status)
	text := container.NewBorder(c.name, nil, nil, nil, line)
	height := c.name.MinSize().Height * 2
	body := container.NewBorder(nil, nil, c.icon, container.NewHBox(c.retry, c.close),
		container.NewGridWrap(fyne.NewSize(chipWidth, height), text))
	c.obj = container.NewStack(bg, container.NewPadded(body))
	return c
}
