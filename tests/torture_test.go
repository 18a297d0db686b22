package tests

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/internal/testutil"
	v "github.com/rochade/rochade/variant960"
)

// vmRSS returns a process's resident set in MB, from /proc (0 elsewhere).
func vmRSS(t testing.TB, pid int) int {
	t.Helper()
	kb, _ := testutil.ResidentKB(pid)
	return int(kb >> 10)
}

// loadFactor is how many times busier than its cores the machine is
// (the 1-minute load average over the number of CPUs), at least 1. On a
// shared build machine wall-clock limits are scaled by it.
func loadFactor() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 1
	}
	load, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 1
	}
	return max(1, load/float64(runtime.NumCPU()))
}

// Memory figures of the engine (internal/membudget/membudget.go, search.ThreadBytes).
const (
	baseMB   = 72 // everything but the table and the threads
	threadMB = 6  // per search thread
)

// startBudgeted starts the (non-race) engine believing it has memMB of
// memory; its budget is then 75% of that.
func startBudgeted(t *testing.T, memMB int) *engine {
	t.Helper()
	e := startProcessEnv(t, plainBin(t), []string{fmt.Sprintf("ROCHADE_MEMORY_MB=%d", memMB)})
	e.rochade = true
	e.send("uci")
	e.until("uciok", scaled(10*time.Second))
	return e
}

// syncScaled is sync with a timeout stretched by the load (setting a
// large table makes every page of it resident, and clearing it writes
// every page, which a busy machine makes slow).
func syncScaled(e *engine) []string {
	e.t.Helper()
	e.send("isready")
	got := e.until("readyok", scaled(30*time.Second))
	return got[:len(got)-1]
}

// scaled stretches a time limit by the machine's load.
func scaled(d time.Duration) time.Duration { return time.Duration(float64(d) * loadFactor()) }

// hostileLines returns n lines of mixed valid and hostile input.
func hostileLines(r *rand.Rand, n int) []string {
	knights := strings.Repeat(" g1f3 g8f6 f3g1 f6g8", 2500) // 10,000 legal moves
	junk := func(k int) string {
		b := make([]byte, k)
		for i := range b {
			b[i] = byte(r.IntN(256))
			if b[i] == '\n' {
				b[i] = 0
			}
		}
		return string(b)
	}
	huge := []string{"999999999", "-999999999", "99999999999999999999999", "-1", "0", "2147483648", "-9223372036854775808", "1e9", "0x10", ""}
	num := func() string { return huge[r.IntN(len(huge))] }
	fens := []string{
		"QQQQQQQQ/QQQQQQQQ/QQQQk3/8/8/8/8/4K3 w - - 0 1",
		"8/8/8/8/8/8/8/8 w - - 0 1",
		"PPPPkPPP/8/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 w KQkq e3 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 999999999999 -5",
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", // stalemate
		"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", // checkmate
		"rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R w HAha - 0 1",
		"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
	}
	valid := []string{
		"isready", "ucinewgame", "position startpos", "position startpos moves e2e4 e7e5 g1f3",
		"go depth 2", "go nodes 500", "go movetime 5", "go wtime 50 btime 50 winc 1 binc 1", "stop",
		"setoption name Hash value 8", "setoption name Threads value 2", "setoption name MultiPV value 3",
		"setoption name UCI_Chess960 value true", "setoption name UCI_Chess960 value false",
		"position fen " + fens[7] + " moves b1h1", "go infinite", "go ponder", "ponderhit", "d",
	}
	hostile := []func() string{
		func() string { return "setoption name Hash value " + num() },
		func() string { return "setoption name Threads value " + num() },
		func() string { return "setoption name MultiPV value " + num() },
		func() string { return "setoption name Move Overhead value " + num() },
		func() string {
			return "go wtime " + num() + " btime " + num() + " movestogo " + num() + " depth " + num() + " nodes 2000"
		},
		func() string { return "go movetime " + num() + " nodes 3000" },
		func() string { return "go mate " + num() + " nodes 3000" },
		func() string { return "position startpos moves" + knights },
		func() string { return "position fen " + fens[r.IntN(len(fens))] },
		func() string { return "position fen " + fens[r.IntN(len(fens))] + " moves e1g1 O-O 0-0-0 a7a8q" },
		func() string { return junk(1 + r.IntN(200)) },
		func() string { return "go " + junk(r.IntN(50)) },
		func() string { return "position " + junk(r.IntN(50)) },
		func() string { return "setoption name " + junk(r.IntN(30)) + " value " + junk(r.IntN(30)) },
		func() string { return "stop" },
		func() string { return "ponderhit" },
		func() string { return "go perft " + num() },
		func() string { return "setoption name Clear Hash" },
		func() string { return "\x00\x00isready\x00" },
		func() string { return strings.Repeat("go ", 1000) },
		func() string { return "go searchmoves " + strings.Repeat("a1a1 ", 500) + "nodes 100" },
	}
	var lines []string
	for len(lines) < n {
		switch k := r.IntN(100); {
		case k < 45:
			lines = append(lines, valid[r.IntN(len(valid))])
		case k < 99:
			lines = append(lines, hostile[r.IntN(len(hostile))]())
		default:
			// A very long line: one just over the reader's limit or a
			// long run of tokens under it.
			if r.IntN(2) == 0 {
				lines = append(lines, strings.Repeat("x", 2<<20))
			} else {
				lines = append(lines, "position startpos moves"+strings.Repeat(" e2e4", 100000))
			}
		}
	}
	return lines
}

