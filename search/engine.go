package search

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// Engine owns the transposition table and the search threads.
type Engine struct {
	opts    Options
	tt      *TT
	threads []*thread
	mu      sync.Mutex // held by a search, SetOptions and Clear: one at a time

	cur       atomic.Pointer[Control] // the running search's control, for Stop and PonderHit
	ctl       *Control                // the running search's control, read by its threads
	pondering atomic.Bool

	// Set up by Search, read by the main thread only.
	limits          Limits
	start           time.Time
	softLimit       time.Duration
	hardLimit       time.Duration
	useTime         bool
	bestMoveChanges float64
	cb              Callbacks
	lastReportNodes uint64
}

// NewEngine makes an engine with the given options.
func NewEngine(opts Options) *Engine {
	e := &Engine{}
	e.tt = NewTT(max(1, opts.HashMB))
	e.opts = opts
	e.setOptions(opts)
	return e
}

// SetOptions applies options. It waits for a running search to end.
func (e *Engine) SetOptions(opts Options) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setOptions(opts)
}

func (e *Engine) setOptions(opts Options) {
	opts.Threads = max(1, opts.Threads)
	opts.MultiPV = max(1, opts.MultiPV)
	opts.HashMB = max(1, opts.HashMB)
	if opts.HashMB != e.opts.HashMB {
		e.tt.Resize(opts.HashMB)
	}
	e.opts = opts
	for len(e.threads) < opts.Threads {
		t := &thread{id: len(e.threads), e: e, ev: eval.New()}
		t.hist.cont = new(contHistTable)
		e.threads = append(e.threads, t)
	}
	e.threads = e.threads[:opts.Threads]
}

// Options returns the current options.
func (e *Engine) Options() Options { return e.opts }

// Clear empties the hash table and all histories (ucinewgame). It waits
// for a running search to end.
func (e *Engine) Clear() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tt.Clear()
	for _, t := range e.threads {
		cont := t.hist.cont
		clear(cont[:])
		t.hist = histories{cont: cont}
		t.ev.Clear()
	}
}

// HashFull returns the permille of the table in use.
func (e *Engine) HashFull() int { return e.tt.HashFull() }

// Stop ends the running search, if one has started (it still reports its
// best move). To stop a search that may not have started yet, use the
// Control given to SearchWith.
func (e *Engine) Stop() {
	if c := e.cur.Load(); c != nil {
		c.Stop()
	}
}

// PonderHit turns the running ponder search into a normal timed search.
func (e *Engine) PonderHit() {
	if c := e.cur.Load(); c != nil {
		c.PonderHit()
	}
}

// Search runs a search to the limits and returns the best move. It blocks;
// infinite and ponder searches return only after Stop (or PonderHit and
// then their time).
func (e *Engine) Search(pos *v.Position, limits Limits, cb Callbacks) Result {
	return e.SearchWith(NewControl(), pos, limits, cb)
}

// SearchWith is Search under the given control, which must be new: its
// Stop and PonderHit reach this search even if called before it starts.
func (e *Engine) SearchWith(ctl *Control, pos *v.Position, limits Limits, cb Callbacks) Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.start = time.Now()
	e.ctl = ctl
	e.cur.Store(ctl)
	defer e.cur.Store(nil)
	e.pondering.Store(limits.Ponder)
	e.limits = limits
	e.cb = cb
	e.bestMoveChanges = 0
	e.lastReportNodes = 0
	e.tt.NewSearch()
	e.setTimeLimits(pos)

	// Root moves: legal, restricted by searchmoves.
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	var roots []rootMove
	for _, m := range ml.Slice() {
		if len(limits.SearchMoves) > 0 && !slices.Contains(limits.SearchMoves, m) {
			continue
		}
		roots = append(roots, rootMove{move: m, score: -Infinity, prevScore: -Infinity})
	}
	if len(roots) == 0 {
		score := 0
		if pos.InCheck() {
			score = -MateScore
		}
		if cb.OnInfo != nil {
			info := Info{Depth: 0, MultiPV: 1, Score: score, Time: time.Since(e.start)}
			info.WDL = wdl(score)
			cb.OnInfo(info)
		}
		e.waitForStop()
		return Result{Best: v.NoMove, Score: score}
	}
	// Order root moves once by a shallow look at the TT and captures.
	if tte, ok := e.tt.Probe(pos.Key()); ok {
		for i := range roots {
			if roots[i].move == tte.move {
				roots[0], roots[i] = roots[i], roots[0]
			}
		}
	}

	var wg sync.WaitGroup
	for _, t := range e.threads {
		t.pos = pos.Copy()
		t.ev.Reset(t.pos)
		t.rootMoves = make([]rootMove, len(roots))
		for i := range roots {
			t.rootMoves[i] = rootMove{move: roots[i].move, score: -Infinity, prevScore: -Infinity, pv: []v.Move{roots[i].move}}
		}
		t.nodes = 0
		t.pubNodes.Store(0)
		t.depth = 0
		t.stopped = false
		for i := range t.stack {
			t.stack[i] = stackEntry{}
		}
	}
	for _, t := range e.threads[1:] {
		wg.Add(1)
		go func(t *thread) {
			defer wg.Done()
			t.iterate()
		}(t)
	}
	main := e.threads[0]
	main.iterate()
	// The main thread is done: wait in ponder/infinite mode, then stop all.
	e.waitForStop()
	e.ctl.stop.Store(true)
	wg.Wait()

	best := e.pickBestThread()
	rm := best.rootMoves[0]
	// The final info line, unless the last one already said it all.
	if best != main || e.nodes() != e.lastReportNodes || e.lastReportNodes == 0 {
		e.report(best, best.depth, true)
	}
	res := Result{Best: rm.move, Score: rm.score, Depth: best.depth, Nodes: e.nodes()}
	if len(rm.pv) > 1 {
		res.Ponder = rm.pv[1]
	} else {
		// Ask the table for a reply.
		p := pos.Copy()
		p.Make(rm.move)
		if tte, ok := e.tt.Probe(p.Key()); ok && tte.move != v.NoMove && p.IsPseudoLegal(tte.move) && p.IsLegal(tte.move) {
			res.Ponder = tte.move
		}
	}
	return res
}

