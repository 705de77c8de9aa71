package memories

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

type fixture struct {
	s   *Screen
	a   *app.App
	svc *demoservice.Service
	w   fyne.Window
	q   *kit.Queue
}

func newFixture(t *testing.T, variant string) *fixture {
	// The local index alone, as against a service without lists.
	f := openFixture(t, demoservice.Options{MemoryVariant: variant, API: demoservice.APISpec})
	f.until(t, "the first load", f.loaded)
	return f
}

// loaded reports that the screen shows the index as last read.
func (f *fixture) loaded() bool {
	sh, fd := f.s.shelves, f.s.found
	return sh.Loaded && fd.Loaded && !sh.Loading && !fd.Loading && !f.s.waiting
}

// openFixture shows the screen on a built-in service with opts.
func openFixture(t *testing.T, opts demoservice.Options) *fixture {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	opts.APIKey = "k"
	a, svc := apptest.OnService(t, opts)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
	w.SetContent(s.Content())
	w.Resize(fyne.NewSize(1200, 800))
	s.Shown()
	return &fixture{s: s, a: a, svc: svc, w: w, q: q}
}

func (f *fixture) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	f.q.WaitUntil(t, cond, func() string {
		return what + "; selected collection " + f.s.colSel + "; banner: " + f.s.ed.bannerText.Text + "; error: " + f.s.ed.textErr.Text
	})
}

func (f *fixture) tapInDialog(t *testing.T, text string) {
	t.Helper()
	top := f.w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatalf("no dialog open to tap %q in", text)
	}
	b := kittest.FindButton(top, text)
	if b == nil {
		t.Fatalf("dialog has no %q button", text)
	}
	test.Tap(b)
}

func (f *fixture) save(t *testing.T) {
	t.Helper()
	if f.s.ed.save.Disabled() {
		t.Fatal("Save is disabled")
	}
	test.Tap(f.s.ed.save)
	f.until(t, "the save to finish", func() bool { return !f.s.ed.saving })
}

func TestNewMemoryInACollectionIsSavedEditedAndListed(t *testing.T) {
	for _, variant := range []string{"A", "B"} {
		t.Run(variant, func(t *testing.T) {
			f := newFixture(t, variant)
			ctx := context.Background()
			if _, ok := f.s.mems.Stack.Objects[0].(*kit.List); ok {
				t.Fatal("an empty index shows a list instead of the empty state")
			}
			// The screen says what to do once: in the list, not again in
			// the editor's place.
			if all := kittest.AllText(f.s.Content()); !strings.Contains(all, "No memories yet") || strings.Contains(all, "No memory open") {
				t.Fatalf("an empty screen should have one empty state:\n%s", all)
			}
			if variant == "A" {
				if _, err := f.a.Memories().RenameCollection(ctx, "2", "Key clients"); err != nil {
					t.Fatal(err)
				}
				f.s.Reload()
				f.until(t, "the collection", func() bool { return len(f.s.cols) == 1 })
			}
			test.Tap(f.s.newBtn)
			test.Type(f.s.ed.text, "Northwind wants PDF invoices.")
			// Saving costs credits: the editor says so before Save is pressed.
			if !strings.Contains(kittest.AllText(f.s.ed.body), "Saving a memory uses credits.") || !strings.Contains(f.s.ed.save.Tip, "Uses credits") {
				t.Fatalf("the editor should say saving uses credits:\n%s", kittest.AllText(f.s.ed.body))
			}
			if got := f.s.ed.counter.Text; got != "29 / 32,000" {
				t.Fatalf("counter = %q", got)
			}
			if variant == "A" {
				f.s.ed.collection.Select.SetSelected("Key clients")
			} else if f.s.ed.metaBox.Hidden {
				t.Fatal("before the variant is known, the metadata editor must be offered too")
			} else {
				f.s.ed.source.SetText("meeting")
			}
			// Ctrl+Enter saves, as Save does: where no field has the
			// keyboard (the window gives it to the screen), and in the text.
			if variant == "A" {
				f.s.Submit()
			} else {
				f.s.ed.text.TypedShortcut(kit.CtrlEnterShortcut)
			}
			f.until(t, "the save to finish", func() bool { return f.s.ed.id != "" && !f.s.ed.saving })
			id := f.s.ed.id
			if id == "" || f.s.ed.banner.Visible() {
				t.Fatalf("not saved: %q", f.s.ed.bannerText.Text)
			}
			f.until(t, "the list", func() bool { return len(f.s.mems.Items) == 1 })
			n, _ := client.ID(id).Int64()
			m, ok := f.svc.Memory(n)
			if !ok || m.Content != "Northwind wants PDF invoices." {
				t.Fatalf("service has %+v", m)
			}
			if variant == "A" && (m.CollectionID != 2 || !strings.Contains(subLine(f.s.mems.Items[0]), "Key clients")) {
				t.Fatalf("collection not kept: %+v / %q", m, subLine(f.s.mems.Items[0]))
			}
			if variant == "B" && (f.s.ed.metaBox.Hidden || !f.s.ed.colBox.Hidden) {
				t.Fatal("variant B shows the metadata editor, not the collection picker")
			}
			if variant == "A" && (!f.s.ed.metaBox.Hidden || f.s.ed.colBox.Hidden) {
				t.Fatal("variant A shows the collection picker, not metadata")
			}

			// Edit: the draft is kept on disk before it is saved.
			f.s.ed.text.SetText(f.s.ed.text.Text + " Due in 30 days.")
			if f.s.ed.save.Disabled() || f.s.ed.revert.Disabled() {
				t.Fatal("an edit must enable Save and Revert")
			}
			f.a.Memories().WriteDrafts()
			if e, _ := f.a.Memories().Get(ctx, id); e.Draft != "Northwind wants PDF invoices. Due in 30 days." {
				t.Fatalf("draft on disk = %q", e.Draft)
			}
			f.save(t)
			m, _ = f.svc.Memory(n)
			if m.Content != "Northwind wants PDF invoices. Due in 30 days." {
				t.Fatalf("service has %q after edit", m.Content)
			}
			if variant == "B" {
				if m.Metadata["source"] != "meeting" {
					t.Fatalf("metadata = %+v", m.Metadata)
				}
				if f.s.ed.metaBox.Hidden {
					t.Fatal("variant B shows no metadata editor")
				}
			}
			if e, _ := f.a.Memories().Get(ctx, id); e.Draft != "" {
				t.Fatalf("draft left after save: %q", e.Draft)
			}
		})
	}
}

