// Package memories is the Memories screen: the local index of memories and
// collections, mirroring the service's lists where it has them, with an
// editor that never loses unsaved text.
package memories

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
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

// Screen is the Memories screen, showing the app's MemoryIndex.
type Screen struct {
	env     screen.Env
	a       *app.App
	idx     *app.MemoryIndex
	shelves live.ListState[app.CollectionSummary]
	found   live.ListState[app.MemoryEntry]
	waiting bool // the loading state is shown

	content fyne.CanvasObject
	search  *kit.FormEntry

	cols    []app.CollectionSummary
	total   int
	colList *kit.List
	colSel  string // "" is every memory
	rename  *kit.Button

	mems     *screen.Rows[app.MemoryEntry]
	selected string

	ed              *editor
	newBtn, openBtn *kit.Button
	addCol          *kit.Button
	newCol, delCol  *kit.Button
	syncNote        *widget.Label
	syncFailed      bool
	// listed: the service offers lists (the real one); the index mirrors them.
	listed bool

	// Built once, so what was typed survives a failed try.
	openID, openText        *kit.FormEntry
	openCol                 screen.Choice
	addID, addName, renName *kit.FormEntry
	newColName              *kit.FormEntry
}

// New builds the Memories screen.
func New(env screen.Env) screen.Screen {
	s := &Screen{env: env, a: env.App, idx: env.App.Memories().NewIndex()}
	s.build()
	kit.Bind[live.ListState[app.CollectionSummary]](s.idx.Shelves, func(st live.ListState[app.CollectionSummary]) {
		s.shelves = st
		s.render()
	})
	kit.Bind[live.ListState[app.MemoryEntry]](s.idx.Found, func(st live.ListState[app.MemoryEntry]) {
		s.found = st
		s.render()
	})
	kit.Bind(s.idx.SyncState(), s.showSync)
	screen.Follow(env.App, func() {
		s.ed.clear()
		s.selected = ""
		s.idx.Clear()
		s.Reload()
	}, func() bool { return s.syncFailed }, s.Sync)
	return s
}

// Content is the screen's widget tree.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown shows the local index at once, then syncs it with the service.
func (s *Screen) Shown() {
	s.Reload()
	s.Sync()
}

// Sync reads the service's lists into the local index, then shows them;
// without lists the local index alone shows, with Open by number.
func (s *Screen) Sync() { s.idx.Sync() }

func (s *Screen) showSync(st app.MemorySync) {
	if st.Syncing {
		return // the last reading's outcome stays until this one's
	}
	s.listed = st.Listed
	s.syncFailed = st.Err != nil
	if st.Err != nil {
		kit.ShowError(s.syncNote, lang.L("The list could not be brought up to date: {{.Why}} What this computer kept is shown.", map[string]any{"Why": app.Describe(st.Err)}))
	} else {
		kit.ShowError(s.syncNote, "")
	}
	s.updateActions()
}

