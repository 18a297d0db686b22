package search

// Iterative deepening with aspiration windows and MultiPV.

import (
	"slices"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// pickBestThread prefers deeper completed searches with better scores.
func (e *Engine) pickBestThread() *thread {
	best := e.threads[0]
	for _, t := range e.threads[1:] {
		if t.depth > best.depth && t.final().score > best.final().score && t.final().score != -Infinity {
			best = t
		}
	}
	return best
}

// mateSearchMargin: the plies beyond a mate's length that a go mate search
// deepens before it gives up (see iterate).
const mateSearchMargin = 16

// iterate is the iterative-deepening loop of one thread.
func (t *thread) iterate() {
	e := t.e
	multiPV := min(e.multiPV, len(t.rootMoves))
	maxDepth := MaxPly - 1
	if e.limits.Depth > 0 {
		maxDepth = min(e.limits.Depth, maxDepth)
	}
	var lastBest v.Move
	stableIters := 0
	lastScore, mateIters := -Infinity, 0
	trend := newScoreTrend()
	for depth := 1; depth <= maxDepth; depth++ {
		// Helper threads skip some depths for diversity.
		if t.id > 0 && depth > 1 && (depth+t.id)%3 == 0 {
			continue
		}
		for i := range t.rootMoves {
			t.rootMoves[i].prevScore = t.rootMoves[i].score
		}
		t.rootDepth = depth
		for t.pvIdx = 0; t.pvIdx < multiPV; t.pvIdx++ {
			t.selDepth = 0
			prev := t.rootMoves[t.pvIdx].prevScore
			delta := sp.aspiration
			alpha, beta := -Infinity, Infinity
			if depth >= sp.aspirationAt && prev > -Infinity {
				alpha = max(prev-delta, -Infinity)
				beta = min(prev+delta, Infinity)
			}
			for {
				for i := t.pvIdx; i < len(t.rootMoves); i++ {
					t.rootMoves[i].score = -Infinity
				}
				s := t.search(alpha, beta, depth, 0, false)
				slices.SortStableFunc(t.rootMoves[t.pvIdx:], func(a, b rootMove) int { return b.score - a.score })
				if t.stopped {
					break
				}
				if s <= alpha {
					beta = (alpha + beta) / 2
					alpha = max(s-delta, -Infinity)
					if t.id == 0 && time.Since(e.start) > 3*time.Second {
						e.report(t, depth, false)
					}
				} else if s >= beta {
					beta = min(s+delta, Infinity)
					if t.id == 0 && time.Since(e.start) > 3*time.Second {
						e.report(t, depth, false)
					}
				} else {
					break
				}
				delta += delta / 2
			}
			slices.SortStableFunc(t.rootMoves[:t.pvIdx+1], func(a, b rootMove) int { return b.score - a.score })
			if t.stopped {
				break
			}
		}
		if t.stopped {
			break
		}
		t.depth = depth
		t.complete()
		if t.id != 0 {
			continue
		}
		if e.limited {
			e.snapshot(t)
		}
		e.report(t, depth, false)

		// Time and other limits, checked between iterations.
		best := t.rootMoves[0]
		if e.limits.Mate > 0 && best.score >= MateInMaxPly && MateIn(best.score) <= e.limits.Mate {
			break
		}
		// A mate in N is 2N-1 plies. A mate search that has found none
		// gives up mateSearchMargin plies beyond that (the margin covers
		// the reductions and pruning that can hide a mate from an
		// iteration of its nominal depth); without it the search deepened
		// to MaxPly, for good where no stop could come. A depth limit
		// given with it is kept.
		if e.limits.Mate > 0 && e.limits.Depth == 0 && depth >= 2*e.limits.Mate-1+mateSearchMargin {
			break
		}
		// The node limits, like in checkTime, wait for the ponderhit.
		if e.limits.Nodes > 0 && e.nodes() >= e.limits.Nodes && !e.stillPondering() {
			break
		}
		if e.limits.SoftNodes > 0 && e.nodes() >= e.limits.SoftNodes && !e.stillPondering() {
			break
		}
		if e.capNodes > 0 && e.nodes() >= e.capNodes {
			break
		}
		if best.move == lastBest {
			stableIters++
		} else {
			stableIters = 0
		}
		lastBest = best.move
		if e.softTimeUp(len(t.rootMoves), stableIters, bestMoveShare(t.rootMoves), trend.push(best.score)) {
			break
		}
		// With a clock and one legal move, depth 1 (for a score and a
		// ponder move) is enough.
		if e.useTime && len(t.rootMoves) == 1 {
			break
		}
		// A mate score that held for some iterations, searched well beyond
		// its length, will not change: deeper iterations would only repeat
		// it up to MaxPly. A given depth limit is still honoured.
		if IsMate(best.score) && best.score == lastScore {
			mateIters++
		} else {
			mateIters = 0
		}
		lastScore = best.score
		if e.limits.Depth == 0 && mateIters >= sp.mateStableIters && depth >= MateScore-abs(best.score)+sp.mateExtraDepth {
			break
		}
	}
	if t.id == 0 {
		e.stopHelpersIfDone()
	}
}

// stopHelpersIfDone is called when the main thread's loop ends; helpers
// stop unless the search must wait (infinite/ponder).
func (e *Engine) stopHelpersIfDone() {
	if !e.limits.Infinite && !(e.pondering.Load() && !e.ctl.ponderHit.Load()) {
		e.ctl.stop.Store(true)
	}
}
