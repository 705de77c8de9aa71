package files

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// Screen is the Files screen: the workspace's files, paged as the user
// scrolls; drops are uploaded. The app keeps the list fresh while shown.
type Screen struct {
	env     screen.Env
	queue   *app.Uploads
	send    *sender
	uploads *uploadList

	files    *app.FileList
	st       app.FilesState // the state shown
	selected selection
	unbind   func() // stops showing the list's state
	unwatch  func() // stops keeping the list fresh; nil while not watched
	uploaded int    // uploads finished, as last seen

	order    *kit.Select
	list     *screen.Rows[client.File] // its Stack holds the table, loading, empty or error
	table    fyne.CanvasObject
	selLabel *widget.Label
	selBar   *fyne.Container
	linkBtn  *kit.Button
	clearBtn *kit.Button
	procBtn  *kit.Button
	delBtn   *kit.Button
	content  fyne.CanvasObject
}

var _ screen.DropTarget = (*Screen)(nil)

func New(env screen.Env) screen.Screen { return newScreen(env) }

func newScreen(env screen.Env) *Screen {
	s := &Screen{env: env, selected: selection{}}
	s.queue = env.App.Files().NewUploads()
	s.send = newSender(env, s.queue)
	s.uploads = newUploadList(s.queue)
	// Files that could not be read are read again when the service is back.
	screen.Follow(env.App, func() { s.queue.Clear(); s.restart() }, func() bool { return s.st.Err != nil && len(s.st.Files) == 0 }, s.restart)

	s.order = kit.NewSelect([]string{lang.L("Newest first"), lang.L("Oldest first")}, func(string) { s.restart() })
	s.order.SetSelectedIndex(0)
	addFiles, addFolder := s.send.addButtons()
	addFiles.Importance = widget.HighImportance
	refresh := kit.NewButtonWithIcon("", theme.ViewRefreshIcon(), s.reload)
	refresh.Tip = lang.L("Check for new files")
	header := kit.Header(lang.L("Files"), lang.L("Every file of your workspace. Drop files or folders on this window to upload them. Agents can read a file once it is processed."),
		kit.Widened(s.order, 240), addFolder, addFiles, refresh)

	s.list = screen.NewRows(lang.L("Loading your files…"), s.newRow, s.updateRow)
	s.list.OnSelected = func(id widget.ListItemID) {
		s.list.Unselect(id)
		if id < len(s.list.Items) {
			s.toggle(s.list.Items[id].ID)
		}
	}
	s.selLabel = widget.NewLabel("")
	// It never widens the window.
	s.selLabel.Truncation = fyne.TextTruncateEllipsis
	// The bar always takes its room, so ticking never moves the list under the pointer.
	s.linkBtn = kit.NewButtonWithIcon(lang.L("Link to an agent…"), theme.ContentAddIcon(), s.linkSelected)
	s.clearBtn = kit.NewButtonWithIcon(lang.L("Clear selection"), theme.ContentClearIcon(), s.clearSelection)
	s.procBtn = kit.NewButtonWithIcon(lang.L("Process…"), theme.MediaPlayIcon(), s.processSelected)
	s.procBtn.Tip = lang.L("Processing lets agents read a file. It costs credits, once per file.")
	s.delBtn = kit.NewButtonWithIcon(lang.L("Delete…"), theme.DeleteIcon(), s.deleteSelected)
	s.selBar = container.NewVBox(s.selLabel, container.New(layout.NewRowWrapLayout(),
		s.linkBtn, s.procBtn, s.delBtn,
		kit.NewButton(lang.L("Select all loaded"), func() {
			for _, f := range s.list.Items {
				s.selected[f.ID] = true
			}
			s.selectionChanged()
		}),
		s.clearBtn))
	s.selectionChanged()

	s.table = kit.NewBorder(container.NewVBox(s.selBar, columnTitles(), widget.NewSeparator()), nil, nil, nil, s.list.List)
	top := container.NewVBox(header, s.send.status, s.uploads.box)
	s.content = container.NewPadded(kit.NewBorder(top, nil, nil, nil, s.list.Stack))
	kit.Bind(s.queue.State(), func(st app.UploadsState) {
		if st.Done > s.uploaded {
			s.uploaded = st.Done
			s.reload()
		}
	})
	return s
}