// TestHostileInput feeds the engine thousands of random and hostile
// lines mixed with valid commands. It must stay alive, answer isready
// within a second after every batch, print only protocol, never go over
// its memory budget, and exit cleanly on quit and on EOF.
func TestHostileInput(t *testing.T) {
	for _, end := range []string{"quit", "EOF"} {
		t.Run(end, func(t *testing.T) {
			const memMB = 256 // the budget is 192 MB, Hash at most 122 MB
			n := 200
			if *long {
				n = 20000
			}
			hostileInput(t, startBudgeted(t, memMB), end, memMB, time.Second, n)
		})
	}
}

// TestHostileInputMeasured is TestHostileInput once with the memory the
// engine measures itself (no ROCHADE_MEMORY_MB), as users run it: the
// stream's Hash 999999999 is then held to 75% of the machine's memory,
// where the budget counted in kilobytes used to let it end the process.
// The resident set must stay within 75% of MemTotal. Setting Hash makes
// the table resident, so an isready may wait for a table of many GB to
// be touched: the patience allows 1 s plus touching 75% of MemTotal at
// 200 MB/s (first touches of fresh pages ran at 160-700 MB/s on a 2-core,
// 24 GB build machine). Each Hash 999999999 of the stream takes most of
// the machine's memory for a while: the stream has 200 lines, -long or
// not. Without /proc (other systems) the resident set is not compared and
// the patience is that of a 16 GB machine.
func TestHostileInputMeasured(t *testing.T) {
	total := memTotalMB(t)
	if total == 0 && runtime.GOOS == "linux" {
		t.Fatal("no /proc/meminfo")
	}
	patienceMB := total
	if total == 0 {
		total, patienceMB = 1<<24, 16<<10 // no resident set to compare
	}
	patience := time.Second + time.Duration(patienceMB*3/4/200)*time.Second
	hostileInput(t, startMeasuring(t), "quit", total, patience, 200)
}

