package words_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/agentdesk/agentdesk/app/words"
)

// The languages Agent Desk speaks, as its translation files name them.
var langFiles = []string{"en", "pt_BR", "es"}

// catalogue is every translation file: part → language → key → text
// (a plural's text is its forms joined by "|").
func catalogue(t *testing.T) map[string]map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]map[string]string{}
	files, err := fs.ReadDir(words.Files, "lang")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(f.Name(), ".json")
		part, lang, ok := strings.Cut(name, ".")
		if !ok || !slices.Contains(langFiles, lang) || !strings.HasSuffix(f.Name(), ".json") {
			t.Errorf("lang/%s: want <part>.<%s>.json", f.Name(), strings.Join(langFiles, "|"))
			continue
		}
		data, err := fs.ReadFile(words.Files, "lang/"+f.Name())
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Errorf("lang/%s: %v", f.Name(), err)
			continue
		}
		texts := map[string]string{}
		for k, v := range raw {
			switch strings.ToLower(k) {
			case "id", "description", "hash", "leftdelim", "rightdelim", "zero", "one", "two", "few", "many", "other", "translation":
				// go-i18n takes these for the file's own fields and
				// refuses the file.
				t.Errorf("lang/%s: the key %q is a word go-i18n keeps for itself: ask for it with lang.X(\"<part>.%s\", %q)", f.Name(), k, strings.ToLower(k), k)
			}
			switch v := v.(type) {
			case string:
				texts[k] = v
			case map[string]any:
				var forms []string
				for _, form := range slices.Sorted(maps.Keys(v)) {
					s, _ := v[form].(string)
					forms = append(forms, form+"="+s)
				}
				texts[k] = strings.Join(forms, "|")
			default:
				t.Errorf("lang/%s: %q is neither a text nor plural forms", f.Name(), k)
			}
		}
		if out[part] == nil {
			out[part] = map[string]map[string]string{}
		}
		out[part][lang] = texts
	}
	return out
}

var placeholder = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

// placeholders are the values a text shows ({{.Name}}), sorted.
func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// Every part of the app has a file per language with the same keys, each
// translated (not empty), showing the same values ({{.Name}}); plurals
// have their forms in every language.
func TestEveryLanguageHasEveryKey(t *testing.T) {
	// The same words in two parts read the same: Fyne keeps one
	// translation per key.
	seen := map[string]string{} // language + key → part
	cat := catalogue(t)
	for _, part := range slices.Sorted(maps.Keys(cat)) {
		for lang, texts := range cat[part] {
			for k, v := range texts {
				if other, ok := seen[lang+"\x00"+k]; ok && cat[other][lang][k] != v {
					t.Errorf("%q reads %q in lang/%s.%s.json and %q in lang/%s.%s.json", k, cat[other][lang][k], other, lang, v, part, lang)
				}
				seen[lang+"\x00"+k] = part
			}
		}
	}
	for part, langs := range cat {
		en := langs["en"]
		for _, lang := range langFiles {
			texts, ok := langs[lang]
			if !ok {
				t.Errorf("lang/%s.%s.json is missing", part, lang)
				continue
			}
			for k, v := range texts {
				if _, ok := en[k]; !ok {
					t.Errorf("lang/%s.%s.json: %q is not in English", part, lang, k)
				}
				if strings.TrimSpace(v) == "" || strings.Contains(v, "=|") || strings.HasSuffix(v, "=") {
					t.Errorf("lang/%s.%s.json: %q has no text", part, lang, k)
				}
				xKey := !strings.Contains(k, " ") && strings.Contains(k, ".") // lang.X("part.what", …)
				if lang == "en" && !strings.Contains(v, "other=") && v != k && !xKey {
					t.Errorf("lang/%s.en.json: %q reads %q: the English file repeats its keys (change the code's words instead)", part, k, v)
				}
			}
			for k, v := range en {
				tr, ok := texts[k]
				if !ok {
					t.Errorf("lang/%s.%s.json: %q is not translated", part, lang, k)
					continue
				}
				if got, want := placeholders(tr), placeholders(v); !slices.Equal(got, want) {
					t.Errorf("lang/%s.%s.json: %q shows %v, English shows %v", part, lang, k, got, want)
				}
				if strings.Contains(v, "one=") != strings.Contains(tr, "one=") || strings.Contains(v, "other=") != strings.Contains(tr, "other=") {
					t.Errorf("lang/%s.%s.json: %q has other plural forms than English (%q, %q)", part, lang, k, tr, v)
				}
				// Portuguese and Spanish have a form for a million (CLDR's
				// "many"): without it go-i18n shows the English key.
				if lang != "en" && strings.Contains(tr, "other=") && !strings.Contains(tr, "many=") {
					t.Errorf("lang/%s.%s.json: %q has no \"many\" form (a million of them)", part, lang, k)
				}
			}
		}
	}
}

