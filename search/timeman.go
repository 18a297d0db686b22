package search

// Time management: the soft and hard limits from the clock, checked
// between iterations and during them.

import (
	"math"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// Pondering and the clock. The clock of a ponder search is counted from
// its go, as in Stockfish, not from the ponderhit: the ponder search has
// been searching the very position the GUI now asks about, so its time
// is thinking done for this move. After a ponderhit the search therefore
// ends at once when the soft limit was reached while pondering (or the
// hard limit has passed), and otherwise runs only to the limits it would
// have had without pondering. Counting from the ponderhit instead would
// spend a full move's time again on top of the pondering, and a ponder
// search's own state (best-move changes, stable iterations) would stretch
// it further. One time base also keeps the info time going forward.

// stillPondering reports whether the search is pondering; on the main
// thread's first look after a ponderhit it turns the search into a
// timed one.
func (e *Engine) stillPondering() bool {
	if !e.pondering.Load() {
		return false
	}
	if !e.ctl.ponderHit.Load() {
		return true
	}
	e.pondering.Store(false)
	return false
}

// softTimeUp is asked after each iteration of the main thread: whether
// to start no new one. The soft limit stretches when the best move keeps
// changing and shrinks when it is stable (stableIters iterations in a row),
// and is scaled by the best move's share of the root nodes (effortFactor)
// and by the fall of the best score (trendFactor of scoreDrop).
// The count of best-move changes decays by half each iteration, pondering
// or not. A ponder search that reaches its soft limit goes on pondering
// and stops at the ponderhit (stopOnPonderHit).
func (e *Engine) softTimeUp(nRootMoves, stableIters int, share float64, drop int) bool {
	factor := 1.0 + e.bestMoveChanges*0.5
	factor *= math.Max(0.55, 1.3-0.1*float64(stableIters))
	factor *= effortFactor(share) * trendFactor(drop)
	e.bestMoveChanges /= 2
	if !e.useTime || e.limits.MoveTime != 0 {
		return false
	}
	if nRootMoves == 1 {
		factor = 0.2
	}
	up := time.Since(e.start) > time.Duration(float64(e.softLimit)*factor)
	if e.stillPondering() {
		e.stopOnPonderHit = e.stopOnPonderHit || up
		return false
	}
	return up || e.stopOnPonderHit
}

// Bounds of effortFactor.
const (
	tmEffortMin = 0.6
	tmEffortMax = 1.6
)

// effortFactor scales the soft limit by the best move's share of the
// root nodes (see params.tmEffortPivot): 1 at the pivot, more below it,
// less above, held to tmEffortMin-tmEffortMax. A share below 0 means
// none is known (no root move counted yet): then, and with the weight
// at 0, it is 1.
func effortFactor(share float64) float64 {
	if sp.tmEffortWeight == 0 || share < 0 {
		return 1
	}
	f := 1 + float64(sp.tmEffortWeight)/100*(float64(sp.tmEffortPivot)/100-share)
	return min(max(f, tmEffortMin), tmEffortMax)
}

// bestMoveShare is the first root move's part of the nodes searched
// under all root moves, or -1 when none were counted.
func bestMoveShare(rms []rootMove) float64 {
	var total uint64
	for i := range rms {
		total += rms[i].nodes
	}
	if total == 0 {
		return -1
	}
	return float64(rms[0].nodes) / float64(total)
}

// Bounds of trendFactor.
const (
	tmTrendMin = 0.8
	tmTrendMax = 1.5
)

// trendFactor scales the soft limit by the fall of the best score, in
// centipawns (see params.tmTrendWeight): more time when it falls, less
// when it rises, held to tmTrendMin-tmTrendMax; 1 with the weight at 0.
func trendFactor(drop int) float64 {
	if sp.tmTrendWeight == 0 {
		return 1
	}
	f := 1 + float64(sp.tmTrendWeight)/100*float64(drop)/100
	return min(max(f, tmTrendMin), tmTrendMax)
}

// scoreTrend holds the best scores of the last two iterations of the
// main thread (which skips no depth), the older first, so that each
// iteration's score is compared with the one of the same parity.
type scoreTrend [2]int

func newScoreTrend() scoreTrend { return scoreTrend{-Infinity, -Infinity} }

// push records an iteration's best score and returns its drop against
// the score two iterations before (0 for the first two).
func (st *scoreTrend) push(score int) int {
	drop := scoreDrop(st[0], score)
	*st = scoreTrend{st[1], score}
	return drop
}

// scoreDrop is how far the best score fell from before to now. A mate or
// tablebase score on either side, or no score before (-Infinity), counts
// as no drop: such a score is no measure of how the position goes.
func scoreDrop(before, now int) int {
	if before == -Infinity || isDecisive(before) || isDecisive(now) {
		return 0
	}
	return before - now
}

// checkTime is called by the main thread every 1024 nodes (at every
// node under a node limit or cap).
//
// Nothing that stops the whole search is checked while it ponders: a
// stopped search answers at once, and a ponder search must answer only
// after its ponderhit or stop. As in Stockfish, the node limit is ignored
// while pondering and applies from the ponderhit on, counted from the go
// (so the search then ends at once when the count was passed).
func (e *Engine) checkTime(t *thread) {
	// A level's node cap ends the main thread's search only (helpers do
	// not run): an infinite or ponder search then waits for its stop.
	// Depth 1 always completes.
	if e.capNodes > 0 && t.depth > 0 && e.nodes() >= e.capNodes {
		t.stopped = true
		return
	}
	if e.stillPondering() {
		return
	}
	if e.limits.Nodes > 0 && e.nodes() >= e.limits.Nodes {
		e.ctl.stop.Store(true)
		return
	}
	if e.useTime && t.depth >= 1 && (e.stopOnPonderHit || time.Since(e.start) > e.hardLimit) {
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

	// A low clock. A move's time as the GUI counts it is the search's
	// time plus every delay outside it: reading go, writing bestmove, the
	// GUI's own reading, and on a busy machine the scheduler (moves of a
	// 2-core machine building beside the games took 0.18-0.37 s against
	// limits of about 0.1 s). The hard limit leaves tmLowDelay (or Move
	// Overhead, if more) plus 1/tmLowShare of the clock (counted up to
	// tmLowCap delays) on it. Below lowComfort on the clock, in
	// a game without movestogo, the increment counts only in proportion to
	// the clock, and the limits that come of it in proportion to its
	// square, so that a move spends less than the increment and the clock
	// grows back: the delays outside the search, about 10 ms a move on
	// that machine, are not in the limits, and at 2+0.02 they had held the
	// clock at 0.1-0.5 s, where one delay of 0.15 s lost the game (with
	// the limits in proportion to the clock it settled at about 0.8 s,
	// with its square at about 1.1 s; see docs/reliability.md).
	tmLowDelay   = 100 * time.Millisecond
	tmLowShare   = 8
	tmLowCap     = 10
	tmLowComfort = 20

	// The comfort level may fall with the increment (params.tmLowIncSlope,
	// off by default): from an increment of tmLowIncFrom on, by
	// tmLowIncSlope for each unit of increment, to tmLowComfortMin delays
	// (1 s).
	tmLowIncFrom    = 20 * time.Millisecond
	tmLowComfortMin = 10
)

// lowClockReserve is what the hard limit leaves on the clock at least:
// max(Move Overhead, tmLowDelay) plus 1/tmLowShare of the clock, the
// clock counted up to tmLowCap delays (1 s at the default overhead). It
// binds only at low clocks (below 780 ms at the default overhead;
// elsewhere 3/4 of the clock less Move Overhead is lower) and at
// movestogo 1, where it leaves 225 ms instead of two overheads.
func lowClockReserve(tm, overhead time.Duration) time.Duration {
	d := max(overhead, tmLowDelay)
	return d + min(tm, tmLowCap*d)/tmLowShare
}

// lowComfort is the clock below which the low-clock rules apply:
// tmLowComfort delays of tmLowDelay (2 s), less sp.tmLowIncSlope times
// the increment beyond tmLowIncFrom but never below tmLowComfortMin
// delays (1 s; with the slope at 0, the default, always 2 s); plus what
// Move Overhead asks beyond tmLowDelay. Move Overhead is a lag the GUI
// charges on every move and is kept back for it already; the rules guard
// against the unforeseen delays on top of it. (Counted as tmLowComfort overheads,
// Move Overhead 5000 made a 40 s clock "low" and its moves 40 ms long.)
func lowComfort(overhead, inc time.Duration) time.Duration {
	level := tmLowComfort*tmLowDelay - time.Duration(sp.tmLowIncSlope)*max(inc-tmLowIncFrom, 0)
	return max(level, tmLowComfortMin*tmLowDelay) + max(overhead-tmLowDelay, 0)
}

// allocateTime returns the soft limit (start no new iteration after it),
// the hard limit (stop the search) and whether the clock limits the
// search at all. The soft limit is an equal share of the clock and the
// increments over the moves to go (movestogo, or tmHorizon). The hard
// limit is tmHardFactor soft limits, but never more than tmAffordShare
// equal shares of what the clock and increments give over the next
// tmAffordMoves moves: with a low clock and a large increment, one long
// think would otherwise leave too little for the moves after it. It never
// exceeds 3/4 of the clock less Move Overhead (all of it less two
// overheads on the last move before a time control), and it always
// leaves lowClockReserve on the clock.
//
// Below the comfort level, lowComfort(Move Overhead, increment) on the
// clock (2 s up to a Move Overhead of 100 ms, while tmLowIncSlope is 0),
// and without movestogo, the
// increment counts in proportion to the clock (at half of it, half the
// increment), and the soft and hard limits that come of it in proportion
// to its square: at 2+0.02 a move at 1 s gets 7 ms (soft) and 34 ms
// (hard) instead of 37 and 176. Above it, and wherever the reserve does
// not bind, the limits are the same as without the low-clock rules.
func allocateTime(l Limits, side v.Color, overhead time.Duration) (soft, hard time.Duration, use bool) {
	if l.MoveTime > 0 {
		// The overhead takes at most half of a fixed move time: Move
		// Overhead 5000 made go movetime 3000 answer in 1 ms.
		t := max(l.MoveTime-min(overhead, l.MoveTime/2), time.Millisecond)
		return t, t, true
	}
	if !l.TimeGiven || l.Infinite {
		return 0, 0, false
	}
	tm, inc := l.WTime, l.WInc
	if side == v.Black {
		tm, inc = l.BTime, l.BInc
	}
	comfort := lowComfort(overhead, inc)
	low := l.MovesToGo == 0 && tm < comfort
	// scale gives d in proportion to the clock below the comfort level.
	scale := func(d time.Duration) time.Duration {
		return time.Duration(float64(d) * float64(tm) / float64(comfort))
	}
	if low {
		inc = scale(inc)
	}
	mtg := tmHorizon
	if l.MovesToGo > 0 {
		mtg = min(l.MovesToGo, tmHorizon)
	}
	// Keep back the overhead for every move still to be played.
	// The reserve is held to 3/4 of the clock: with Move Overhead 5000 on
	// a 40 s clock, ten overheads took all of it and every move was
	// depth 1. (At the default 30 ms this only acts below 400 ms.)
	share := func(n int) time.Duration {
		reserve := min(overhead*time.Duration(min(n, 10)), tm*3/4)
		avail := tm + inc*time.Duration(n-1) - reserve
		return max(avail, time.Millisecond) / time.Duration(n)
	}
	opt := share(mtg)
	afford := share(min(mtg, tmAffordMoves)) * tmAffordShare
	maxT := tm*3/4 - overhead
	if l.MovesToGo == 1 {
		maxT = tm - 2*overhead
	}
	maxT = max(min(maxT, tm-lowClockReserve(tm, overhead)), time.Millisecond)
	soft = min(opt, maxT)
	hard = max(soft, min(opt*tmHardFactor, afford, maxT))
	if low {
		soft = max(scale(scale(soft)), time.Millisecond)
		hard = max(scale(scale(hard)), time.Millisecond)
	}
	return soft, hard, true
}
