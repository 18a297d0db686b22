package tests

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The command loop must answer isready, stop, quit and the end of input
// whatever else runs: these tests drive the built binary.

// TestGenfensDoesNotBlockLoop: genfens ran inside the command loop, so a
// large N kept isready, stop, quit and the end of input waiting until it
// had ended (a million openings take hours). It runs like a search now.
func TestGenfensDoesNotBlockLoop(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	e.send("genfens 1048576 seed 1 book None")
	start := time.Now()
	got := e.sync()
	if took := time.Since(start); took > 5*sec {
		t.Errorf("readyok after %v during genfens", took)
	}
	for _, l := range got {
		if !strings.HasPrefix(l, "info string genfens ") {
			t.Errorf("unexpected line %q", l)
		}
	}
	// stop ends it, with an info string; the loop goes on.
	e.send("stop")
	got = e.until("info string error: genfens", 5*sec)
	if l := got[len(got)-1]; !strings.Contains(l, "stopped") {
		t.Errorf("after stop: %q", l)
	}
	e.sync()
	best, _, _ := e.search("go depth 2", 10*sec)
	if best == "" || best == "0000" {
		t.Errorf("no move after genfens: %q", best)
	}

	// quit during genfens exits at once.
	e.send("genfens 1048576 seed 2 book None")
	e.sync()
	start = time.Now()
	e.send("quit")
	e.waitExit(5 * sec)
	t.Logf("quit during genfens: exit after %v", time.Since(start).Round(time.Millisecond))

	// So does the end of input.
	e = startEngine(t)
	e.handshake()
	e.send("genfens 1048576 seed 3 book None")
	e.sync()
	e.closeAndWait(5 * sec)

	// A go during genfens ends it and searches.
	e = startEngine(t)
	e.handshake()
	e.send("genfens 1048576 seed 4 book None", "position startpos")
	e.sync()
	best, _, _ = e.search("go depth 2", 10*sec)
	if best == "" || best == "0000" {
		t.Errorf("go during genfens: %q", best)
	}
	e.noSecondBestmove()
	e.closeAndWait(5 * sec)
}

// TestGenfensArgvRunsToTheEnd: on the command line (OpenBench's form),
// genfens still prints all N openings before quit is read.
func TestGenfensArgvRunsToTheEnd(t *testing.T) {
	out, err := exec.Command(plainBin(t), "genfens 5 seed 7 book None", "quit").Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "info string genfens "); n != 5 {
		t.Errorf("%d openings, want 5:\n%s", n, out)
	}
}

// TestCommandLineGoEnds: `rochade go` (a search with no limit) on the
// command line searched for good, the end of input notwithstanding. As
// Stockfish does, a search with no limit of its own that is running when
// the arguments are done is stopped; it still prints its bestmove.
func TestCommandLineGoEnds(t *testing.T) {
	for _, args := range [][]string{{"go"}, {"go infinite"}, {"position startpos moves e2e4", "go ponder"}, {"go", "isready"}} {
		cmd := exec.Command(plainBin(t), args...)
		devnull, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = devnull
		timer := time.AfterFunc(20*sec, func() { cmd.Process.Kill() })
		start := time.Now()
		out, err := cmd.Output()
		timer.Stop()
		devnull.Close()
		took := time.Since(start)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if err != nil || took > 10*sec || !strings.HasPrefix(lines[len(lines)-1], "bestmove ") {
			t.Errorf("rochade %q: %v after %v; output ends %q", args, err, took.Round(time.Millisecond), lines[len(lines)-1])
		}
		if n := strings.Count(string(out), "bestmove "); n != 1 {
			t.Errorf("rochade %q: %d bestmoves", args, n)
		}
	}
	// A search with a limit still runs to it.
	out, err := exec.Command(plainBin(t), "position startpos", "go depth 6").Output()
	if err != nil || !strings.Contains(string(out), "info depth 6 ") || !strings.Contains(string(out), "bestmove ") {
		t.Errorf("go depth 6: %v\n%s", err, out)
	}
}

// TestMateSearchEnds: go mate N where there is no mate in N deepened to
// the last ply, so on the command line (no stop can follow) it never
// ended. It now gives up 16 plies beyond the mate's length; a mate that is
// there is still found, and a depth limit given with it is kept.
func TestMateSearchEnds(t *testing.T) {
	cases := []struct {
		args     []string
		want     string // in the last info line
		maxDepth int
	}{
		{[]string{"position fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1", "go mate 2"}, "", 2*2 - 1 + 16},
		{[]string{"position fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1", "go mate 1 depth 5"}, "", 5},
		{[]string{"position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go mate 1"}, "score mate 1 ", 1 + 16},
	}
	for _, c := range cases {
		cmd := exec.Command(plainBin(t), c.args...)
		timer := time.AfterFunc(scaled(60*sec), func() { cmd.Process.Kill() })
		out, err := cmd.Output()
		timer.Stop()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if err != nil || len(lines) < 2 || !strings.HasPrefix(lines[len(lines)-1], "bestmove ") || strings.Count(string(out), "bestmove ") != 1 {
			t.Errorf("rochade %q: %v; output ends %q", c.args, err, lines[len(lines)-1])
			continue
		}
		info := lines[len(lines)-2]
		var depth int
		if _, err := fmt.Sscanf(info, "info depth %d", &depth); err != nil || depth > c.maxDepth || !strings.Contains(info, c.want) {
			t.Errorf("rochade %q: last info %q, want depth at most %d and %q", c.args, info, c.maxDepth, c.want)
		}
	}
}

