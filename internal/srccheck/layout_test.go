package srccheck

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// pkgImports is a package of the module and the packages of the module it
// imports, both as paths inside the module ("uci", "internal/atomicfile").
type pkgImports struct {
	imports     []string // non-test
	testImports []string // of its test files, in and outside the package
}

var goList struct {
	once sync.Once
	out  []byte
	err  error
}

// listPackages runs go list over the module (once for all tests).
func listPackages(t *testing.T, root string) map[string]pkgImports {
	t.Helper()
	goList.once.Do(func() {
		cmd := exec.Command("go", "list", "-f",
			`{{.Module.Path}}|{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, "./...")
		cmd.Dir = root
		goList.out, goList.err = cmd.Output()
	})
	out, err := goList.out, goList.err
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkgImports{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 {
			t.Fatalf("go list line %q", line)
		}
		prefix := f[0] + "/"
		ours := func(list string) []string {
			var r []string
			for _, p := range strings.Fields(list) {
				if rel, ok := strings.CutPrefix(p, prefix); ok && !slices.Contains(r, rel) {
					r = append(r, rel)
				}
			}
			slices.Sort(r)
			return r
		}
		pkgs[strings.TrimPrefix(f[1], prefix)] = pkgImports{imports: ours(f[2]), testImports: ours(f[3])}
	}
	return pkgs
}

var backticked = regexp.MustCompile("`([^`]+)`")

// layoutTable reads README.md's "Source layout" table: each package and
// the packages of ours it imports, as the table's third column names them.
func layoutTable(t *testing.T, root string) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Source layout"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			t.Fatalf("README.md source layout row %q: want 3 cells", line)
		}
		pkg := backticked.FindStringSubmatch(cells[0])
		if pkg == nil {
			t.Fatalf("README.md source layout row %q: no package", line)
		}
		imports := []string{}
		for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
			imports = append(imports, m[1])
		}
		slices.Sort(imports)
		rows[pkg[1]] = imports
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal(`README.md has no "## Source layout" table`)
	}
	return rows
}

// README.md's source layout table names every package and, for each, the
// packages of ours it imports (test files left out), as go list has them.
func TestLayoutTableMatchesGoList(t *testing.T) {
	root := moduleRoot(t)
	pkgs := listPackages(t, root)
	rows := layoutTable(t, root)
	for name, p := range pkgs {
		row, ok := rows[name]
		if !ok {
			t.Errorf("README.md's source layout has no row for %s (imports %v)", name, p.imports)
			continue
		}
		if !slices.Equal(row, p.imports) {
			t.Errorf("README.md's source layout: %s imports %v, go list says %v", name, row, p.imports)
		}
	}
	for name := range rows {
		if _, ok := pkgs[name]; !ok {
			t.Errorf("README.md's source layout has a row for %s, which go list does not know", name)
		}
	}
}

// engineRank orders the engine's packages: each may import only packages
// of a lower rank, and internal/ ones.
var engineRank = map[string]int{
	"variant960": 0,
	"eval":       1,
	"tablebase":  1,
	"search":     2,
	"uci":        3,
	"cmd/engine": 4,
}

// Imports point one way, cmd/engine -> uci -> search -> eval, tablebase
// -> variant960, in the code and in its tests; no engine package imports
// the tools (datagen, train), scripts or tests; internal/ packages import
// none of them.
func TestImportsPointOneWay(t *testing.T) {
	pkgs := listPackages(t, moduleRoot(t))
	for name := range engineRank {
		if _, ok := pkgs[name]; !ok {
			t.Errorf("go list does not know %s", name)
		}
	}
	for name, p := range pkgs {
		rank, engine := engineRank[name]
		for _, imp := range append(p.imports, p.testImports...) {
			if imp == name || strings.HasPrefix(imp, "internal/") {
				continue
			}
			r, isEngine := engineRank[imp]
			switch {
			case strings.HasPrefix(name, "internal/") && (isEngine || imp == "datagen" || imp == "train"):
				// internal/ packages sit below everything that uses them.
				t.Errorf("%s imports %s: internal packages import no engine package or tool", name, imp)
			case imp == "cmd/engine" || strings.HasPrefix(imp, "scripts/") || imp == "tests":
				t.Errorf("%s imports %s", name, imp)
			case engine && !isEngine && name != "cmd/engine":
				t.Errorf("engine package %s imports %s, which is no engine package", name, imp)
			case engine && isEngine && r >= rank:
				t.Errorf("%s imports %s: imports point cmd/engine -> uci -> search -> eval, tablebase -> variant960", name, imp)
			}
		}
	}
}
