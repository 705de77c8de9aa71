package app_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
)

// openOn opens an App whose client talks to a test service of the given
// variants (the built-in demo always serves variant A).
func openOn(t *testing.T, opts demoservice.Options) (*app.App, *demoservice.Service) {
	t.Helper()
	opts.APIKey = "k"
	a, svc := apptest.OnService(t, opts)
	return a, svc
}

func TestMemoryInACollectionIsCreatedEditedAndItsCollectionRenamed(t *testing.T) {
	ctx := context.Background()
	a, svc := openOn(t, demoservice.Options{MemoryVariant: "A"})

	if _, err := a.Memories().RenameCollection(ctx, "2", "Key clients"); err != nil {
		t.Fatalf("add collection: %v", err)
	}
	m, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Northwind wants PDF invoices.", CollectionID: "2"})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if m.CollectionName != "Key clients" || m.Variant != "A" {
		t.Fatalf("created entry = %+v, want collection Key clients, variant A", m)
	}
	m, err = a.Memories().Update(ctx, m.ID, app.MemoryEdit{Content: "Northwind wants PDF invoices, 30 days.", CollectionID: "2"})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	id, _ := client.ID(m.ID).Int64()
	got, ok := svc.Memory(id)
	if !ok || got.Content != "Northwind wants PDF invoices, 30 days." || got.CollectionID != 2 {
		t.Fatalf("service memory = %+v, %v", got, ok)
	}
	if _, err := a.Memories().RenameCollection(ctx, "2", "Top clients"); err != nil {
		t.Fatalf("rename: %v", err)
	}
	if c, _ := svc.Collection(2); c.Name != "Top clients" {
		t.Fatalf("service collection name = %q", c.Name)
	}
	cols, err := a.Memories().Collections(ctx)
	if err != nil || len(cols) != 1 || cols[0].Name != "Top clients" || cols[0].Count != 1 {
		t.Fatalf("collections = %+v, %v", cols, err)
	}
	mems, _ := a.Memories().List(ctx, "30 days")
	if len(mems) != 1 || mems[0].CollectionName != "Top clients" {
		t.Fatalf("index = %+v", mems)
	}
	r, err := a.Ledger().OverDays(ctx, 1)
	if err != nil || r.Total <= 0 {
		t.Fatalf("memory credits were not recorded: %+v, %v", r, err)
	}
}

func TestVariantBSavesContentAndMetadataWithPut(t *testing.T) {
	ctx := context.Background()
	a, svc := openOn(t, demoservice.Options{MemoryVariant: "B"})
	meta := map[string]any{"source": "meeting", "tags": []any{"clients"}}
	m, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Call Northwind on Mondays.", Metadata: meta})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if a.Memories().Variant() != client.MemoryB || m.Variant != "B" {
		t.Fatalf("variant = %q / %q, want B", a.Memories().Variant(), m.Variant)
	}
	meta["owner"] = "Maria"
	if _, err := a.Memories().Update(ctx, m.ID, app.MemoryEdit{Content: "Call Northwind on Tuesdays.", Metadata: meta}); err != nil {
		t.Fatalf("update: %v", err)
	}
	id, _ := client.ID(m.ID).Int64()
	got, _ := svc.Memory(id)
	if got.Content != "Call Northwind on Tuesdays." || got.Metadata["owner"] != "Maria" {
		t.Fatalf("service memory = %+v", got)
	}
	entry, _ := a.Memories().Get(ctx, m.ID)
	if entry.Metadata["source"] != "meeting" {
		t.Fatalf("index metadata = %+v", entry.Metadata)
	}
}

func TestTooLongMemoryIsRefusedBeforeSending(t *testing.T) {
	ctx := context.Background()
	a, _ := openOn(t, demoservice.Options{})
	long := strings.Repeat("é", app.MemoryLimit+1)
	_, err := a.Memories().Create(ctx, app.MemoryEdit{Content: long})
	var tooLong *app.MemoryTooLongError
	if !errors.As(err, &tooLong) || !strings.Contains(app.Describe(err), "32,000") {
		t.Fatalf("err = %v, want a plain too-long message", err)
	}
	if _, err := a.Memories().Create(ctx, app.MemoryEdit{Content: strings.Repeat("é", app.MemoryLimit)}); err != nil {
		t.Fatalf("exactly the limit must be accepted: %v", err)
	}
	if app.Number(1234) != "1,234" || app.Number(32000) != "32,000" {
		t.Fatal("counter format")
	}
}