// hostileInput runs a hostile stream of n lines on an engine that has
// memMB of memory, ending it with quit or EOF. Each isready after a batch
// must be answered within patience on an idle machine (longer in
// proportion to the load).
func hostileInput(t *testing.T, e *engine, end string, memMB int, patience time.Duration, n int) {
	r := rand.New(rand.NewPCG(uint64(len(end)), 7))
	lines := hostileLines(r, n)
	maxRSS, slowest, worstRatio := 0, time.Duration(0), 0.0
	for i := 0; i < len(lines); i += 10 {
		e.send(lines[i:min(i+10, len(lines))]...)
		e.send("stop") // no search of the batch runs on into the next
		start := time.Now()
		e.send("isready")
		e.until("readyok", scaled(max(10*time.Second, 2*patience)))
		d := time.Since(start)
		// patience on an idle machine; longer in proportion to the load.
		if ratio := d.Seconds() / loadFactor() / patience.Seconds(); ratio > worstRatio {
			worstRatio = ratio
			if ratio > 1 {
				for _, l := range lines[i:min(i+10, len(lines))] {
					t.Logf("slow batch (%v at load factor %.1f): %.100q", d, loadFactor(), l)
				}
			}
		}
		slowest = max(slowest, d)
		rss := vmRSS(t, e.cmd.Process.Pid)
		if rss > memMB*3/4 {
			for _, l := range lines[max(i-20, 0):min(i+10, len(lines))] {
				t.Logf("resident set %d MB after a batch with: %.100q", rss, l)
			}
		}
		maxRSS = max(maxRSS, rss)
	}
	t.Logf("%d lines; slowest isready after a batch %v (%.2f of %v scaled by load); max RSS %d MB", len(lines), slowest, worstRatio, patience, maxRSS)
	if maxRSS > memMB*3/4 {
		t.Errorf("resident set %d MB, over the budget of %d MB", maxRSS, memMB*3/4)
	}
	if worstRatio > 1 {
		t.Errorf("an isready took %v (%.2f of %v scaled by load)", slowest, worstRatio, patience)
	}
	e.send("stop")
	wait := scaled(max(3*time.Second, patience))
	if end == "quit" {
		e.send("quit")
		e.waitExit(wait)
	} else {
		e.closeAndWait(wait)
	}
	for _, l := range e.output() {
		if strings.Contains(l, "panic") || strings.Contains(l, "goroutine ") {
			t.Errorf("output %q", l)
		}
	}
}

// TestCommandStorm interleaves go infinite, stop, isready, ucinewgame and
// setoption Threads in a tight loop with up to 4 threads (under -race
// with `make test-race`). Every go gets exactly one bestmove.
func TestCommandStorm(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	rounds := 30
	if *long {
		rounds = 1000
	}
	var cmds []string
	gos := 0
	for i := 0; i < rounds; i++ {
		cmds = append(cmds,
			"setoption name Threads value "+strconv.Itoa(1+i%4),
			"position startpos moves e2e4",
			"go infinite", "isready", "ucinewgame", "setoption name Threads value "+strconv.Itoa(4-i%4),
			"stop", "go movetime 1", "setoption name Hash value "+strconv.Itoa(1+i%8), "isready",
			"go depth 3", "ucinewgame", "go infinite", "setoption name Clear Hash", "stop", "isready")
		gos += 4
	}
	e.send(cmds...)
	e.send("stop", "isready")
	want := 3*rounds + 1
	deadline := time.Now().Add(scaled(60 * time.Second))
	best := 0
	for ready := 0; ready < want || best < gos; {
		switch l := e.next(time.Until(deadline)); {
		case l == "readyok":
			ready++
		case strings.HasPrefix(l, "bestmove"):
			best++
		}
	}
	if best != gos {
		t.Errorf("%d go commands, %d bestmoves", gos, best)
	}
	e.send("quit")
	e.waitExit(scaled(3 * time.Second))
}

