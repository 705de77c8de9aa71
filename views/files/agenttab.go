package files

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
)

// AgentTab is the Files tab of an agent's detail: the files linked to the
// agent, "Link files…" to add workspace files, Unlink with Undo, and files
// dropped on it are uploaded and linked. The agent's screen forwards drops
// to it (it is a kit.DropTarget).
type AgentTab struct {
	widget.BaseWidget
	env     kit.Env
	agent   client.Agent
	queue   *app.Uploads
	send    *sender
	uploads *uploadList

	linked []client.File
	list   *widget.List
	body   *fyne.Container
	result *widget.Label
	undo   *fyne.Container
	undoL  *widget.Label
	undoB  *widget.Button
	loaded bool
	root   fyne.CanvasObject
}

var _ kit.DropTarget = (*AgentTab)(nil)

// NewAgentTab builds an agent's Files tab.
func NewAgentTab(env kit.Env, agent client.Agent) fyne.CanvasObject { return newAgentTab(env, agent) }

func newAgentTab(env kit.Env, agent client.Agent) *AgentTab {
	t := &AgentTab{env: env, agent: agent}
	t.queue = env.App.NewUploads(app.UploadOptions{
		LinkTo: agent.ID, AgentTitle: agent.Title,
		OnLinked: func(res *client.AgentFiles) { kit.Do(func() { t.showFiles(res, true) }) },
	})
	t.send = newSender(env, t.queue)
	t.uploads = newUploadList(t.queue)

	addFiles, addFolder := t.send.addButtons()
	link := widget.NewButtonWithIcon("Link files…", theme.ContentAddIcon(), t.pickLinks)
	link.Importance = widget.HighImportance
	refresh := widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), t.Reload)
	header := kit.Header("Files of this agent", "The agent can read these files when it runs. Drop files here to upload and link them.",
		link, addFiles, addFolder, refresh)

	t.result = widget.NewLabel("")
	t.result.Wrapping = fyne.TextWrapWord
	t.result.Hide()
	t.undoL = widget.NewLabel("")
	t.undoB = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), nil)
	t.undo = container.NewBorder(nil, nil, nil, t.undoB, t.undoL)
	t.undo.Hide()

	t.list = widget.NewList(
		func() int { return len(t.linked) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("a file name that is long.pdf")
			name.Truncation = fyne.TextTruncateEllipsis
			info := widget.NewLabel("999.9 MB · Processing…")
			unlink := widget.NewButtonWithIcon("Unlink", theme.ContentRemoveIcon(), nil)
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), container.NewHBox(info, unlink), name)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(t.linked) {
				return
			}
			f := t.linked[id]
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(fileName(f))
			row.Objects[1].(*widget.Icon).SetResource(fileIcon(fileName(f)))
			right := row.Objects[2].(*fyne.Container)
			right.Objects[0].(*widget.Label).SetText(app.HumanBytes(f.Bytes) + " · " + app.FileStatusText(f.Status))
			right.Objects[1].(*widget.Button).OnTapped = func() { t.Unlink(f) }
		})
	t.body = container.NewStack(kit.Loading("Loading the agent's files…"))
	top := container.NewVBox(header, t.send.status, t.uploads.box, t.result, t.undo)
	t.root = container.NewPadded(container.NewBorder(top, nil, nil, nil, t.body))
	t.ExtendBaseWidget(t)
	t.Reload()
	return t
}

// CreateRenderer draws the tab.
func (t *AgentTab) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(t.root) }

// Dropped uploads the files and links them to the agent.
func (t *AgentTab) Dropped(paths []string) { t.send.Dropped(paths) }

// Reload lists the agent's files again.
func (t *AgentTab) Reload() {
	a, id := t.env.App, t.agent.ID
	go func() {
		res, err := a.AgentFiles(context.Background(), id)
		kit.Do(func() {
			if err != nil {
				if !t.loaded {
					kit.SetBody(t.body, kit.Error(err, t.Reload))
				} else {
					t.showResult(app.Describe(err), true)
				}
				return
			}
			t.showFiles(res, false)
		})
	}()
}

// showFiles shows an agent's file set; after a link it also shows the
// counts of the link result.
func (t *AgentTab) showFiles(res *client.AgentFiles, linked bool) {
	t.loaded = true
	t.linked = append([]client.File(nil), res.Files...)
	if linked {
		t.undo.Hide()
		t.showResult(app.LinkSummary(res), false)
	}
	if len(t.linked) == 0 {
		kit.SetBody(t.body, kit.Empty(theme.FileIcon(), "No files linked yet",
			"Use Link files… to give this agent files from your workspace, or drop files here to upload and link them."))
		return
	}
	kit.SetBody(t.body, t.list)
	t.list.Refresh()
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
	a, agent := t.env.App, t.agent.ID
	go func() {
		res, err := a.LinkFiles(context.Background(), agent, ids)
		kit.Do(func() {
			if err != nil {
				t.showResult("The files were not linked. "+app.Describe(err), true)
				return
			}
			t.showFiles(res, true)
		})
	}()
}

