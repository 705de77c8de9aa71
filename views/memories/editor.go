package memories

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

func noCollection() string { return lang.L("No collection") }

// editor is one memory's text, collection or metadata, counter, Save and Revert.
type editor struct {
	s *Screen

	open    bool
	id      string // "" while writing a new memory
	base    app.MemoryEntry
	loading bool // set while the editor fills itself, so it is not "changed"
	saving  bool

	title, seen *widget.Label
	text        *kit.FormEntry
	counter     *widget.Label
	textErr     *widget.Label
	overMsg     string        // what textErr says when the text is too long
	collection  screen.Choice // of collection ids, "" for none
	colErr      *widget.Label
	colBox      *fyne.Container
	source      *kit.FormEntry
	tags        *kit.FormEntry
	other       *kit.FormEntry
	metaBox     *fyne.Container
	bannerText  *widget.Label
	bannerBtns  *fyne.Container
	banner      *fyne.Container
	save        *kit.PaidButton
	revert      *kit.Button
	del         *kit.Button
	deletable   bool // the service can delete memories
	body        *fyne.Container
	stack       *fyne.Container
	placeholder *fyne.Container // where a memory would be: noMemory, or nothing
	noMemory    fyne.CanvasObject
}

func newEditor(s *Screen) *editor {
	e := &editor{s: s}
	e.title = widget.NewLabelWithStyle(lang.L("New memory"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	e.title.Truncation = fyne.TextTruncateEllipsis
	e.seen = screen.Wrapped("")
	e.seen.Importance = widget.LowImportance

	e.text = kit.NewFormMultiLineEntry()
	e.text.SetPlaceHolder(lang.L("What should the agents remember?"))
	e.text.OnChanged = func(string) { e.changed() }
	e.counter = widget.NewLabel(app.Number(0) + " / " + app.Number(app.MemoryLimit))
	e.counter.Alignment = fyne.TextAlignTrailing
	e.textErr = kit.ErrorText()

	e.collection = screen.NewChoice([]string{noCollection()}, []string{""}, e.changed)
	e.collection.SetValue("")
	e.colErr = kit.ErrorText()
	e.colBox = container.NewVBox(widget.NewForm(widget.NewFormItem(lang.L("Collection"), e.collection.Select)), e.colErr)

	e.source = kit.NewFormEntry()
	e.source.SetPlaceHolder(lang.L("For example: meeting notes"))
	e.source.OnChanged = func(string) { e.changed() }
	e.tags = kit.NewFormEntry()
	e.tags.SetPlaceHolder(lang.L("Words separated by commas"))
	e.tags.OnChanged = func(string) { e.changed() }
	e.other = kit.NewFormMultiLineEntry()
	e.other.SetPlaceHolder(lang.L("One per line, for example  owner: Maria"))
	e.other.SetMinRowsVisible(3)
	e.other.OnChanged = func(string) { e.changed() }
	e.metaBox = container.NewVBox(widget.NewForm(
		widget.NewFormItem(lang.L("Source"), e.source),
		widget.NewFormItem(lang.L("Tags"), e.tags),
		widget.NewFormItem(lang.L("Other details"), e.other)))

	e.bannerText = screen.Wrapped("")
	e.bannerText.Importance = widget.DangerImportance
	e.bannerBtns = container.NewHBox()
	e.banner = container.NewVBox(container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, e.bannerText), e.bannerBtns)
	e.banner.Hide()

	e.save = kit.NewPaidButton(lang.L("Save"), theme.DocumentSaveIcon(), func() { e.send(e.id) })
	e.save.Importance = widget.HighImportance
	e.save.Tip = lang.L("Send the memory to the service ({{.Key}}). Uses credits.", map[string]any{"Key": kit.CtrlName("Enter")})
	// Saving costs credits: said before, not found out on the meter.
	cost := screen.Wrapped(lang.L("Saving a memory uses credits."))
	cost.Importance = widget.LowImportance
	e.revert = kit.NewButtonWithIcon(lang.L("Revert"), theme.ContentUndoIcon(), e.doRevert)
	e.del = kit.NewButtonWithIcon(lang.L("Delete…"), theme.DeleteIcon(), func() {
		if e.id != "" {
			e.s.deleteMemory(e.id, firstLine(e.base))
		}
	})
	e.del.Hide()
	for _, f := range []*kit.FormEntry{e.text, e.source, e.tags, e.other} {
		f.OnCtrlEnter = e.submit
	}

	top := container.NewVBox(e.title, e.seen, e.banner)
	bottom := container.NewVBox(
		container.NewBorder(nil, nil, nil, e.counter, e.textErr),
		e.colBox, e.metaBox, cost,
		container.NewHBox(e.save, e.revert, layout.NewSpacer(), e.del))
	e.body = kit.NewBorder(top, bottom, nil, nil, e.text)
	e.noMemory = compactEmpty(theme.DocumentCreateIcon(), lang.L("No memory open"),
		lang.L("Choose a memory on the left to read or change it, or start a new one with New memory."))
	e.placeholder = container.NewStack(e.noMemory)
	e.stack = container.NewStack(e.placeholder)

	e.updateState()
	return e
}

// listEmpty leaves the editor blank while the list's empty state speaks.
func (e *editor) listEmpty(empty bool) {
	if empty {
		e.placeholder.Objects = nil
	} else {
		e.placeholder.Objects = []fyne.CanvasObject{e.noMemory}
	}
	e.placeholder.Refresh()
}

func (e *editor) dirty() bool {
	if !e.open {
		return false
	}
	if e.id == "" {
		return strings.TrimSpace(e.text.Text) != ""
	}
	if e.text.Text != e.base.Content {
		return true
	}
	if e.s.a.Memories().Variant() == "B" {
		return !sameMeta(e.metadata(), e.base.Metadata)
	}
	return e.collection.Value() != e.base.CollectionID
}

func (e *editor) changed() {
	if e.body == nil {
		return // still being built
	}
	e.fitWrapping(e.text.Text)
	e.updateState()
	if e.loading || !e.open {
		return
	}
	draft := ""
	if e.text.Text != e.base.Content {
		draft = e.text.Text
	}
	// The app writes the draft after a typing pause, or at once on close.
	e.s.a.Memories().SetDraft(e.id, draft, e.collection.Value())
}

// wrapLimit: a wrapped entry slows with length, an unwrapped one does not.
const wrapLimit = 2000

func (e *editor) fitWrapping(text string) {
	want := fyne.TextWrapWord
	if len(text) > wrapLimit {
		want = fyne.TextWrapOff
	}
	if e.text.Wrapping != want {
		e.text.Wrapping = want
		e.text.Refresh()
	}
}

func (e *editor) updateState() {
	n := app.MemoryLength(e.text.Text)
	e.counter.SetText(app.Number(n) + " / " + app.Number(app.MemoryLimit))
	over := n > app.MemoryLimit
	if over {
		e.counter.Importance = widget.DangerImportance
		e.overMsg = lang.N("Too long by {{.Count}} characters: the service takes at most {{.Limit}}. Shorten it to save.", n-app.MemoryLimit,
			map[string]any{"Count": app.Number(n - app.MemoryLimit), "Limit": app.Number(app.MemoryLimit)})
		kit.ShowError(e.textErr, e.overMsg)
	} else {
		e.counter.Importance = widget.MediumImportance
		if e.overMsg != "" && e.textErr.Text == e.overMsg {
			kit.ShowError(e.textErr, "")
		}
		e.overMsg = ""
	}
	e.counter.Refresh()
	// Until the service reveals its interface, both are offered; details
	// only where it may keep them (not variant A, the real service's).
	variant := e.s.a.Memories().Variant()
	screen.ShowIf(e.colBox, variant != "B")
	screen.ShowIf(e.metaBox, variant != "A")
	screen.EnableIf(!over && !e.saving && e.dirty(), e.save)
	screen.EnableIf(!e.saving && e.dirty() && e.id != "", e.revert)
	screen.ShowIf(e.del, e.deletable && e.id != "" && !e.saving)
}

func (e *editor) setCollections(cols []app.CollectionSummary) {
	labels, ids := []string{noCollection()}, []string{""}
	named := map[string]int{}
	for _, c := range cols {
		named[c.Name]++
	}
	for _, c := range cols {
		label := collectionNo(c.ID)
		switch {
		case c.Name != "" && named[c.Name] == 1:
			label = c.Name
		case c.Name != "": // two of one name: the number tells them apart
			label = lang.L("{{.Name}} (no. {{.Number}})", map[string]any{"Name": c.Name, "Number": c.ID})
		}
		labels, ids = append(labels, label), append(ids, c.ID)
	}
	e.collection.Select.Options, e.collection.Values = labels, ids
	e.collection.Select.Refresh()
}

// chooseCollection chooses collection id, offered by its number when unlisted.
func (e *editor) chooseCollection(id string) {
	if !slices.Contains(e.collection.Values, id) {
		e.collection.Values = append(e.collection.Values, id)
		e.collection.Select.Options = append(e.collection.Select.Options, collectionNo(id))
	}
	e.collection.SetValue(id)
}

// leave runs next at once, or once the user agrees to leave unsaved text.
func (e *editor) leave(next, stay func()) {
	if !e.dirty() {
		next()
		return
	}
	msg := lang.L("Your changes are not saved on the service yet. Agent Desk keeps them on this computer as a draft; open this memory again to save them.")
	if e.id == "" {
		msg = lang.L("This new memory is not saved on the service yet. Agent Desk keeps its text on this computer: choose New memory to pick it up again.")
	}
	d := dialog.NewCustomConfirm(lang.L("Leave without saving?"), lang.L("Leave"), lang.L("Keep editing"), widget.NewLabel(msg), func(ok bool) {
		if ok {
			next()
		} else if stay != nil {
			stay()
		}
	}, e.s.env.Window)
	kit.ShowDialog(d, e.s.env.Window)
}

func (e *editor) clear() {
	e.open = false
	e.id = ""
	kit.SetBody(e.stack, e.placeholder)
}

func (e *editor) resetMessages() {
	e.banner.Hide()
	kit.ShowError(e.textErr, "")
	kit.ShowError(e.colErr, "")
}

func (e *editor) startNew(collectionID string) {
	e.load(app.MemoryEntry{CollectionID: collectionID})
	e.base.CollectionID = ""
	e.title.SetText(lang.L("New memory"))
	e.seen.SetText(lang.L("Not saved yet."))
	e.s.env.Window.Canvas().Focus(e.text)
	// Bring back what was being written (another account, a crash).
	var text, col string
	var err error
	kit.Act(e.s.a, func(ctx context.Context) { text, col, err = e.s.a.Memories().NewDraft(ctx) }, func() {
		if err != nil || text == "" || !e.open || e.id != "" || e.text.Text != "" {
			return
		}
		if col != "" {
			e.chooseCollection(col)
		}
		e.text.SetText(text)
		e.seen.SetText(lang.L("Not saved yet: this is the text you were writing."))
	})
}

func (e *editor) load(m app.MemoryEntry) {
	e.loading = true
	e.id = m.ID
	e.base = m
	// Named by what it says; the service's number comes second.
	e.title.SetText(firstLine(m))
	seen := lang.L("No. {{.Number}}.", map[string]any{"Number": m.ID})
	if !m.LastSeen.IsZero() {
		seen = lang.L("No. {{.Number}} · up to date as of {{.When}}.", map[string]any{"Number": m.ID, "When": app.DateTime(m.LastSeen)})
	}
	text := m.Content
	if m.Draft != "" {
		text = m.Draft
		seen = lang.L("{{.Seen}} Your unsaved changes from last time are shown; Save sends them, Revert throws them away.", map[string]any{"Seen": seen})
	}
	e.seen.SetText(seen)
	e.fitWrapping(text)
	e.text.SetText(text)
	e.chooseCollection(m.CollectionID)
	e.setMeta(m.Metadata)
	e.resetMessages()
	e.loading = false
	e.open = true
	kit.SetBody(e.stack, e.body)
	e.updateState()
}

func (e *editor) doRevert() {
	m := e.base
	m.Draft = ""
	e.load(m)
	e.s.a.Memories().SetDraft(e.id, "", e.base.CollectionID)
}

func (e *editor) edit() app.MemoryEdit {
	ed := app.MemoryEdit{Content: e.text.Text}
	variant := e.s.a.Memories().Variant()
	if variant != "A" {
		ed.Metadata = e.metadata()
	}
	if variant != "B" {
		ed.CollectionID = e.collection.Value()
	}
	return ed
}

func (e *editor) submit() {
	if e.stack.Objects[0] == e.body && !e.save.Disabled() && e.save.Visible() {
		e.send(e.id)
	}
}

func (e *editor) send(id string) {
	edit := e.edit()
	e.resetMessages()
	e.saving = true
	e.save.SetText(lang.L("Saving…"))
	e.updateState()
	a := e.s.a
	var (
		m   app.MemoryEntry
		err error
	)
	kit.Act(e.s.a, func(ctx context.Context) {
		// A draft written after the save would bring back "unsaved changes".
		a.Memories().DropDraft(id)
		if id == "" {
			m, err = a.Memories().Create(ctx, edit)
			if err == nil {
				_ = a.Memories().SaveNewDraft(ctx, a.AccountID(), "", "")
			}
		} else {
			m, err = a.Memories().Update(ctx, id, edit)
		}
	}, func() {
		e.saving = false
		e.save.SetText(lang.L("Save"))
		if err != nil {
			e.failed(id, err)
			e.updateState()
			return
		}
		e.load(m)
		saved := lang.L("Saved. {{.Seen}}", map[string]any{"Seen": e.seen.Text})
		if len(edit.Metadata) > 0 && m.Variant != string(client.MemoryB) {
			// Offered while the service was unknown; it turned out to keep none.
			saved = lang.L("Saved without the source, tags and other details: this service keeps only a memory's text and collection. {{.Seen}}", map[string]any{"Seen": e.seen.Text})
		}
		e.seen.SetText(saved)
		e.s.saved(m)
	})
}

func (e *editor) failed(id string, err error) {
	var tooLong *app.MemoryTooLongError
	switch {
	case errors.As(err, &tooLong), errors.Is(err, app.ErrMemoryEmpty):
		kit.ShowError(e.textErr, app.Describe(err))
	case client.IsNotFound(err) && id != "":
		e.showBanner(lang.L("This memory no longer exists on the server. Your text is still here."),
			kit.NewButtonWithIcon(lang.L("Create it again"), theme.ContentAddIcon(), func() { e.recreate(id) }))
	case app.FieldErrors(err) != nil:
		for field, msg := range app.FieldErrors(err) {
			if field == "collection_id" {
				kit.ShowError(e.colErr, msg)
			} else {
				kit.ShowError(e.textErr, msg)
			}
		}
	case client.IsValidation(err):
		kit.ShowError(e.textErr, app.Describe(err))
	default:
		msg := app.Describe(err)
		if client.StatusCode(err) >= 500 {
			msg = lang.L("The service had a problem and did not save this memory. Your text is kept; try again.")
		}
		e.showBanner(msg, kit.NewButtonWithIcon(lang.L("Retry"), theme.ViewRefreshIcon(), func() { e.send(id) }))
	}
}

func (e *editor) showBanner(msg string, actions ...fyne.CanvasObject) {
	e.bannerText.SetText(msg)
	e.bannerBtns.Objects = actions
	e.bannerBtns.Refresh()
	e.banner.Show()
}

// recreate saves the text as a new memory, replacing one the service lost.
func (e *editor) recreate(oldID string) {
	e.id = ""
	e.send("")
	kit.Act(e.s.a, func(ctx context.Context) { _ = e.s.a.Memories().Forget(ctx, oldID) }, nil)
}

func (e *editor) setMeta(meta map[string]any) {
	src, _ := meta["source"].(string)
	e.source.SetText(src)
	var tags []string
	switch t := meta["tags"].(type) {
	case []any:
		for _, v := range t {
			tags = append(tags, fmt.Sprint(v))
		}
	case []string:
		tags = t
	}
	e.tags.SetText(strings.Join(tags, ", "))
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		v := meta[k]
		if k == "source" || k == "tags" {
			continue
		}
		s, ok := v.(string)
		if !ok {
			b, _ := json.Marshal(v)
			s = string(b)
		}
		lines = append(lines, k+": "+s)
	}
	e.other.SetText(strings.Join(lines, "\n"))
}

// metadata parses "key: value" lines; JSON values keep their kind.
func (e *editor) metadata() map[string]any {
	meta := map[string]any{}
	if s := strings.TrimSpace(e.source.Text); s != "" {
		meta["source"] = s
	}
	var tags []any
	for _, t := range strings.Split(e.tags.Text, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	if len(tags) > 0 {
		meta["tags"] = tags
	}
	for _, line := range strings.Split(e.other.Text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			continue
		}
		var parsed any
		if json.Unmarshal([]byte(v), &parsed) == nil && !isString(parsed) {
			meta[k] = parsed
		} else {
			meta[k] = v
		}
	}
	return meta
}

func isString(v any) bool { _, ok := v.(string); return ok }

// sameMeta compares a and b as the service would receive them.
func sameMeta(a, b map[string]any) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
