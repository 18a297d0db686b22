package tests

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
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
	e.baseRSS = vmRSS(t, e.cmd.Process.Pid)
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
// beyond the machine is reduced to at most 75% of MemTotal. Before the
// budget counted kilobytes as megabytes, Hash 30000 and Hash 999999999
// (set to 65536) were accepted on a 24 GB machine and the allocation ended
// the process (fatal error: runtime: out of memory). The table is made
// resident when Hash is set, which takes most of the machine's memory and,
// on the 2-core build machine under load, minutes: the default run reads
// the reduced Hash and ends the engine at once; with -long the engine
// makes the table resident (isready until it is) and plays.
func TestHugeHashMeasured(t *testing.T) {
	total := memTotalMB(t)
	if total == 0 && runtime.GOOS == "linux" {
		t.Fatal("no /proc/meminfo")
	}
	for _, req := range []string{"999999999", "30000"} {
		t.Run(req, func(t *testing.T) {
			e := startMeasuring(t)
			if !*long {
				os.WriteFile(fmt.Sprintf("/proc/%d/oom_score_adj", e.cmd.Process.Pid), []byte("1000"), 0)
			}
			e.send("setoption name Hash value " + req)
			var replies []string
			for l := ""; !strings.HasPrefix(l, "info string Hash ") || !strings.Contains(l, "memory budget"); {
				l = e.next(scaled(10 * time.Second))
				replies = append(replies, l)
			}
			hash := effectiveHash(t, req, replies)
			if !*long {
				e.cmd.Process.Kill()
			} else {
				e.send("isready")
				var rss int
				hash, rss = untilResident(t, e, req, hash, scaled(300*time.Second))
				replies = append(replies, fmt.Sprintf("(resident: Hash %d MB, resident set %d MB)", hash, rss))
			}
			t.Logf("Hash %s: %q", req, replies)
			if total > 0 && hash > total*3/4 {
				t.Errorf("Hash %s: set to %d MB, more than 75%% of MemTotal %d MB", req, hash, total)
			}
			for _, l := range replies {
				if strings.Contains(l, "could not be measured") {
					t.Errorf("memory not measured on %s: %q", runtime.GOOS, l)
				}
			}
			if !*long {
				return
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
			if rss < hash {
				t.Errorf("Hash %d MB: resident set %d MB", hash, rss)
			}
			e.send("quit")
			e.waitExit(scaled(30 * time.Second))
		})
	}
}

// TestThreadsMeasured: Threads beyond the budget are reduced on the
// measured memory as well, and the engine still plays. The table of
// most of the machine is made resident first: -long only.
func TestThreadsMeasured(t *testing.T) {
	if !*long {
		t.Skip("makes a table of most of the machine's memory resident: -long")
	}
	total := memTotalMB(t)
	e := startMeasuring(t)
	e.send("setoption name Hash value 30000", fmt.Sprintf("setoption name Threads value %d", 1024), "isready")
	got := e.until("readyok", scaled(300*time.Second))
	got = got[:len(got)-1]
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
	e.waitExit(scaled(30 * time.Second))
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
// binaries (amd64 Linux does, through its 32-bit compatibility, where
// the kernel was built with it: some are not, and refuse the binary with
// ENOEXEC; the test is skipped there after the 386 build, which must
// still succeed).
func TestHugeHash32Bit(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("needs amd64 Linux to run a 386 build")
	}
	path := buildEngine(t, engineBuild{goarch: "386", out: filepath.Join(t.TempDir(), "rochade-386")})
	probe := exec.Command(path) // stdin is /dev/null: it reads EOF and exits
	if err := probe.Start(); err != nil {
		if errors.Is(err, syscall.ENOEXEC) {
			t.Skipf("needs amd64 Linux to run a 386 build: this kernel has no 32-bit compatibility (%v)", err)
		}
		t.Fatal(err)
	}
	if err := probe.Wait(); err != nil {
		t.Fatalf("the 386 build, started with no input: %v", err)
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

// meminfoMB reads a field of /proc/meminfo, in MB; 0 where there is none.
func meminfoMB(name string) int {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == name+":" && f[2] == "kB" {
			kb, _ := strconv.Atoi(f[1])
			return kb >> 10
		}
	}
	return 0
}

// untilResident sends isready until the engine's table of hash MB is
// resident (the resident set is hash MB above the engine's after uciok,
// less 2 MB of noise): readyok comes after at most a few seconds
// (uci/reserve.go), and a larger table goes on being made resident in the
// background. A cut of the table on the way (another process took memory)
// lowers hash. It returns the Hash and the resident set then, in MB.
func untilResident(t *testing.T, e *engine, req string, hash int, timeout time.Duration) (int, int) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := e.until("readyok", scaled(60*time.Second))
		hash = effectiveHash(t, strconv.Itoa(hash), got[:len(got)-1])
		rss := vmRSS(t, e.cmd.Process.Pid)
		if rss+2 >= e.baseRSS+hash {
			return hash, rss
		}
		if time.Now().After(deadline) {
			t.Fatalf("Hash %s (%d MB): resident set only %d MB (%d MB after uciok) after %v", req, hash, rss, e.baseRSS, timeout)
		}
		e.send("isready")
	}
}