func TestOpenByNumberConfirmsTheMemoryExists(t *testing.T) {
	ctx := context.Background()
	a, _ := openOn(t, demoservice.Options{})
	_, err := a.Memories().Update(ctx, "999999", app.MemoryEdit{Content: "x"})
	if !client.IsNotFound(err) {
		t.Fatalf("err = %v, want missing", err)
	}
	if mems, _ := a.Memories().List(ctx, ""); len(mems) != 0 {
		t.Fatalf("a missing memory reached the index: %+v", mems)
	}
	m, err := a.Memories().Update(ctx, " 501 ", app.MemoryEdit{Content: "The office is closed on 24 December."})
	if err != nil || m.ID != "501" {
		t.Fatalf("open 501: %+v, %v", m, err)
	}
	if _, err := a.Memories().Update(ctx, "abc", app.MemoryEdit{Content: "x"}); err == nil || !strings.Contains(app.Describe(err), "whole number") {
		t.Fatalf("a non-number was not refused plainly: %v", err)
	}
}

func TestMissingCollectionStaysListedUntilForgotten(t *testing.T) {
	ctx := context.Background()
	a, _ := openOn(t, demoservice.Options{})
	if _, err := a.Memories().RenameCollection(ctx, "3", "Policies"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Memories().RenameCollection(ctx, "77", "Nope"); !client.IsNotFound(err) || !strings.Contains(app.Describe(err), "Collection not found") {
		t.Fatalf("err = %v (%s)", err, app.Describe(err))
	}
	if err := a.Memories().ForgetCollection(ctx, "3"); err != nil {
		t.Fatal(err)
	}
	if cols, _ := a.Memories().Collections(ctx); len(cols) != 0 {
		t.Fatalf("collections = %+v", cols)
	}
}

func TestServerFaultKeepsDraftAndRetrySaves(t *testing.T) {
	ctx := context.Background()
	a, svc := openOn(t, demoservice.Options{})
	m, err := a.Memories().Update(ctx, "502", app.MemoryEdit{Content: "Travel rules."})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Memories().SaveDraft(ctx, m.ID, "Travel rules, updated."); err != nil {
		t.Fatal(err)
	}
	svc.SetFaults(demoservice.Faults{Fail500: 1})
	_, err = a.Memories().Update(ctx, m.ID, app.MemoryEdit{Content: "Travel rules, updated."})
	if client.StatusCode(err) < 500 {
		t.Fatalf("err = %v, want a server fault", err)
	}
	if e, _ := a.Memories().Get(ctx, m.ID); e.Draft != "Travel rules, updated." {
		t.Fatalf("draft lost: %+v", e)
	}
	if _, err := a.Memories().Update(ctx, m.ID, app.MemoryEdit{Content: "Travel rules, updated."}); err != nil {
		t.Fatalf("retry: %v", err)
	}
	if e, _ := a.Memories().Get(ctx, m.ID); e.Draft != "" || e.Content != "Travel rules, updated." {
		t.Fatalf("after save: %+v", e)
	}
}

func TestCatalogListsEveryPageInBothWebhookVariants(t *testing.T) {
	ctx := context.Background()
	for _, v := range []string{"A", "B"} {
		a, _ := openOn(t, demoservice.Options{WebhookVariant: v, API: demoservice.APISpec})
		l, err := a.Catalog().Webhooks(ctx)
		if err != nil || l.Variant != v || len(l.Webhooks) < 2 {
			t.Fatalf("variant %s: %d webhooks, variant %q, %v", v, len(l.Webhooks), l.Variant, err)
		}
		if l.HasSecrets() != (v == "B") || (v == "B" && l.Webhooks[0].Secret == "") {
			t.Fatalf("variant %s secrets: %+v", v, l.Webhooks[0])
		}

		hooks, err := a.Catalog().AgentWebhooks(ctx, "101")
		if err != nil || len(hooks) == 0 || hooks[0].URL == "" {
			t.Fatalf("agent webhooks: %+v, %v", hooks, err)
		}
	}
	a, _ := openOn(t, demoservice.Options{})
	all, err := a.Catalog().Resources(ctx, "", "")
	if err != nil || len(all) <= 15 {
		t.Fatalf("resources over pages: %d, %v", len(all), err)
	}
	prompts, _ := a.Catalog().Resources(ctx, "", "prompt")
	if len(prompts) != 4 {
		t.Fatalf("prompts = %d", len(prompts))
	}
	found, _ := a.Catalog().Resources(ctx, "reminder", "")
	if len(found) != 2 {
		t.Fatalf("search = %d", len(found))
	}
}

func TestCreditsReportByDayAndAgentExportsCSV(t *testing.T) {
	ctx := context.Background()
	a := apptest.Open(t)
	a.Ledger().Record(ctx, "execution", "101", "Meeting Minutes Writer", "r1", client.Credits{Value: 0.5, Valid: true})
	a.Ledger().Record(ctx, "execution", "101", "Meeting Minutes Writer", "r2", client.Credits{Value: 0.25, Valid: true})
	a.Ledger().Record(ctx, "memory", "", "", "501", client.Credits{Value: 0.001, Valid: true})
	r, err := a.Ledger().OverDays(ctx, 7)
	if err != nil || len(r.ByDay) != 1 || len(r.ByAgent) != 2 || r.Total != 0.751 {
		t.Fatalf("report = %+v, %v", r, err)
	}
	if r.ByAgent[0].AgentTitle != "Meeting Minutes Writer" || r.ByAgent[0].Calls != 2 || r.ByAgent[1].AgentTitle == "" {
		t.Fatalf("by agent = %+v", r.ByAgent)
	}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"Day,Credits", "101,Meeting Minutes Writer,2,0.75", "Total,0.751"} {
		if !strings.Contains(out, want) {
			t.Fatalf("CSV lacks %q:\n%s", want, out)
		}
	}
}

