package tests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// These tests run the engine as users do: without ROCHADE_MEMORY_MB, so
// that it measures the machine's memory itself.

// memTotalMB reads MemTotal from /proc/meminfo, in MB; 0 where there is none.
func memTotalMB(t testing.TB) int {
	t.Helper()
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			kb, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatalf("/proc/meminfo: %q", l)
			}
			return kb >> 10
		}
	}
	t.Fatalf("/proc/meminfo has no MemTotal")
	return 0
}

// startMeasuring starts the (non-race) engine with ROCHADE_MEMORY_MB
// cleared, whatever the test's environment holds.
func startMeasuring(t *testing.T) *engine {
	t.Helper()
	e := startProcessEnv(t, plainBin(t), []string{"ROCHADE_MEMORY_MB="})
	e.rochade = true
	e.send("uci")
	e.until("uciok", scaled(10*time.Second))
	return e
}

var reSetTo = regexp.MustCompile(`set to (\d+)$`)

// effectiveHash is the Hash that a setoption request left: the last
// "set to N" of the info strings it caused, else the request.
func effectiveHash(t *testing.T, requested string, replies []string) int {
	t.Helper()
	n := -1
	for _, l := range replies {
		if m := reSetTo.FindStringSubmatch(l); m != nil && strings.HasPrefix(l, "info string Hash") {
			n, _ = strconv.Atoi(m[1])
		} else if strings.Contains(l, "error") {
			t.Errorf("Hash %s: %q", requested, l)
		}
	}
	if n < 0 {
		var err error
		if n, err = strconv.Atoi(requested); err != nil {
			t.Fatalf("Hash %s: no size in %q", requested, replies)
		}
	}
	return n
}

// TestHugeHashMeasured: on the memory the engine measures itself, a Hash
// beyond the machine is reduced to at most 75% of MemTotal, and the engine
// stays alive, answers isready and plays. Before the budget counted
// kilobytes as megabytes, Hash 30000 and Hash 999999999 (set to 65536)
// were accepted on a 24 GB machine and the allocation ended the process
// (fatal error: runtime: out of memory).
func TestHugeHashMeasured(t *testing.T) {
	total := memTotalMB(t)
	if total == 0 && runtime.GOOS == "linux" {
		t.Fatal("no /proc/meminfo")
	}
	for _, req := range []string{"999999999", "30000"} {
		t.Run(req, func(t *testing.T) {
			e := startMeasuring(t)
			e.send("setoption name Hash value " + req)
			replies := syncScaled(e)
			hash := effectiveHash(t, req, replies)
			t.Logf("Hash %s: %q", req, replies)
			if total > 0 && hash > total*3/4 {
				t.Errorf("Hash %s: set to %d MB, more than 75%% of MemTotal %d MB", req, hash, total)
			}
			for _, l := range replies {
				if strings.Contains(l, "could not be measured") {
					t.Errorf("memory not measured on %s: %q", runtime.GOOS, l)
				}
			}
			e.send("position startpos moves e2e4")
			best, _, _ := e.search("go depth 5", scaled(30*time.Second))
			p := v.NewStartPosition()
			p.PlayMoves("e2e4")
			legalIn(t, p, best)
			if got := syncScaled(e); len(got) != 0 {
				t.Errorf("after the search: %q", got)
			}
			rss := vmRSS(t, e.cmd.Process.Pid)
			t.Logf("Hash %s: effective Hash %d MB (MemTotal %d MB); resident set after go depth 5: %d MB", req, hash, total, rss)
			e.send("quit")
			e.waitExit(scaled(10 * time.Second))
		})
	}
}

// TestThreadsMeasured: Threads beyond the budget are reduced on the
// measured memory as well, and the engine still plays.
func TestThreadsMeasured(t *testing.T) {
	total := memTotalMB(t)
	e := startMeasuring(t)
	e.send("setoption name Hash value 30000", fmt.Sprintf("setoption name Threads value %d", 1024))
	got := syncScaled(e)
	hash := effectiveHash(t, "30000", got)
	threads := 1024
	for _, l := range got {
		if m := reSetTo.FindStringSubmatch(l); m != nil && strings.HasPrefix(l, "info string Threads") {
			threads, _ = strconv.Atoi(m[1])
		}
	}
	t.Logf("Hash %d MB, Threads %d: %q", hash, threads, got)
	if total > 0 && hash+threads*threadMB+baseMB > total*3/4 {
		t.Errorf("Hash %d MB and %d threads need more than 75%% of MemTotal %d MB", hash, threads, total)
	}
	e.send("setoption name Threads value 2")
	best, _, _ := e.search("go depth 5", scaled(30*time.Second))
	legalIn(t, v.NewStartPosition(), best)
	e.send("quit")
	e.waitExit(scaled(10 * time.Second))
}