func TestCounterRefusesMoreThanTheLimit(t *testing.T) {
	f := newFixture(t, "A")
	test.Tap(f.s.newBtn)
	long := strings.Repeat("word ", app.MemoryLimit/5) + "extra"
	// The editor unwraps long text; doing it first spares the test driver
	// from wrapping 32,000 characters once (seconds, see wrapLimit).
	f.s.ed.fitWrapping(long)
	f.s.ed.text.SetText(long)
	if f.s.ed.text.Wrapping != fyne.TextWrapOff {
		t.Fatal("long text must be shown unwrapped")
	}
	if f.s.ed.counter.Text != "32,005 / 32,000" || !f.s.ed.save.Disabled() {
		t.Fatalf("counter %q, save disabled %v", f.s.ed.counter.Text, f.s.ed.save.Disabled())
	}
	if !f.s.ed.textErr.Visible() || !strings.Contains(f.s.ed.textErr.Text, "Too long by 5") {
		t.Fatalf("message = %q", f.s.ed.textErr.Text)
	}
	f.s.ed.text.SetText(strings.Repeat("word ", app.MemoryLimit/5))
	if f.s.ed.save.Disabled() || f.s.ed.textErr.Visible() {
		t.Fatal("exactly the limit must be allowed")
	}
}

func TestLeavingWithUnsavedChangesAsksAndKeepsTheDraft(t *testing.T) {
	f := newFixture(t, "A")
	ctx := context.Background()
	for _, id := range []string{"501", "502"} {
		if _, err := f.a.Memories().Update(ctx, id, app.MemoryEdit{Content: "Memory " + id}); err != nil {
			t.Fatal(err)
		}
	}
	f.s.Reload()
	f.until(t, "two memories", func() bool { return len(f.s.mems.Items) == 2 })
	f.s.mems.Select(0)
	first := f.s.ed.id
	f.s.ed.text.SetText(f.s.ed.text.Text + " changed")
	f.s.mems.Select(1)
	if f.s.ed.id != first {
		t.Fatal("the editor left unsaved changes without asking")
	}
	f.tapInDialog(t, "Leave")
	if f.s.ed.id == first {
		t.Fatal("Leave did not open the other memory")
	}
	want := "Memory " + first + " changed"
	f.until(t, "the draft on disk", func() bool {
		e, _ := f.a.Memories().Get(ctx, first)
		return e.Draft == want
	})
	// Coming back shows the draft.
	f.s.mems.UnselectAll()
	for i, m := range f.s.mems.Items {
		if m.ID == first {
			f.s.mems.Select(i)
		}
	}
	f.until(t, "the draft in the editor", func() bool { return f.s.ed.id == first && f.s.ed.text.Text == want })
	if !strings.Contains(f.s.ed.seen.Text, "unsaved changes") {
		t.Fatalf("the editor does not say the draft is unsaved: %q", f.s.ed.seen.Text)
	}
	if f.s.ed.save.Disabled() || f.s.ed.revert.Disabled() {
		t.Fatal("a restored draft must be savable and revertable")
	}
	test.Tap(f.s.ed.revert)
	f.a.Memories().WriteDrafts()
	if e, _ := f.a.Memories().Get(ctx, first); e.Draft != "" || f.s.ed.text.Text != "Memory "+first {
		t.Fatalf("revert kept %q / %q", e.Draft, f.s.ed.text.Text)
	}
}