// TestClockEmergencies: with almost no time or nodes the engine still
// answers with a legal move at once.
func TestClockEmergencies(t *testing.T) {
	e := startProcess(t, plainBin(t))
	e.rochade = true
	e.handshake()
	e.send("setoption name UCI_Chess960 value true", "setoption name Threads value 2")
	positions := []string{
		v.StartFEN,
		"rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R w HAha - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	}
	for _, fen := range positions {
		p := v.MustParseFEN(fen)
		e.send("position fen " + fen)
		for _, goCmd := range []string{"go wtime 1 btime 1", "go wtime 0 btime 0 winc 0 binc 0", "go movetime 1", "go nodes 1",
			"go wtime 1 btime 1 movestogo 1", "go depth 1"} {
			start := time.Now()
			best, _, _ := e.search(goCmd, 5*time.Second)
			took := time.Since(start)
			legalIn(t, p, best)
			if took > scaled(300*time.Millisecond) {
				t.Errorf("%s, %q: bestmove after %v", fen, goCmd, took)
			}
		}
	}
	e.send("quit")
	e.waitExit(5 * time.Second)
}

// TestMemoryBudget: the resident set after setoption Hash N and a search
// that fills the table stays within N + 72 MB + 6 MB per thread, shrinks
// when Hash goes down, and requests beyond the budget are reduced with an
// info string.
func TestMemoryBudget(t *testing.T) {
	if vmRSS(t, os.Getpid()) == 0 {
		t.Skip("no /proc")
	}
	const memMB = 1024 // budget 768 MB
	e := startBudgeted(t, memMB)
	pid := e.cmd.Process.Pid
	for _, c := range []struct{ hash, threads int }{{192, 1}, {64, 4}} {
		e.send(fmt.Sprintf("setoption name Threads value %d", c.threads), fmt.Sprintf("setoption name Hash value %d", c.hash))
		if got := syncScaled(e); len(got) != 0 {
			t.Fatalf("Hash %d Threads %d: %q", c.hash, c.threads, got)
		}
		// The table is resident from the setoption on; a search of 1.5M
		// nodes then fills it (Clear writes a resident table over in place).
		e.search("go depth 1", scaled(10*time.Second))
		e.send("setoption name Clear Hash")
		syncScaled(e)
		e.search("go nodes 1500000", scaled(30*time.Second))
		rss, limit := vmRSS(t, pid), c.hash+baseMB+c.threads*threadMB
		t.Logf("Hash %d MB, Threads %d: RSS %d MB (limit %d)", c.hash, c.threads, rss, limit)
		if rss > limit {
			t.Errorf("Hash %d MB, Threads %d: RSS %d MB over %d MB", c.hash, c.threads, rss, limit)
		}
		if rss < c.hash {
			t.Errorf("Hash %d MB: RSS only %d MB; the test did not touch the table", c.hash, rss)
		}
	}
	e.send("setoption name Threads value 1", "setoption name Hash value 1")
	syncScaled(e)
	rss := vmRSS(t, pid)
	t.Logf("Hash 1 MB, Threads 1: RSS %d MB", rss)
	if rss > 1+baseMB+threadMB {
		t.Errorf("after Hash went down to 1 MB the RSS is still %d MB", rss)
	}

	// Requests that do not fit are reduced, and said so.
	e.send("setoption name Hash value 999999999", "setoption name Threads value 999999999")
	got := syncScaled(e)
	if len(got) != 4 || !strings.Contains(got[0], "above the maximum") || !strings.Contains(got[1], "memory budget") ||
		!strings.Contains(got[2], "above the maximum") || !strings.Contains(got[3], "memory budget") {
		t.Fatalf("oversized requests: %q", got)
	}
	// Hash: 768 - 72 - 8 = 688 MB (a thread is 8 MB since its accumulator
	// stack is sized for the widest, most king-bucketed net a file may
	// hold); then no room for a second thread.
	if !strings.HasSuffix(got[1], "Hash set to 688") || !strings.HasSuffix(got[3], "Threads set to 1") {
		t.Errorf("Hash, Threads: %q", got[1:])
	}
	e.send("setoption name Hash value 16", "setoption name Threads value 999")
	got = syncScaled(e)
	if len(got) != 1 || !strings.HasSuffix(got[0], "Threads set to 85") { // (768-16-72)/8
		t.Errorf("Threads: %q", got)
	}
	e.send("quit")
	e.waitExit(5 * time.Second)
}
