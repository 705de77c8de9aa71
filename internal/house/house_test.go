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
