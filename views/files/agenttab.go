package files

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/live"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// AgentTab is the Files tab of an agent's detail: linked files, "Link
// files…", Unlink with Undo; drops are uploaded and linked.
type AgentTab struct {
	widget.BaseWidget
	env     screen.Env
	agent   client.Agent
	files   *app.LinkedFiles
	queue   *app.Uploads
	send    *sender
	uploads *uploadList

	linked  *screen.Rows[client.File]
	answer  *client.AgentFiles // the link answer of an upload shown last
	lastErr error              // the load failure shown last
	result  *widget.Label
	undo    *fyne.Container
	undoL   *widget.Label
	undoB   *kit.Button
	loaded  bool
	root    fyne.CanvasObject
}

var _ screen.DropTarget = (*AgentTab)(nil)

func NewAgentTab(env screen.Env, agent client.Agent) fyne.CanvasObject {
	return newAgentTab(env, agent)
}

func newAgentTab(env screen.Env, agent client.Agent) *AgentTab {
	t := &AgentTab{env: env, agent: agent}
	t.files = env.App.Files().NewLinked(agent)
	t.queue = t.files.NewUploads()
	t.send = newSender(env, t.queue)
	t.uploads = newUploadList(t.queue)

	addFiles, addFolder := t.send.addButtons()
	link := kit.NewButtonWithIcon(lang.L("Link files…"), theme.ContentAddIcon(), t.pickLinks)
	link.Importance = widget.HighImportance
	refresh := kit.NewButtonWithIcon("", theme.ViewRefreshIcon(), t.Reload)
	refresh.Tip = lang.L("Check for new files")
	header := kit.Header(lang.L("Files of this agent"), lang.L("The agent reads these files when it runs. Drop files here to add them."),
		link, addFiles, addFolder, refresh)

	t.result = screen.Wrapped("")
	t.result.Hide()
	t.undoL = widget.NewLabel("")
	t.undoB = kit.NewButtonWithIcon(lang.L("Undo"), theme.ContentUndoIcon(), nil)
	t.undo = container.NewBorder(nil, nil, nil, t.undoB, t.undoL)
	t.undo.Hide()

	t.linked = screen.NewRows(lang.L("Loading the agent's files…"),
		func() fyne.CanvasObject {
			name := widget.NewLabel(sampleLongName)
			name.Truncation = fyne.TextTruncateEllipsis
			info := widget.NewLabel(sampleInfo())
			unlink := kit.NewButtonWithIcon(lang.L("Unlink"), theme.ContentRemoveIcon(), nil)
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), container.NewHBox(info, unlink), name)
		},
		func(_ int, f client.File, o fyne.CanvasObject) {
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(fileName(f))
			row.Objects[1].(*widget.Icon).SetResource(fileIcon(fileName(f)))
			right := row.Objects[2].(*fyne.Container)
			right.Objects[0].(*widget.Label).SetText(app.HumanBytes(f.Bytes) + " · " + app.FileStatusText(f.Status))
			right.Objects[1].(*kit.Button).OnTapped = func() { t.Unlink(f) }
		})
	top := container.NewVBox(header, t.send.status, t.uploads.box, t.result, t.undo)
	t.root = container.NewPadded(kit.NewBorder(top, nil, nil, nil, t.linked.Stack))
	t.ExtendBaseWidget(t)
	kit.Bind[live.ListState[client.File]](t.files, t.showFiles)
	kit.Bind(t.queue.State(), t.showUploaded)
	t.Reload()
	return t
}

func (t *AgentTab) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(t.root) }

func (t *AgentTab) Dropped(paths []string) { t.send.Dropped(paths) }

// DropHint: files dropped on an agent's Files tab are linked to it.
func (t *AgentTab) DropHint() (string, bool) {
	return lang.L("Drop the files to upload them and link them to this agent"), true
}

func (t *AgentTab) Reload() { t.files.Reload() }

func (t *AgentTab) showFiles(st live.ListState[client.File]) {
	if st.Err != nil && st.Err != t.lastErr {
		if !st.Loaded {
			kit.SetBody(t.linked.Stack, screen.Error(st.Err, t.Reload))
		} else {
			t.showResult(app.Describe(st.Err), true)
		}
	}
	t.lastErr = st.Err
	if !st.Loaded {
		return
	}
	t.loaded = true
	t.linked.Items = st.Items
	if len(st.Items) == 0 {
		kit.SetBody(t.linked.Stack, kit.Empty(theme.FileIcon(), lang.L("No files linked yet"),
			lang.L("Use Link files… to give this agent files from your workspace, or drop files here to upload and link them.")))
		return
	}
	kit.SetBody(t.linked.Stack, t.linked.List)
	t.linked.Refresh()
}

