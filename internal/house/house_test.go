package house

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agentdesk/agentdesk"

// TestNoGlobalState: no package-level var outside package main is assigned
// anywhere but its declaration (tests included): the clock, the opener, the
// UI runner and delays are injected, and each client redacts its own key.
func TestNoGlobalState(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	c := &checker{root: root, fset: token.NewFileSet(), files: map[string]*ast.File{}, vars: map[string]bool{},
		pkgs: map[string]*types.Package{}, found: map[string]bool{}}
	var dirs []string
	err = filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if n := d.Name(); dir != root && (n[0] == '.' || n[0] == '_' || n == "testdata") {
			return filepath.SkipDir
		}
		dirs = append(dirs, dir)
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, n := range names {
			f, err := parser.ParseFile(c.fset, n, nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			c.files[n] = f
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR && f.Name.Name != "main" {
					for _, s := range g.Specs {
						for _, id := range s.(*ast.ValueSpec).Names {
							c.vars[dir+"/"+id.Name] = id.Name != "_"
							c.vars[id.Name] = id.IsExported()
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each build sees files the others leave out (the ci tag, other
	// systems); a package whose files are the same is checked once.
	for _, b := range []struct {
		goos string
		cgo  bool
		tags []string
	}{{"linux", true, []string{"ci"}}, {"linux", true, nil}, {"windows", false, []string{"ci"}}} {
		c.ctx, c.dirs = build.Default, map[string]*build.Package{}
		c.ctx.GOOS, c.ctx.CgoEnabled, c.ctx.BuildTags = b.goos, b.cgo, b.tags
		for _, dir := range dirs {
			if bp := c.dir(c.path(dir)); bp != nil && len(bp.XTestGoFiles) > 0 {
				c.check(bp.ImportPath+"_test", dir, bp.XTestGoFiles)
			}
		}
	}
	for _, l := range slices.Sorted(maps.Keys(c.found)) {
		t.Error(l)
	}
}

// checker type-checks the module's packages from source; imports from outside
// the module fail on purpose (go/types goes on with a fake package), as only
// the module's own variables matter and this keeps the test fast.
type checker struct {
	ctx   build.Context
	root  string
	fset  *token.FileSet
	files map[string]*ast.File      // every file of the module, by path
	vars  map[string]bool           // "dir/name" of package-level vars outside main; exported ones bare too
	dirs  map[string]*build.Package // by import path, as ctx sees it; nil: none
	pkgs  map[string]*types.Package // by path and files; nil while checked
	found map[string]bool
}

func (c *checker) path(dir string) string {
	rel, _ := filepath.Rel(c.root, dir)
	return strings.TrimSuffix(module+"/"+filepath.ToSlash(rel), "/.")
}

func (c *checker) Import(path string) (*types.Package, error) {
	if bp := c.dir(path); bp != nil {
		if p := c.pkgs[path+strings.Join(inPackage(bp), " ")]; p != nil {
			return p, nil
		}
	}
	return nil, errors.New("not a package of the module, or an import cycle")
}

// dir finds the module's package at path as ctx sees it, and checks it with
// its in-package tests.
func (c *checker) dir(path string) *build.Package {
	bp, ok := c.dirs[path]
	if ok || !strings.HasPrefix(path+"/", module+"/") {
		return bp
	}
	c.dirs[path] = nil
	bp, err := c.ctx.ImportDir(filepath.Join(c.root, strings.TrimPrefix(path, module)), 0)
	if err != nil {
		return nil
	}
	bp.ImportPath, c.dirs[path] = path, bp
	c.check(path, bp.Dir, inPackage(bp))
	return bp
}

func inPackage(bp *build.Package) []string {
	return slices.Concat(bp.GoFiles, bp.CgoFiles, bp.TestGoFiles)
}

// check type-checks a package's files once and notes each assignment to a
// package-level var of a package other than main. Function bodies are
// checked only where an assignment may write to such a var, by its name.
func (c *checker) check(path, dir string, names []string) {
	key := path + strings.Join(names, " ")
	if _, ok := c.pkgs[key]; ok {
		return
	}
	c.pkgs[key] = nil
	var files []*ast.File
	for _, n := range names {
		if f := c.files[filepath.Join(dir, n)]; f != nil {
			files = append(files, f)
		}
	}
	need := false
	targets(files, func(id *ast.Ident, qualified bool) bool {
		need = need || qualified && c.vars[id.Name] || c.vars[dir+"/"+id.Name]
		return false
	})
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: c, Error: func(error) {}, IgnoreFuncBodies: !need}
	c.pkgs[key], _ = conf.Check(path, c.fset, files, info)
	targets(files, func(id *ast.Ident, _ bool) bool {
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.Pkg() == nil || v.Pkg().Name() == "main" || v.Parent() != v.Pkg().Scope() {
			return false
		}
		pos := c.fset.Position(id.Pos())
		rel, _ := filepath.Rel(c.root, pos.Filename)
		c.found[fmt.Sprintf("%s:%d: %s.%s assigned outside its declaration", rel, pos.Line, v.Pkg().Name(), v.Name())] = true
		return true
	})
}

// targets calls is with each identifier an assignment (=, op=, ++, --,
// range =) in files may write to: the var, and the vars whose field or
// element it writes (x in x.f[i] = v), until is reports the var.
func targets(files []*ast.File, is func(id *ast.Ident, qualified bool) bool) {
	write := func(e ast.Expr) {
		for e != nil {
			var id *ast.Ident
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
				continue
			case *ast.IndexExpr:
				e = x.X
				continue
			case *ast.SelectorExpr: // pkg.V, or a field of a var
				if e = x.X; !isIdent(e) {
					continue
				}
				id = x.Sel
			case *ast.Ident:
				id, e = x, nil
			default:
				return
			}
			if is(id, e != nil) {
				return
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if s.Tok != token.DEFINE {
					for _, e := range s.Lhs {
						write(e)
					}
				}
			case *ast.IncDecStmt:
				write(s.X)
			case *ast.RangeStmt:
				if s.Tok == token.ASSIGN {
					write(s.Key)
					write(s.Value)
				}
			}
			return true
		})
	}
}

func isIdent(e ast.Expr) bool { _, ok := e.(*ast.Ident); return ok }

// TestFyneReachedOnlyInFynefix: only views/kit/fynefix reaches into
// private fields (reflect's FieldByName, unsafe without cgo), where a test
// fails loudly when the pinned Fyne changes them.
func TestFyneReachedOnlyInFynefix(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, "/.") || filepath.Dir(path) == filepath.Join(root, "views", "kit", "fynefix") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		imports := map[string]bool{}
		for _, im := range f.Imports {
			imports[strings.Trim(im.Path.Value, `"`)] = true
		}
		reaches := imports["unsafe"] && !imports["C"]
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok && s.Sel.Name == "FieldByName" {
				reaches = true
			}
			return !reaches
		})
		if reaches {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s reaches into private fields: move the reach into views/kit/fynefix with a test", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// packageFiles parses the non-test Go files of every package under the
// module, keyed by import path.
func packageFiles(t *testing.T) (map[string][]*ast.File, *token.FileSet) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	pkgs := map[string][]*ast.File{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n[0] == '.' || n[0] == '_' || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		ip := module
		if rel != "." {
			ip += "/" + filepath.ToSlash(rel)
		}
		pkgs[ip] = append(pkgs[ip], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs, fset
}

// TestImportRules: the arrows go views -> app -> client, storage. No screen
// reaches storage, the widget kit stands alone (nothing of app or client,
// even through another package), and production app packages do not carry
// the demo's fault switches.
func TestImportRules(t *testing.T) {
	pkgs, _ := packageFiles(t)
	imports := map[string][]string{}
	for ip, files := range pkgs {
		seen := map[string]bool{}
		for _, f := range files {
			for _, im := range f.Imports {
				if p := strings.Trim(im.Path.Value, `"`); strings.HasPrefix(p, module) && !seen[p] {
					seen[p] = true
					imports[ip] = append(imports[ip], p)
				}
			}
		}
	}
	var reach func(ip string, seen map[string]bool)
	reach = func(ip string, seen map[string]bool) {
		for _, p := range imports[ip] {
			if !seen[p] {
				seen[p] = true
				reach(p, seen)
			}
		}
	}
	under := func(ip, dir string) bool { return ip == module+"/"+dir || strings.HasPrefix(ip, module+"/"+dir+"/") }
	if len(imports) < 10 {
		t.Fatalf("only %d packages found: the walk missed the tree", len(imports))
	}
	for ip := range imports {
		for _, p := range imports[ip] {
			if under(ip, "views") && under(p, "storage") {
				t.Errorf("%s imports %s: screens reach storage only through app", ip, p)
			}
			if under(ip, "app") && ip != module+"/app/apptest" && under(p, "client/demoservice") {
				t.Errorf("%s imports %s: the demo is wired in by main", ip, p)
			}
		}
		if under(ip, "views/kit") {
			all := map[string]bool{}
			reach(ip, all)
			for p := range all {
				if under(p, "app") || under(p, "client") || under(p, "storage") || (under(p, "views") && !under(p, "views/kit")) {
					t.Errorf("%s reaches %s: the widget kit stands alone", ip, p)
				}
			}
		}
	}
}

// TestNoAppTypeExportsMoreThan40: a service's type names at most 40 exported
// methods and fields, so no one type does everything.
func TestNoAppTypeExportsMoreThan40(t *testing.T) {
	pkgs, _ := packageFiles(t)
	for ip, files := range pkgs {
		if ip != module+"/app" && !strings.HasPrefix(ip, module+"/app/") {
			continue
		}
		count := map[string]int{}
		for _, f := range files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv != nil && d.Name.IsExported() {
						count[receiverName(d.Recv.List[0].Type)]++
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						ts, ok := s.(*ast.TypeSpec)
						if !ok {
							continue
						}
						if st, ok := ts.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									if n.IsExported() {
										count[ts.Name.Name]++
									}
								}
							}
						}
					}
				}
			}
		}
		if len(count) == 0 && ip == module+"/app" {
			t.Fatal("no types found in app: the walk missed it")
		}
		for name, n := range count {
			if n > 40 {
				t.Errorf("%s.%s exports %d methods and fields; split it by feature", ip, name, n)
			}
		}
	}
}

// receiverName is the type's name of a method's receiver (T, *T, T[P]).
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// TestNoThemeOverride: Fyne parses every font again for each theme
// override's scope, a new scope at each refresh, and never frees them
// (docs/upstream/theme-override-fonts.md): a day of chats grew past 2 GB.
// Colours a part needs are drawn by the part itself.
func TestNoThemeOverride(t *testing.T) {
	pkgs, fset := packageFiles(t)
	for _, files := range pkgs {
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectorExpr); ok && (s.Sel.Name == "NewThemeOverride" || s.Sel.Name == "ThemeOverride") {
					t.Errorf("%s: a theme override (Fyne parses every font again for it)", fset.Position(s.Pos()))
				}
				return true
			})
		}
	}
}