func TestServiceErrorsKeepTheTextAndOfferAWayOn(t *testing.T) {
	f := newFixture(t, "A")
	ctx := context.Background()
	acct := f.a.AccountID()
	// A memory the service no longer has, and a collection it never had.
	if err := f.a.DB().UpsertMemory(ctx, app.MemoryEntry{AccountID: acct, ID: "98765", Content: "Ghost", Variant: "A"}); err != nil {
		t.Fatal(err)
	}
	if err := f.a.DB().UpsertCollection(ctx, app.CollectionEntry{AccountID: acct, ID: "999", Name: "Old"}); err != nil {
		t.Fatal(err)
	}
	f.s.Reload()
	f.until(t, "the ghost", func() bool { return len(f.s.mems.Items) == 1 && len(f.s.cols) == 1 })
	f.s.mems.Select(0)
	f.s.ed.text.SetText(f.s.ed.text.Text + " text")
	f.save(t)
	if !strings.Contains(f.s.ed.bannerText.Text, "This memory no longer exists on the server") || f.s.ed.text.Text != "Ghost text" {
		t.Fatalf("404: banner %q, text %q", f.s.ed.bannerText.Text, f.s.ed.text.Text)
	}
	test.Tap(kittest.FindButton(f.s.ed.banner, "Create it again"))
	f.until(t, "the new memory", func() bool { return !f.s.ed.saving && f.s.ed.id != "" && f.s.ed.id != "98765" })
	n, _ := client.ID(f.s.ed.id).Int64()
	if m, ok := f.svc.Memory(n); !ok || m.Content != "Ghost text" {
		t.Fatalf("recreated = %+v", m)
	}

	// 422: the service's message beside the collection field.
	f.s.ed.text.SetText(f.s.ed.text.Text + "!")
	f.s.ed.collection.Select.SetSelected("Old")
	f.save(t)
	if !f.s.ed.colErr.Visible() || !strings.Contains(f.s.ed.colErr.Text, "collection_id is invalid") {
		t.Fatalf("422 shown as %q / banner %q", f.s.ed.colErr.Text, f.s.ed.bannerText.Text)
	}

	// 500: the text stays and Retry saves it.
	f.s.ed.collection.Select.SetSelected(noCollection())
	f.svc.SetFaults(demoservice.Faults{Fail500: 1})
	f.save(t)
	if !strings.Contains(f.s.ed.bannerText.Text, "Your text is kept") || f.s.ed.text.Text != "Ghost text!" {
		t.Fatalf("500: banner %q, text %q", f.s.ed.bannerText.Text, f.s.ed.text.Text)
	}
	test.Tap(kittest.FindButton(f.s.ed.banner, "Retry"))
	f.until(t, "the retry", func() bool { return !f.s.ed.saving })
	if m, _ := f.svc.Memory(n); m.Content != "Ghost text!" || f.s.ed.banner.Visible() {
		t.Fatalf("retry: %q, banner %q", m.Content, f.s.ed.bannerText.Text)
	}
}

