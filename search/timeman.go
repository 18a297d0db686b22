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
	l := e.limits
	overhead := e.opts.MoveOverhead
	e.useTime = false
	if l.MoveTime > 0 {
		e.useTime = true
		t := max(l.MoveTime-overhead, time.Millisecond)
		e.softLimit, e.hardLimit = t, t
		return
	}
	if !l.TimeGiven || l.Infinite {
		return
	}
	e.useTime = true
	tm, inc := l.WTime, l.WInc
	if pos.Side() == v.Black {
		tm, inc = l.BTime, l.BInc
	}
	mtg := 40
	if l.MovesToGo > 0 {
		mtg = min(l.MovesToGo, 40)
	}
	// Keep back the overhead for every move still to be played.
	avail := tm + inc*time.Duration(mtg-1) - overhead*time.Duration(min(mtg, 10))
	avail = max(avail, time.Millisecond)
	opt := avail / time.Duration(mtg)
	maxT := tm*3/4 - overhead
	if l.MovesToGo == 1 {
		maxT = tm - 2*overhead
	}
	maxT = max(maxT, time.Millisecond)
	e.softLimit = min(opt, maxT)
	e.hardLimit = min(opt*5, maxT)
}
