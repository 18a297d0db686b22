package search

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// Engine owns the transposition table and the search threads. All its
// exported methods may be called from any goroutine at any time. Search,
// SearchWith, SetOptions and Clear run one at a time (each waits for the
// others), so they must not be called from a search's callbacks, which
// would wait for their own search; Options, HashFull, Stop and PonderHit
// never wait for a search and may be called from anywhere, callbacks
// included.
type Engine struct {
	opts    Options
	tt      *TT
	threads []*thread
	mu      sync.Mutex // held by a search, SetOptions and Clear: one at a time

	// stateMu guards what Options and HashFull read without holding mu:
	// opts, and the table's allocation, contents (cleared) and
	// generation. Its writers hold mu as well, so code under mu (a
	// search) reads them without stateMu. Lock order: mu, then stateMu.
	stateMu sync.RWMutex

	guard     atomic.Pointer[HashGuard] // set by SetHashGuard: new tables are made resident
	cur       atomic.Pointer[Control]   // the running search's control, for Stop and PonderHit
	ctl       *Control                  // the running search's control, read by its threads
	pondering atomic.Bool

	// Set up by Search, read by the main thread only.
	limits          Limits
	start           time.Time
	softLimit       time.Duration
	hardLimit       time.Duration
	useTime         bool
	stopOnPonderHit bool // the soft limit passed while pondering: stop at the ponderhit
	yield           bool // the threads leave no Go processor free: yield now and then (checkStop)
	bestMoveChanges float64
	cb              Callbacks
	lastReportNodes uint64

	// Tablebases, set up per search by tbSetup.
	tbCard     int            // probe at nodes with at most this many pieces (0: never)
	tbDepth    int            // at exactly tbCard pieces, only from this depth
	tbRoot     map[v.Move]int // the tables' score of each root move kept, if ranked
	tbRootHits uint64

	// Playing strength (strength.go), set up per search by strengthSetup.
	multiPV   int        // lines searched: MultiPV, or more for a limited level's choice
	nodeCheck bool       // the main thread checks the limits at every node (a node limit or cap)
	limited   bool       // UCI_LimitStrength is on for this search
	strength  Strength   // the level's limits, when limited
	capNodes  uint64     // the level's node cap (0: none)
	snap      []rootMove // the lines of the last completed iteration, when limited
	rng       *rand.Rand // the choice among near-best moves
	seed      uint64     // the Seed rng was made with

	// Buffers reused from search to search.
	roots     []rootMove
	ponderPos v.Position     // the position after the best move, for the ponder move
	helpers   sync.WaitGroup // the helper threads of the running search
}

// NewEngine makes an engine with the given options.
func NewEngine(opts Options) *Engine {
	eval.Prepare() // endgame tables: built once per process, not during a search
	e := &Engine{}
	e.tt = NewTT(max(1, opts.HashMB))
	e.opts = opts
	e.setOptions(opts, true)
	e.rng, e.seed = newRand(opts.Seed), opts.Seed
	return e
}

// ThreadBytes is the memory one search thread owns besides the shared
// table: its thread struct (search stack, PV table, move pickers, the
// butterfly, capture, countermove and correction histories), its
// continuation history, its evaluator (pawn cache; with a net, also its
// accumulator stack and refresh cache, eval.AccumulatorBytes, counted for
// the widest net with the most king buckets) and an allowance for its
// goroutine's stack. It is allocated when the thread is created and freed
// when Threads goes down. About 7.4 MB today; TestThreadBytes checks it
// against the heap.
var ThreadBytes = int64(unsafe.Sizeof(thread{})) + int64(unsafe.Sizeof(contHistTable{})) +
	int64(unsafe.Sizeof(eval.Evaluator{})) + eval.AccumulatorBytes + threadStackBytes

// threadStackBytes is the stack allowance of one search goroutine.
const threadStackBytes = 512 << 10

// SetOptions applies options. It waits for a running search to end.
// Options and HashFull wait only for the table's resize (and, with a
// HashGuard, for the new table to be made resident).
// Threads that go away are freed before the table is resized, and the
// old table before the new one is allocated, so that memory in use never
// holds both.
func (e *Engine) SetOptions(opts Options) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setOptions(opts, true)
}

// SetOptionsLazy is SetOptions, except that a new table is not made
// resident even with a HashGuard: its pages are taken as searches use
// them, unless Reserve makes it resident later. Making a large table
// resident takes seconds (1 GB: 2.5-9 s on the 2-core build machine);
// this applies options without that wait where a search is about to
// start.
func (e *Engine) SetOptionsLazy(opts Options) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setOptions(opts, false)
}

