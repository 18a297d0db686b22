package tests

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// engineBuild says how buildEngine builds cmd/engine.
type engineBuild struct {
	race bool   // with the race detector (go build -race)
	tags string // build tags (go build -tags), comma-separated
	// goos and goarch make a cross build (windows/amd64 for Wine, 386
	// Linux), with cgo off; empty is the host's.
	goos, goarch string
	// out is where the binary goes; it is built on each call. Empty is a
	// file in the run's build directory, built once per run and removed
	// when the run ends.
	out string
}

// builds holds the binaries built once per run, by their engineBuild,
// in one directory.
var builds struct {
	dirOnce sync.Once
	dir     string
	dirErr  error
	mu      sync.Mutex
	m       map[engineBuild]*builtEngine
}

type builtEngine struct {
	once sync.Once
	path string
	err  error
}

// TestMain removes the binaries built for the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// buildEngine builds cmd/engine as b says and returns the binary's path.
// It is the one way the tests build the engine.
func buildEngine(t testing.TB, b engineBuild) string {
	t.Helper()
	if b.out != "" {
		if err := goBuildEngine(b, b.out); err != nil {
			t.Fatal(err)
		}
		return b.out
	}
	builds.mu.Lock()
	if builds.m == nil {
		builds.m = map[engineBuild]*builtEngine{}
	}
	e := builds.m[b]
	if e == nil {
		e = &builtEngine{}
		builds.m[b] = e
	}
	builds.mu.Unlock()
	e.once.Do(func() {
		builds.dirOnce.Do(func() { builds.dir, builds.dirErr = os.MkdirTemp("", "rochade-test-") })
		if e.err = builds.dirErr; e.err != nil {
			return
		}
		path := filepath.Join(builds.dir, b.fileName())
		if e.err = goBuildEngine(b, path); e.err == nil {
			e.path = path
		}
	})
	if e.err != nil {
		t.Fatal(e.err)
	}
	return e.path
}

// fileName names the binary of b in the run's build directory.
func (b engineBuild) fileName() string {
	name := "rochade"
	if b.tags != "" {
		name += "-" + strings.ReplaceAll(b.tags, ",", "-")
	}
	if b.race {
		name += "-race"
	}
	if b.goos != "" || b.goarch != "" {
		name += "-" + b.goos + "-" + b.goarch
	}
	if b.goos == "windows" {
		name += ".exe"
	}
	return name
}

// goBuildEngine runs go build for b, writing the binary to path.
func goBuildEngine(b engineBuild, path string) error {
	args := []string{"build", "-o", path}
	if b.race {
		args = append(args, "-race")
	}
	if b.tags != "" {
		args = append(args, "-tags", b.tags)
	}
	args = append(args, "../cmd/engine")
	cmd := exec.Command("go", args...)
	what := "go " + strings.Join(args, " ")
	if b.goos != "" || b.goarch != "" {
		env := []string{"CGO_ENABLED=0"}
		if b.goos != "" {
			env = append(env, "GOOS="+b.goos)
		}
		if b.goarch != "" {
			env = append(env, "GOARCH="+b.goarch)
		}
		cmd.Env = append(os.Environ(), env...)
		what = strings.Join(env, " ") + " " + what
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", what, err, out)
	}
	return nil
}

// rochadeBin builds cmd/engine once per test run (with -race when the
// tests run under the race detector) and returns the binary's path.
func rochadeBin(t testing.TB) string {
	t.Helper()
	return buildEngine(t, engineBuild{race: raceEnabled})
}

// plainBin is rochadeBin without the race detector, for the
// single-goroutine command-line tools (a race build starts slowly).
func plainBin(t testing.TB) string {
	t.Helper()
	return buildEngine(t, engineBuild{})
}

// engine is a running rochade process driven over pipes.
type engine struct {
	t      testing.TB
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	mu     sync.Mutex
	all    []string // every stdout line so far
	stderr bytes.Buffer
	exited chan struct{}
	err    error
	// rochade marks our engine, whose every stdout line must be protocol.
	rochade bool
	// baseRSS is the resident set in MB after uciok (startMeasuring), with
	// no table made resident yet.
	baseRSS int
}

func startEngine(t testing.TB, args ...string) *engine {
	t.Helper()
	e := startProcess(t, rochadeBin(t), args...)
	e.rochade = true
	return e
}

// startProcess starts any UCI engine.
func startProcess(t testing.TB, path string, args ...string) *engine {
	t.Helper()
	return startProcessEnv(t, path, nil, args...)
}

