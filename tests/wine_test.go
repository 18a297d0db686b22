//go:build wine

package tests

// The Windows build under Wine: go test -tags wine ./tests/ -run Wine
// (after scripts/wine/setup.sh). These tests cross-build cmd/engine for
// windows/amd64 and drive it over pipes, as a Windows GUI would, through
// the code that only Windows runs: the memory measurement of
// internal/membudget/mem_windows.go, the table's allocation and release by the Go
// runtime's VirtualAlloc/VirtualFree, file mapping of Syzygy tables
// (golang.org/x/exp/mmap's CreateFileMapping), Windows paths and the ';'
// path list separator. docs/reliability.md ("Windows under Wine") lists
// what Wine cannot show.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// wineTimeout is the time a command may take under Wine: a process
// start alone takes seconds on a loaded machine.
const wineTimeout = 120 * time.Second

var wineOnce struct {
	sync.Once
	prefix    string
	skip, err string
}

// wineExe prepares the prefix (scripts/wine/setup.sh, which does nothing
// when it is ready) and the Windows build, once per run. It skips the test
// where Wine or the MinGW-w64 compiler is missing.
func wineExe(t *testing.T) (exe, prefix string) {
	t.Helper()
	wineOnce.Do(func() {
		for _, c := range []string{"wine", "wineserver", "x86_64-w64-mingw32-gcc"} {
			if _, err := exec.LookPath(c); err != nil {
				wineOnce.skip = c + " is not installed; scripts/wine/setup.sh installs Wine and MinGW-w64 (Debian)"
				return
			}
		}
		prefix := os.Getenv("ROCHADE_WINEPREFIX")
		if prefix == "" {
			prefix = "/tmp/rochade-wine"
		}
		setup := exec.Command("../scripts/wine/setup.sh")
		setup.Env = append(os.Environ(), "ROCHADE_WINEPREFIX="+prefix)
		if out, err := setup.CombinedOutput(); err != nil {
			wineOnce.err = fmt.Sprintf("scripts/wine/setup.sh: %v\n%s", err, out)
			return
		}
		// A persistent wineserver (it ends 60 s after the last process)
		// saves each engine start from starting one.
		ws := exec.Command("wineserver", "-p60")
		ws.Env = wineEnv(prefix)
		ws.Run()
		wineOnce.prefix = prefix
	})
	if wineOnce.skip != "" {
		t.Skip(wineOnce.skip)
	}
	if wineOnce.err != "" {
		t.Fatal(wineOnce.err)
	}
	return buildEngine(t, engineBuild{goos: "windows", goarch: "amd64"}), wineOnce.prefix
}

// wineEnv is the environment for Wine in the prefix: the replacement
// bcryptprimitives.dll first, Wine's debug output off.
func wineEnv(prefix string) []string {
	return append(os.Environ(), "WINEPREFIX="+prefix, "WINEDEBUG=-all",
		"WINEDLLOVERRIDES=bcryptprimitives=n,b", "ROCHADE_MEMORY_MB=")
}

