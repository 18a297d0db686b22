package tests

import (
	"strings"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

func TestFENErrorsNameTheField(t *testing.T) {
	cases := []struct{ fen, field string }{
		{"", "fen"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "fen"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "piece placement"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "piece placement"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w - - 0 1", "piece placement"},    // no white king
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", "piece placement"},    // two kings
		{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w - - 0 1", "piece placement"},    // pawn on 8th
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w - - 0 1", "piece placement"},    // pawn on 1st
		{"rnbqkbnr/pppppppp/8/8/8/QQQ5/PPPPPPPP/RNBQKBNR w - - 0 1", "piece placement"}, // 19 pieces
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
		{"rnbqkbnr/ppppp1pp/8/7Q/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", "side to move"}, // black in check, white to move
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "castling"},
		{"4k3/8/8/8/8/8/8/4KRRR w HG - 0 1", "castling"}, // two rights on one side
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq zz 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -3 1", "halfmove clock"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 z", "fullmove number"},
	}
	for _, c := range cases {
		_, err := v.ParseFEN(c.fen)
		if err == nil {
			t.Errorf("%q accepted", c.fen)
			continue
		}
		fe, ok := err.(*v.FENError)
		if !ok || fe.Field != c.field {
			t.Errorf("%q: error %v, want field %q", c.fen, err, c.field)
		}
	}
}

func TestFENForms(t *testing.T) {
	// Four fields only.
	p, err := v.ParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
	if err != nil || p.FEN() != v.StartFEN {
		t.Fatalf("4-field FEN: %v %v", err, p)
	}
	// Standard, X-FEN and Shredder-FEN for the same position agree.
	a := v.MustParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	b := v.MustParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
	if a.Key() != b.Key() || a.FEN() != b.FEN() || a.ShredderFEN() != "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1" {
		t.Errorf("KQkq vs HAha: %s / %s", a.FEN(), b.ShredderFEN())
	}
	// X-FEN with an inner rook named by its file.
	x := v.MustParseFEN("rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1")
	if x.CastlingRook(v.White, v.QueenSide).String() != "b1" || x.CastlingRook(v.Black, v.QueenSide).String() != "b8" {
		t.Errorf("X-FEN inner rook: %s", x.ShredderFEN())
	}
	if x.XFEN() != "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1" {
		t.Errorf("X-FEN out: %s", x.XFEN())
	}
	q := v.MustParseFEN("rr2k3/8/8/8/8/8/8/RR2K3 w Qq - 0 1")
	if q.CastlingRook(v.White, v.QueenSide).String() != "a1" || q.XFEN() != "rr2k3/8/8/8/8/8/8/RR2K3 w Qq - 0 1" {
		t.Errorf("X-FEN outer rook: %s", q.ShredderFEN())
	}
	// DFRC Shredder letters.
	d := v.MustParseFEN("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1")
	if d.ShredderFEN() != "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1" {
		t.Errorf("DFRC: %s", d.ShredderFEN())
	}
	// An en-passant square that exists but allows no capture is dropped,
	// and does not change the key.
	e1 := v.MustParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	e2 := v.MustParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if e1.Key() != e2.Key() || strings.Contains(e1.FEN(), "e3") {
		t.Errorf("useless ep square kept: %s", e1.FEN())
	}
	// A capturable one is kept.
	e3 := v.MustParseFEN("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	if e3.EPSquare().String() != "e3" || e3.Key() == v.MustParseFEN("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").Key() {
		t.Errorf("ep square lost: %s", e3.FEN())
	}
	// ...but not if the capture is illegal (pinned along the rank).
	e4 := v.MustParseFEN("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1")
	if e4.EPSquare() != v.NoSquare {
		t.Errorf("illegal ep kept: %s", e4.FEN())
	}
}

func TestIncrementalKeyMatchesFEN(t *testing.T) {
	for _, row := range readTSV(t, "perft960_tricky.tsv") {
		p := v.MustParseFEN(row["fen_shredder"])
		walkKeys(t, p, 2)
	}
}

func walkKeys(t *testing.T, p *v.Position, depth int) {
	if depth == 0 {
		return
	}
	var ml v.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		p.Make(m)
		q := v.MustParseFEN(p.ShredderFEN())
		if q.Key() != p.Key() || q.PawnKey() != p.PawnKey() {
			t.Fatalf("key mismatch after %s: %s", m, p.ShredderFEN())
		}
		walkKeys(t, p, depth-1)
		p.Unmake()
	}
}

func TestDraws(t *testing.T) {
	for _, c := range []struct {
		fen  string
		dead bool
	}{
		{"8/8/8/4k3/8/8/8/4K3 w - - 0 1", true},
		{"8/8/8/4k3/8/8/8/4KN2 w - - 0 1", true},
		{"8/8/8/4k3/8/8/8/4KB2 w - - 0 1", true},
		{"8/8/8/4kb2/8/8/8/4KB2 w - - 0 1", true},   // f5 and f1: same colour
		{"8/8/8/4k1b1/8/8/8/4KB2 w - - 0 1", false}, // g5 and f1: opposite colours, mate exists
		{"8/8/8/4kn2/8/8/8/4KN2 w - - 0 1", false},
		{"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false},
	} {
		if got := v.MustParseFEN(c.fen).InsufficientMaterial(); got != c.dead {
			t.Errorf("%s: insufficient = %v", c.fen, got)
		}
	}
	p := v.NewStartPosition()
	for i, s := range []string{"g1f3", "g8f6", "f3g1", "f6g8"} {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
		if p.IsRepetition() != (i == 3) {
			t.Errorf("after %s repetition = %v", s, p.IsRepetition())
		}
	}
	f := v.MustParseFEN("8/8/8/4k3/8/8/4P3/R3K3 w - - 100 80")
	if !f.IsDraw() {
		t.Error("fifty-move rule not seen")
	}
	// Checkmate on the 100th half-move is not a draw.
	m := v.MustParseFEN("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80")
	if m.IsDraw() {
		t.Error("mate taken for a fifty-move draw")
	}
}

func TestGivesCheckAndSEE(t *testing.T) {
	n := 0
	for _, row := range readTSV(t, "perft960_tricky.tsv") {
		p := v.MustParseFEN(row["fen_shredder"])
		var walk func(d int)
		walk = func(d int) {
			var ml v.MoveList
			p.GenerateLegal(&ml)
			for _, m := range ml.Slice() {
				gc := p.GivesCheck(m)
				p.Make(m)
				if gc != p.InCheck() {
					t.Fatalf("GivesCheck(%s) = %v in %s", m, gc, row["fen_shredder"])
				}
				n++
				if d > 1 {
					walk(d - 1)
				}
				p.Unmake()
			}
		}
		walk(2)
	}
	// SEE: pawn takes defended knight wins; queen takes defended pawn loses.
	p := v.MustParseFEN("4k3/8/3p4/4n3/3P4/8/8/3QK3 w - - 0 1")
	m, _ := p.ParseMove("d4e5")
	if !p.SEE(m, 0) || !p.SEE(m, 200) || p.SEE(m, 400) {
		t.Error("SEE d4xe5")
	}
	q := v.MustParseFEN("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1")
	m, _ = q.ParseMove("e1e5")
	if q.SEE(m, 0) || !q.SEE(m, -900) {
		t.Error("SEE Qxe5")
	}
}

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