func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown loads the list the first time and refreshes it afterwards.
func (s *Screen) Shown() {
	if s.files == nil {
		s.restart()
		return
	}
	if s.unwatch == nil {
		s.unwatch = s.files.Watch()
	}
	s.reload()
}

func (s *Screen) Dropped(paths []string) { s.send.Dropped(paths) }

// DropHint: files dropped on the Files screen are uploaded.
func (s *Screen) DropHint() (string, bool) { return lang.L("Drop the files to upload them"), true }

func (s *Screen) restart() {
	if s.list == nil {
		return // the order select fires while the screen is being built
	}
	if s.unbind != nil {
		s.unbind()
	}
	s.stopWatching()
	order := "desc"
	if s.order.SelectedIndex() == 1 {
		order = "asc"
	}
	s.files = s.env.App.Files().NewList(order)
	s.st, s.list.Items = app.FilesState{}, nil
	kit.ShowBody(s.list.Stack, kit.Loading(lang.L("Loading your files…")))
	s.unwatch = s.files.Watch()
	s.unbind = kit.Bind(s.files.State(), s.applied)
	s.files.More()
}

func (s *Screen) reload() {
	if s.files == nil {
		s.restart()
		return
	}
	s.files.Refresh()
}

func (s *Screen) stopWatching() {
	if s.unwatch != nil {
		s.unwatch()
		s.unwatch = nil
	}
}

// applied shows the list's state; off the window it stops refreshing.
func (s *Screen) applied(st app.FilesState) {
	if !screen.InWindow(s.env.Window, s.content) {
		s.stopWatching()
	}
	s.st = st
	if st.Err != nil && len(st.Files) == 0 {
		kit.ShowBody(s.list.Stack, screen.Error(st.Err, s.restart))
		return
	}
	if !st.Loaded {
		return
	}
	s.list.Items = st.Files
	if len(st.Files) == 0 {
		kit.ShowBody(s.list.Stack, kit.Empty(theme.FolderIcon(), lang.L("No files yet"),
			lang.L("Drop files or a folder on this window, or use Add files…, to upload them to your workspace.")))
		return
	}
	kit.ShowBody(s.list.Stack, s.table)
	s.list.Refresh()
}

// Column widths shared by rows and titles so they line up, at the standard
// text size.
var colWidths = []float32{90, 160, 120, 130}

func columns(cells ...fyne.CanvasObject) *fyne.Container {
	box := container.NewHBox()
	for i, c := range cells {
		box.Add(kit.TextScaledBox(c, colWidths[i]))
	}
	return box
}