// TestAbsurdHashAnswers: Hash 999999999 and Threads 99999, held to the
// budget (about 17 GB on the 24 GB build machine), took the engine 9 s
// to answer the go after them on a quiet machine and minutes under load:
// the command loop made the whole table resident before it read the go.
// Now the table is made resident in the background, a go stops that
// within a chunk, and isready waits for it a few seconds at most.
func TestAbsurdHashAnswers(t *testing.T) {
	e := startMeasuring(t)
	os.WriteFile(fmt.Sprintf("/proc/%d/oom_score_adj", e.cmd.Process.Pid), []byte("1000"), 0)
	e.send("setoption name Hash value 999999999", "setoption name Threads value 99999", "position startpos")
	start := time.Now()
	best, _, lines := e.search("go depth 6", 5*time.Second)
	t.Logf("bestmove after %v: %q", time.Since(start), lines[:min(len(lines), 4)])
	legalIn(t, v.NewStartPosition(), best)
	start = time.Now()
	e.send("isready")
	e.until("readyok", 8*time.Second)
	t.Logf("readyok after %v", time.Since(start))
	e.send("position startpos moves e2e4")
	start = time.Now()
	best, _, _ = e.search("go depth 6", 5*time.Second)
	t.Logf("second bestmove after %v", time.Since(start))
	p := v.NewStartPosition()
	p.PlayMoves("e2e4")
	legalIn(t, p, best)
	// ucinewgame starts the reservation again, in the background: quit
	// ends it within a chunk.
	// (ucinewgame first writes zeros over the part made resident: up to a
	// few GB, seconds on a loaded machine.)
	e.send("ucinewgame", "quit")
	start = time.Now()
	e.waitExit(scaled(10 * time.Second))
	t.Logf("exit after %v", time.Since(start))
}

// TestHashResident: the table is made resident when Hash is set, so that
// the memory it takes is taken now, where other processes measuring the
// memory see it (an untouched table filled during the games, and two
// engines each given 17.5 GB of a 24 GB machine could not both fill
// theirs): by readyok, or soon after in the background where that takes
// longer than isready waits. Clear Hash keeps it resident, and a smaller
// Hash gives the memory back.
func TestHashResident(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	const hash = 1024
	if avail := meminfoMB("MemAvailable"); avail < 4*hash {
		t.Skipf("only %d MB available", avail)
	}
	e := startMeasuring(t)
	pid := e.cmd.Process.Pid
	start := time.Now()
	e.send(fmt.Sprintf("setoption name Hash value %d", hash), "isready")
	if got, rss := untilResident(t, e, "1024", hash, scaled(60*time.Second)); got != hash {
		t.Fatalf("Hash %d: set to %d", hash, got)
	} else {
		t.Logf("Hash %d MB: resident after %v, resident set %d MB", hash, time.Since(start), rss)
	}
	rss := vmRSS(t, pid)
	e.send("position startpos")
	e.search("go depth 6", scaled(30*time.Second))
	e.send("ucinewgame")
	syncScaled(e)
	if got := vmRSS(t, pid); got < hash || got > rss+64 {
		t.Errorf("Hash %d MB: resident set %d MB after ucinewgame, %d MB before", hash, got, rss)
	}
	e.send("setoption name Hash value 16")
	syncScaled(e)
	if got := vmRSS(t, pid); got > 16+baseMB+2*threadMB {
		t.Errorf("Hash 16 MB: resident set still %d MB", got)
	}
	e.send("quit")
	e.waitExit(scaled(10 * time.Second))
}