// sourceFiles are the Go files (not tests) under dirs.
func sourceFiles(t *testing.T, dirs ...string) []string {
	t.Helper()
	var out []string
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// Test doubles and helpers; safe's kind names go to logs.
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "demoservice" || d.Name() == "apptest" || d.Name() == "kittest" || d.Name() == "safe") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// langCall is the key of a call to Fyne's lang package (lang.L, N, X,
// XN), and whether its key is a literal.
func langCall(call *ast.CallExpr) (key string, literal, ok bool) {
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	if !isSel {
		return "", false, false
	}
	pkg, isIdent := sel.X.(*ast.Ident)
	if !isIdent || pkg.Name != "lang" || len(call.Args) == 0 {
		return "", false, false
	}
	switch sel.Sel.Name {
	case "L", "N", "X", "XN", "Localize", "LocalizePlural", "LocalizeKey", "LocalizePluralKey":
	default:
		return "", false, false
	}
	lit, isLit := call.Args[0].(*ast.BasicLit)
	if !isLit || lit.Kind != token.STRING {
		return "", false, true
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil, true
}

// Every word the code asks the translation layer for is in the English
// files (and so, by the test above, in every language); every key is
// written out, so that this can be checked.
func TestEveryWordInTheCodeIsInTheCatalogue(t *testing.T) {
	known := map[string]bool{}
	for _, langs := range catalogue(t) {
		for k := range langs["en"] {
			known[k] = true
		}
	}
	used := map[string]bool{}
	fset := token.NewFileSet()
	for _, path := range sourceFiles(t, root+"/app", root+"/views") {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			key, literal, isLang := langCall(call)
			switch {
			case !isLang:
			case !literal:
				t.Errorf("%s: a translation's key must be written out, not computed", fset.Position(call.Pos()))
			case !known[key]:
				t.Errorf("%s: %q is in no lang/*.en.json", fset.Position(call.Pos()), key)
			default:
				used[key] = true
			}
			return true
		})
	}
	for k := range known {
		if !used[k] {
			t.Errorf("%q is translated but no longer used", k)
		}
	}
}

// uiCalls are the calls whose text arguments a user reads: widget
// constructors, text setters, dialogs.
var uiCalls = map[string]bool{
	"NewLabel": true, "NewLabelWithStyle": true, "NewButton": true, "NewButtonWithIcon": true,
	"NewPaidButton": true, "NewCheck": true, "SetText": true, "SetPlaceHolder": true,
	"NewInformation": true, "ShowInformation": true, "NewConfirm": true, "NewCustomConfirm": true,
	"NewForm": true, "NewCustom": true, "NewCustomWithoutButtons": true, "NewFormItem": true,
	"NewMenuItem": true, "NewTabItem": true, "NewTabItemWithIcon": true, "NewFold": true,
	"Header": true, "ShowError": true, "SetConfirmText": true, "SetDismissText": true,
	"NewRichTextFromMarkdown": true, "NewHyperlink": true, "Append": true, "NewEmptyState": true,
	"Empty": true, "NewRadioGroup": true, "NewCheckGroup": true, "NewSelect": true, "Wrapped": true, "Quiet": true,
}

// uiFields are the fields whose text a user reads.
var uiFields = map[string]bool{
	"Tip": true, "PlaceHolder": true, "Text": true, "Title": true, "Sentence": true, "Label": true, "Hint": true,
	"HintText": true, "Name": true,
}