// winPath is a Linux path as Windows programs under Wine see it (the Z:
// drive is the Linux root).
func winPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return `Z:` + strings.ReplaceAll(abs, "/", `\`)
}

// startWine starts the Windows build under Wine and does the handshake.
func startWine(t *testing.T) *engine {
	t.Helper()
	exe, prefix := wineExe(t)
	e := startProcessEnv(t, "wine", wineEnv(prefix)[len(os.Environ()):], exe)
	e.rochade = true
	e.send("uci")
	e.until("uciok", wineTimeout)
	return e
}

// wsync is sync with Wine's timeout.
func (e *engine) wsync() []string {
	e.t.Helper()
	e.send("isready")
	got := e.until("readyok", wineTimeout)
	return got[:len(got)-1]
}

// wineQuit sends quit and checks that the engine exits with status 0,
// printed only protocol and wrote nothing to stderr but Wine's notices.
func (e *engine) wineQuit() {
	e.t.Helper()
	e.send("quit")
	select {
	case <-e.exited:
	case <-time.After(wineTimeout):
		e.t.Fatalf("engine did not exit within %v", wineTimeout)
	}
	if e.err != nil {
		e.t.Errorf("engine exit: %v; stderr:\n%s", e.err, e.stderr.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(e.stderr.String()), "\n") {
		if l != "" && !wineNoise.MatchString(l) {
			e.t.Errorf("stderr: %q", l)
		}
	}
	e.checkProtocol()
}

// wineNoise is what Wine itself may print on stderr.
var wineNoise = regexp.MustCompile(`^(it looks like wine32 is missing|multiarch needs to be enabled|execute "dpkg --add-architecture|apt-get install wine32|wine: )`)

// rssMB is the resident set of the engine's process in MB: Wine runs
// the Windows program in the Linux process it starts, so its VmRSS is
// the program's working set. -1 where it cannot be read.
func (e *engine) rssMB() int {
	pid := e.cmd.Process.Pid
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !strings.Contains(string(cmdline), "rochade") {
		return -1
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return kb >> 10
		}
	}
	return -1
}

// TestWineSearch: the protocol, searches by depth, time and clock, with
// one and more threads, Chess960, and a new game.
func TestWineSearch(t *testing.T) {
	e := startWine(t)
	if got := e.wsync(); len(got) != 0 {
		t.Errorf("isready: %q", got)
	}
	pos := v.NewStartPosition()
	pos.Make(legalIn(t, pos, "e2e4"))
	e.send("position startpos moves e2e4")
	best, _, lines := e.search("go depth 10", wineTimeout)
	legalIn(t, pos, best)
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "info depth 10 ") {
		t.Errorf("last info of go depth 10: %q", last)
	}

	// A clock: the move must come well within it, and the reported
	// times must grow with the search.
	start := time.Now()
	best, _, lines = e.search("go wtime 3000 btime 3000 winc 30 binc 30", wineTimeout)
	took := time.Since(start)
	legalIn(t, pos, best)
	if took > 2*time.Second {
		t.Errorf("a move with 3 s on the clock took %v", took)
	}
	t.Logf("a move with 3 s on the clock: %v, %d lines", took.Round(time.Millisecond), len(lines))
	start = time.Now()
	best, _, _ = e.search("go movetime 500", wineTimeout)
	took = time.Since(start)
	legalIn(t, pos, best)
	if took < 300*time.Millisecond || took > 1500*time.Millisecond {
		t.Errorf("go movetime 500 took %v", took)
	}
	t.Logf("go movetime 500: %v", took.Round(time.Millisecond))

	// Threads, a new game and a Chess960 position.
	const fen960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
	e.send("setoption name UCI_Chess960 value true", "setoption name Threads value 3", "ucinewgame",
		"position fen "+fen960)
	if got := e.wsync(); len(got) != 0 {
		t.Errorf("Threads 3 and ucinewgame: %q", got)
	}
	best, _, _ = e.search("go depth 9", wineTimeout)
	legalIn(t, v.MustParseFEN(fen960), best)
	e.send("position fen " + fen960)
	e.send("go infinite")
	time.Sleep(300 * time.Millisecond)
	e.send("stop")
	lines = e.until("bestmove", wineTimeout)
	legalIn(t, v.MustParseFEN(fen960), strings.Fields(lines[len(lines)-1])[1])
	e.wineQuit()
}

// benchNodes runs `bench 7` and returns its node count.
func benchNodes(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	m := regexp.MustCompile(`(?m)^(\d+) nodes \d+ nps`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("%s: no node count in %q", cmd, out)
	}
	return string(m[1])
}

// TestWineBench: the Windows build searches the same tree as the Linux
// build (the same node count at depth 7): move generation, the net's
// kernels and the search do not depend on the system.
func TestWineBench(t *testing.T) {
	exe, prefix := wineExe(t)
	win := exec.Command("wine", exe, "bench", "7")
	win.Env = wineEnv(prefix)
	w := benchNodes(t, win)
	l := benchNodes(t, exec.Command(plainBin(t), "bench", "7"))
	if w != l {
		t.Errorf("bench 7: %s nodes on Windows, %s on Linux", w, l)
	}
	t.Logf("bench 7: %s nodes on both", w)
}

var reHashBudget = regexp.MustCompile(`^info string Hash (\d+) MB with 1 threads does not fit the memory budget of (\d+) MB, 75% of the memory we could have \(available memory\); Hash set to (\d+)$`)

