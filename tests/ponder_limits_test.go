package tests

import (
	"strings"
	"testing"
	"time"
)

// TestUCIPonderLimits: a ponder search never ends by itself, whatever
// limit its go carries, and after the ponderhit it answers with exactly
// one bestmove. A node limit is ignored while pondering and applies
// from the ponderhit on, counted from the go (as in Stockfish): the
// search then ends at once. Before, `go ponder nodes 20000` after
// 1.e4 e5 printed `bestmove d2d4 ponder g8f6` by itself, before the
// ponderhit, and nothing after it: the node check stopped the search
// before it looked at the pondering.
func TestUCIPonderLimits(t *testing.T) {
	const mateIn1 = "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1" // Ra8#
	cases := []struct {
		name, setup, goCmd string
	}{
		{"nodes", "", "go ponder nodes 20000"},
		{"nodes+time", "", "go ponder nodes 20000 wtime 60000 btime 60000"},
		{"depth", "", "go ponder depth 3"},
		{"movetime", "", "go ponder movetime 100"},
		{"mate", mateIn1, "go ponder mate 1"},
		{"time", "", "go ponder wtime 200 btime 200"},
		{"elo", "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1320", "go ponder"},
		{"elo+nodes", "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1320", "go ponder nodes 500"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := startEngine(t)
			e.send("uci", "setoption name Ponder value true", "setoption name Hash value 8")
			e.until("uciok", 10*sec)
			if c.setup != "" {
				e.send(strings.Split(c.setup, "\n")...)
			}
			pos := "position startpos moves e2e4 e7e5"
			if strings.HasPrefix(c.goCmd, "go ponder mate") {
				pos = mateIn1
			}
			e.send("ucinewgame", pos)
			e.sync()
			e.send(c.goCmd)
			linesFor(e, 700*time.Millisecond) // fails on a bestmove
			start := time.Now()
			e.send("ponderhit")
			lines := e.until("bestmove", 10*sec)
			d := time.Since(start)
			if !reBest.MatchString(lines[len(lines)-1]) {
				t.Fatalf("bad bestmove line %q", lines[len(lines)-1])
			}
			// Some limit is spent by the ponderhit in every case (the
			// node count, the depth, the mate, 100 ms, the clock's
			// soft limit, the level's caps).
			if d > 2*sec {
				t.Errorf("%s: bestmove %v after the ponderhit, want it at once", c.goCmd, d.Round(time.Millisecond))
			}
			e.noSecondBestmove()
			e.closeAndWait(5 * sec)
		})
	}
}
