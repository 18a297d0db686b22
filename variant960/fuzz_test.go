package variant960

// Fuzz targets. `go test` runs each on its seeds (the f.Add calls and
// testdata/fuzz/<name>/); `make fuzz` runs each for FUZZTIME.

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// seedFENs are positions that exercise castling (standard, 960, DFRC,
// kings and rooks on every kind of square), en passant, promotion, check
// and pins.
var seedFENs = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R w HAha - 0 1",
	"1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1",
	"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
	"qrbkrbnn/pppppppp/8/8/8/8/PPPPPPPP/NNRKBRQB w FCeb - 0 1",
	"rkr5/8/8/8/8/8/8/RKR5 w CAca - 0 1",
	"5rkr/8/8/8/8/8/8/5RKR b HFhf - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
	"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 50",
	"4k3/8/8/8/8/8/8/4K2R w K - 0 1",
	"1k6/8/8/8/8/8/8/1RK5 w B - 0 1",
	"6kr/8/8/8/8/8/8/5RK1 b h - 0 1",
	"4k3/8/8/8/8/8/8/R3K2R w HA - 0 1",
	"4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1",
	"2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
	"8/8/8/8/8/5k2/6q1/7K w - - 0 1",
	"4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
	// Bad ones: the parser must say why, not panic.
	"",
	"8/8/8/8/8/8/8/8 w - - 0 1",
	"QQQQQQQQ/QQQQQQQQ/QQQk4/8/8/8/8/4K3 w - - 0 1",
	"kK6/8/8/8/8/8/8/8 w - - 0 1",
	"P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
	"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
	"4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
	"4k3/8/8/8/8/8/8/4K3 x - - 0 1",
	"4k3/8/8/8/8/8/8/4K3 w - - -1 1",
	"4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999",
	"4k3/8/8/8/8/8/8/4K3 w - - 9223372036854775807 9223372036854775807",
	"9/8/8/8/8/8/8/4K2k w - - 0 1",
	"4k3/8/8/8/8/8/8/4K3\x00 w - - 0 1",
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
	"4k3/8/8/8/8/8/8/4K3 w AHah - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K2R w ABCDEFGH - 0 1",
}

// checkPosition checks p's consistency and that each of its FENs reads
// back as the same position.
func checkPosition(t *testing.T, p *Position, what string) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatalf("%s: %s: inconsistent: %v", what, p.ShredderFEN(), err)
	}
	for _, fen := range []string{p.FEN(), p.ShredderFEN(), p.XFEN()} {
		q, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: own FEN %q does not parse: %v", what, fen, err)
		}
		if d := p.SameState(q); d != "" {
			t.Fatalf("%s: FEN %q reads back with a different %s", what, fen, d)
		}
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range seedFENs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			if p != nil || err.Error() == "" {
				t.Fatalf("error %v with position %v", err, p)
			}
			return
		}
		checkPosition(t, p, "parsed")
		// Every legal move keeps the position consistent, and unmaking
		// restores it exactly.
		var ml MoveList
		p.GenerateLegal(&ml)
		for _, m := range ml.Slice() {
			before := p.Copy()
			p.Make(m)
			if err := p.Validate(); err != nil {
				t.Fatalf("%s after %s: %v", before.ShredderFEN(), m, err)
			}
			p.Unmake()
			if d := identical(before, p); d != "" {
				t.Fatalf("%s: make/unmake %s changed %s", before.ShredderFEN(), m, d)
			}
		}
	})
}

// identical compares everything, history included.
func identical(p, q *Position) string {
	if d := p.SameState(q); d != "" {
		return d
	}
	if p.castleRook != q.castleRook || p.castlePath != q.castlePath || p.castleWalk != q.castleWalk || p.castleMask != q.castleMask {
		return "castling geometry"
	}
	if len(p.states) != len(q.states) {
		return "history length"
	}
	for i := range p.states {
		if p.states[i] != q.states[i] {
			return "history"
		}
	}
	return ""
}

// moveForms returns every way a GUI may write a legal move in UCI.
func moveForms(p *Position, m Move) []string {
	forms := []string{m.UCI(true), m.UCI(false), p.MoveToUCI(m, true), p.MoveToUCI(m, false), strings.ToUpper(m.UCI(true)[4:])}
	forms[4] = m.UCI(true)[:4] + forms[4] // promotion letter upper case
	if m.IsCastling() {
		if m.To() > m.From() {
			forms = append(forms, "O-O", "0-0", "o-o")
		} else {
			forms = append(forms, "O-O-O", "0-0-0", "o-o-o")
		}
	}
	return forms
}

