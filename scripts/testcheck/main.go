// Command testcheck runs `go test -json` (or reads its output from stdin),
// prints what plain `go test` prints (a line per package, the output of
// failed tests and failed builds), then lists every skipped test and
// fails on a skip that the allow-list does not name.
//
// Usage:
//
//	go run ./scripts/testcheck [-allow FILE] go test -json ./...
//	go test -json ./... | go run ./scripts/testcheck [-allow FILE]
//
// The exit status is 1 when a test or a build failed, go test itself
// failed, or a test skipped without an allow-list entry whose condition
// holds on this machine.
//
// The allow-list (default scripts/skips-allowed.txt) has one entry a
// line, fields separated by " | ":
//
//	package | test | when | skip message (regexp) | reason
//
// package is the import path below the module (eval, tests, ...), test
// the full test name (subtests with '/'), and when one of:
//
//	always        the skip is always allowed
//	no-stockfish  only where stockfish is not installed (PATH or /usr/games)
//	no-avx2       only on a CPU without AVX2
//
// The skip message regexp must match one of the test's output lines.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/sys/cpu"
)

const modulePrefix = "github.com/rochade/rochade/"

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string
	FailedBuild string
}

// allowEntry is one line of the allow-list.
type allowEntry struct {
	pkg, test, when string
	message         *regexp.Regexp
	reason          string
	line            int
}

// skip is a skipped test.
type skip struct {
	pkg, test string
	output    []string
}

// conditions says which "when" values hold on this machine.
type conditions map[string]bool

func machineConditions() conditions {
	return conditions{
		"always":       true,
		"no-stockfish": !haveStockfish(),
		"no-avx2":      !(runtime.GOARCH == "amd64" && cpu.X86.HasAVX2),
	}
}

func haveStockfish() bool {
	if _, err := exec.LookPath("stockfish"); err == nil {
		return true
	}
	_, err := os.Stat("/usr/games/stockfish")
	return err == nil
}

func readAllowList(r io.Reader) ([]allowEntry, error) {
	var out []allowEntry
	sc := bufio.NewScanner(r)
	known := machineConditions()
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, " | ")
		if len(f) != 5 {
			return nil, fmt.Errorf("allow-list line %d: %d fields, want 5 (package | test | when | message | reason)", n, len(f))
		}
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if _, ok := known[f[2]]; !ok {
			return nil, fmt.Errorf("allow-list line %d: unknown condition %q", n, f[2])
		}
		re, err := regexp.Compile(f[3])
		if err != nil {
			return nil, fmt.Errorf("allow-list line %d: %v", n, err)
		}
		if f[4] == "" {
			return nil, fmt.Errorf("allow-list line %d: no reason", n)
		}
		out = append(out, allowEntry{pkg: f[0], test: f[1], when: f[2], message: re, reason: f[4], line: n})
	}
	return out, sc.Err()
}

// allowed returns the entry that allows s, or nil.
func allowed(s skip, list []allowEntry, cond conditions) *allowEntry {
	for i := range list {
		e := &list[i]
		if e.pkg != s.pkg || e.test != s.test || !cond[e.when] {
			continue
		}
		for _, l := range s.output {
			if e.message.MatchString(l) {
				return e
			}
		}
	}
	return nil
}

// checker follows a stream of events.
type checker struct {
	w        io.Writer
	outputs  map[string][]string // by package + "\x00" + test
	failed   bool
	skips    []skip
	packages int
}

func key(pkg, test string) string { return pkg + "\x00" + test }

func shortPkg(p string) string { return strings.TrimPrefix(p, modulePrefix) }

func (c *checker) event(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(c.w, e.Output)
		return
	case "build-fail":
		c.failed = true
		return
	}
	k := key(e.Package, e.Test)
	switch e.Action {
	case "output":
		c.outputs[k] = append(c.outputs[k], e.Output)
	case "skip":
		if e.Test == "" {
			// A package without test files.
			fmt.Fprintf(c.w, "?   \t%s\t[no test files]\n", e.Package)
			c.packages++
		} else {
			s := skip{pkg: shortPkg(e.Package), test: e.Test}
			for _, l := range c.outputs[k] {
				l = strings.TrimSpace(l)
				if l != "" && !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, "--- SKIP") {
					s.output = append(s.output, l)
				}
			}
			c.skips = append(c.skips, s)
		}
		delete(c.outputs, k)
	case "pass":
		if e.Test == "" {
			fmt.Fprintf(c.w, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
			c.packages++
			c.dropPackage(e.Package)
		}
		delete(c.outputs, k)
	case "fail":
		c.failed = true
		if e.Test != "" {
			for _, l := range c.outputs[k] {
				fmt.Fprint(c.w, l)
			}
			delete(c.outputs, k)
			return
		}
		// The package: what is left is its own output (a panic, a
		// timeout, a failed build) and that of tests that never ended.
		for _, t := range c.pending(e.Package) {
			for _, l := range c.outputs[key(e.Package, t)] {
				fmt.Fprint(c.w, l)
			}
		}
		named := false
		for _, l := range c.outputs[k] {
			fmt.Fprint(c.w, l)
			named = named || strings.HasPrefix(l, "FAIL\t"+e.Package)
		}
		switch {
		case e.FailedBuild != "":
			fmt.Fprintf(c.w, "FAIL\t%s [build failed]\n", e.Package)
		case !named:
			fmt.Fprintf(c.w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
		}
		c.packages++
		c.dropPackage(e.Package)
	}
}

