package variant960

import (
	"strings"
	"testing"
)

// Castling rights the board cannot have are dropped, in every FEN form,
// and named; the position is the one written without them.
func TestFENDropsImpossibleCastlingRights(t *testing.T) {
	cases := []struct {
		fen, want string // want: the FEN read with the impossible rights left out
		dropped   string // the dropped characters, in FEN order
	}{
		// Standard FEN: no black rooks at all.
		{"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "kq"},
		// No h1 rook in the start position.
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1", "K"},
		// Shredder-FEN naming an empty file and a file holding a knight.
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w C - 0 1", StartFEN[:len(StartFEN)-10] + "- - 0 1", "C"},
		{"4k3/8/8/8/8/8/8/RN2K2R w HBh - 0 1", "4k3/8/8/8/8/8/8/RN2K2R w K - 0 1", "Bh"},
		// Shredder-FEN in Chess960: the rooks named, one of them gone.
		{"1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K4 w GBgb - 0 1", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K4 w Bgb - 0 1", "G"},
		// X-FEN: K with the king on the h-file (no rook beyond it), Q with
		// the only rook on the king's other side.
		{"4k3/8/8/8/8/8/8/R6K w KQ - 0 1", "4k3/8/8/8/8/8/8/R6K w Q - 0 1", "K"},
		{"r3k3/8/8/8/8/8/8/4K3 b kq - 0 1", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "k"},
		// X-FEN with an inner rook named by its file, and that file empty.
		{"rr2k3/8/8/8/8/8/8/R3K3 w Bb - 0 1", "rr2k3/8/8/8/8/8/8/R3K3 w b - 0 1", "B"},
		// A king off its first rank loses all of its side's rights.
		{"rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w kq - 0 1", "KQ"},
		// Nothing left.
		{"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "KQkq"},
		{"4k3/8/8/8/8/8/8/4K3 w AHah - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "AHah"},
	}
	for _, c := range cases {
		p, dropped, err := ParseFENDropped(c.fen)
		if err != nil {
			t.Errorf("%s: refused: %v", c.fen, err)
			continue
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: inconsistent: %v", c.fen, err)
		}
		want := MustParseFEN(c.want)
		if d := p.SameState(want); d != "" || p.CastlingRights() != want.CastlingRights() || p.Key() != want.Key() {
			t.Errorf("%s: read as %s, want %s (%s)", c.fen, p.ShredderFEN(), want.ShredderFEN(), d)
		}
		var got strings.Builder
		for _, d := range dropped {
			got.WriteRune(d.Char)
			if d.Reason == "" || !strings.Contains(d.String(), d.Reason) {
				t.Errorf("%s: dropped %q without a reason", c.fen, d.Char)
			}
		}
		if got.String() != c.dropped {
			t.Errorf("%s: dropped %q, want %q (%v)", c.fen, got.String(), c.dropped, dropped)
		}
		// ParseFEN reads it the same way.
		if q, err := ParseFEN(c.fen); err != nil || q.Key() != p.Key() {
			t.Errorf("%s: ParseFEN: %v", c.fen, err)
		}
	}

	// The reasons say what is missing.
	_, dropped, _ := ParseFENDropped("4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	if len(dropped) != 2 || dropped[0].Reason != "no black rook on the king's side" || dropped[1].Reason != "no black rook on the queen's side" {
		t.Errorf("reasons: %v", dropped)
	}
	_, dropped, _ = ParseFENDropped("4k3/8/8/8/8/8/8/RN2K2R w HBh - 0 1")
	if len(dropped) != 2 || dropped[0].Reason != "no white rook on b1" {
		t.Errorf("reasons: %v", dropped)
	}

	// Possible rights drop nothing.
	for _, fen := range []string{StartFEN, "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"} {
		if _, dropped, err := ParseFENDropped(fen); err != nil || len(dropped) != 0 {
			t.Errorf("%s: dropped %v, error %v", fen, dropped, err)
		}
	}

	// What is no right at all, or two rights on one side, is still an error.
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq1 - 0 1",
		"4k3/8/8/8/8/8/8/4KRRR w HG - 0 1",
	} {
		p, dropped, err := ParseFENDropped(fen)
		fe, ok := err.(*FENError)
		if !ok || fe.Field != "castling" || p != nil || dropped != nil {
			t.Errorf("%s: got %v, %v, error %v; want a castling error", fen, p, dropped, err)
		}
	}
}

// Move counters beyond the largest ones kept are read as those, however
// many digits they have; signs and non-numbers are errors.
func TestFENCounterClamp(t *testing.T) {
	const board = "4k3/8/8/8/8/8/8/4K2R w K - "
	for _, c := range []struct {
		counters     string
		rule50, full int
	}{
		{"0 1", 0, 1},
		{"7 0", 7, 1},
		{"65536 16777216", 65536, 1 << 24},
		{"65537 16777217", 65536, 1 << 24},
		{"99999999999999999999 1", 65536, 1},
		{"3 99999999999999999999", 3, 1 << 24},
		{"999999999999999999999999999999 999999999999999999999999999999", 65536, 1 << 24},
	} {
		p, err := ParseFEN(board + c.counters)
		if err != nil {
			t.Errorf("%q: %v", c.counters, err)
			continue
		}
		if p.Rule50() != c.rule50 || p.FullMove() != c.full {
			t.Errorf("%q: halfmove clock %d, fullmove %d; want %d, %d", c.counters, p.Rule50(), p.FullMove(), c.rule50, c.full)
		}
		if p.Key() != MustParseFEN(board+"0 1").Key() {
			t.Errorf("%q: key differs", c.counters)
		}
	}
	for _, bad := range []string{"-1 1", "-99999999999999999999 1", "0 -99999999999999999999", "x 1", "0 1x", "0 1e30"} {
		if _, err := ParseFEN(board + bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