// twoEngines starts two engines on the machine's real memory and sets
// Hash 65536 on both, one after the other or both at once, and returns
// the Hash each got. The engines are left running, tables resident.
func twoEngines(t *testing.T, atOnce bool) (a, b *engine, hashA, hashB int) {
	const req = "65536"
	a, b = startMeasuring(t), startMeasuring(t)
	// Should the machine run short all the same, the kernel is to end
	// these engines, not the other jobs on the machine.
	for _, e := range []*engine{a, b} {
		os.WriteFile(fmt.Sprintf("/proc/%d/oom_score_adj", e.cmd.Process.Pid), []byte("1000"), 0)
	}
	set := "setoption name Hash value " + req
	asked, _ := strconv.Atoi(req)
	// readyok comes after a few seconds at most; the tables are then
	// made resident in the background, and untilResident asks isready
	// until they are, taking in any cut made on the way.
	if atOnce {
		a.send(set, "isready")
		b.send(set, "isready")
		hashA, _ = untilResident(t, a, req, asked, scaled(300*time.Second))
		hashB, _ = untilResident(t, b, req, asked, scaled(300*time.Second))
		// A's table was resident before B's was: A may have been cut
		// after that, when B took memory.
		a.send("isready")
		hashA, _ = untilResident(t, a, req, hashA, scaled(300*time.Second))
		t.Logf("Hash: engine A %d MB, engine B %d MB", hashA, hashB)
		return a, b, hashA, hashB
	}
	a.send(set, "isready")
	hashA, _ = untilResident(t, a, req, asked, scaled(300*time.Second))
	b.send(set, "isready")
	hashB, _ = untilResident(t, b, req, asked, scaled(300*time.Second))
	t.Logf("Hash: engine A %d MB, engine B %d MB", hashA, hashB)
	return a, b, hashA, hashB
}

// TestTwoEnginesHash: two engines on one machine, each asking for Hash
// 65536 (more than the machine), must together stay within it. Each
// measured the memory when its Hash was set and tables filled only during
// the games, so on the 24 GB build machine both got about 17.5 GB, 35 GB
// in all. Now the first engine's table is resident when it answers
// readyok, and the second, measuring after it, gets what is left and says
// so (the first's readyok may come before its table is all resident: the
// test asks isready until it is, as a GUI that wants it would wait). Both
// variants take most of the machine's memory for a few tens of seconds:
// -long only.
func TestTwoEnginesHash(t *testing.T) {
	if !*long {
		t.Skip("takes most of the machine's memory: -long")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	for _, c := range []struct {
		name   string
		atOnce bool
	}{{"one after the other", false}, {"both at once", true}} {
		t.Run(c.name, func(t *testing.T) {
			total, avail := memTotalMB(t), meminfoMB("MemAvailable")
			start := time.Now()
			a, b, hashA, hashB := twoEngines(t, c.atOnce)
			rssA, rssB := vmRSS(t, a.cmd.Process.Pid), vmRSS(t, b.cmd.Process.Pid)
			t.Logf("MemTotal %d MB, MemAvailable %d MB before; Hash %d + %d MB, resident %d + %d MB after %v; MemAvailable %d MB now",
				total, avail, hashA, hashB, rssA, rssB, time.Since(start), meminfoMB("MemAvailable"))
			a.send("quit")
			b.send("quit")
			a.waitExit(scaled(30 * time.Second))
			b.waitExit(scaled(30 * time.Second))
			if hashA+hashB+2*baseMB > avail {
				t.Errorf("Hash %d + %d MB: more than the %d MB available", hashA, hashB, avail)
			}
			if rssA < hashA || rssB < hashB {
				t.Errorf("Hash %d and %d MB: resident sets only %d and %d MB", hashA, hashB, rssA, rssB)
			}
			if !c.atOnce && hashB >= hashA {
				t.Errorf("the second engine got Hash %d MB, the first %d MB", hashB, hashA)
			}
		})
	}
}