// startProcessEnv starts an engine with extra environment variables
// ("NAME=value").
func startProcessEnv(t testing.TB, path string, env []string, args ...string) *engine {
	t.Helper()
	e := &engine{t: t, lines: make(chan string, 1<<16), exited: make(chan struct{})}
	e.cmd = exec.Command(path, args...)
	if env != nil {
		e.cmd.Env = append(os.Environ(), env...)
	}
	e.cmd.Stderr = &e.stderr
	var err error
	if e.in, err = e.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := e.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			l := sc.Text()
			e.mu.Lock()
			e.all = append(e.all, l)
			e.mu.Unlock()
			e.lines <- l
		}
		close(e.lines)
	}()
	go func() {
		<-readerDone
		e.err = e.cmd.Wait()
		close(e.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-e.exited:
		default:
			e.cmd.Process.Kill()
			<-e.exited
		}
	})
	return e
}

func (e *engine) send(lines ...string) {
	e.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(e.in, l+"\n"); err != nil {
			e.t.Fatalf("writing %q: %v", l, err)
		}
	}
}

// next returns the next stdout line, failing after the timeout.
func (e *engine) next(timeout time.Duration) string {
	e.t.Helper()
	select {
	case l, ok := <-e.lines:
		if !ok {
			e.t.Fatalf("engine closed stdout; stderr:\n%s", e.stderr.String())
		}
		return l
	case <-time.After(timeout):
		e.t.Fatalf("no output within %v", timeout)
	}
	return ""
}

// until reads lines until one starts with prefix and returns the lines
// read, that one last.
func (e *engine) until(prefix string, timeout time.Duration) []string {
	e.t.Helper()
	deadline := time.Now().Add(timeout)
	var got []string
	for {
		left := time.Until(deadline)
		if left <= 0 {
			e.t.Fatalf("no %q within %v; got %q", prefix, timeout, got)
		}
		l := e.next(left)
		got = append(got, l)
		if strings.HasPrefix(l, prefix) {
			return got
		}
	}
}

// quiet checks that nothing is printed for d.
func (e *engine) quiet(d time.Duration) {
	e.t.Helper()
	select {
	case l, ok := <-e.lines:
		if ok {
			e.t.Fatalf("unexpected output %q", l)
		}
	case <-time.After(d):
	}
}

// noBestmove checks that no bestmove is printed for d.
func (e *engine) noBestmove(d time.Duration) {
	e.t.Helper()
	linesFor(e, d)
}

// handshake sends uci and waits for uciok.
func (e *engine) handshake() {
	e.t.Helper()
	e.send("uci")
	e.until("uciok", 10*time.Second)
}

// noSecondBestmove checks, by an isready round trip, that no further
// bestmove follows the one already read.
func (e *engine) noSecondBestmove() {
	e.t.Helper()
	for _, l := range e.sync() {
		if strings.HasPrefix(l, "bestmove") {
			e.t.Fatalf("a second bestmove: %q", l)
		}
	}
}

// sync sends isready and returns the lines before readyok.
func (e *engine) sync() []string {
	e.t.Helper()
	e.send("isready")
	got := e.until("readyok", 10*time.Second)
	return got[:len(got)-1]
}

// bestmove runs a search command and returns the bestmove line's move
// and ponder move, and the lines before it.
func (e *engine) search(goCmd string, timeout time.Duration) (best, ponder string, lines []string) {
	e.t.Helper()
	e.send(goCmd)
	lines = e.until("bestmove", timeout)
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 2 && !(len(f) == 4 && f[2] == "ponder") {
		e.t.Fatalf("bad bestmove line %q", lines[len(lines)-1])
	}
	best = f[1]
	if len(f) == 4 {
		ponder = f[3]
	}
	return best, ponder, lines[:len(lines)-1]
}

// fen asks the engine for its current position (the `d` extension).
func (e *engine) fen() string {
	e.t.Helper()
	e.send("d")
	l := e.next(5 * time.Second)
	if !strings.HasPrefix(l, "info string fen ") {
		e.t.Fatalf("d: got %q", l)
	}
	return strings.TrimPrefix(l, "info string fen ")
}

// closeAndWait closes stdin and checks that the engine exits cleanly
// (status 0, nothing on stderr) within the timeout, and that every line
// it printed was protocol.
func (e *engine) closeAndWait(timeout time.Duration) {
	e.t.Helper()
	e.in.Close()
	e.waitExit(timeout)
}