// Reserve makes the table resident under the HashGuard, as SetOptions
// does, if there is a guard and the table is not resident yet (it was
// set up by SetOptionsLazy). It waits for a running search to end. stop
// (nil: none) is asked before each chunk of the table (reserveChunk)
// whether to end early, so that a caller on another goroutine can end
// it within a chunk when a search is to start: the rest of the table is
// then taken as searches write it, and a later Reserve goes on from where
// this one ended. It reports whether it ran to its end (false: a stop
// ended it). Options and HashFull wait only while the table is cut.
func (e *Engine) Reserve(stop func() bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	g := e.guard.Load()
	if g == nil || e.tt.resident || e.tt.buckets == nil {
		return true
	}
	hash, stopped := e.reserve(g, e.opts, stop, &e.stateMu)
	e.stateMu.Lock()
	e.opts.HashMB = hash
	e.stateMu.Unlock()
	return !stopped
}

// setOptions applies opts; with resident, a new table is made resident
// under the HashGuard, if one is set.
func (e *Engine) setOptions(opts Options, resident bool) {
	opts.Threads = max(1, opts.Threads)
	opts.MultiPV = max(1, opts.MultiPV)
	opts.HashMB = max(1, opts.HashMB)
	if opts.Threads < len(e.threads) {
		clear(e.threads[opts.Threads:]) // let the collector have them
		e.threads = slices.Clip(e.threads[:opts.Threads])
		debug.FreeOSMemory()
	}
	// The table's static evaluations and the correction histories
	// belong to the evaluation that made them: a new net (or the
	// hand-written evaluation, nil) starts from a clear state.
	netChanged := opts.Net != e.opts.Net
	e.stateMu.Lock()
	if opts.HashMB != e.opts.HashMB {
		e.tt.Resize(opts.HashMB)
		if g := e.guard.Load(); g != nil && resident {
			opts.HashMB, _ = e.reserve(g, opts, nil, nil)
		}
	} else if netChanged {
		e.tt.Clear()
	}
	e.opts = opts
	e.stateMu.Unlock()
	if netChanged {
		e.clearThreads()
	}
	for len(e.threads) < opts.Threads {
		t := &thread{id: len(e.threads), e: e, ev: eval.New()}
		t.hist.cont = new(contHistTable)
		e.threads = append(e.threads, t)
	}
	for _, t := range e.threads {
		t.ev.SetNet(opts.Net)
	}
	if opts.Seed != e.seed {
		e.rng, e.seed = newRand(opts.Seed), opts.Seed
	}
}

// A HashGuard holds new tables to the memory the process may have.
type HashGuard struct {
	// Fit returns the largest table, in MB, that the memory allows now
	// with the given number of threads, counting what the process holds
	// (the part of the new table made resident so far among it).
	Fit func(threads int) int
	// Cut, if set, is told when a table was cut from the asked size to
	// the size it got, in MB, because Fit allowed less while it was
	// being made resident (other processes took memory meanwhile).
	Cut func(asked, got int)
}

// SetHashGuard makes every table set up from now on (by SetOptions with a
// new HashMB) resident before SetOptions returns, held to g. Its memory
// is then taken when Hash is set, where other processes that measure the
// memory see it, and not only as searches fill the table. A nil Fit
// turns this off. It does not wait for a search.
func (e *Engine) SetHashGuard(g HashGuard) {
	if g.Fit == nil {
		e.guard.Store(nil)
		return
	}
	e.guard.Store(&g)
}

// reserve makes the new table resident under g, until stop (nil: none)
// says to end, holding lock (nil: none) while it cuts the table, and
// returns its size in MB (opts.HashMB, or less where it was cut) and
// whether a stop ended it.
func (e *Engine) reserve(g *HashGuard, opts Options, stop func() bool, lock sync.Locker) (int, bool) {
	const perMB = 1 << 20 / uint64(unsafe.Sizeof(ttBucket{}))
	n, stopped := e.tt.Reserve(func() uint64 { return uint64(max(1, g.Fit(opts.Threads))) * perMB }, stop, lock)
	got := max(1, int(n/perMB)) // Fit is whole MB, at least 1
	if got < opts.HashMB && g.Cut != nil {
		g.Cut(opts.HashMB, got)
	}
	return min(got, opts.HashMB), stopped
}

// Options returns the current options. It does not wait for a search.
func (e *Engine) Options() Options {
	e.stateMu.RLock()
	defer e.stateMu.RUnlock()
	return e.opts
}

// Clear empties the hash table and all histories (ucinewgame). It waits
// for a running search to end.
func (e *Engine) Clear() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stateMu.Lock()
	e.tt.Clear()
	e.stateMu.Unlock()
	e.clearThreads()
}