// TestWineMemory: the memory measurement of mem_windows.go, a Hash
// beyond the machine, a large table that must not become resident until
// used (also not when cleared), and Threads.
func TestWineMemory(t *testing.T) {
	total := memTotalMB(t)
	if total == 0 {
		t.Skip("no /proc/meminfo to compare with")
	}
	e := startWine(t)
	huge := max(30000, total*5/4)
	e.send(fmt.Sprintf("setoption name Hash value %d", huge))
	got := e.wsync()
	if len(got) != 1 {
		t.Fatalf("Hash %d: want one info string, got %q", huge, got)
	}
	m := reHashBudget.FindStringSubmatch(got[0])
	if m == nil {
		t.Fatalf("Hash %d: %q", huge, got[0])
	}
	budget, _ := strconv.Atoi(m[2])
	set, _ := strconv.Atoi(m[3])
	// GlobalMemoryStatusEx (Wine reads /proc/meminfo): the budget is 75%
	// of the working set plus the available memory, so at most 75% of
	// the machine, and on an idle enough machine more than a third.
	if budget > total*3/4 || budget < total/3 {
		t.Errorf("budget %d MB on a machine of %d MB", budget, total)
	}
	if set >= budget || set < budget-200 {
		t.Errorf("Hash set to %d with a budget of %d", set, budget)
	}
	t.Logf("Hash %d: budget %d MB, set to %d (machine %d MB)", huge, budget, set, total)
	pos := v.NewStartPosition()
	best, _, _ := e.search("go depth 6", wineTimeout)
	legalIn(t, pos, best)
	if rss := e.rssMB(); rss > 1024 {
		t.Errorf("Hash %d searched to depth 6: resident set %d MB", set, rss)
	}

	// A large table is committed by the Go runtime but must not become
	// resident before it is used, nor when it is cleared.
	// Before the table had memory of its own (search/ttmem_windows.go),
	// the Go runtime wrote zeros over all of a table that reused the
	// address space of the one before: here this Hash 4096 took over
	// 30 s and made 4 GB resident.
	start := time.Now()
	e.send("setoption name Hash value 4096")
	if got := e.wsync(); len(got) != 0 {
		t.Errorf("Hash 4096: %q", got)
	}
	tookSet := time.Since(start)
	rssSet := e.rssMB()
	best, _, _ = e.search("go depth 10", wineTimeout)
	legalIn(t, pos, best)
	rssSearched := e.rssMB()
	start = time.Now()
	e.send("ucinewgame")
	e.wsync()
	tookNew := time.Since(start)
	rssNew := e.rssMB()
	e.send("go depth 8")
	e.until("bestmove", wineTimeout)
	start = time.Now()
	e.send("setoption name Clear Hash")
	e.wsync()
	tookClear := time.Since(start)
	rssClear := e.rssMB()
	t.Logf("Hash 4096: set in %v, resident set %d MB; %d MB after go depth 10; ucinewgame %v, %d MB; Clear Hash after a search %v, %d MB",
		tookSet.Round(time.Millisecond), rssSet, rssSearched, tookNew.Round(time.Millisecond), rssNew,
		tookClear.Round(time.Millisecond), rssClear)
	for _, d := range []time.Duration{tookSet, tookNew, tookClear} {
		if d > 5*time.Second {
			t.Errorf("Hash 4096: setting or clearing it took %v", d)
		}
	}
	for _, r := range []int{rssSet, rssSearched, rssNew, rssClear} {
		if r > 1024 {
			t.Errorf("Hash 4096: resident set %d MB", r)
		}
	}

	// A moderate table and more threads.
	e.send("setoption name Hash value 1024", "setoption name Threads value 4")
	if got := e.wsync(); len(got) != 0 {
		t.Errorf("Hash 1024, Threads 4: %q", got)
	}
	best, _, lines := e.search("go depth 11", wineTimeout)
	legalIn(t, pos, best)
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "info depth 11 ") {
		t.Errorf("Hash 1024, Threads 4, go depth 11: %q", last)
	}
	e.send("setoption name Hash value 1")
	e.wsync()
	best, _, _ = e.search("go depth 6", wineTimeout)
	legalIn(t, pos, best)
	t.Logf("back to Hash 1: resident set %d MB", e.rssMB())
	e.wineQuit()
}

