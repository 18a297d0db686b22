package search

// A search thread: its position, stack, PV table and counters, and the
// make/unmake helpers that keep the evaluator in step.

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

const stackOff = 4 // stack entries below ply 0, for look-backs of up to four plies

type stackEntry struct {
	move       v.Move
	piece      v.Piece
	contIdx    int         // piece*64+to of the move made at this ply
	threats    v.ThreatMap // squares the side not to move attacks at this ply's node (search nodes, and qsearch nodes in check)
	killers    [2]v.Move
	staticEval int
	excluded   v.Move
	doubleExt  int
}

type rootMove struct {
	move      v.Move
	score     int
	prevScore int
	selDepth  int
	pv        []v.Move
	bound     Bound
	nodes     uint64 // nodes searched under this move at the root, over the whole search, in the first line's pass only (time by effort)
}

// thread is one Lazy SMP searcher with its own position and histories.
type thread struct {
	id        int
	e         *Engine
	pos       *v.Position
	ev        *eval.Evaluator
	hist      histories
	stack     [MaxPly + stackOff + 4]stackEntry
	pv        [MaxPly + 1][MaxPly + 1]v.Move
	pvLen     [MaxPly + 1]int
	nodes     uint64        // owned by the thread
	pubNodes  atomic.Uint64 // nodes, published for the main thread
	tbHits    atomic.Uint64 // tablebase hits
	selDepth  int
	rootMoves []rootMove
	done      rootMove // the best root move of the last completed iteration
	pvIdx     int
	depth     int // completed depth
	rootDepth int
	stopped   bool
	// dirty is set when the thread searches: its histories and its
	// evaluator's caches may hold something, and Clear must empty them.
	dirty   bool
	pickers [MaxPly + 2][2]picker
}

// final is the root move the thread answers with: the first root move,
// unless the search stopped before that move got a score in the
// unfinished iteration; then the last completed iteration's best move,
// with its score and PV. (A stopped aspiration pass leaves -Infinity,
// which must never reach the GUI or a datagen label.)
func (t *thread) final() rootMove {
	rm := t.rootMoves[0]
	if rm.score == -Infinity && t.done.score > -Infinity {
		return t.done
	}
	return rm
}

// complete records the best root move of an iteration that finished.
func (t *thread) complete() {
	rm := t.rootMoves[0]
	t.done.move, t.done.score, t.done.prevScore = rm.move, rm.score, rm.score
	t.done.selDepth, t.done.bound = rm.selDepth, rm.bound
	t.done.pv = append(t.done.pv[:0], rm.pv...)
}

// yieldMask: every yieldMask+1 nodes a thread publishes its node count
// and, when the search threads leave no Go processor free (e.yield),
// yields its processor. Go preempts a running goroutine only after 10 ms,
// so without the yield the goroutine that reads `stop` (or `isready`)
// from stdin waited that long or longer for a processor. With Threads 4
// on a 2-core machine under a load of 5-8 (2026-11-23), stop to bestmove
// over pipes took 36-51 ms at the median and 70-344 ms at worst (runs of
// 30-50 stops); with a yield every 256 nodes (about half a millisecond)
// 1-4 ms and 10-92 ms, at no measurable cost in nodes per CPU second.
const yieldMask = 255

func (t *thread) checkStop() bool {
	if t.stopped {
		return true
	}
	if t.nodes&yieldMask == 0 {
		t.pubNodes.Store(t.nodes)
		if t.e.yield {
			runtime.Gosched()
		}
	}
	if t.id == 0 && (t.nodes&1023 == 0 || t.e.nodeCheck) {
		t.e.checkTime(t)
		if t.stopped {
			return true
		}
	}
	// Depth 1 always completes, so that even a search stopped at once
	// answers with a searched move.
	if t.depth > 0 && t.e.ctl.stop.Load() {
		t.stopped = true
		return true
	}
	return false
}

func (t *thread) evaluate() int {
	return t.ev.Evaluate(t.pos)
}

// rawEval is the uncorrected static evaluation, from the TT when it has one.
func (t *thread) rawEval(tte ttData, ttHit bool) int {
	if ttHit && tte.eval > -Infinity && tte.eval < Infinity {
		return tte.eval
	}
	return t.evaluate()
}

func (t *thread) updatePV(ply int, m v.Move) {
	t.pv[ply][ply] = m
	n := t.pvLen[ply+1]
	copy(t.pv[ply][ply+1:n], t.pv[ply+1][ply+1:n])
	t.pvLen[ply] = max(n, ply+1)
}

// makeMove plays m and records it on the stack.
func (t *thread) makeMove(m v.Move, ply int) {
	ss := &t.stack[ply+stackOff]
	pc := t.pos.PieceOn(m.From())
	to := m.To()
	if m.IsCastling() {
		to = m.CastlingKingTo()
	}
	ss.move = m
	ss.piece = pc
	ss.contIdx = int(pc)*64 + int(to)
	// The child probes the table first: start loading its bucket now,
	// while the evaluator and the position make the move.
	t.e.tt.Prefetch(t.pos.KeyAfter(m))
	t.ev.Push(t.pos, m)
	t.pos.Make(m)
	t.nodes++
	// Its static eval reads three correction entries (384 KB of tables
	// a thread, more than a core's L2 on some machines): start loading
	// them too, while the child probes the table.
	if corrPrefetch {
		pawn, white, black := t.corrEntries()
		prefetch(unsafe.Pointer(pawn))
		prefetch(unsafe.Pointer(white))
		prefetch(unsafe.Pointer(black))
	}
}

// corrPrefetch: makeMove prefetches the child's correction entries. Off
// until its SPRT at a time control decides, with the table's huge pages
// (docs/search-tests.md).
var corrPrefetch = false

// unmakeMove takes back the move made by makeMove.
func (t *thread) unmakeMove() {
	t.pos.Unmake()
	t.ev.Pop()
}

func (t *thread) makeNull(ply int) {
	ss := &t.stack[ply+stackOff]
	ss.move = v.NullMove
	ss.piece = v.NoPiece
	ss.contIdx = 0
	t.ev.PushNull()
	t.pos.MakeNull()
	t.nodes++
}

// unmakeNull takes back the null move made by makeNull.
func (t *thread) unmakeNull() {
	t.pos.UnmakeNull()
	t.ev.Pop()
}

func drawScore(t *thread) int { return 2 - int(t.nodes&3) } // tiny jitter against draw blindness

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
