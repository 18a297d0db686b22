package tablebase

import (
	"testing"

	v "github.com/rochade/rochade/variant960"
)

func legalMoves(pos *v.Position) []v.Move {
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	return append([]v.Move(nil), ml.Slice()...)
}

// bestRanked returns the moves with the best RankRoot rank.
func bestRanked(t *testing.T, tb *Tablebases, pos *v.Position) ([]v.Move, int) {
	t.Helper()
	moves := legalMoves(pos)
	ranks, dtz, ok := tb.RankRoot(pos, moves, true)
	if !ok || !dtz {
		t.Fatalf("%s: RankRoot ok=%v dtz=%v", pos.FEN(), ok, dtz)
	}
	best := ranks[0]
	for _, r := range ranks {
		best = max(best, r)
	}
	var out []v.Move
	for i, m := range moves {
		if ranks[i] == best {
			out = append(out, m)
		}
	}
	return out, best
}

// A root move ranked best by DTZ keeps the position's WDL value, and the
// list's best move is among the best ranked.
func TestRootRankKeepsWDL(t *testing.T) {
	tb := openTables(t)
	for _, r := range readWDLRows(t) {
		pos := v.MustParseFEN(r.fen)
		if !pos.HasLegalMove() {
			continue
		}
		best, rank := bestRanked(t, tb, pos)
		if got := RankWDL(rank, true); got != r.wdl {
			t.Errorf("%s: best rank %d means %d, want %d", r.fen, rank, got, r.wdl)
			continue
		}
		for _, m := range best {
			pos.Make(m)
			w, ok := tb.ProbeWDL(pos)
			pos.Unmake()
			if !ok || -w != r.wdl {
				t.Errorf("%s: %s leads to WDL %d (ok=%v), want %d", r.fen, m, -w, ok, r.wdl)
			}
		}
		if r.wdl != 0 {
			found := false
			for _, m := range best {
				if m.UCI(false) == r.bestmove || m.UCI(true) == r.bestmove {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: listed best move %s is not among the best ranked %v", r.fen, r.bestmove, best)
			}
		}
	}
}

// Along a line where the winner plays the DTZ-best move and the loser
// the longest resistance, DTZ falls and the win comes before the 50-move
// rule could claim it.
func TestDTZLineConverts(t *testing.T) {
	tb := openTables(t)
	rows := readWDLRows(t)
	lines := 0
	for _, r := range rows {
		if r.wdl != Win || lines >= 40 {
			continue
		}
		lines++
		pos := v.MustParseFEN(r.fen)
		winner := pos.Side()
		prevDTZ := 0
		for ply := 0; ; ply++ {
			if ply > 400 {
				t.Fatalf("%s: no mate after 400 plies", r.fen)
			}
			moves := legalMoves(pos)
			if len(moves) == 0 {
				if pos.Side() == winner || !pos.InCheck() {
					t.Fatalf("%s: line ends without the winner mating: %s", r.fen, pos.FEN())
				}
				break
			}
			if pos.Rule50() >= 100 {
				t.Fatalf("%s: 50-move rule reached: %s", r.fen, pos.FEN())
			}
			dtz, ok := tb.ProbeDTZ(pos)
			if !ok {
				t.Fatalf("%s: DTZ probe failed at %s", r.fen, pos.FEN())
			}
			if pos.Side() == winner {
				if dtz <= 0 || dtz > 100 {
					t.Fatalf("%s: winner's DTZ %d at %s", r.fen, dtz, pos.FEN())
				}
				if pos.Rule50() >= 2 && dtz >= prevDTZ {
					t.Fatalf("%s: DTZ did not fall (%d then %d) at %s", r.fen, prevDTZ, dtz, pos.FEN())
				}
				if dtz+pos.Rule50() > 101 {
					t.Fatalf("%s: DTZ %d with clock %d at %s", r.fen, dtz, pos.Rule50(), pos.FEN())
				}
				prevDTZ = dtz
				best, _ := bestRanked(t, tb, pos)
				// Among the best ranked, take the one with the smallest DTZ.
				bm, bd := best[0], 1<<30
				for _, m := range best {
					d := 0
					zero := isZeroing(pos, m)
					pos.Make(m)
					if !zero {
						d, _ = tb.ProbeDTZ(pos)
						d = -d
					}
					pos.Unmake()
					if d < bd {
						bm, bd = m, d
					}
				}
				pos.Make(bm)
				continue
			}
			if dtz >= 0 {
				t.Fatalf("%s: loser's DTZ %d at %s", r.fen, dtz, pos.FEN())
			}
			// The loser: the move that leaves the longest DTZ; zeroing
			// moves reset the count and count as the shortest.
			bm, bd := moves[0], -1
			for _, m := range moves {
				zero := isZeroing(pos, m)
				pos.Make(m)
				d, ok := tb.ProbeDTZ(pos)
				pos.Unmake()
				if !ok {
					t.Fatalf("%s: probe failed", r.fen)
				}
				if zero {
					d = 0
				}
				if d > bd {
					bm, bd = m, d
				}
			}
			pos.Make(bm)
		}
	}
	if lines == 0 {
		t.Fatal("no won positions")
	}
}

// DTZ agrees with itself one ply on: a win's DTZ is one more than the
// best reply position's (or 1 where a winning zeroing move exists), within
// one ply either way (tables that store moves rather than plies round);
// a loss's DTZ follows the longest resistance the same way.
func TestDTZConsistent(t *testing.T) {
	tb := openTables(t)
	for _, r := range readWDLRows(t) {
		pos := v.MustParseFEN(r.fen)
		dtz, ok := tb.ProbeDTZ(pos)
		if !ok {
			t.Fatalf("%s: no DTZ", r.fen)
		}
		if sign(dtz) != sign(r.wdl) {
			t.Errorf("%s: DTZ %d for WDL %d", r.fen, dtz, r.wdl)
			continue
		}
		if r.wdl == 0 || !pos.HasLegalMove() {
			continue
		}
		best := 0
		if r.wdl > 0 {
			best = 1 << 30
		}
		for _, m := range legalMoves(pos) {
			zero := isZeroing(pos, m)
			pos.Make(m)
			w, _ := tb.ProbeWDL(pos)
			d, _ := tb.ProbeDTZ(pos)
			mate := pos.InCheck() && !pos.HasLegalMove()
			pos.Unmake()
			var own int // the DTZ this move gives the mover
			switch {
			case zero || mate:
				own = dtzBeforeZeroing(-w)
			default:
				own = -d + sign(-d)
			}
			if r.wdl > 0 && own > 0 {
				best = min(best, own)
			}
			if r.wdl < 0 {
				best = min(best, own) // the most negative: the longest loss
			}
		}
		if diff := dtz - best; diff < -1 || diff > 1 {
			t.Errorf("%s: DTZ %d, best move gives %d", r.fen, dtz, best)
		}
	}
}