// TestWineEvalFile: a net loaded from a C: path and from a Z: path (a
// Linux folder), a missing file, and the net in use afterwards.
func TestWineEvalFile(t *testing.T) {
	_, prefix := wineExe(t)
	data, err := os.ReadFile("../eval/nets/default.nnue")
	if err != nil {
		t.Fatal(err)
	}
	net, err := eval.LoadNetFile("../eval/nets/default.nnue")
	if err != nil {
		t.Fatal(err)
	}
	cdir := filepath.Join(prefix, "drive_c", "rochade-test")
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(cdir) })
	zdir := t.TempDir()
	for _, d := range []string{cdir, zdir} {
		if err := os.WriteFile(filepath.Join(d, "my net.nnue"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := startWine(t)
	pos := v.NewStartPosition()
	for _, p := range []string{`C:\rochade-test\my net.nnue`, `c:/rochade-test/my net.nnue`, winPath(filepath.Join(zdir, "my net.nnue"))} {
		e.send("setoption name EvalFile value " + p)
		want := fmt.Sprintf("info string EvalFile %s loaded (net %s)", p, net.Hash)
		if got := e.wsync(); len(got) != 1 || got[0] != want {
			t.Errorf("EvalFile %s: got %q, want %q", p, got, want)
		}
		best, _, _ := e.search("go depth 6", wineTimeout)
		legalIn(t, pos, best)
	}
	e.send(`setoption name EvalFile value C:\rochade-test\no such.nnue`)
	if got := e.wsync(); len(got) != 1 || !strings.HasPrefix(got[0], `info string error: EvalFile "C:\\rochade-test\\no such.nnue": `) {
		t.Errorf("missing EvalFile: %q", got)
	}
	best, _, _ := e.search("go depth 6", wineTimeout)
	legalIn(t, pos, best)
	e.wineQuit()
}

// TestWineSyzygy: tables mapped by CreateFileMapping from a Z: path, a
// ';'-separated list with a missing folder, probes against the WDL list,
// and the tables unmapped again.
func TestWineSyzygy(t *testing.T) {
	dir := syzygyDir(t)
	fens, wdls := tbRows(t, 40)
	e := startWine(t)
	e.send("setoption name SyzygyPath value " + winPath(dir))
	if got := e.wsync(); len(got) != 1 || got[0] != "info string found 70 tablebases" {
		t.Fatalf("SyzygyPath %s: %q", winPath(dir), got)
	}
	e.send(`setoption name SyzygyPath value C:\no-such-folder;` + winPath(dir))
	if got := e.wsync(); len(got) != 2 || !strings.HasPrefix(got[0], `info string cannot read tablebase folder C:\no-such-folder: `) ||
		got[1] != "info string found 70 tablebases" {
		t.Errorf("a list with a missing folder: %q", got)
	}
	probed := 0
	for i, fen := range fens {
		if wdls[i] == 1 || wdls[i] == -1 {
			continue // cursed results score as draws under the 50-move rule
		}
		p := v.MustParseFEN(fen)
		e.send("position fen " + fen)
		best, _, lines := e.search("go depth 5", wineTimeout)
		legalIn(t, p, best)
		cp, mate, ok := lastScore(t, lines)
		if !ok {
			t.Errorf("%s: no score", fen)
			continue
		}
		if got := scoreWDL(cp, mate); got != wdls[i] {
			t.Errorf("%s: WDL %d, scored cp %d mate %d", fen, wdls[i], cp, mate)
		}
		if last := lines[len(lines)-1]; strings.Contains(last, " tbhits 0 ") {
			t.Errorf("%s: no tbhits in %q", fen, last)
		}
		probed++
	}
	if probed < 20 {
		t.Errorf("only %d positions probed", probed)
	}
	e.send("setoption name SyzygyPath value <empty>")
	if got := e.wsync(); len(got) != 1 || got[0] != "info string found 0 tablebases" {
		t.Errorf("empty path: %q", got)
	}
	e.send("position fen " + fens[0])
	_, _, lines := e.search("go depth 5", wineTimeout)
	if last := lines[len(lines)-1]; !strings.Contains(last, " tbhits 0 ") {
		t.Errorf("tables unset, still hits: %q", last)
	}
	e.wineQuit()
}