func (t *AgentTab) showUploaded(st app.UploadsState) {
	if st.Linked == nil || st.Linked == t.answer {
		return
	}
	t.answer = st.Linked
	t.linkedNow(st.Linked)
}

func (t *AgentTab) linkedNow(res *client.AgentFiles) {
	t.undo.Hide()
	t.showResult(app.LinkSummary(res), false)
}

func (t *AgentTab) showResult(msg string, bad bool) {
	t.result.Importance = widget.MediumImportance
	if bad {
		t.result.Importance = widget.DangerImportance
	}
	t.result.SetText(msg)
	t.result.Show()
}

// Link links workspace files to the agent and shows the result's counts.
func (t *AgentTab) Link(ids []client.ID) {
	if len(ids) == 0 {
		return
	}
	var res *client.AgentFiles
	var err error
	kit.ActShowing(t.env.App, t.env.Window, lang.L("Linking the files…"), func(ctx context.Context) { res, err = t.env.App.Files().Link(ctx, t.agent.ID, ids) }, func() {
		if err != nil {
			t.showResult(lang.L("The files were not linked. {{.Why}}", map[string]any{"Why": app.Describe(err)}), true)
			return
		}
		t.linkedNow(res)
	})
}

// Unlink removes a file from the agent and offers Undo.
func (t *AgentTab) Unlink(f client.File) {
	var err error
	kit.ActShowing(t.env.App, t.env.Window, lang.L("Unlinking the file…"), func(ctx context.Context) { err = t.env.App.Files().Unlink(ctx, t.agent.ID, f.ID) }, func() {
		if err != nil {
			t.showResult(lang.L("{{.File}} was not unlinked. {{.Why}}", map[string]any{"File": fileName(f), "Why": app.Describe(err)}), true)
			return
		}
		t.result.Hide()
		t.undoL.SetText(lang.L("{{.File}} is no longer linked to this agent.", map[string]any{"File": fileName(f)}))
		t.undoB.OnTapped = func() {
			t.undo.Hide()
			t.Link([]client.ID{f.ID})
		}
		t.undo.Show()
	})
}

func (t *AgentTab) pickLinks() {
	p := newPicker(t.env, t.linked.Items)
	title := lang.L("Link files to {{.Agent}}", map[string]any{"Agent": t.agent.Title})
	d := screen.Ask(t.env, title, lang.L("Link"), p.shown.Stack, fyne.NewSize(640, 480), true, nil, func() { t.Link(p.selected.of(p.shown.Items)) })
	d.SetOnClosed(p.stop)
}

type picker struct {
	files    *app.FileList
	shown    *screen.Rows[client.File]
	more     bool
	already  map[client.ID]bool
	selected selection
	stop     func()
}

func newPicker(env screen.Env, linked []client.File) *picker {
	p := &picker{files: env.App.Files().NewList("desc"), already: map[client.ID]bool{}, selected: selection{}}
	for _, f := range linked {
		p.already[f.ID] = true
	}
	p.shown = screen.NewRows(lang.L("Loading your files…"),
		func() fyne.CanvasObject {
			info := widget.NewLabel(sampleInfo())
			return container.NewBorder(nil, nil, nil, info, kit.NewCheck(sampleLongName, nil))
		},
		func(id int, f client.File, o fyne.CanvasObject) {
			row := o.(*fyne.Container)
			check := row.Objects[0].(*kit.Check)
			info := row.Objects[1].(*widget.Label)
			check.OnChanged = nil
			check.Text = fileName(f)
			fid := f.ID
			if p.already[fid] {
				check.SetChecked(true)
				check.Disable()
				info.SetText(lang.L("Already linked"))
			} else {
				check.Enable()
				check.SetChecked(p.selected[fid])
				info.SetText(app.HumanBytes(f.Bytes) + " · " + app.FileStatusText(f.Status))
			}
			check.Refresh()
			check.OnChanged = func(on bool) { p.selected.set(fid, on) }
			if id >= len(p.shown.Items)-5 && p.more {
				p.files.More()
			}
		})
	p.stop = kit.Bind(p.files.State(), p.show)
	p.files.More()
	return p
}

func (p *picker) show(st app.FilesState) {
	if !st.Loaded {
		if st.Err != nil {
			kit.SetBody(p.shown.Stack, screen.Error(st.Err, p.files.More))
		}
		return
	}
	p.shown.Items, p.more = st.Files, st.More
	if len(st.Files) == 0 {
		kit.SetBody(p.shown.Stack, kit.Empty(theme.FolderIcon(), lang.L("No files in your workspace"),
			lang.L("Upload files first: drop them on this window or use Add files….")))
	} else {
		kit.SetBody(p.shown.Stack, p.shown.List)
	}
	p.shown.Refresh()
}
