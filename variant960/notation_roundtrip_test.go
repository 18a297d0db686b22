package variant960_test

import (
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// checkNotationRoundTrip writes every legal move as SAN and as UCI in both
// castling forms and reads each back.
func checkNotationRoundTrip(t *testing.T, p *v.Position) {
	t.Helper()
	var ml v.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		san := p.SAN(m)
		if back, err := p.ParseSAN(san); err != nil || back != m {
			t.Errorf("%s: SAN %s read back as %v (%v)", p.FEN(), san, back, err)
		}
		for _, chess960 := range []bool{true, false} {
			s := p.MoveToUCI(m, chess960)
			if back, err := p.ParseMove(s); err != nil || back != m {
				t.Errorf("%s: UCI %s (960=%v) read back as %v (%v)", p.FEN(), s, chess960, back, err)
			}
		}
		if m.IsCastling() {
			want := "O-O"
			if m.To() < m.From() {
				want = "O-O-O"
			}
			if san[:len(want)] != want || (len(san) > len(want) && san[len(want)] == '-') {
				t.Errorf("castling SAN %s, want %s", san, want)
			}
			for _, tok := range []string{want, map[string]string{"O-O": "0-0", "O-O-O": "0-0-0"}[want]} {
				if back, err := p.ParseMove(tok); err != nil || back != m {
					t.Errorf("%s: %s read as %v (%v)", p.FEN(), tok, back, err)
				}
			}
		}
	}
}

func TestNotationRoundTrips(t *testing.T) {
	for n := 0; n < 960; n++ {
		p, _ := v.Chess960Position(n)
		checkNotationRoundTrip(t, p)
	}
	for _, row := range readTSV(t, "perft960_tricky.tsv") {
		p := v.MustParseFEN(row["fen_shredder"])
		checkNotationRoundTrip(t, p)
		// and one ply deeper
		var ml v.MoveList
		p.GenerateLegal(&ml)
		for _, m := range ml.Slice() {
			p.Make(m)
			checkNotationRoundTrip(t, p)
			p.Unmake()
		}
	}
}

func TestCastlingNotationCases(t *testing.T) {
	// Standard: e1g1 and e1h1 both castle; output depends on the mode.
	p := v.MustParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for _, s := range []string{"e1g1", "e1h1", "O-O", "0-0"} {
		m, err := p.ParseMove(s)
		if err != nil || !m.IsCastling() || m.UCI(true) != "e1h1" {
			t.Errorf("%s -> %v %v", s, m, err)
		}
	}
	m, _ := p.ParseMove("e1c1")
	if p.MoveToUCI(m, false) != "e1c1" || p.MoveToUCI(m, true) != "e1a1" {
		t.Errorf("queen-side castling out: %s / %s", p.MoveToUCI(m, false), p.MoveToUCI(m, true))
	}
	// King b1 next to c1: b1c1 is a plain king move, castling is b1a1.
	q := v.MustParseFEN("rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R w HAha - 0 1")
	if m, _ := q.ParseMove("b1c1"); m.IsCastling() {
		t.Error("b1c1 read as castling")
	}
	if m, _ := q.ParseMove("b1a1"); !m.IsCastling() || q.SAN(m) != "O-O-O" {
		t.Error("b1a1 not queen-side castling")
	}
	if m, _ := q.ParseMove("b1g1"); !m.IsCastling() || q.SAN(m) != "O-O" {
		t.Error("b1g1 not king-side castling")
	}
	// Promotion letters in either case.
	r := v.MustParseFEN("8/P6k/8/8/8/8/8/K7 w - - 0 1")
	for _, s := range []string{"a7a8q", "a7a8Q", "a7a8n"} {
		if _, err := r.ParseMove(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"a7a8", "a7a8x", "e2e4", "zz", "e1"} {
		if _, err := r.ParseMove(s); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
}
