package variant960

import (
	"math/rand"
	"testing"
)

// TestIncrementalKeysRandomGames plays random legal games (captures,
// promotions, en passant and Chess960 castling included) and checks after
// every move that the incrementally kept keys, the per-colour non-pawn
// keys among them, equal keys computed afresh, and that Threats agrees
// with Attacked on every square (and ThreatsByValue with AttackersTo).
func TestIncrementalKeysRandomGames(t *testing.T) {
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2P3k1/8/3pP3/8/8/5p2/4K3 w - d6 0 1",
	}
	rng := rand.New(rand.NewSource(7))
	for _, fen := range fens {
		for game := 0; game < 40; game++ {
			p, err := ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 120; ply++ {
				var ml MoveList
				p.GenerateLegal(&ml)
				if len(ml.Slice()) == 0 {
					break
				}
				m := ml.Slice()[rng.Intn(len(ml.Slice()))]
				hint, castling := p.KeyAfter(m), p.st().castling
				p.Make(m)
				// KeyAfter is exact unless castling rights change or an
				// en-passant square is set or taken.
				if exact := m.Kind() != KindCastling && m.Kind() != KindEnPassant && p.st().castling == castling && p.st().ep == NoSquare; exact && hint != p.Key() {
					t.Fatalf("%s, game %d ply %d: KeyAfter(%s) = %x, Make gives %x", fen, game, ply, m, hint, p.Key())
				}
				if err := p.Validate(); err != nil {
					t.Fatalf("%s, game %d ply %d after %s: %v", fen, game, ply, m, err)
				}
				checkThreats(t, p)
			}
		}
	}
}

// checkThreats compares Threats with Attacked square by square.
func checkThreats(t *testing.T, p *Position) {
	t.Helper()
	for _, c := range []Color{White, Black} {
		th := p.Threats(c)
		tm := p.ThreatsByValue(c)
		for s := Square(0); s < 64; s++ {
			if th.Has(s) != p.Attacked(s, c, p.Occupied()) {
				t.Fatalf("%s: Threats(%d) says %v for %s, Attacked says %v", p.ShredderFEN(), c, th.Has(s), s, !th.Has(s))
			}
			att := p.AttackersTo(s, p.Occupied()) & p.byColor[c]
			pawns := att & p.byType[Pawn]
			minors := pawns | att&(p.byType[Knight]|p.byType[Bishop])
			rooks := minors | att&p.byType[Rook]
			if tm.Pawns.Has(s) != (pawns != 0) || tm.Minors.Has(s) != (minors != 0) ||
				tm.Rooks.Has(s) != (rooks != 0) || tm.All.Has(s) != th.Has(s) {
				t.Fatalf("%s: ThreatsByValue(%d) on %s: %+v", p.ShredderFEN(), c, s, tm)
			}
		}
	}
}