// waitForStop blocks while an infinite or ponder search must not end.
func (e *Engine) waitForStop() {
	for !e.ctl.stop.Load() {
		if e.limits.Infinite || (e.pondering.Load() && !e.ctl.ponderHit.Load()) {
			time.Sleep(time.Millisecond)
			continue
		}
		return
	}
}

func (e *Engine) nodes() uint64 {
	n := e.threads[0].nodes
	for _, t := range e.threads[1:] {
		n += t.pubNodes.Load()
	}
	return n
}

// pickBestThread prefers deeper completed searches with better scores.
func (e *Engine) pickBestThread() *thread {
	best := e.threads[0]
	for _, t := range e.threads[1:] {
		if t.depth > best.depth && t.rootMoves[0].score > best.rootMoves[0].score && t.rootMoves[0].score != -Infinity {
			best = t
		}
	}
	return best
}

// iterate is the iterative-deepening loop of one thread.
func (t *thread) iterate() {
	e := t.e
	multiPV := min(e.opts.MultiPV, len(t.rootMoves))
	maxDepth := MaxPly - 1
	if e.limits.Depth > 0 {
		maxDepth = min(e.limits.Depth, maxDepth)
	}
	var lastBest v.Move
	stableIters := 0
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
		if t.id != 0 {
			continue
		}
		e.report(t, depth, false)

		// Time and other limits, checked between iterations.
		best := t.rootMoves[0]
		if e.limits.Mate > 0 && best.score >= MateInMaxPly && MateIn(best.score) <= e.limits.Mate {
			break
		}
		if e.limits.Nodes > 0 && e.nodes() >= e.limits.Nodes {
			break
		}
		if e.limits.SoftNodes > 0 && e.nodes() >= e.limits.SoftNodes {
			break
		}
		if best.move == lastBest {
			stableIters++
		} else {
			stableIters = 0
		}
		lastBest = best.move
		if e.useTime && !e.pondering.Load() && e.limits.MoveTime == 0 {
			// Spend more when the best move keeps changing, less when stable.
			factor := 1.0 + e.bestMoveChanges*0.5
			factor *= math.Max(0.55, 1.3-0.1*float64(stableIters))
			e.bestMoveChanges /= 2
			if len(t.rootMoves) == 1 {
				factor = 0.2
			}
			if time.Since(e.start) > time.Duration(float64(e.softLimit)*factor) {
				break
			}
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

// reportCurrMove sends currmove for each root move after the first second.
func (e *Engine) reportCurrMove(t *thread, m v.Move, n int) {
	if e.cb.OnCurrMove == nil {
		return
	}
	if time.Since(e.start) < time.Second {
		return
	}
	e.cb.OnCurrMove(CurrMove{Depth: t.rootDepth, Move: m, Number: n})
}

// report sends one info line per PV.
func (e *Engine) report(t *thread, depth int, final bool) {
	if e.cb.OnInfo == nil {
		return
	}
	elapsed := time.Since(e.start)
	nodes := e.nodes()
	e.lastReportNodes = nodes
	nps := uint64(0)
	if elapsed > 0 {
		nps = uint64(float64(nodes) / elapsed.Seconds())
	}
	hf := e.tt.HashFull()
	multiPV := min(e.opts.MultiPV, len(t.rootMoves))
	for i := 0; i < multiPV; i++ {
		rm := t.rootMoves[i]
		score := rm.score
		d := depth
		bound := rm.bound
		if score == -Infinity {
			score = rm.prevScore
			bound = BoundExact
			if i > t.pvIdx || final {
				d = max(depth, 1)
			}
		}
		if score == -Infinity {
			if i > 0 {
				continue
			}
			score = 0
		}
		if final && bound != BoundExact {
			bound = BoundExact
		}
		info := Info{
			Depth: max(d, 1), SelDepth: max(rm.selDepth, 1), MultiPV: i + 1,
			Score: score, Bound: bound, Nodes: nodes, NPS: nps, Time: elapsed,
			HashFull: hf, PV: slices.Clone(rm.pv),
		}
		info.WDL = wdl(score)
		e.cb.OnInfo(info)
	}
}

// wdl turns a score into win/draw/loss permille with a simple logistic
// model (our own, untuned).
func wdl(score int) [3]int {
	if IsMate(score) {
		if score > 0 {
			return [3]int{1000, 0, 0}
		}
		return [3]int{0, 0, 1000}
	}
	w := int(1000 / (1 + math.Exp(float64(200-score)/70)))
	l := int(1000 / (1 + math.Exp(float64(200+score)/70)))
	return [3]int{w, 1000 - w - l, l}
}
