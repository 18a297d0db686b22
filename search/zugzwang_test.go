package search

import (
	"testing"

	v "github.com/rochade/rochade/variant960"
)

func TestLoneMinor(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want bool
	}{
		{"kbK5/pp6/RP6/8/8/8/8/8 b - - 1 1", true},  // a lone bishop
		{"kbK5/pp6/RP6/8/8/8/8/8 w - - 1 1", false}, // a lone rook
		{"k7/pp6/1P6/8/8/8/8/2K3n1 b - - 0 1", true},
		{"k7/pp6/1P6/8/8/8/8/2K2bn1 b - - 0 1", false}, // two minors
		{"k7/pp6/1P6/8/8/8/8/2K5 b - - 0 1", false},    // pawns only: NonPawnMaterial guards that
		{"k7/pp6/1P6/8/8/8/7q/2K5 b - - 0 1", false},   // a lone queen
	} {
		if got := loneMinor(v.MustParseFEN(c.fen)); got != c.want {
			t.Errorf("%s: loneMinor %v, want %v", c.fen, got, c.want)
		}
	}
}

// zeroWindowSearch runs one zero-window search (beta-1, beta) of pos at
// the given depth and ply, as the iterative deepening would reach it, on
// a fresh engine's main thread.
func zeroWindowSearch(e *Engine, pos *v.Position, beta, depth, ply int) int {
	th := e.threads[0]
	e.ctl = NewControl()
	e.limits = Limits{}
	th.pos = pos.Copy()
	th.ev.Reset(th.pos)
	th.rootDepth = depth
	th.depth = 0
	th.stopped = false
	for i := range th.stack {
		th.stack[i] = stackEntry{}
	}
	return th.search(beta-1, beta, depth, ply, true)
}

// TestLoneMinorZugzwangNotPruned: after 1.Ra6 in kbK5/pp6/1P6/8/8/8/8/R7 w
// Black, with only a bishop, is in zugzwang: every move is mated at once.
// A zero-window search of that node at ply 1, with beta far below its
// static eval (the root's alpha was +1610 with net h2), must fail low at
// every depth, and at beta -1610 see the mate. (At beta -300 a fail-soft
// bound above the mate is a right answer too: with net h4, White's null
// move after each Black move already beats White's beta there, so the
// bound is -307.) Up to build 8c635fd, reverse futility
// pruning cut it at depth 2 to 8 and null-move pruning from depth 3 on
// (Black passes, and White has no mate after a pass), so the root never
// saw 1.Ra6 work before depth 30.
func TestLoneMinorZugzwangNotPruned(t *testing.T) {
	pos := v.MustParseFEN("kbK5/pp6/RP6/8/8/8/8/8 b - - 1 1")
	const ply = 1
	forEval(t, func(t *testing.T, ec evalCase) {
		for depth := 2; depth <= 14; depth++ {
			for _, beta := range []int{-1610, -300} {
				e := NewEngine(ec.opts())
				s := zeroWindowSearch(e, pos, beta, depth, ply)
				if s >= beta {
					t.Errorf("depth %d, beta %d: score %d fails high, want a fail low", depth, beta, s)
				}
				// At -1610 the fail-low bound must still say that Black is mated.
				if beta == -1610 && s > -MateInMaxPly {
					t.Errorf("depth %d, beta %d: score %d, want Black mated", depth, beta, s)
				}
			}
		}
	})
}
