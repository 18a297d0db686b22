package search

import (
	"testing"

	"github.com/rochade/rochade/internal/testutil"
	v "github.com/rochade/rochade/variant960"
)

// A position repeated once in the game before the root is no draw: the
// back-rank mate must still be found after the kings shuffled once.
func TestRepetitionBeforeRootIsNoDraw(t *testing.T) {
	const fen = "6k1/8/8/8/8/8/5PPP/3QR1K1 b - - 0 1"
	forEval(t, func(t *testing.T, ec evalCase) {
		for _, moves := range []string{"", "g8h8 g1h1 h8g8 h1g1"} {
			p := v.MustParseFEN(fen)
			testutil.PlayMoves(t, p, moves)
			e := NewEngine(ec.opts())
			res := e.Search(p, Limits{Depth: 10}, Callbacks{})
			if !IsMate(res.Score) || res.Score > 0 {
				t.Errorf("after %q: score %d, best %s, nodes %d; want Black mated", moves, res.Score, res.Best, res.Nodes)
			}
		}
	})
}

// A real threefold repetition in the game history is a draw, even before
// the root: after the shuffle twice, returning with g8h8 draws.
func TestThreefoldBeforeRoot(t *testing.T) {
	forEval(t, func(t *testing.T, ec evalCase) {
		p := v.MustParseFEN("6k1/8/8/8/8/8/5PPP/3QR1K1 b - - 0 1")
		testutil.PlayMoves(t, p, "g8h8 g1h1 h8g8 h1g1 g8h8 g1h1 h8g8 h1g1")
		e := NewEngine(ec.opts())
		res := e.Search(p, Limits{Depth: 8, SearchMoves: []v.Move{mustMove(t, p, "g8h8")}}, Callbacks{})
		// g8h8 reaches the position after the first g8h8 for the third time.
		if res.Score > 10 || res.Score < -10 {
			t.Errorf("score %d after a threefold repetition, want a draw", res.Score)
		}
	})
}

func mustMove(t *testing.T, p *v.Position, s string) v.Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A repetition inside the tree is a draw at once: down a rook and more,
// White saves itself by perpetual check (Qe8+ Kh7 Qh5+ Kg8 ...), also
// when the root itself occurred once before.
func TestPerpetualCheckInTree(t *testing.T) {
	const fen = "6k1/6p1/8/7Q/8/7K/1r6/q7 w - - 0 1"
	forEval(t, func(t *testing.T, ec evalCase) {
		for _, moves := range []string{"", "h5e8 g8h7 e8h5 h7g8"} {
			p := v.MustParseFEN(fen)
			testutil.PlayMoves(t, p, moves)
			e := NewEngine(ec.opts())
			res := e.Search(p, Limits{Depth: 10}, Callbacks{})
			if res.Score < -10 || res.Score > 10 || res.Best.String() != "h5e8" {
				t.Errorf("after %q: score %d best %s, want the perpetual h5e8 with a draw score", moves, res.Score, res.Best)
			}
		}
	})
}