func (s *Screen) build() {
	s.search = kit.NewSearchEntry()
	s.search.SetPlaceHolder(lang.L("Search ({{.Key}})", map[string]any{"Key": kit.CtrlName("F")}))
	s.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	s.search.OnChanged = func(string) { s.Reload() }

	s.colList = kit.NewList(
		func() int { return len(s.cols) + 1 },
		func() fyne.CanvasObject {
			l := widget.NewLabel(rowSample) // each row shows its own name
			l.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FolderIcon()), nil, l)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			c := o.(*fyne.Container)
			l := c.Objects[0].(*widget.Label)
			icon := c.Objects[1].(*widget.Icon)
			if id == 0 {
				l.SetText(lang.L("All memories ({{.Count}})", map[string]any{"Count": app.Number(s.total)}))
				icon.SetResource(theme.ListIcon())
				return
			}
			col := s.cols[id-1]
			l.SetText(kit.Line(collectionLabel(col.ID, col.Name), 0) + " (" + app.Number(col.Count) + ")")
			icon.SetResource(theme.FolderIcon())
		})
	s.colList.OnSelected = func(id widget.ListItemID) {
		sel := ""
		if id > 0 && id-1 < len(s.cols) {
			sel = s.cols[id-1].ID
		}
		if sel != s.colSel { // else the highlight followed a reload
			s.showCollection(sel)
		}
	}

	// Short words: the pane is narrow.
	s.rename = kit.NewButtonWithIcon(lang.L("Rename collection…"), theme.DocumentCreateIcon(), s.showRename)
	s.addCol = kit.NewButtonWithIcon(lang.L("Open by number…"), theme.ContentAddIcon(), s.showAddCollection)
	s.newCol = kit.NewButtonWithIcon(lang.L("New collection…"), theme.FolderNewIcon(), s.showNewCollection)
	s.delCol = kit.NewButtonWithIcon(lang.L("Delete collection…"), theme.DeleteIcon(), s.confirmDeleteCollection)
	colLabel := widget.NewLabelWithStyle(lang.L("Collections"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	left := kit.NewBorder(container.NewVBox(s.search, colLabel), container.NewVBox(s.newCol, s.rename, s.delCol, s.addCol), nil, nil, s.colList)

	s.mems = screen.NewRows(lang.L("Reading memories…"), kit.NewTwoLineRow, func(_ int, m app.MemoryEntry, o fyne.CanvasObject) {
		kit.SetTwoLineRow(o, firstLine(m), subLine(m))
	})
	kit.DownInto(s.search, s.mems.List)
	s.mems.OnChosen(func(m app.MemoryEntry) {
		if m.ID != s.ed.id || !s.ed.open {
			s.ed.leave(func() { s.openMemory(m) }, func() { s.selectCurrent() })
		}
	})
	s.waiting = true

	s.ed = newEditor(s)

	s.newBtn = kit.NewButtonWithIcon(lang.L("New memory"), theme.ContentAddIcon(), func() {
		s.ed.leave(func() {
			s.selected = ""
			s.mems.UnselectAll()
			s.ed.startNew(s.colSel)
		}, nil)
	})
	s.newBtn.Importance = widget.HighImportance
	s.openBtn = kit.NewButtonWithIcon(lang.L("Open by number"), theme.FolderOpenIcon(), s.showOpenByID)

	header := kit.Header(lang.L("Memories"),
		lang.L("What the agents of this account remember. A copy stays on this computer, so you can read them offline."),
		s.newBtn, s.openBtn)
	s.syncNote = kit.ErrorText()
	s.syncNote.Importance = widget.WarningImportance

	middle := container.NewPadded(s.mems.Stack)
	right := container.NewPadded(s.ed.stack)
	inner := kit.Split(middle, right, 0.42)
	outer := kit.Split(container.NewPadded(left), inner, 0.22)
	s.content = kit.NewBorder(container.NewPadded(container.NewVBox(header, s.syncNote)), nil, nil, nil, outer)
	s.updateActions()
}

// updateActions offers what the service allows (by name with lists, else by number).
func (s *Screen) updateActions() {
	screen.EnableIf(s.colSel != "", s.rename, s.delCol)
	for _, b := range []*kit.Button{s.newCol, s.delCol} {
		screen.ShowIf(b, s.listed)
	}
	for _, b := range []*kit.Button{s.addCol, s.openBtn} {
		screen.ShowIf(b, !s.listed)
	}
	s.ed.deletable = s.listed
	s.ed.updateState()
}

func (s *Screen) showNewCollection() {
	if s.newColName == nil {
		s.newColName = kit.NewFormEntry()
		s.newColName.SetPlaceHolder(lang.L("For example: Customer care"))
	}
	s.askName(lang.L("New collection"), lang.L("Create"), lang.L("Name"), s.newColName, func(name string) {
		var col app.CollectionEntry
		screen.Try(s.env, lang.L("Creating the collection…"), lang.L("Collection not created"), func(ctx context.Context) (err error) {
			col, err = s.a.Memories().CreateCollection(ctx, name)
			return err
		}, func() {
			s.newColName.SetText("")
			s.showCollection(col.ID)
		})
	})
}

// askName asks for a collection's name in entry.
func (s *Screen) askName(title, confirm, label string, entry *kit.FormEntry, ok func(name string)) {
	body := widget.NewForm(widget.NewFormItem(label, entry))
	screen.Ask(s.env, title, confirm, body, fyne.NewSize(420, 200), true, []*kit.FormEntry{entry}, func() { ok(entry.Text) })
}

func (s *Screen) confirmDeleteCollection() {
	col, ok := s.selectedCollection()
	if !ok {
		return
	}
	name := collectionLabel(col.ID, col.Name)
	if s.a.Memories().IsDefaultCollection(col.ID) {
		kit.ShowInformation(lang.L("Collection not deleted"),
			lang.L("“{{.Name}}” is the account's default collection, which cannot be deleted. Delete its memories one by one instead.", map[string]any{"Name": name}), s.env.Window)
		return
	}
	what := lang.L("“{{.Name}}” will be deleted from the service. It holds no memories Agent Desk knows of. This cannot be undone.", map[string]any{"Name": name})
	if col.Count > 0 {
		what = lang.N("“{{.Name}}” will be deleted from the service. Its {{.Count}} memories are deleted with it. This cannot be undone.", col.Count,
			map[string]any{"Name": name, "Count": app.Number(col.Count)})
	}
	screen.Confirm(s.env.Window, lang.L("Delete the collection “{{.Name}}”?", map[string]any{"Name": name}), what, lang.L("Delete"), lang.L("Cancel"), screen.Destructive, func() {
		screen.Try(s.env, lang.L("Deleting the collection…"), lang.L("Collection not deleted"), func(ctx context.Context) error {
			return s.a.Memories().DeleteCollection(ctx, col.ID)
		}, func() {
			if s.ed.open && s.ed.base.CollectionID == col.ID {
				s.ed.clear()
			}
			s.showCollection("")
			s.colList.Select(0)
		})
	})
}

func (s *Screen) deleteMemory(id, preview string) {
	msg := lang.L("“{{.Memory}}” will be deleted from the service. Agents will no longer use it. This cannot be undone.", map[string]any{"Memory": preview})
	screen.Confirm(s.env.Window, lang.L("Delete this memory?"), msg, lang.L("Delete"), lang.L("Cancel"), screen.Destructive, func() {
		screen.Try(s.env, lang.L("Deleting the memory…"), lang.L("Memory not deleted"), func(ctx context.Context) error {
			return s.idx.DeleteMemory(ctx, id)
		}, func() {
			if s.ed.id == id {
				s.ed.clear()
			}
			s.selected = ""
			s.selectCurrent()
		})
	})
}

// Reload reads the local index again for the search and collection.
func (s *Screen) Reload() { s.idx.Load(s.search.Text, s.colSel) }

// render waits for both lists: they come from one reading, so a new
// collection is never looked for among the old ones.
func (s *Screen) render() {
	sh, fd := s.shelves, s.found
	if sh.Loading || fd.Loading {
		return
	}
	if err := cmp.Or(fd.Err, sh.Err); err != nil {
		s.waiting = false
		kit.SetBody(s.mems.Stack, compactEmpty(theme.ErrorIcon(), lang.L("Something went wrong"), app.Describe(err),
			kit.NewButtonWithIcon(lang.L("Retry"), theme.ViewRefreshIcon(), s.Reload)))
		return
	}
	if !sh.Loaded || !fd.Loaded || len(sh.Items) == 0 {
		if !s.waiting {
			s.waiting = true
			kit.SetBody(s.mems.Stack, kit.Loading(lang.L("Reading memories…")))
		}
		return
	}
	s.waiting = false
	s.total, s.cols, s.mems.Items = sh.Items[0].Count, sh.Items[1:], fd.Items
	searched, inCollection := s.search.Text != "", s.colSel != ""
	s.colList.Refresh()
	s.selectCollection()
	s.ed.setCollections(s.cols)
	switch {
	case len(s.mems.Items) == 0 && inCollection && !searched:
		kit.SetBody(s.mems.Stack, compactEmpty(theme.FolderIcon(), lang.L("No memories in this collection"),
			lang.L("Choose New memory to write one here, or All memories on the left to see the others.")))
	case len(s.mems.Items) == 0 && (searched || inCollection):
		kit.SetBody(s.mems.Stack, compactEmpty(theme.SearchIcon(), lang.L("No memories match"),
			lang.L("Try other words, or choose All memories on the left.")))
	case len(s.mems.Items) == 0:
		kit.SetBody(s.mems.Stack, compactEmpty(theme.DocumentIcon(), lang.L("No memories yet"),
			lang.L("Write one with New memory, or bring in one made elsewhere with Open by number."),
			kit.NewButtonWithIcon(lang.L("New memory"), theme.ContentAddIcon(), func() { s.ed.leave(func() { s.ed.startNew(s.colSel) }, nil) })))
	default:
		kit.SetBody(s.mems.Stack, s.mems.List)
	}
	s.ed.listEmpty(len(s.mems.Items) == 0)
	s.mems.Stack.Refresh()
	s.mems.Refresh()
	s.selectCurrent()
}

func (s *Screen) selectCollection() {
	row := slices.IndexFunc(s.cols, func(c app.CollectionSummary) bool { return c.ID == s.colSel }) + 1
	if row == 0 && s.colSel != "" {
		s.colSel = ""
		s.updateActions()
	}
	s.colList.Select(row)
}

func (s *Screen) selectCurrent() {
	if i := slices.IndexFunc(s.mems.Items, func(m app.MemoryEntry) bool { return m.ID == s.selected }); i >= 0 && s.selected != "" {
		s.mems.Select(i)
	} else {
		s.mems.UnselectAll()
	}
}

// OpenMemory shows memory m, as the command box asks.
func (s *Screen) OpenMemory(m app.MemoryEntry) { s.openMemory(m) }

// openMemory reads the memory after any pending draft write.
func (s *Screen) openMemory(m app.MemoryEntry) {
	s.selected = m.ID
	s.ed.load(m)
	var fresh app.MemoryEntry
	var err error
	kit.Act(s.a, func(ctx context.Context) {
		s.a.Memories().WriteDrafts()
		fresh, err = s.a.Memories().Get(ctx, m.ID)
	}, func() {
		if err == nil && s.ed.id == m.ID && !s.ed.dirty() && fresh.Draft != m.Draft {
			s.ed.load(fresh)
		}
	})
}

func (s *Screen) saved(m app.MemoryEntry) {
	s.selected = m.ID
	s.Reload()
}

// firstLine is a memory's list title: one capped line without control or
// direction-changing characters a service could use to disguise it.
func firstLine(m app.MemoryEntry) string {
	text := strings.TrimSpace(m.Content)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	text = safe.Text(text, 200)
	if text == "" {
		text = lang.L("(no text)")
	}
	return text
}

// collectionLabel is a collection's name on one safe line, or its number.
func collectionLabel(id, name string) string {
	if name == "" {
		return safe.Text(collectionNo(id), 0)
	}
	return safe.Text(name, 0)
}

func collectionNo(id string) string {
	return lang.L("Collection no. {{.Number}}", map[string]any{"Number": id})
}

const rowSample = "00"

func subLine(m app.MemoryEntry) string {
	parts := []string{lang.L("No. {{.Number}}", map[string]any{"Number": m.ID})}
	if m.CollectionID != "" || m.CollectionName != "" {
		parts = append(parts, collectionLabel(m.CollectionID, m.CollectionName))
	}
	if !m.LastSeen.IsZero() {
		parts = append(parts, lang.L("seen {{.When}}", map[string]any{"When": app.DateTime(m.LastSeen)}))
	}
	if m.Draft != "" {
		parts = append(parts, lang.L("unsaved changes"))
	}
	return strings.Join(parts, " · ")
}

// showOpenByID saves text to a memory by number; the answer confirms it exists.
func (s *Screen) showOpenByID() {
	if s.openID == nil {
		s.openID = kit.NewFormEntry()
		s.openID.SetPlaceHolder(lang.L("for example 501"))
		s.openText = kit.NewFormMultiLineEntry()
		s.openText.Wrapping = fyne.TextWrapWord
		s.openText.SetMinRowsVisible(5)
		s.openText.SetPlaceHolder(lang.L("The memory's text"))
		s.openCol = screen.NewChoice(nil, nil, nil)
	}
	s.openCol.Select.Options, s.openCol.Values = slices.Clone(s.ed.collection.Select.Options), slices.Clone(s.ed.collection.Values)
	if s.openCol.Select.Selected == "" {
		s.openCol.SetValue("")
	}
	items := []*widget.FormItem{widget.NewFormItem(lang.L("Number"), s.openID), widget.NewFormItem(lang.L("Text"), s.openText)}
	if s.a.Memories().Variant() != "B" {
		items = append(items, widget.NewFormItem(lang.L("Collection"), s.openCol.Select))
	}
	// It overwrites text the service cannot show back.
	s.askByNumber(lang.L("Open a memory by its number"), lang.L("Save and open"),
		lang.L("The service cannot show a memory made elsewhere; it can only change one. Enter the memory's number and the text it should have: Agent Desk saves this text to it, which also confirms that the memory exists. If it does not exist, nothing is changed."),
		fyne.NewSize(560, 420), items, []*kit.FormEntry{s.openID, s.openText}, func() {
			id := strings.TrimSpace(s.openID.Text)
			edit := app.MemoryEdit{Content: s.openText.Text, CollectionID: s.openCol.Value()}
			var m app.MemoryEntry
			s.tryByNumber(lang.L("Saving the memory…"), lang.L("Memory not opened"), func() {
				kit.ShowInformation(lang.L("Memory not opened"), lang.L("Memory {{.Number}} does not exist on the server. Check the number; nothing was changed.", map[string]any{"Number": id}), s.env.Window)
			},
				func(ctx context.Context) (err error) {
					m, err = s.a.Memories().Update(ctx, id, edit)
					return err
				}, func() {
					s.openID.SetText("")
					s.openText.SetText("")
					s.ed.leave(func() { s.openMemory(m) }, nil)
					s.saved(m)
				})
		})
}

// showAddCollection adds a collection made elsewhere, confirmed by saving its name.
func (s *Screen) showAddCollection() {
	if s.addID == nil {
		s.addID = kit.NewFormEntry()
		s.addID.SetPlaceHolder(lang.L("for example 2"))
		s.addName = kit.NewFormEntry()
		s.addName.SetPlaceHolder(lang.L("Its name"))
	}
	// It renames on the service.
	s.askByNumber(lang.L("Add a collection by its number"), lang.L("Add"),
		lang.L("The service cannot list or show collections. Enter the collection's number and its name: Agent Desk saves that name to it, which confirms the collection exists."),
		fyne.NewSize(480, 300), []*widget.FormItem{widget.NewFormItem(lang.L("Number"), s.addID), widget.NewFormItem(lang.L("Name"), s.addName)},
		[]*kit.FormEntry{s.addID, s.addName}, func() {
			id, name := strings.TrimSpace(s.addID.Text), s.addName.Text
			s.tryByNumber(lang.L("Adding the collection…"), lang.L("Collection not added"), func() {
				kit.ShowInformation(lang.L("Collection not added"), lang.L("Collection {{.Number}} was not found on the server. Check the number.", map[string]any{"Number": id}), s.env.Window)
			},
				func(ctx context.Context) error {
					_, err := s.a.Memories().RenameCollection(ctx, id, name)
					return err
				}, func() {
					s.addID.SetText("")
					s.addName.SetText("")
					s.Reload()
				})
		})
}

// askByNumber asks for what the service cannot list; as it changes what
// cannot be shown back, Ctrl+Enter in a field confirms, never a stray Enter.
func (s *Screen) askByNumber(title, confirm, explain string, size fyne.Size, items []*widget.FormItem, fields []*kit.FormEntry, ok func()) {
	screen.Ask(s.env, title, confirm, container.NewVBox(screen.Wrapped(explain), widget.NewForm(items...)), size, false, fields, ok)
}

// tryByNumber is screen.Try where a missing number has its own answer.
func (s *Screen) tryByNumber(busy, failed string, missing func(), work func(ctx context.Context) error, then func()) {
	var err error
	kit.ActShowing(s.a, s.env.Window, busy, func(ctx context.Context) { err = work(ctx) }, func() {
		switch {
		case err == nil:
			then()
		case client.IsNotFound(err):
			missing()
		default:
			kit.ShowInformation(failed, app.Describe(err), s.env.Window)
		}
	})
}

func (s *Screen) selectedCollection() (app.CollectionSummary, bool) {
	i := slices.IndexFunc(s.cols, func(c app.CollectionSummary) bool { return c.ID == s.colSel })
	if i < 0 {
		return app.CollectionSummary{}, false
	}
	return s.cols[i], true
}

func (s *Screen) showRename() {
	col, ok := s.selectedCollection()
	if !ok {
		return
	}
	if s.renName == nil {
		s.renName = kit.NewFormEntry()
	}
	s.renName.SetText(col.Name)
	s.askName(lang.L("Rename collection"), lang.L("Rename"), lang.L("New name"), s.renName, func(name string) { s.doRename(col, name) })
}

func (s *Screen) doRename(col app.CollectionSummary, name string) {
	s.tryByNumber(lang.L("Renaming the collection…"), lang.L("Collection not renamed"), func() {
		msg := lang.L("The service has no collection number {{.Number}}. Remove it from this list? Its memories stay in the list.", map[string]any{"Number": col.ID})
		if col.Name != "" {
			msg = lang.L("The service has no collection number {{.Number}} ({{.Name}}). Remove it from this list? Its memories stay in the list.",
				map[string]any{"Number": col.ID, "Name": strconv.Quote(col.Name)})
		}
		d := dialog.NewConfirm(lang.L("Collection not found"), msg, func(yes bool) {
			if yes {
				s.forgetCollection(col.ID)
			}
		}, s.env.Window)
		kit.ShowDialog(d, s.env.Window)
	}, func(ctx context.Context) error {
		_, err := s.a.Memories().RenameCollection(ctx, col.ID, name)
		return err
	}, s.Reload)
}

func (s *Screen) forgetCollection(id string) {
	var err error
	kit.Act(s.a, func(ctx context.Context) { err = s.a.Memories().ForgetCollection(ctx, id) }, func() {
		if err != nil {
			kit.ShowInformation(lang.L("Collection not removed"), app.Describe(err), s.env.Window)
			return
		}
		s.showCollection("")
		s.colList.Select(0)
	})
}

// showCollection lists the memories of collection id ("": every memory).
func (s *Screen) showCollection(id string) {
	s.colSel = id
	s.updateActions()
	s.Reload()
}

// compactEmpty is kit.Empty for a narrow pane, so panes keep their places.
func compactEmpty(icon fyne.Resource, title, detail string, actions ...fyne.CanvasObject) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	d := screen.Wrapped(detail)
	d.Alignment = fyne.TextAlignCenter
	box := container.NewVBox(layout.NewSpacer(),
		container.NewCenter(container.NewGridWrap(fyne.NewSquareSize(48), widget.NewIcon(icon))), t, d)
	if len(actions) > 0 {
		box.Add(container.NewCenter(container.NewHBox(actions...)))
	}
	box.Add(layout.NewSpacer())
	return box
}

// FocusFind puts the cursor in this screen's search (Ctrl+F).
func (s *Screen) FocusFind() { s.env.FocusFind(s.search) }

// Submit saves the memory open in the editor (Ctrl+Enter).
func (s *Screen) Submit() { s.ed.submit() }
