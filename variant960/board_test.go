package variant960_test

import (
	"strings"
	"testing"

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

// TestCaptured: Captured names the piece the last move took, the pawn
// of an en passant capture included, and NoPiece after a quiet move, a
// castling (the king's move onto its own rook), a promotion without a
// capture and a null move; UnmakeNull brings back the earlier answer.
func TestCaptured(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		want      v.Piece
	}{
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", v.MakePiece(v.Black, v.Pawn)},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "g1f3", v.NoPiece},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", v.MakePiece(v.Black, v.Pawn)},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", v.NoPiece},
		{"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", v.NoPiece},
		{"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", v.MakePiece(v.Black, v.Knight)},
	} {
		p := v.MustParseFEN(c.fen)
		m, err := p.ParseMove(c.move)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.move, err)
		}
		p.Make(m)
		if got := p.Captured(); got != c.want {
			t.Errorf("%s %s: Captured %v, want %v", c.fen, c.move, got, c.want)
		}
		p.MakeNull()
		if got := p.Captured(); got != v.NoPiece {
			t.Errorf("%s %s, then a null move: Captured %v, want none", c.fen, c.move, got)
		}
		p.UnmakeNull()
		if got := p.Captured(); got != c.want {
			t.Errorf("%s %s, null move taken back: Captured %v, want %v", c.fen, c.move, got, c.want)
		}
	}
}
