package files

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// Attachments are the chips of files attached to a message or run, following
// the upload queue: progress, × to cancel or remove, Retry on failure.
type Attachments struct {
	env   screen.Env
	queue *app.Uploads
	send  *sender
	row   *fyne.Container
	obj   fyne.CanvasObject
	chips map[int64]*chip
}

var _ screen.Attachments = (*Attachments)(nil)

// NewAttachments makes the chips of a chat composer or run form.
func NewAttachments(env screen.Env) screen.Attachments { return newAttachments(env) }

func newAttachments(env screen.Env) *Attachments {
	q := env.App.Files().NewUploads(app.UploadOptions{})
	at := &Attachments{env: env, queue: q, send: newSender(env, q), chips: map[int64]*chip{}}
	at.row = container.New(layout.NewRowWrapLayout())
	at.obj = container.NewBorder(nil, nil, at.send.status, nil, at.row)
	at.obj.Hide()
	at.send.onStatus = at.showOrHide
	kit.Bind(q.State(), at.show)
	return at
}

// Dropped uploads dropped files and attaches them.
func (at *Attachments) Dropped(paths []string) { at.send.Dropped(paths) }

// DropHint: files dropped go with the next message.
func (at *Attachments) DropHint() (string, bool) {
	return lang.L("Drop the files to attach them to your message"), true
}

// Object is the chips row; hidden while nothing is attached.
func (at *Attachments) Object() fyne.CanvasObject { return at.obj }

// FileIDs are the attached files that finished uploading.
func (at *Attachments) FileIDs() []client.ID {
	st, _ := at.queue.State().Snapshot()
	return st.FileIDs()
}

// Pending reports uploads still running.
func (at *Attachments) Pending() bool {
	st, _ := at.queue.State().Snapshot()
	return st.Pending()
}

// State is the uploads behind the chips.
func (at *Attachments) State() live.Observable[app.UploadsState] { return at.queue.State() }

// Clear removes every chip.
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
	for _, u := range st.Items {
		keep[u.ID] = true
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
	at.showOrHide()
}

func (at *Attachments) showOrHide() {
	screen.ShowIf(at.obj, len(at.chips) > 0 || at.send.status.Visible())
}

const chipWidth = 230

type chip struct {
	shown  *app.Upload // the snapshot of the upload it shows
	obj    fyne.CanvasObject
	icon   *widget.Icon
	name   *widget.Label
	bar    *widget.ProgressBar
	status *widget.Label
	retry  *kit.Button
	close  *kit.Button
}

func (at *Attachments) newChip(id int64) *chip {
	c := &chip{
		icon:   widget.NewIcon(theme.FileIcon()),
		name:   widget.NewLabel(""),
		bar:    widget.NewProgressBar(),
		status: widget.NewLabel(""),
	}
	c.name.Truncation = fyne.TextTruncateEllipsis
	c.status.Truncation = fyne.TextTruncateEllipsis
	c.bar.TextFormatter = func() string { return "" }
	c.retry = kit.NewButtonWithIcon(lang.L("Retry"), theme.ViewRefreshIcon(), func() { at.queue.Retry(id) })
	c.retry.Importance = widget.LowImportance
	c.close = kit.NewButtonWithIcon("", theme.CancelIcon(), func() {
		at.queue.Remove(id)
		at.showNow()
	})
	c.close.Tip = lang.L("Take this file off the message")
	c.close.Importance = widget.LowImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	// Two lines, so a failure's reason is read in full.
	c.status.Wrapping = fyne.TextWrapWord
	c.status.Truncation = fyne.TextTruncateOff
	line := container.NewStack(container.NewCenter(container.NewGridWrap(fyne.NewSize(chipWidth-2*theme.Padding(), 6), c.bar)), c.status)
	text := container.NewBorder(c.name, nil, nil, nil, line)
	height := c.name.MinSize().Height * 2.4
	body := container.NewBorder(nil, nil, c.icon, container.NewHBox(c.retry, c.close),
		container.NewGridWrap(fyne.NewSize(chipWidth, height), text))
	c.obj = container.NewStack(bg, container.NewPadded(body))
	return c
}

func (c *chip) show(u app.Upload) {
	showUpload(u, c.icon, c.bar, c.status, c.retry, c.close, true)
}