// clearThreads empties the histories and evaluation caches of the
// threads that searched since the last clear. The others are still as
// allocated: all zeros, and mostly pages the operating system has not
// given yet. Writing zeros over them made every page resident: at
// Threads 1024, ucinewgame grew the resident set from 292 MB to 4.28 GB
// and took 26 s on the 2-core build machine.
func (e *Engine) clearThreads() {
	for _, t := range e.threads {
		if !t.dirty {
			continue
		}
		cont := t.hist.cont
		clear(cont[:])
		t.hist = histories{cont: cont}
		t.ev.Clear()
		t.dirty = false
	}
}

// HashFull returns the permille of the table in use. It does not wait
// for a search (it reads the table while the search writes it), only for
// a resize or clear of the table in progress.
func (e *Engine) HashFull() int {
	e.stateMu.RLock()
	defer e.stateMu.RUnlock()
	return e.tt.HashFull()
}

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
	e.stopOnPonderHit = false
	e.yield = len(e.threads) >= runtime.GOMAXPROCS(0)
	e.lastReportNodes = 0
	e.stateMu.Lock()
	e.tt.NewSearch()
	e.stateMu.Unlock()
	e.setTimeLimits(pos)
	e.strengthSetup()
	e.nodeCheck = e.limits.Nodes > 0 || e.capNodes > 0

	// Root moves: legal, restricted by searchmoves.
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	roots := e.roots[:0]
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
	e.roots = roots
	roots = e.tbSetup(pos, roots)
	// Order root moves once by a shallow look at the TT and captures.
	if tte, ok := e.tt.Probe(pos.Key()); ok {
		for i := range roots {
			if roots[i].move == tte.move {
				roots[0], roots[i] = roots[i], roots[0]
			}
		}
	}

	wg := &e.helpers
	for _, t := range e.threads {
		// The position, root moves and PVs reuse the last search's
		// storage: the setup of a search allocates nothing once the
		// buffers have grown (datagen runs millions of short searches).
		if t.pos == nil {
			t.pos = pos.Copy()
		} else {
			pos.CopyTo(t.pos)
		}
		t.ev.Reset(t.pos)
		rms := t.rootMoves[:cap(t.rootMoves)]
		if len(rms) < len(roots) {
			rms = append(rms, make([]rootMove, len(roots)-len(rms))...)
		}
		t.rootMoves = rms[:len(roots)]
		for i := range roots {
			pv := append(t.rootMoves[i].pv[:0], roots[i].move)
			t.rootMoves[i] = rootMove{move: roots[i].move, score: -Infinity, prevScore: -Infinity, pv: pv}
		}
		t.nodes = 0
		t.pubNodes.Store(0)
		t.tbHits.Store(0)
		t.depth = 0
		t.done = rootMove{move: roots[0].move, score: -Infinity, prevScore: -Infinity, pv: append(t.done.pv[:0], roots[0].move)}
		t.stopped = false
		for i := range t.stack {
			t.stack[i] = stackEntry{}
		}
	}
	// A limited level searches with the main thread alone: its play
	// does not depend on Threads.
	helpers := e.threads[1:]
	if e.limited {
		helpers = nil
	}
	main := e.threads[0]
	main.dirty = true
	for _, t := range helpers {
		t.dirty = true
		wg.Add(1)
		go func(t *thread) {
			defer wg.Done()
			t.iterate()
		}(t)
	}
	main.iterate()
	// The main thread is done: wait in ponder/infinite mode, then stop all.
	e.waitForStop()
	e.ctl.stop.Store(true)
	wg.Wait()

	best := e.pickBestThread()
	chose := false
	if e.limited && e.strength.Margin > 0 {
		best = main
		chose = e.strengthChoose(main)
	}
	rm := best.final()
	// The final info line, unless the last one already said it all.
	if best != main || e.nodes() != e.lastReportNodes || e.lastReportNodes == 0 || chose {
		e.report(best, best.depth, true)
	}
	res := Result{Best: rm.move, Score: e.tbScore(rm.move, rm.score), Depth: best.depth, Nodes: e.nodes()}
	if len(rm.pv) > 1 {
		res.Ponder = rm.pv[1]
	} else {
		// Ask the table for a reply.
		p := &e.ponderPos
		pos.CopyTo(p)
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

// Close gives the table's memory back to the system now, rather than
// when the garbage collector finds the engine unused (on 64-bit Linux
// and on Windows the table is outside the Go heap, and an engine dropped
// without Close holds it until a collection runs, which a program that
// allocates little on the heap may not do for long). It waits for a
// running search to end. The engine is not used after Close.
func (e *Engine) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	if e.tt.buckets != nil {
		e.tt.freeBuckets()
	}
}