func TestRenamingAMissingCollectionRemovesItOnlyWhenTheUserAgrees(t *testing.T) {
	f := newFixture(t, "A")
	ctx := context.Background()
	if _, err := f.a.Memories().RenameCollection(ctx, "3", "Policies"); err != nil {
		t.Fatal(err)
	}
	if err := f.a.DB().UpsertCollection(ctx, app.CollectionEntry{AccountID: f.a.AccountID(), ID: "77", Name: "Gone"}); err != nil {
		t.Fatal(err)
	}
	f.s.Reload()
	f.until(t, "collections", func() bool { return len(f.s.cols) == 2 })

	// Rename a real one.
	f.s.colList.Select(2) // sorted by name: Gone, Policies
	f.until(t, "select", func() bool { return f.s.colSel == "3" })
	test.Tap(f.s.rename)
	f.s.renName.SetText("Company policies")
	f.tapInDialog(t, "Rename")
	f.until(t, "the rename", func() bool { return len(f.s.cols) == 2 && f.s.cols[0].Name == "Company policies" })
	if c, _ := f.svc.Collection(3); c.Name != "Company policies" {
		t.Fatalf("service name = %q", c.Name)
	}

	// The missing one: it says so and asks before removing it.
	f.s.colList.Select(2) // Gone now sorts after Company policies
	if f.s.colSel == "3" {
		t.Fatal("the highlight did not follow the renamed collection")
	}
	f.until(t, "select", func() bool { return f.s.colSel == "77" })
	test.Tap(f.s.rename)
	f.s.renName.SetText("Anything")
	f.tapInDialog(t, "Rename")
	f.until(t, "the answer", func() bool {
		top := f.w.Canvas().Overlays().Top()
		return top != nil && kittest.FindButton(top, "Yes") != nil
	})
	if len(f.s.cols) != 2 {
		t.Fatal("the collection was removed before the user agreed")
	}
	f.tapInDialog(t, "Yes")
	f.until(t, "the removal", func() bool { return len(f.s.cols) == 1 })
}

// BenchmarkTypingIntoMemory measures one keystroke at the end of a memory:
// wrapped up to wrapLimit characters, unwrapped beyond.
func BenchmarkTypingIntoMemory(b *testing.B) {
	for _, n := range []int{1000, wrapLimit, 30000} {
		b.Run(app.Number(n)+" characters", func(b *testing.B) {
			test.NewTempApp(b)
			kit.UseQueue(b)
			a := apptest.Open(b)
			w := test.NewTempWindow(b, widget.NewLabel(""))
			s := New(screen.Env{App: a, Window: w, Nav: screen.NoNav{}}).(*Screen)
			w.SetContent(s.Content())
			w.Resize(fyne.NewSize(1200, 800))
			s.ed.startNew("")
			text := strings.Repeat("Northwind pays in 30 days. ", n/27+1)[:n]
			s.ed.fitWrapping(text)
			s.ed.text.SetText(text)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				text = text[:n-1] + string(rune('a'+i%26))
				s.ed.text.SetText(text)
			}
		})
	}
}

