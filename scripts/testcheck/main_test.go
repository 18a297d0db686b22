package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ev builds one line of go test -json output.
func ev(action, pkg, test, output string) string {
	line := `{"Action":"` + action + `","Package":"github.com/rochade/rochade/` + pkg + `"`
	if test != "" {
		line += `,"Test":"` + test + `"`
	}
	if output != "" {
		line += `,"Output":` + quote(output)
	}
	return line + "}\n"
}

func quote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"`
}

func skipped(pkg, test, msg string) string {
	return ev("run", pkg, test, "") + ev("output", pkg, test, "=== RUN   "+test+"\n") +
		ev("output", pkg, test, "    x_test.go:10: "+msg+"\n") +
		ev("output", pkg, test, "--- SKIP: "+test+" (0.00s)\n") + ev("skip", pkg, test, "")
}

func passed(pkg, test string) string {
	return ev("run", pkg, test, "") + ev("output", pkg, test, "--- PASS: "+test+" (0.00s)\n") + ev("pass", pkg, test, "")
}

func check(t *testing.T, allow, stream string, cond conditions) (int, string) {
	t.Helper()
	list, err := readAllowList(strings.NewReader(allow))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c := &checker{w: &out, outputs: map[string][]string{}}
	if err := c.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	bad := c.report(list, cond)
	if c.failed {
		bad += 1000
	}
	return bad, out.String()
}

func TestSkips(t *testing.T) {
	const allow = `# comment
tests | TestSF | no-stockfish | stockfish not installed | needs Stockfish
search | TestA/net/x | always | known defect | a known defect
`
	noSF := conditions{"always": true, "no-stockfish": true, "no-avx2": false}
	withSF := conditions{"always": true, "no-stockfish": false, "no-avx2": false}
	for _, c := range []struct {
		name   string
		stream string
		cond   conditions
		bad    int
	}{
		{"no skips", passed("eval", "TestX") + ev("pass", "eval", "", ""), noSF, 0},
		{"allowed always", skipped("search", "TestA/net/x", "known defect: misses a mate") + ev("pass", "search", "", ""), withSF, 0},
		{"stockfish absent", skipped("tests", "TestSF", "stockfish not installed") + ev("pass", "tests", "", ""), noSF, 0},
		{"stockfish present", skipped("tests", "TestSF", "stockfish not installed") + ev("pass", "tests", "", ""), withSF, 1},
		{"other message", skipped("tests", "TestSF", "no Syzygy tables at ../shared") + ev("pass", "tests", "", ""), noSF, 1},
		{"not listed", skipped("tablebase", "TestWDL", "no Syzygy tables") + ev("pass", "tablebase", "", ""), noSF, 1},
		{"other package", skipped("eval", "TestSF", "stockfish not installed") + ev("pass", "eval", "", ""), noSF, 1},
		{"failure", ev("run", "eval", "TestX", "") + ev("output", "eval", "TestX", "--- FAIL: TestX\n") +
			ev("fail", "eval", "TestX", "") + ev("fail", "eval", "", ""), noSF, 1000},
	} {
		bad, out := check(t, allow, c.stream, c.cond)
		if bad != c.bad {
			t.Errorf("%s: %d, want %d; output:\n%s", c.name, bad, c.bad, out)
		}
	}
}

// TestOutput: package lines as go test prints them, a failed test's
// output, a package that panicked, a list of skips.
func TestOutput(t *testing.T) {
	stream := passed("eval", "TestA") + ev("pass", "eval", "", "") +
		ev("run", "uci", "TestB", "") + ev("output", "uci", "TestB", "    b_test.go:5: wrong answer\n") +
		ev("output", "uci", "TestB", "--- FAIL: TestB (0.01s)\n") + ev("fail", "uci", "TestB", "") +
		ev("output", "uci", "", "FAIL\n") + ev("fail", "uci", "", "") +
		ev("run", "tests", "TestC", "") + ev("output", "tests", "TestC", "panic: test timed out after 10m0s\n") +
		ev("fail", "tests", "", "") +
		skipped("search", "TestD", "no Syzygy tables") + ev("pass", "search", "", "") +
		"not json\n"
	_, out := check(t, "", stream, conditions{"always": true})
	for _, want := range []string{"ok  \tgithub.com/rochade/rochade/eval", "b_test.go:5: wrong answer", "--- FAIL: TestB",
		"panic: test timed out", "skipped tests: 1", "UNEXPECTED  search TestD: x_test.go:10: no Syzygy tables", "FAIL\tgithub.com/rochade/rochade/uci", "not json"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestAllowListFile: the repository's allow-list reads, and every entry
// has a reason.
func TestAllowListFile(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "skips-allowed.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	list, err := readAllowList(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) == 0 {
		t.Fatal("empty allow-list")
	}
	for _, e := range list {
		if strings.Contains(strings.ToLower(e.test+e.reason), "syzygy") && e.when == "always" {
			t.Errorf("line %d: Syzygy tests carry their tables in testdata; they may not skip always", e.line)
		}
	}
}

// TestRunCommand: run starts the command and fails on its exit status.
func TestRunCommand(t *testing.T) {
	allow := filepath.Join(t.TempDir(), "allow.txt")
	os.WriteFile(allow, nil, 0o644)
	var out bytes.Buffer
	if st := run([]string{"false"}, nil, &out, allow); st != 1 {
		t.Errorf("false: status %d, output %q", st, out.String())
	}
	out.Reset()
	line := ev("pass", "eval", "", "")
	if st := run([]string{"echo", strings.TrimSpace(line)}, nil, &out, allow); st != 0 || !strings.Contains(out.String(), "ok  \t") {
		t.Errorf("echo: status %d, output %q", st, out.String())
	}
}