func FuzzParseMove(f *testing.F) {
	moves := []string{"e1g1", "e1h1", "e1c1", "e1a1", "b1a1", "b1c1", "b1h1", "b1g1", "O-O", "O-O-O", "0-0", "0-0-0",
		"o-o", "e8g8", "a7a8q", "a7a8Q", "b7a8n", "e5f6", "e2e4", "0000", "(none)", "e1e1", "h1h1", "a1", "e7e8k", "z9z9", ""}
	for i, fen := range seedFENs {
		f.Add(fen, moves[i%len(moves)], i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, fen, s string, chess960 bool) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		var ml MoveList
		p.GenerateLegal(&ml)
		if m, err := p.ParseMove(s); err == nil {
			if !ml.Contains(m) {
				t.Fatalf("%s: %q read as %s, not a legal move", p.ShredderFEN(), s, m)
			}
			if back, err := p.ParseMove(p.MoveToUCI(m, chess960)); err != nil || back != m {
				t.Fatalf("%s: %q -> %s -> %q -> %v, %v", p.ShredderFEN(), s, m, p.MoveToUCI(m, chess960), back, err)
			}
		}
		// Every legal move reads back from the engine's own output in
		// both modes, and from every other form it may be sent in.
		for _, m := range ml.Slice() {
			for _, form := range moveForms(p, m) {
				if m.IsCastling() && form == m.UCI(false) && form != p.MoveToUCI(m, false) {
					continue // the king's move would read as another move
				}
				got, err := p.ParseMove(form)
				if err != nil || got != m {
					t.Fatalf("%s: %s written %q reads as %v, %v", p.ShredderFEN(), m, form, got, err)
				}
			}
		}
	})
}

func FuzzParseSAN(f *testing.F) {
	sans := []string{"e4", "Nf3", "O-O", "O-O-O", "0-0", "Qxe7+", "exf6", "exf6e.p.", "a8=Q", "a8Q", "bxa8=N#", "Rhd1",
		"R1a3", "Qh4e1", "Kb1", "e8=K", "Nbd7", "x", "", "O-O-O-O", "Ra1xa8!?", "P"}
	for i, fen := range seedFENs {
		f.Add(fen, sans[i%len(sans)])
	}
	f.Fuzz(func(t *testing.T, fen, san string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		var ml MoveList
		p.GenerateLegal(&ml)
		if m, err := p.ParseSAN(san); err == nil && !ml.Contains(m) {
			t.Fatalf("%s: SAN %q read as %s, not a legal move", p.ShredderFEN(), san, m)
		}
		for _, m := range ml.Slice() {
			s := p.SAN(m)
			if got, err := p.ParseSAN(s); err != nil || got != m {
				t.Fatalf("%s: %s written %q reads as %v, %v", p.ShredderFEN(), m, s, got, err)
			}
		}
	})
}

// FuzzRandomGame plays random legal games from random Chess960 and DFRC
// start positions. After every move the incremental state must match a
// fresh parse of the position's FEN, and Make followed by Unmake must
// restore everything.
func FuzzRandomGame(f *testing.F) {
	for i := uint64(0); i < 8; i++ {
		f.Add(i, uint16(i*137), uint16(i*311), uint16(200))
	}
	f.Add(uint64(1), uint16(518), uint16(518), uint16(300))
	f.Fuzz(func(t *testing.T, seed uint64, white, black, plies uint16) {
		p, err := DFRCPosition(int(white%960), int(black%960))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
		for n := 0; n < int(plies%400); n++ {
			var ml MoveList
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				return
			}
			// Make/unmake of every move restores the position.
			for _, m := range ml.Slice() {
				before := p.Copy()
				p.Make(m)
				p.Unmake()
				if d := identical(before, p); d != "" {
					t.Fatalf("%s: make/unmake %s changed %s", before.ShredderFEN(), m, d)
				}
			}
			// Prefer captures, castling and promotions now and then, so
			// that games reach the interesting cases.
			m := ml.Moves[r.IntN(ml.N)]
			if r.IntN(3) == 0 {
				for _, c := range ml.Slice() {
					if c.IsCastling() || c.Promotion() != NoPieceType || p.PieceOn(c.To()) != NoPiece {
						m = c
						break
					}
				}
			}
			p.Make(m)
			checkPosition(t, p, "after "+m.String())
		}
	})
}