func TestANewMemoryBeingWrittenSurvivesAnAccountSwitch(t *testing.T) {
	f := newFixture(t, "A")
	ctx := context.Background()
	f.s.ed.startNew("")
	test.Type(f.s.ed.text, "Northwind pays in 30 days")
	demoAccount := f.a.AccountID()
	// Another account becomes active: the editor empties, the text is kept.
	acct, err := f.a.Accounts().Save(ctx, app.Account{Name: "Other", BaseURL: "http://127.0.0.1:9"}, "key")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.a.Activate(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	f.until(t, "the editor to empty", func() bool { return !f.s.ed.open })
	f.a.Memories().WriteDrafts()
	// A new memory of the other account (none was being written there):
	// the switch back empties it, so the screen is seen to hear it.
	f.s.ed.startNew("")
	f.until(t, "the other account's new memory", func() bool { return f.s.ed.open })
	if err := f.a.Activate(ctx, demoAccount); err != nil {
		t.Fatal(err)
	}
	f.until(t, "the editor to empty", func() bool { return !f.s.ed.open })
	f.s.ed.startNew("")
	f.until(t, "the text to come back", func() bool { return f.s.ed.text.Text == "Northwind pays in 30 days" })

	f.save(t)
	if text, _, _ := f.a.Memories().NewDraft(ctx); text != "" {
		t.Fatalf("once created, the memory's draft should be gone, got %q", text)
	}
}

// newRealFixture is newFixture against the real service's reading, whose
// lists of memories and collections the screen mirrors.
func newRealFixture(t *testing.T) *fixture {
	f := openFixture(t, demoservice.Options{API: demoservice.APIReal})
	// The service's lists arrive after the local index: the default
	// collection shows then.
	f.until(t, "the service's lists", func() bool {
		st, _ := f.s.idx.SyncState().Snapshot()
		return f.loaded() && f.s.listed && !st.Syncing && len(f.s.cols) > 0
	})
	return f
}

func (f *fixture) collection(name string) (app.CollectionSummary, int) {
	for i, c := range f.s.cols {
		if c.Name == name {
			return c, i
		}
	}
	return app.CollectionSummary{}, -1
}

func TestServiceListsAreShownAndCollectionsCreatedAndDeleted(t *testing.T) {
	f := newRealFixture(t)
	// What the service offers replaces the by-number stand-ins.
	if f.s.newCol.Hidden || !f.s.addCol.Hidden || !f.s.openBtn.Hidden {
		t.Fatal("with the service's lists, collections are made by name and nothing is opened by number")
	}
	if _, i := f.collection("My Memories"); i < 0 {
		t.Fatalf("the default collection is listed by its display name: %+v", f.s.cols)
	}

	test.Tap(f.s.newCol)
	f.s.newColName.SetText("Customer care")
	f.tapInDialog(t, "Create")
	f.until(t, "the new collection", func() bool { _, i := f.collection("Customer care"); return i >= 0 && f.s.colSel != "" })
	col, _ := f.collection("Customer care")

	// A memory written on the service elsewhere shows after a sync.
	if _, err := f.a.Client().CreateMemory(context.Background(), client.MemoryParams{Content: "Call back within a day", CollectionID: client.ID(col.ID)}); err != nil {
		t.Fatal(err)
	}
	f.s.Sync()
	f.until(t, "the memory", func() bool { c, _ := f.collection("Customer care"); return c.Count == 1 })

	// Deleting the collection says its memory goes with it.
	_, i := f.collection("Customer care")
	f.s.colList.Select(i + 1)
	f.until(t, "select", func() bool { return f.s.colSel == col.ID })
	test.Tap(f.s.delCol)
	top := f.w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), "Its memory is deleted with it") {
		t.Fatal("the confirmation should say the memory goes too")
	}
	f.tapInDialog(t, "Delete")
	f.until(t, "the deletion", func() bool { _, i := f.collection("Customer care"); return i < 0 })
	if mems, _ := f.a.Memories().List(context.Background(), "Call back"); len(mems) != 0 {
		t.Fatalf("the collection's memories stay: %+v", mems)
	}
}

func TestDefaultCollectionIsNotDeleted(t *testing.T) {
	f := newRealFixture(t)
	_, i := f.collection("My Memories")
	f.s.colList.Select(i + 1)
	f.until(t, "select", func() bool { return f.s.colSel != "" })
	test.Tap(f.s.delCol)
	top := f.w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), "cannot be deleted") {
		t.Fatal("deleting the default collection should say it cannot be done")
	}
	if _, i := f.collection("My Memories"); i < 0 {
		t.Fatal("the default collection is gone")
	}
}

func TestMemoryIsDeletedAfterConfirming(t *testing.T) {
	f := newRealFixture(t)
	m, err := f.a.Memories().Create(context.Background(), app.MemoryEdit{Content: "Parking is behind the building"})
	if err != nil {
		t.Fatal(err)
	}
	f.s.Reload()
	f.until(t, "the memory", func() bool {
		for _, x := range f.s.mems.Items {
			if x.ID == m.ID {
				return true
			}
		}
		return false
	})
	for i, x := range f.s.mems.Items {
		if x.ID == m.ID {
			f.s.mems.Select(i)
		}
	}
	f.until(t, "the editor", func() bool { return f.s.ed.open && f.s.ed.id == m.ID })
	if f.s.ed.del.Hidden {
		t.Fatal("an open memory offers Delete")
	}
	test.Tap(f.s.ed.del)
	f.tapInDialog(t, "Delete")
	f.until(t, "the deletion", func() bool {
		for _, x := range f.s.mems.Items {
			if x.ID == m.ID {
				return false
			}
		}
		return !f.s.ed.open
	})
}

