package app_test

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/app"
)

var invoiceFacts = []string{"Invoice number", "Date", "Total", "Supplier"}

// A reply gives its facts however a model writes the object: bare, in a
// fence, with words around it, keys in another case or spelling, numbers
// unquoted, one level down, with escapes; a reply without the object, with
// other keys or empty values does not fit and says what it lacked.
func TestAReplysFactsAreReadHoweverTheObjectIsWritten(t *testing.T) {
	all := []string{"INV-7", "2026-03-01", "12.50", "Contoso"}
	for _, c := range []struct {
		name, reply string
		want        []string // the values; nil when the reply does not fit
		missing     []string
		found       bool
	}{
		{"bare", `{"Invoice number": "INV-7", "Date": "2026-03-01", "Total": "12.50", "Supplier": "Contoso"}`, all, nil, true},
		{"fence", "Here you are:\n\n```json\n{\"Invoice number\": \"INV-7\", \"Date\": \"2026-03-01\", \"Total\": \"12.50\", \"Supplier\": \"Contoso\"}\n```\nAnything else?", all, nil, true},
		{"prose around, braces before", `As asked {see below}: {"invoice_number": "INV-7", "DATE": "2026-03-01", "total": 12.50, "supplier ": "Contoso"} Hope it helps.`, all, nil, true},
		{"keys spelt otherwise", `{"InvoiceNumber": "INV-7", "date": "2026-03-01", "Total": "12.50", "SUPPLIER": "Contoso"}`, all, nil, true},
		{"nested", `{"invoice": {"Invoice number": "INV-7", "Date": "2026-03-01", "Total": "12.50", "Supplier": "Contoso"}}`, all, nil, true},
		{"unicode escapes", `{"Invoice number": "INV-7", "Date": "2026-03-01", "Total": "\u20ac12.50", "Supplier": "Caf\u00e9 \ud83d\ude00 S.A."}`,
			[]string{"INV-7", "2026-03-01", "€12.50", "Café 😀 S.A."}, nil, true},
		{"a list", `{"Invoice number": "INV-7", "Date": "2026-03-01", "Total": ["12.50", 3], "Supplier": "Contoso"}`,
			[]string{"INV-7", "2026-03-01", "12.50; 3", "Contoso"}, nil, true},
		{"prose only", "I could not find an invoice in this file.", nil, invoiceFacts, false},
		{"wrong keys", `{"Number": "INV-7", "When": "2026-03-01", "Total": "12.50", "Supplier": "Contoso"}`, nil, []string{"Invoice number", "Date"}, true},
		{"empty values", `{"Invoice number": "INV-7", "Date": "  ", "Total": null, "Supplier": {"name": "Contoso"}}`, nil, []string{"Date", "Total", "Supplier"}, true},
		{"cut short", `{"Invoice number": "INV-7", "Date": "2026-03-01"`, nil, invoiceFacts, false},
		{"the better of two", `{"Total": "1"} and then {"Invoice number": "INV-7", "Date": "2026-03-01", "Total": "12.50"}`, nil, []string{"Supplier"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := app.ReadFields(c.reply, invoiceFacts)
			if got.Fits() != (c.want != nil) || c.want != nil && !slices.Equal(got.Values, c.want) {
				t.Fatalf("fits %v, values %q; want %q", got.Fits(), got.Values, c.want)
			}
			if !slices.Equal(got.Missing, c.missing) || got.Found != c.found {
				t.Fatalf("missing %q (found %v), want %q (%v)", got.Missing, got.Found, c.missing, c.found)
			}
			if problem := got.Problem(); (problem == "") != got.Fits() || c.found && len(c.missing) > 0 && !strings.Contains(problem, c.missing[0]) {
				t.Fatalf("the problem says %q", problem)
			}
		})
	}
}

// The facts are typed as a list, by comma, line or tab (a sheet's header
// pasted), each once; more than 20, or one longer than 60 characters, is
// said plainly.
func TestTheFactsAreTypedAsAList(t *testing.T) {
	got, problem := app.ParseFields(" Invoice number, Date\nTotal\t\tSupplier,, invoice_number ,\r\n")
	if !slices.Equal(got, invoiceFacts) || problem != "" {
		t.Fatalf("facts %q, %q", got, problem)
	}
	var many []string
	for i := range 21 {
		many = append(many, "Fact "+strings.Repeat("x", i))
	}
	if _, problem := app.ParseFields(strings.Join(many, ",")); !strings.Contains(problem, "at most 20") {
		t.Fatalf("21 facts: %q", problem)
	}
	if _, problem := app.ParseFields("Date, " + strings.Repeat("Name of the supplier ", 4)); !strings.Contains(problem, "longer than 60 characters") {
		t.Fatalf("a long name: %q", problem)
	}
}

// FuzzReplyFields reads replies as a service could send them: it never
// panics, a reply that fits has every fact non-empty, on one line and
// bounded, and the facts missing are those without a value.
func FuzzReplyFields(f *testing.F) {
	for _, seed := range []string{
		`{"Invoice number": "INV-7", "Date": "2026-03-01", "Total": 12.5, "Supplier": "Contoso"}`,
		"```json\n{\"invoice_number\": \"A\", \"date\": \"B\", \"total\": \"C\", \"supplier\": \"D\"}\n```",
		`{"a": {"Invoice number": "x", "Date": "y", "Total": "z", "Supplier": "w"}}`,
		`{"Invoice number": "\ud83d", "Date": "\u0000", "Total": [[["x"]]], "Supplier": {"x": 1}}`,
		strings.Repeat("{", 200) + strings.Repeat(`{"a":`, 50),
		"no object here } {",
		`{"Total": "1"} {"Total": "2", "Date": "3"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		got := app.ReadFields(reply, invoiceFacts)
		if len(got.Values) != len(invoiceFacts) {
			t.Fatalf("%d values for %d facts", len(got.Values), len(invoiceFacts))
		}
		var missing []string
		for i, v := range got.Values {
			if v == "" {
				missing = append(missing, invoiceFacts[i])
			}
			if strings.ContainsAny(v, "\n\r\t") || utf8.RuneCountInString(v) > 2001 || !utf8.ValidString(v) {
				t.Fatalf("value %q is not one bounded line", v)
			}
		}
		if !slices.Equal(missing, got.Missing) {
			t.Fatalf("missing %q, values %q", got.Missing, got.Values)
		}
		if got.Fits() && len(got.Missing) > 0 {
			t.Fatal("a reply fits without every fact")
		}
	})
}
