package search

// Time management: the soft and hard limits from the clock, checked
// between iterations and during them.

import (
	"math"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// softTimeUp is asked after each iteration of the main thread: whether
// to start no new one. The soft limit stretches when the best move keeps
// changing and shrinks when it is stable (stableIters iterations in a row).
func (e *Engine) softTimeUp(nRootMoves, stableIters int) bool {
	if !e.useTime || e.pondering.Load() || e.limits.MoveTime != 0 {
		return false
	}
	factor := 1.0 + e.bestMoveChanges*0.5
	factor *= math.Max(0.55, 1.3-0.1*float64(stableIters))
	e.bestMoveChanges /= 2
	if nRootMoves == 1 {
		factor = 0.2
	}
	return time.Since(e.start) > time.Duration(float64(e.softLimit)*factor)
}

// checkTime is called by the main thread every 1024 nodes.
func (e *Engine) checkTime(t *thread) {
	if e.limits.Nodes > 0 && e.nodes() >= e.limits.Nodes {
		e.ctl.stop.Store(true)
		return
	}
	if e.pondering.Load() {
		if !e.ctl.ponderHit.Load() {
			return
		}
		// Ponder hit: the clock starts now.
		e.pondering.Store(false)
		e.start = time.Now()
	}
	if e.useTime && t.depth >= 1 && time.Since(e.start) > e.hardLimit {
		e.ctl.stop.Store(true)
	}
}

// setTimeLimits derives the soft and hard limits from the clock.
func (e *Engine) setTimeLimits(pos *v.Position) {
	e.softLimit, e.hardLimit, e.useTime = allocateTime(e.limits, pos.Side(), e.opts.MoveOverhead)
}

// Time-allocation constants.
const (
	tmHorizon     = 40 // moves the clock is shared over without movestogo
	tmAffordMoves = 10 // the hard limit is bounded over this many next moves ...
	tmAffordShare = 2  // ... to this many of their equal shares of the clock
	tmHardFactor  = 5  // the hard limit is at most this many soft limits
)

// allocateTime returns the soft limit (start no new iteration after it),
// the hard limit (stop the search) and whether the clock limits the
// search at all. The soft limit is an equal share of the clock and the
// increments over the moves to go (movestogo, or tmHorizon). The hard
// limit is tmHardFactor soft limits, but never more than tmAffordShare
// equal shares of what the clock and increments give over the next
// tmAffordMoves moves: with a low clock and a large increment, one long
// think would otherwise leave too little for the moves after it. It never
// exceeds 3/4 of the clock (all of it, less the overhead, on the last move
// before a time control).
func allocateTime(l Limits, side v.Color, overhead time.Duration) (soft, hard time.Duration, use bool) {
	if l.MoveTime > 0 {
		t := max(l.MoveTime-overhead, time.Millisecond)
		return t, t, true
	}
	if !l.TimeGiven || l.Infinite {
		return 0, 0, false
	}
	tm, inc := l.WTime, l.WInc
	if side == v.Black {
		tm, inc = l.BTime, l.BInc
	}
	mtg := tmHorizon
	if l.MovesToGo > 0 {
		mtg = min(l.MovesToGo, tmHorizon)
	}
	// Keep back the overhead for every move still to be played.
	share := func(n int) time.Duration {
		avail := tm + inc*time.Duration(n-1) - overhead*time.Duration(min(n, 10))
		return max(avail, time.Millisecond) / time.Duration(n)
	}
	opt := share(mtg)
	afford := share(min(mtg, tmAffordMoves)) * tmAffordShare
	maxT := tm*3/4 - overhead
	if l.MovesToGo == 1 {
		maxT = tm - 2*overhead
	}
	maxT = max(maxT, time.Millisecond)
	soft = min(opt, maxT)
	hard = max(soft, min(opt*tmHardFactor, afford, maxT))
	return soft, hard, true
}