// TestDatagenHashMeasured: rochade datagen --hash is per thread and was
// not held to any budget (--hash 30000 ended it with "out of memory" on
// the 24 GB build machine). Without ROCHADE_MEMORY_MB it is cut to fit,
// with a message, and the run finishes.
func TestDatagenHashMeasured(t *testing.T) {
	t.Setenv("ROCHADE_MEMORY_MB", "") // the engine ignores it empty: the real measurement
	out := t.TempDir()
	_, stderr := runCLI(t, false, "datagen", "--hash", "999999", "--threads", "2", "--games", "2",
		"--nodes", "300", "--chunk", "2", "--out", out, "--progress", "1h")
	if !strings.Contains(stderr, "does not fit the memory budget") || !strings.Contains(stderr, "done: games 2") {
		t.Errorf("datagen --hash 999999:\n%s", stderr)
	}
}

// TestHugeHash32Bit runs a 386 build of the engine, as a 32-bit Windows
// or Linux user would, on the real memory path: a Hash request beyond the
// 32-bit address space must leave an engine that answers and plays (it
// died in the table's allocation: "makeslice: len out of range", or "out
// of memory" from Hash 3000 on). Only where the machine runs 386 Linux
// binaries (amd64 Linux does, through its 32-bit compatibility).
func TestHugeHash32Bit(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("needs amd64 Linux to run a 386 build")
	}
	path := filepath.Join(t.TempDir(), "rochade-386")
	cmd := exec.Command("go", "build", "-o", path, "../cmd/engine")
	cmd.Env = append(os.Environ(), "GOARCH=386", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOARCH=386 go build: %v\n%s", err, out)
	}
	for _, req := range []string{"30000", "3000"} {
		t.Run(req, func(t *testing.T) {
			e := startProcessEnv(t, path, []string{"ROCHADE_MEMORY_MB="})
			e.rochade = true
			e.send("uci")
			e.until("uciok", scaled(10*time.Second))
			e.send("setoption name Hash value " + req)
			replies := syncScaled(e)
			hash := effectiveHash(t, req, replies)
			t.Logf("Hash %s on a 386 build: %q", req, replies)
			if hash > 2048 {
				t.Errorf("Hash %s: set to %d MB on a 32-bit build", req, hash)
			}
			e.send("position startpos moves e2e4")
			best, _, _ := e.search("go depth 5", scaled(30*time.Second))
			p := v.NewStartPosition()
			p.PlayMoves("e2e4")
			legalIn(t, p, best)
			e.send("quit")
			e.waitExit(scaled(10 * time.Second))
		})
	}
}

// TestClearManyThreads: ucinewgame (and Clear Hash) at Threads 1024 must
// not write over the tables of threads that never searched. It wrote
// zeros over every thread's histories and caches: the resident set went
// from 292 MB to 4.28 GB, and readyok came after 26 s on the 2-core build
// machine.
func TestClearManyThreads(t *testing.T) {
	if vmRSS(t, os.Getpid()) == 0 {
		t.Skip("no /proc")
	}
	e := startBudgeted(t, 16000) // a budget of 12,000 MB: room for 1024 threads
	pid := e.cmd.Process.Pid
	// A search with 2 threads first: their tables are in use.
	e.send("setoption name Threads value 2")
	syncScaled(e)
	e.send("position startpos")
	e.search("go depth 6", scaled(30*time.Second))
	e.send("setoption name Threads value 1024")
	if got := syncScaled(e); len(got) != 0 {
		t.Fatalf("Threads 1024: %q", got)
	}
	before := vmRSS(t, pid)
	for _, cmd := range []string{"ucinewgame", "setoption name Clear Hash"} {
		start := time.Now()
		e.send(cmd, "isready")
		e.until("readyok", 60*time.Second)
		took := time.Since(start)
		rss := vmRSS(t, pid)
		t.Logf("Threads 1024, %s: readyok after %v; resident set %d MB before, %d MB after", cmd, took, before, rss)
		if took > 5*time.Second {
			t.Errorf("Threads 1024: %s took %v", cmd, took)
		}
		if rss > before+128 {
			t.Errorf("Threads 1024: %s made the resident set grow from %d to %d MB", cmd, before, rss)
		}
	}
	// The engine still plays, with the cleared tables.
	e.send("setoption name Threads value 2", "position startpos")
	best, _, _ := e.search("go depth 5", scaled(30*time.Second))
	legalIn(t, v.NewStartPosition(), best)
	e.send("quit")
	e.waitExit(scaled(10 * time.Second))
}