// A memory saved without a collection lands in the one the service picks;
// that collection is listed (by number until it has a name), so the
// collection shown on the memory can be found in the list.
func TestCollectionTheServicePicksIsListed(t *testing.T) {
	ctx := context.Background()
	a, _ := openOn(t, demoservice.Options{MemoryVariant: "A"})
	m, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "The office is closed on public holidays."})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if m.CollectionID == "" {
		t.Fatal("the demo files a memory without a collection under its default one; the entry names none")
	}
	cols, err := a.Memories().Collections(ctx)
	if err != nil || len(cols) != 1 || cols[0].ID != m.CollectionID || cols[0].Count != 1 {
		t.Fatalf("collections = %+v, %v; want collection %s with the memory", cols, err, m.CollectionID)
	}
	if got := app.CollectionLabel(cols[0].ID, cols[0].Name); got != "Collection no. "+m.CollectionID {
		t.Fatalf("an unnamed collection reads %q", got)
	}
	// Naming it later is kept when more memories are filed under it.
	if _, err := a.Memories().RenameCollection(ctx, m.CollectionID, "General"); err != nil {
		t.Fatalf("rename: %v", err)
	}
	if _, err := a.Memories().Create(ctx, app.MemoryEdit{Content: "Invoices are due within 30 days."}); err != nil {
		t.Fatalf("second create: %v", err)
	}
	cols, _ = a.Memories().Collections(ctx)
	if len(cols) != 1 || cols[0].Name != "General" || cols[0].Count != 2 {
		t.Fatalf("collections after naming = %+v", cols)
	}
}

// The real service lists collections, which only variant A has: once read,
// the variant is known before any memory is saved, so the editor offers
// no details the service would not keep. A service without lists stays
// unknown until its first save tells.
func TestListingCollectionsTellsTheServiceKeepsTextAndCollectionOnly(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		opts demoservice.Options
		want client.MemoryVariant
	}{
		{demoservice.Options{API: demoservice.APIReal}, client.MemoryA},
		{demoservice.Options{API: demoservice.APISpec, MemoryVariant: "B"}, client.MemoryAuto},
	} {
		a, _ := openOn(t, tc.opts)
		if v := a.Memories().Variant(); v != client.MemoryAuto {
			t.Fatalf("%s: before any call the variant is %q", tc.opts.API, v)
		}
		if _, err := a.Memories().Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if v := a.Memories().Variant(); v != tc.want {
			t.Fatalf("%s: after reading the lists the variant is %q, want %q", tc.opts.API, v, tc.want)
		}
	}
}