// Unlink removes a file from the agent and offers Undo, which links it again.
func (t *AgentTab) Unlink(f client.File) {
	a, agent := t.env.App, t.agent.ID
	go func() {
		err := a.UnlinkFile(context.Background(), agent, f.ID)
		kit.Do(func() {
			if err != nil {
				t.showResult(fmt.Sprintf("%s was not unlinked. %s", fileName(f), app.Describe(err)), true)
				return
			}
			t.result.Hide()
			t.undoL.SetText(fmt.Sprintf("%s is no longer linked to this agent.", fileName(f)))
			t.undoB.OnTapped = func() {
				t.undo.Hide()
				t.Link([]client.ID{f.ID})
			}
			t.undo.Show()
			t.Reload()
		})
	}()
}

// Linked are the files shown as linked (tests).
func (t *AgentTab) Linked() []client.File { return append([]client.File(nil), t.linked...) }

// pickLinks lets the user choose workspace files to link.
func (t *AgentTab) pickLinks() {
	p := newPicker(t.env, t.linked)
	d := dialog.NewCustomConfirm("Link files to "+t.agent.Title, "Link", "Cancel", p.content, func(ok bool) {
		if ok {
			t.Link(p.Selected())
		}
	}, t.env.Window)
	d.Resize(fyne.NewSize(640, 480))
	d.Show()
}

// picker lists the workspace's files with a check box each, loading more as
// the user scrolls.
type picker struct {
	files    *app.FileList
	shown    []client.File
	already  map[client.ID]bool
	selected map[client.ID]bool
	list     *widget.List
	body     *fyne.Container
	content  fyne.CanvasObject
	loading  bool
}

func newPicker(env kit.Env, linked []client.File) *picker {
	p := &picker{files: env.App.NewFileList("desc"), already: map[client.ID]bool{}, selected: map[client.ID]bool{}}
	for _, f := range linked {
		p.already[f.ID] = true
	}
	p.list = widget.NewList(
		func() int { return len(p.shown) },
		func() fyne.CanvasObject {
			info := widget.NewLabel("999.9 MB · Processing…")
			return container.NewBorder(nil, nil, nil, info, widget.NewCheck("a file name that is long.pdf", nil))
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(p.shown) {
				return
			}
			f := p.shown[id]
			row := o.(*fyne.Container)
			check := row.Objects[0].(*widget.Check)
			info := row.Objects[1].(*widget.Label)
			check.OnChanged = nil
			check.Text = fileName(f)
			fid := f.ID
			if p.already[fid] {
				check.SetChecked(true)
				check.Disable()
				info.SetText("Already linked")
			} else {
				check.Enable()
				check.SetChecked(p.selected[fid])
				info.SetText(app.HumanBytes(f.Bytes) + " · " + app.FileStatusText(f.Status))
			}
			check.Refresh()
			check.OnChanged = func(on bool) {
				if on {
					p.selected[fid] = true
				} else {
					delete(p.selected, fid)
				}
			}
			if id >= len(p.shown)-5 && p.files.HasMore() {
				p.more()
			}
		})
	p.body = container.NewStack(kit.Loading("Loading your files…"))
	p.content = p.body
	p.more()
	return p
}

func (p *picker) more() {
	if p.loading {
		return
	}
	p.loading = true
	go func() {
		_, err := p.files.LoadMore(context.Background())
		kit.Do(func() {
			p.loading = false
			if err != nil && len(p.shown) == 0 {
				kit.SetBody(p.body, kit.Error(err, p.more))
				return
			}
			p.shown = p.files.Files()
			if len(p.shown) == 0 {
				kit.SetBody(p.body, kit.Empty(theme.FolderIcon(), "No files in your workspace",
					"Upload files first: drop them on this window or use Add files…."))
			} else {
				kit.SetBody(p.body, p.list)
			}
			p.body.Refresh()
			p.list.Refresh()
		})
	}()
}

// Selected are the ids the user ticked.
func (p *picker) Selected() []client.ID {
	var out []client.ID
	for _, f := range p.shown {
		if p.selected[f.ID] {
			out = append(out, f.ID)
		}
	}
	return out
}
