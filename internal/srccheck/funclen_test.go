package srccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFuncLines is the most lines a function may take, from its func
// keyword to its closing brace, outside tablebase/ (whose probing code
// follows the Syzygy format's long steps).
const maxFuncLines = 150

// longFuncsAllowed are functions over maxFuncLines that are being split.
var longFuncsAllowed = map[string]bool{}

type funcLen struct {
	name  string // file:Func or file:Type.Method
	lines int
}

// moduleRoot is the directory of go.mod, above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}

// funcLengths returns the length of every function declared in the Go
// files under root (test files included; data, testdata and hidden
// directories left out), longest first.
func funcLengths(t *testing.T, root string) []funcLen {
	t.Helper()
	var fns []funcLen
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "data" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fns = append(fns, funcLen{
				name:  filepath.ToSlash(rel) + ":" + funcName(fd),
				lines: fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1,
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(fns, func(i, j int) bool { return fns[i].lines > fns[j].lines })
	return fns
}

// funcName is Func, or Type.Method for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

// TestFunctionLength fails on a function outside tablebase/ longer than
// maxFuncLines; with -v it lists the longest ones.
func TestFunctionLength(t *testing.T) {
	fns := funcLengths(t, moduleRoot(t))
	if len(fns) < 100 {
		t.Fatalf("only %d functions found: the walk missed the source", len(fns))
	}
	for i, f := range fns {
		if i < 15 {
			t.Logf("%4d lines  %s", f.lines, f.name)
		}
		if f.lines <= maxFuncLines || strings.HasPrefix(f.name, "tablebase/") {
			continue
		}
		if longFuncsAllowed[f.name] {
			t.Logf("%s: %d lines, allowed while it is split", f.name, f.lines)
			continue
		}
		t.Errorf("%s is %d lines long, more than %d: split it", f.name, f.lines, maxFuncLines)
	}
}

// The measure counts from the func keyword to the closing brace, doc
// comment left out, and names methods by their receiver's type.
func TestFuncLengthsMeasure(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\n// F is\n// two lines of doc.\nfunc F() {\n\t_ = 1\n}\n\ntype T[X any] struct{}\n\nfunc (t *T[X]) M() {}\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	got := funcLengths(t, dir)
	want := []funcLen{{"p.go:F", 3}, {"p.go:T.M", 1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %v, want %v", got, want)
	}
}