func columnTitles() fyne.CanvasObject {
	title := func(t string) *widget.Label {
		return widget.NewLabelWithStyle(t, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	figure := func(t string) *widget.Label { // over a column of figures, set right
		return widget.NewLabelWithStyle(t, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
	}
	spacer := kit.NewCheck("", nil)
	spacer.Hide()
	left := container.NewHBox(container.NewGridWrap(kit.NewCheck("", nil).MinSize(), spacer), container.NewGridWrap(widget.NewIcon(nil).MinSize()))
	return fileRow(left, columns(figure(lang.L("Size")), title(lang.L("Created")), title(lang.L("Status")), figure(lang.L("Credits"))), title(lang.L("Name")))
}

func fileRow(left, cols, name fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: fileRowLayout{}, Objects: []fyne.CanvasObject{name, left, cols}}
}

// fileRowLayout drops the Credits column, then the Created one, when the
// name would get less than nameRoom, so names stay readable in a narrow
// window or with large text.
type fileRowLayout struct{}

const (
	creditsCol = 3
	createdCol = 1
	nameRoom   = 120 // at the standard text size
)

// droppable are the columns a narrow row drops, first dropped first.
var droppable = []int{creditsCol, createdCol}

func (fileRowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	name, left, cols := objects[0].MinSize(), objects[1].MinSize(), objects[2].(*fyne.Container)
	w := left.Width + 2*theme.Padding() + name.Width
	h := fyne.Max(name.Height, left.Height)
	for i, c := range cols.Objects {
		if !slices.Contains(droppable, i) {
			w += c.MinSize().Width + theme.Padding()
		}
		h = fyne.Max(h, c.MinSize().Height)
	}
	return fyne.NewSize(w, h)
}

func (fileRowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	name, left, cols := objects[0], objects[1], objects[2].(*fyne.Container)
	room := size.Width - left.MinSize().Width - 2*theme.Padding() - kit.TextScaledWidth(nameRoom)
	for _, c := range cols.Objects {
		room -= c.MinSize().Width + theme.Padding()
	}
	for _, i := range droppable {
		screen.ShowIf(cols.Objects[i], room >= 0)
		if room < 0 {
			room += cols.Objects[i].MinSize().Width + theme.Padding()
		}
	}
	lw, cw := left.MinSize().Width, cols.MinSize().Width
	pad := theme.Padding()
	left.Move(fyne.NewPos(0, 0))
	left.Resize(fyne.NewSize(lw, size.Height))
	cols.Move(fyne.NewPos(size.Width-cw, 0))
	cols.Resize(fyne.NewSize(cw, size.Height))
	name.Move(fyne.NewPos(lw+pad, 0))
	name.Resize(fyne.NewSize(fyne.Max(0, size.Width-lw-cw-2*pad), size.Height))
}

func (s *Screen) newRow() fyne.CanvasObject {
	check := kit.NewCheck("", nil)
	name := widget.NewLabel(sampleName)
	name.Truncation = fyne.TextTruncateEllipsis
	size := widget.NewLabel("")
	size.Alignment = fyne.TextAlignTrailing
	created := widget.NewLabel("")
	status := widget.NewLabel("")
	credits := widget.NewLabel("")
	credits.Alignment = fyne.TextAlignTrailing
	return fileRow(container.NewHBox(check, widget.NewIcon(theme.FileIcon())), columns(size, created, status, credits), name)
}

func (s *Screen) updateRow(id int, f client.File, o fyne.CanvasObject) {
	row := o.(*fyne.Container)
	row.Objects[0].(*widget.Label).SetText(fileName(f))
	check := row.Objects[1].(*fyne.Container).Objects[0].(*kit.Check)
	row.Objects[1].(*fyne.Container).Objects[1].(*widget.Icon).SetResource(fileIcon(fileName(f)))
	cols := row.Objects[2].(*fyne.Container)
	cell := func(i int) *widget.Label { return cols.Objects[i].(*fyne.Container).Objects[0].(*widget.Label) }
	cell(0).SetText(app.HumanBytes(f.Bytes))
	cell(1).SetText(when(f.CreatedAt))
	st := cell(2)
	st.SetText(s.st.StatusText(f))
	st.Importance = widget.MediumImportance
	if !app.FileSettled(f) {
		st.Importance = widget.WarningImportance
	} else if f.Status != "completed" {
		st.Importance = widget.DangerImportance
	}
	st.Refresh()
	cell(3).SetText(creditsText(f.Credits))
	fid := f.ID
	check.OnChanged = nil
	check.SetChecked(s.selected[fid])
	check.OnChanged = func(on bool) {
		s.selected.set(fid, on)
		s.selectionChanged()
	}
	if id >= len(s.list.Items)-5 && s.files != nil && s.st.More {
		s.files.More()
	}
}

func (s *Screen) toggle(id client.ID) {
	s.selected.set(id, !s.selected[id])
	s.selectionChanged()
}

func (s *Screen) selectionChanged() {
	n := len(s.selected)
	screen.EnableIf(n > 0, s.linkBtn, s.clearBtn, s.procBtn, s.delBtn)
	if n == 0 {
		s.selLabel.SetText(lang.L("Tick files to link, process or delete them."))
	} else {
		var total int64
		for _, f := range s.list.Items {
			if s.selected[f.ID] {
				total += f.Bytes
			}
		}
		s.selLabel.SetText(lang.N("{{.Count}} selected · {{.Size}}", n, map[string]any{"Count": app.Number(n), "Size": app.HumanBytes(total)}))
	}
	s.list.Refresh()
}

func (s *Screen) clearSelection() {
	s.selected = selection{}
	s.selectionChanged()
}

func (s *Screen) linkSelected() {
	ids := s.Selected()
	if len(ids) == 0 {
		return
	}
	pick := kit.NewSelect(nil, nil)
	pick.PlaceHolder = lang.L("Loading agents…")
	msg := kit.ErrorText()
	var agents []client.Agent
	var err error
	kit.Act(s.env.App, func(ctx context.Context) { agents, err = s.env.App.Files().LinkTargets(ctx) }, func() {
		titles := make([]string, len(agents))
		for i, ag := range agents {
			titles[i] = ag.Title
		}
		// Two agents of one title stay apart: the choice is read back by its place.
		pick.SetOptions(screen.ChoiceLabels(client.Question{}, titles, 0))
		pick.PlaceHolder = lang.L("Choose an agent")
		pick.Refresh()
		if err != nil {
			kit.ShowError(msg, app.Describe(err))
		}
	})
	label := widget.NewLabel(lang.N("Link {{.Count}} selected file to:", len(ids), map[string]any{"Count": app.Number(len(ids))}))
	screen.Ask(s.env, lang.L("Link files to an agent"), lang.L("Link"), container.NewVBox(label, pick, msg), fyne.NewSize(420, 220), true, nil, func() {
		if i := pick.SelectedIndex(); i >= 0 && i < len(agents) {
			s.link(agents[i], ids)
		}
	})
}

func (s *Screen) link(agent client.Agent, ids []client.ID) {
	var res *client.AgentFiles
	screen.Try(s.env, lang.L("Linking the files…"), lang.L("Files not linked"), func(ctx context.Context) (err error) {
		res, err = s.env.App.Files().Link(ctx, agent.ID, ids)
		return err
	}, func() {
		s.clearSelection()
		s.send.notify(lang.L("Files linked to {{.Agent}}", map[string]any{"Agent": safe.Text(agent.Title, 0)}), app.LinkSummary(res))
	})
}

func (s *Screen) processSelected() {
	fl := s.files
	if fl == nil {
		return
	}
	var ids []client.ID
	for _, f := range s.list.Items {
		if s.selected[f.ID] && f.Status != "completed" {
			ids = append(ids, f.ID)
		}
	}
	if len(ids) == 0 {
		kit.ShowInformation(lang.L("Nothing to process"), lang.L("The ticked files are processed already: agents can read them."), s.env.Window)
		return
	}
	n := map[string]any{"Count": app.Number(len(ids))}
	s.confirmEach(ids, lang.N("Process this file?", len(ids), n),
		lang.N("Processing lets agents read this file. It costs credits, charged once per file.", len(ids), n),
		lang.L("Process"), lang.L("Files not processed"), screen.Paid, fl.ProcessFiles)
}

// confirmEach asks, then does op one file at a time (the account's pace) and
// clears the selection; a failure stops the rest and is told plainly.
func (s *Screen) confirmEach(ids []client.ID, question, detail, verb, failTitle string, weight screen.Weight, op func(context.Context, []client.ID) (int, error)) {
	screen.Confirm(s.env.Window, question, detail, verb, lang.L("Cancel"), weight, func() {
		var done int
		var err error
		kit.ActShowing(s.env.App, s.env.Window, lang.L("Working on the files…"), func(ctx context.Context) { done, err = op(ctx, ids) }, func() {
			s.clearSelection()
			if err != nil {
				msg := app.Describe(err)
				if done > 0 {
					msg = lang.L("{{.Done}} of {{.Count}} done. {{.Why}}", map[string]any{"Done": app.Number(done), "Count": app.Number(len(ids)), "Why": msg})
				}
				s.send.notify(failTitle, msg)
			}
		})
	})
}

func (s *Screen) deleteSelected() {
	ids, fl := s.Selected(), s.files
	if len(ids) == 0 || fl == nil {
		return
	}
	names := s.names(ids)
	question := lang.N("Delete these {{.Count}} files?", len(ids), map[string]any{"Count": app.Number(len(ids))})
	if len(names) == 1 {
		question = lang.L("Delete “{{.Name}}”?", map[string]any{"Name": names[0]})
	}
	detail := lang.N("It is deleted from the service and leaves every agent it is linked to. This cannot be undone.", len(ids))
	if len(names) > 1 {
		detail = screen.NameList(names) + "\n\n" + detail
	}
	s.confirmEach(ids, question, detail, lang.L("Delete"), lang.L("Files not deleted"), screen.Destructive, fl.DeleteFiles)
}

func (s *Screen) Selected() []client.ID { return s.selected.of(s.list.Items) }

// names are the names of the files ids, as listed.
func (s *Screen) names(ids []client.ID) []string {
	var out []string
	for _, f := range s.list.Items {
		if slices.Contains(ids, f.ID) {
			out = append(out, safe.Text(f.Filename, 80))
		}
	}
	return out
}

type selection map[client.ID]bool

func (sel selection) set(id client.ID, on bool) {
	if on {
		sel[id] = true
	} else {
		delete(sel, id)
	}
}

// of are the ticked ones among files, in their order.
func (sel selection) of(files []client.File) []client.ID {
	var out []client.ID
	for _, f := range files {
		if sel[f.ID] {
			out = append(out, f.ID)
		}
	}
	return out
}

// Kinds are the named kinds of files by ending, each with Fyne's plainer
// icon: its file-type icons differ by a mark too small to see at list size.
var Kinds = []Kind{
	{"pdf", []string{".pdf"}, theme.DocumentIcon},
	{"pictures", []string{".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".svg"}, theme.MediaPhotoIcon},
	{"word", []string{".doc", ".docx", ".odt", ".rtf"}, theme.DocumentIcon},
	{"sheets", []string{".xls", ".xlsx", ".ods", ".csv", ".tsv"}, theme.GridIcon},
	{"slides", []string{".ppt", ".pptx", ".odp"}, theme.FileIcon},
	{"text", []string{".txt", ".md"}, theme.DocumentIcon},
	{"web", []string{".html", ".htm"}, theme.DocumentIcon},
	{"videos", []string{".mp4", ".mov", ".avi", ".mkv", ".webm", ".m4v"}, theme.MediaVideoIcon},
	{"sound", []string{".mp3", ".wav", ".m4a", ".ogg", ".flac", ".aac"}, theme.MediaMusicIcon},
}

type Kind struct {
	Key  string
	Exts []string
	Icon func() fyne.Resource
}

// KindOf is the kind of a lower-case ending such as ".pdf": a named one, or
// else a kind of its own keyed by the ending.
func KindOf(ext string) Kind {
	for _, k := range Kinds {
		if slices.Contains(k.Exts, ext) {
			return k
		}
	}
	return Kind{Key: ext, Icon: theme.FileIcon}
}

func fileIcon(name string) fyne.Resource {
	return KindOf(strings.ToLower(filepath.Ext(name))).Icon()
}

// fileName shows a server-given name on one line without control or
// direction-changing characters: "invoice\u202Efdp.exe" must not read as a PDF.
func fileName(f client.File) string {
	if f.Filename == "" {
		return safe.Text(lang.L("File {{.ID}}", map[string]any{"ID": string(f.ID)}), 0)
	}
	return safe.Text(f.Filename, 0)
}

func when(t client.Time) string {
	if t.IsZero() {
		return "—"
	}
	return app.DateTime(t.Time)
}

func creditsText(c client.Credits) string {
	if !c.Valid {
		return "—"
	}
	return app.CreditsColumn(c.Value)
}