// pending returns the tests of pkg that still hold output, in order.
func (c *checker) pending(pkg string) []string {
	var ts []string
	for k := range c.outputs {
		p, t, _ := strings.Cut(k, "\x00")
		if p == pkg && t != "" {
			ts = append(ts, t)
		}
	}
	sort.Strings(ts)
	return ts
}

func (c *checker) dropPackage(pkg string) {
	for k := range c.outputs {
		if p, _, _ := strings.Cut(k, "\x00"); p == pkg {
			delete(c.outputs, k)
		}
	}
}

// read follows the events in r; lines that are no JSON are printed as
// they are.
func (c *checker) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintln(c.w, string(line))
			continue
		}
		c.event(e)
	}
	return sc.Err()
}

// report lists the skips and returns how many are unexpected.
func (c *checker) report(list []allowEntry, cond conditions) int {
	if len(c.skips) == 0 {
		fmt.Fprintln(c.w, "skipped tests: none")
		return 0
	}
	sort.Slice(c.skips, func(i, j int) bool {
		if c.skips[i].pkg != c.skips[j].pkg {
			return c.skips[i].pkg < c.skips[j].pkg
		}
		return c.skips[i].test < c.skips[j].test
	})
	fmt.Fprintf(c.w, "skipped tests: %d\n", len(c.skips))
	bad := 0
	for _, s := range c.skips {
		msg := strings.Join(s.output, " / ")
		if e := allowed(s, list, cond); e != nil {
			fmt.Fprintf(c.w, "  allowed     %s %s: %s (allow-list line %d, %s: %s)\n", s.pkg, s.test, msg, e.line, e.when, e.reason)
			continue
		}
		bad++
		fmt.Fprintf(c.w, "  UNEXPECTED  %s %s: %s\n", s.pkg, s.test, msg)
	}
	return bad
}

func main() {
	allowPath := flag.String("allow", "scripts/skips-allowed.txt", "allow-list of skipped tests")
	flag.Parse()
	os.Exit(run(flag.Args(), os.Stdin, os.Stdout, *allowPath))
}

func run(args []string, stdin io.Reader, stdout io.Writer, allowPath string) int {
	f, err := os.Open(allowPath)
	if err != nil {
		fmt.Fprintln(stdout, "testcheck:", err)
		return 2
	}
	list, err := readAllowList(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(stdout, "testcheck:", err)
		return 2
	}
	c := &checker{w: stdout, outputs: map[string][]string{}}
	var runErr error
	if len(args) == 0 {
		if err := c.read(stdin); err != nil {
			fmt.Fprintln(stdout, "testcheck:", err)
			return 2
		}
	} else {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			fmt.Fprintln(stdout, "testcheck:", err)
			return 2
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(stdout, "testcheck:", err)
			return 2
		}
		readErr := c.read(out)
		runErr = cmd.Wait()
		if readErr != nil && runErr == nil {
			runErr = readErr
		}
	}
	bad := c.report(list, machineConditions())
	status := 0
	switch {
	case c.failed:
		fmt.Fprintln(stdout, "FAIL: tests or builds failed")
		status = 1
	case runErr != nil:
		var ee *exec.ExitError
		if errors.As(runErr, &ee) {
			fmt.Fprintf(stdout, "FAIL: %s exited with status %d\n", strings.Join(args, " "), ee.ExitCode())
		} else {
			fmt.Fprintln(stdout, "FAIL:", runErr)
		}
		status = 1
	case c.packages == 0:
		fmt.Fprintln(stdout, "FAIL: no test results read")
		status = 1
	}
	if bad > 0 {
		fmt.Fprintf(stdout, "FAIL: %d unexpected skipped tests; fix them or name them in %s with a reason\n", bad, allowPath)
		status = 1
	}
	return status
}