// wordy tells a literal a user would read: it has a letter, and is not a
// name kept as it is (the app's name, file extensions, key names).
func wordy(s string) bool {
	if !strings.ContainsFunc(s, unicode.IsLetter) {
		return false
	}
	switch s {
	case "Agent Desk", "OK",
		"English", "Português (Brasil)", "Español": // each language in its own words
		return false
	}
	keys := true // key names: "Ctrl+Tab, Ctrl+Shift+Tab"
	for _, k := range strings.FieldsFunc(s, func(r rune) bool { return r == '+' || r == ',' || r == ' ' }) {
		switch k {
		case "Ctrl", "Shift", "Alt", "Tab", "Esc", "Enter", "Return", "F1", "PgUp", "PgDn", "⌘":
		default:
			keys = false
		}
	}
	if keys {
		return false
	}
	return !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "http://")
}

// translatedParts are the folders whose words all go through the
// translation layer: all of Agent Desk's.
var translatedParts = []string{"app", "views"}

// root is the module's folder, from this package's.
const root = "../.."

// quiet are calls whose words no user reads as they are: errors for the
// logs and for Describe (which words them), log lines.
var quiet = map[string]bool{
	"errors.New": true, "fmt.Errorf": true, "fyne.LogError": true, "log.Printf": true, "log.Println": true,
	"fmt.Fprintln": true, "fmt.Fprintf": true, "panic": true,
	"inEveryLanguage": true, // a key looked up in every language's file
}

// sentence tells a literal that reads as words: two words or more,
// starting with a capital ("Delete the collection?").
func sentence(s string) bool {
	f := strings.Fields(s)
	return len(f) >= 2 && unicode.IsUpper([]rune(f[0])[0]) && strings.ContainsFunc(f[1], unicode.IsLetter)
}

// No word a user reads is written in the code outside the translation
// layer, in the parts translated: a text literal given to a widget, a
// dialog or a text field (or a sum that contains one) fails, and so does
// any literal that reads as a sentence outside lang, errors and logs.
func TestNoWordsOutsideTheTranslationLayer(t *testing.T) {
	fset := token.NewFileSet()
	parts := translatedParts
	if env := os.Getenv("AGENTDESK_LANG_PARTS"); env != "" {
		parts = strings.Split(env, ",") // a part on its way: AGENTDESK_LANG_PARTS=views/chat
	}
	var dirs []string
	for _, p := range parts {
		dirs = append(dirs, root+"/"+p)
	}
	for _, path := range sourceFiles(t, dirs...) {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		flagged := map[token.Pos]bool{}
		flag := func(e *ast.BasicLit, s string) {
			if !flagged[e.Pos()] {
				flagged[e.Pos()] = true
				t.Errorf("%s: %q is shown without translation", fset.Position(e.Pos()), s)
			}
		}
		var check func(e ast.Expr)
		check = func(e ast.Expr) {
			switch e := e.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(e.Value); e.Kind == token.STRING && err == nil && wordy(s) {
					flag(e, s)
				}
			case *ast.BinaryExpr:
				check(e.X)
				check(e.Y)
			case *ast.CallExpr:
				if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && strings.HasPrefix(sel.Sel.Name, "Sprint") && len(e.Args) > 0 {
						check(e.Args[0])
					}
				}
			}
		}
		walk := func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec, *ast.Field:
				return false // import paths, struct tags
			case *ast.CallExpr:
				if _, _, isLang := langCall(n); isLang {
					return false
				}
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.SelectorExpr:
					name = fn.Sel.Name
					if pkg, ok := fn.X.(*ast.Ident); ok && quiet[pkg.Name+"."+name] {
						return false
					}
				case *ast.Ident:
					name = fn.Name
					if quiet[name] {
						return false
					}
				}
				if uiCalls[name] {
					for _, a := range n.Args {
						check(a)
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && uiFields[sel.Sel.Name] && i < len(n.Rhs) {
						check(n.Rhs[i])
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && uiFields[id.Name] {
					check(n.Value)
				}
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && sentence(s) && wordy(s) {
					flag(n, s)
				}
			}
			return true
		}
		ast.Inspect(f, walk)
	}
}

// The built-in translations load, and the languages Agent Desk names in
// Settings are the ones it has files for.
func TestTranslationsAreEmbedded(t *testing.T) {
	if len(catalogue(t)) == 0 {
		t.Fatal("no translation files are embedded")
	}
}