// TestCommandLinePerft: a go perft given on the command line counts to its
// depth, as a limit does. It was stopped before its first root move
// ("stopped after 0 of 20 root moves", Nodes searched: 0), since go perft
// sets no search limit and so looked like a bare go.
func TestCommandLinePerft(t *testing.T) {
	for _, args := range [][]string{{"go perft 3"}, {"position startpos", "go perft 3"}, {"ucinewgame", "go perft 3", "isready"}} {
		out, err := exec.Command(plainBin(t), args...).Output()
		if err != nil || !strings.Contains(string(out), "\nNodes searched: 8902\n") || strings.Contains(string(out), "stopped") {
			t.Errorf("rochade %q: %v\n%s", args, err, out)
		}
	}
	out, err := exec.Command(plainBin(t), "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "go perft 2").Output()
	if err != nil || !strings.Contains(string(out), "\nNodes searched: 568\n") {
		t.Errorf("go perft 2 of a castling position: %v\n%s", err, out)
	}
}

// TestRefusedPerft: a go perft whose depth is refused runs nothing. It
// used to run a depth-1 search in its place and print a bestmove no one
// had asked for.
func TestRefusedPerft(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	e.send("position startpos")
	for _, cmd := range []string{"go perft 0", "go perft -3", "go perft x", "go perft"} {
		e.send(cmd)
		got := e.sync()
		if len(got) != 1 || !strings.HasPrefix(got[0], "info string error: go: perft") {
			t.Errorf("%q: %q, want one error line and no search", cmd, got)
		}
	}
	// A good one still counts.
	e.send("go perft 2")
	if got := e.until("Nodes searched", 10*sec); got[len(got)-1] != "Nodes searched: 400" {
		t.Errorf("go perft 2: %q", got)
	}
	e.noSecondBestmove()
}

// TestOverlongLines: a line over 1 MiB is dropped with an error, but a
// lost go still gets its one bestmove (0000: nothing was searched), and a
// lost position is a refused one also after unknown leading tokens.
func TestOverlongLines(t *testing.T) {
	moves := strings.Repeat(" g1f3 g8f6 f3g1 f6g8", 60000)
	e := startEngine(t)
	e.handshake()
	e.send("position startpos")
	e.send("go depth 5 searchmoves" + moves)
	got := e.until("bestmove", 5*sec)
	if got[len(got)-1] != "bestmove 0000" || !contains(got, "info string error: a line of more than") {
		t.Errorf("an over-long go: %q", got)
	}
	e.noSecondBestmove()

	// The position before is kept: an over-long go refuses nothing.
	best, _, _ := e.search("go depth 2", 10*sec)
	if best == "0000" {
		t.Errorf("go after an over-long go: %q", best)
	}

	// An over-long go during a search: that search gets its bestmove,
	// and the lost go its own.
	e.send("go infinite")
	e.send("go infinite" + moves)
	first := e.until("bestmove", 5*sec)
	second := e.until("bestmove", 5*sec)
	if first[len(first)-1] == "bestmove 0000" || second[len(second)-1] != "bestmove 0000" {
		t.Errorf("an over-long go during a search: %q then %q", first, second)
	}
	e.noSecondBestmove()

	// An over-long go perft prints no bestmove (go perft never does).
	e.send("go perft 3" + strings.Repeat(" x", 600000))
	got = e.sync()
	if len(got) != 1 || !strings.Contains(got[0], "was ignored") {
		t.Errorf("an over-long go perft: %q", got)
	}

	// Unknown tokens before an over-long position: still a refused one.
	e.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
	e.send("joho hallo position startpos moves" + moves)
	e.sync()
	e.send("go depth 3")
	got = e.until("bestmove", 5*sec)
	if got[len(got)-1] != "bestmove 0000" {
		t.Errorf("go after a lost position line behind unknown tokens: %q", got)
	}

	// A command without arguments is still run: a GUI waiting for
	// readyok gets it.
	e.send("isready" + strings.Repeat(" x", 600000))
	got = e.until("readyok", 5*sec)
	if len(got) != 2 || !strings.Contains(got[0], "was ignored") {
		t.Errorf("an over-long isready: %q", got)
	}
	e.send("quit" + strings.Repeat(" x", 600000))
	e.waitExit(5 * sec)
}

// TestPonderhitDuringPerft: a ponderhit during a go perft that was the
// session's first job crashed the engine (no search control existed yet).
func TestPonderhitDuringPerft(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	e.send("position startpos", "go perft 6", "ponderhit", "stop")
	e.until("Nodes searched: ", 10*sec)
	e.sync()
	e.closeAndWait(5 * sec)
}