func (e *engine) waitExit(timeout time.Duration) {
	e.t.Helper()
	select {
	case <-e.exited:
	case <-time.After(timeout):
		e.t.Fatalf("engine did not exit within %v", timeout)
	}
	if e.err != nil {
		e.t.Errorf("engine exit: %v; stderr:\n%s", e.err, e.stderr.String())
	}
	if e.stderr.Len() > 0 {
		e.t.Errorf("engine wrote to stderr:\n%s", e.stderr.String())
	}
	if e.rochade {
		e.checkProtocol()
	}
}

func (e *engine) output() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.all...)
}

var (
	reMove    = `(?:[a-h][1-8][a-h][1-8][qrbn]?)`
	reOption  = regexp.MustCompile(`^option name \S.* type (spin default -?\d+ min -?\d+ max -?\d+|check default (true|false)|button|string default .*)$`)
	reDivide  = regexp.MustCompile(`^` + reMove + `: \d+$`)
	reBest    = regexp.MustCompile(`^bestmove (` + reMove + `( ponder ` + reMove + `)?|\(none\)|0000)$`) // 0000: no position is set
	reMoveTok = regexp.MustCompile(`^` + reMove + `$`)
)

// protocolError explains why a stdout line is not UCI protocol, or "".
func protocolError(l string) string {
	switch {
	case l == "uciok", l == "readyok", l == "", strings.HasPrefix(l, "id name "), strings.HasPrefix(l, "id author "),
		strings.HasPrefix(l, "info string "), reDivide.MatchString(l), reBest.MatchString(l), reOption.MatchString(l):
		return ""
	case strings.HasPrefix(l, "Nodes searched: "):
		if _, err := strconv.ParseUint(strings.TrimPrefix(l, "Nodes searched: "), 10, 64); err != nil {
			return "bad node count"
		}
		return ""
	case strings.HasPrefix(l, "info "):
		return infoError(l)
	}
	return "not a protocol line"
}

// infoError checks the structure of an `info` line (not info string).
func infoError(l string) string {
	f := strings.Fields(l)[1:]
	intKey := map[string]bool{"depth": true, "seldepth": true, "multipv": true, "nodes": true, "nps": true,
		"hashfull": true, "time": true, "currmovenumber": true, "tbhits": true}
	for i := 0; i < len(f); i++ {
		k := f[i]
		switch {
		case intKey[k]:
			if i+1 >= len(f) {
				return k + " without value"
			}
			if _, err := strconv.ParseUint(f[i+1], 10, 64); err != nil {
				return k + " value not a non-negative integer"
			}
			i++
		case k == "score":
			if i+2 >= len(f) || (f[i+1] != "cp" && f[i+1] != "mate") {
				return "bad score"
			}
			if _, err := strconv.Atoi(f[i+2]); err != nil {
				return "score not an integer"
			}
			i += 2
			if i+1 < len(f) && (f[i+1] == "lowerbound" || f[i+1] == "upperbound") {
				i++
			}
		case k == "wdl":
			if i+3 >= len(f) {
				return "short wdl"
			}
			for j := 1; j <= 3; j++ {
				if _, err := strconv.ParseUint(f[i+j], 10, 32); err != nil {
					return "wdl not integers"
				}
			}
			i += 3
		case k == "currmove":
			if i+1 >= len(f) || !reMoveTok.MatchString(f[i+1]) {
				return "bad currmove"
			}
			i++
		case k == "pv":
			if i+1 >= len(f) {
				return "empty pv"
			}
			for _, m := range f[i+1:] {
				if !reMoveTok.MatchString(m) {
					return "bad pv move " + m
				}
			}
			i = len(f)
		default:
			return "unknown info key " + k
		}
	}
	return ""
}

func (e *engine) checkProtocol() {
	e.t.Helper()
	for _, l := range e.output() {
		if msg := protocolError(l); msg != "" {
			e.t.Errorf("stdout line %q: %s", l, msg)
		}
	}
}

// legalIn checks that a move string is legal in the position (by our
// move generator) and returns the move.
func legalIn(t testing.TB, p *v.Position, s string) v.Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatalf("move %q is not legal in %s: %v", s, p.ShredderFEN(), err)
	}
	return m
}

// pvMoves returns the pv of an info line.
func pvMoves(l string) []string {
	f := strings.Fields(l)
	for i, k := range f {
		if k == "pv" {
			return f[i+1:]
		}
	}
	return nil
}