// Another account's memories replace the last account's, and come back
// with it.
func TestAccountSwitchShowsTheOtherAccountsMemories(t *testing.T) {
	f := newFixture(t, "A")
	ctx := context.Background()
	if _, err := f.a.Memories().Update(ctx, "501", app.MemoryEdit{Content: "Memory 501"}); err != nil {
		t.Fatal(err)
	}
	f.s.Reload()
	f.until(t, "the memory", func() bool { return f.loaded() && len(f.s.mems.Items) == 1 && f.s.total == 1 })
	demo := f.a.AccountID()
	other, err := f.a.Accounts().Save(ctx, app.Account{Name: "Other", BaseURL: "http://127.0.0.1:9"}, "key")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.a.Activate(ctx, other.ID); err != nil {
		t.Fatal(err)
	}
	f.until(t, "the other account's empty index", func() bool {
		return f.loaded() && len(f.s.mems.Items) == 0 && f.s.total == 0 && strings.Contains(kittest.Labels(f.s.mems.Stack), "No memories yet")
	})
	if err := f.a.Activate(ctx, demo); err != nil {
		t.Fatal(err)
	}
	f.until(t, "the memory again", func() bool { return f.loaded() && len(f.s.mems.Items) == 1 })
}

// The service's lists that could not be read are read by themselves when
// the service can be reached again; meanwhile what this computer kept is
// shown with a word on why.
func TestListsAreReadByThemselvesWhenTheServiceIsBack(t *testing.T) {
	f := newRealFixture(t)
	f.svc.SetFaults(demoservice.Faults{Fail500: 1000})
	f.s.Sync()
	f.until(t, "the failed reading", func() bool { return f.s.syncNote.Visible() })
	if len(f.s.cols) == 0 {
		t.Fatal("what this computer kept stays shown")
	}
	f.a.SetReachable(false) // the status bar's check finds the service gone
	f.svc.SetFaults(demoservice.Faults{})
	f.a.SetReachable(true) // and back
	f.until(t, "the reading without a tap", func() bool {
		st, _ := f.s.idx.SyncState().Snapshot()
		return !st.Syncing && st.Err == nil && !f.s.syncNote.Visible()
	})
}

// The editor offers a memory's source, tags and other details only where
// the service may keep them: not against the real service, whose memories
// hold a text and a collection only, still against one that keeps them;
// where the service was unknown and turned out to keep none, the save says so.
func TestMemoryDetailsAreOfferedOnlyWhereTheServiceKeepsThem(t *testing.T) {
	write := func(t *testing.T, f *fixture) {
		t.Helper()
		test.Tap(f.s.newBtn)
		test.Type(f.s.ed.text, "Northwind wants PDF invoices.")
	}
	t.Run("real service", func(t *testing.T) {
		f := newRealFixture(t)
		write(t, f)
		if !f.s.ed.metaBox.Hidden || f.s.ed.colBox.Hidden {
			t.Fatal("against the real service the editor offers a collection, and no details it would not send")
		}
	})
	t.Run("details kept", func(t *testing.T) {
		f := newFixture(t, "B")
		write(t, f)
		if f.s.ed.metaBox.Hidden {
			t.Fatal("where the service may keep details, they are offered")
		}
		f.s.ed.source.SetText("meeting")
		f.save(t)
		n, _ := client.ID(f.s.ed.id).Int64()
		if m, _ := f.svc.Memory(n); m.Metadata["source"] != "meeting" {
			t.Fatalf("the service keeps %+v", m)
		}
		if f.s.ed.metaBox.Hidden || strings.Contains(f.s.ed.seen.Text, "without") {
			t.Fatalf("details kept: shown %v, %q", !f.s.ed.metaBox.Hidden, f.s.ed.seen.Text)
		}
	})
	t.Run("unknown, then not kept", func(t *testing.T) {
		f := newFixture(t, "A")
		write(t, f)
		if f.s.ed.metaBox.Hidden {
			t.Fatal("before the service is known, details are offered")
		}
		f.s.ed.source.SetText("meeting")
		f.save(t)
		if f.s.ed.id == "" || !strings.HasPrefix(f.s.ed.seen.Text, "Saved without the source, tags and other details") {
			t.Fatalf("the save should say the details were not kept: %q", f.s.ed.seen.Text)
		}
		if !f.s.ed.metaBox.Hidden {
			t.Fatal("once the service is known to keep no details, they are not offered")
		}
	})
}
