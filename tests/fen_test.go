package tests

import (
	"strings"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// A FEN with castling rights that no rook supports is accepted over the
// pipes, as Stockfish accepts it: the rights are dropped and named in one
// info string, and go searches that position (it once kept the previous
// one and answered e2e4 here).
func TestUCIPositionDropsImpossibleCastling(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	for _, c := range []struct{ fen, want, dropped string }{
		{"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "k (no black rook on the king's side), q (no black rook on the queen's side)"},
		{"4k3/8/8/8/8/8/8/R3K2R w HAha - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "h (no black rook on h8), a (no black rook on a8)"},
		{"1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K4 w GBgb - 0 1", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K4 w Bgb - 0 1", "G (no white rook on g1)"},
	} {
		e.send("position startpos moves e2e4") // a previous position to forget
		e.send("position fen " + c.fen)
		got := e.sync()
		if len(got) != 1 || got[0] != "info string position: castling rights the board cannot have were dropped from the FEN: "+c.dropped {
			t.Errorf("%s: got %q, want one info string naming %s", c.fen, got, c.dropped)
		}
		want := v.MustParseFEN(c.want)
		e.send("setoption name UCI_Chess960 value true")
		if f := e.fen(); f != want.ShredderFEN() {
			t.Errorf("%s: position %s, want %s", c.fen, f, want.ShredderFEN())
		}
		e.send("setoption name UCI_Chess960 value false")
		best, _, _ := e.search("go depth 3", 20*time.Second)
		legalIn(t, want, best)
	}
	e.closeAndWait(5 * time.Second)
}

// After any refused position command, go searches nothing: it answers an
// info string error and bestmove 0000 at once (go infinite and go ponder
// too), until a position is accepted. It once searched the previous
// position and played a move of another game.
func TestUCIGoAfterRefusedPosition(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	refused := []string{
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1",
		"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
		"position startpos moves e2e4 e7e5 e1e3",
		"position startpos e2e4",
		"position nowhere",
		"position",
	}
	for _, bad := range refused {
		for _, goCmd := range []string{"go depth 5", "go wtime 1000 btime 1000", "go infinite", "go ponder wtime 1000 btime 1000", "go"} {
			e.send("position startpos moves e2e4", bad)
			got := e.sync()
			if len(got) != 1 || !strings.HasPrefix(got[0], "info string error: position") || !strings.Contains(got[0], "no position is set") {
				t.Errorf("%q: got %q, want one error saying no position is set", bad, got)
			}
			e.send(goCmd)
			got = e.until("bestmove", 5*time.Second)
			if len(got) != 2 || !strings.HasPrefix(got[0], "info string error: go: no position is set") || got[1] != "bestmove 0000" {
				t.Errorf("%q, %q: got %q, want an error and bestmove 0000", bad, goCmd, got)
			}
			e.noSecondBestmove()
		}
		// d says so too, and go perft counts nothing.
		e.send("d", "go perft 2")
		got := e.sync()
		if len(got) != 2 || !strings.HasPrefix(got[0], "info string no position is set") || !strings.HasPrefix(got[1], "info string error: go: no position is set") {
			t.Errorf("%q: d and go perft: %q", bad, got)
		}
	}
	// A go during a search, after a refused position, stops the search
	// (which answers with its own move) and then answers 0000.
	e.send("position startpos", "go infinite", "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "go depth 3")
	first := e.until("bestmove", 5*time.Second)
	legalIn(t, v.NewStartPosition(), strings.Fields(first[len(first)-1])[1])
	if second := e.until("bestmove", 5*time.Second); second[len(second)-1] != "bestmove 0000" {
		t.Errorf("go after the refused position: %q", second)
	}
	// A good position ends it.
	e.send("position startpos moves e2e4")
	p := v.NewStartPosition()
	p.Make(legalIn(t, p, "e2e4"))
	best, _, _ := e.search("go depth 3", 20*time.Second)
	legalIn(t, p, best)
	e.closeAndWait(5 * time.Second)
}

// TestUCIGoAfterTooLongPosition: a position line over the 1 MiB limit is
// lost, which is a refused position: the next go must not search the
// position before it.
func TestUCIGoAfterTooLongPosition(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	e.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
	long := "position startpos moves" + strings.Repeat(" g1f3 g8f6 f3g1 f6g8", 60000)
	e.send(long)
	got := e.sync()
	if len(got) != 1 || !strings.Contains(got[0], "was ignored") {
		t.Errorf("the long line: got %q, want one error", got)
	}
	e.send("go depth 3")
	got = e.until("bestmove", 5*time.Second)
	if got[len(got)-1] != "bestmove 0000" {
		t.Errorf("go after a lost position line: %q, want bestmove 0000", got)
	}
	e.send("position startpos", "go depth 2")
	got = e.until("bestmove", 5*time.Second)
	legalIn(t, v.NewStartPosition(), strings.Fields(got[len(got)-1])[1])
}
