// Package search is Rochade's searcher: iterative deepening PVS with a
// shared transposition table, Lazy SMP threads, MultiPV, pondering and time
// management. It never prints: it reports through callbacks.
package search

import (
	"time"

	"github.com/rochade/rochade/eval"

	v "github.com/rochade/rochade/variant960"
)

// Score bounds. A mate in n plies scores MateScore-n (or -(MateScore-n)).
const (
	Infinity     = 32001
	MateScore    = 32000
	MateInMaxPly = MateScore - 2*MaxPly
	MaxPly       = 128
)

// Limits is what a UCI `go` asks for. Zero values mean "not given".
type Limits struct {
	WTime, BTime time.Duration
	WInc, BInc   time.Duration
	TimeGiven    bool // wtime or btime was given
	MovesToGo    int
	MoveTime     time.Duration
	Depth        int
	Nodes        uint64 // hard node limit
	SoftNodes    uint64 // no new iteration once this many nodes are searched
	Mate         int    // search for a mate in this many moves
	Infinite     bool
	Ponder       bool
	SearchMoves  []v.Move // restrict the root to these moves
}

// Bound tells whether a score is exact or a bound. The transposition
// table stores the same values (two bits; BoundNone marks an entry that
// carries only a static evaluation).
type Bound uint8

// Bounds: BoundUpper and BoundLower are bits, BoundExact is both.
const (
	BoundNone  Bound = 0
	BoundUpper Bound = 1
	BoundLower Bound = 2
	BoundExact Bound = BoundUpper | BoundLower
)

// Info is one line of search progress.
type Info struct {
	Depth, SelDepth int
	MultiPV         int // 1-based
	Score           int // centipawns, or a mate score (see IsMate)
	Bound           Bound
	WDL             [3]int // win/draw/loss per mille, side to move's view
	Nodes           uint64
	NPS             uint64
	Time            time.Duration
	HashFull        int    // per mille
	TBHits          uint64 // tablebase probes that found a value
	PV              []v.Move
}

// IsMate reports whether a score is a mate score.
func IsMate(score int) bool { return score >= MateInMaxPly || score <= -MateInMaxPly }

// MateIn converts a mate score to UCI's "mate N" moves (negative when the
// side to move is mated).
func MateIn(score int) int {
	if score > 0 {
		return (MateScore - score + 1) / 2
	}
	return -(MateScore + score) / 2
}

// CurrMove is reported while the root moves are searched (after the
// first second), for UCI's currmove/currmovenumber.
type CurrMove struct {
	Depth  int
	Move   v.Move
	Number int // 1-based
}

// Callbacks receive progress. Either may be nil. They are called from the
// search goroutine, one at a time.
type Callbacks struct {
	OnInfo     func(Info)
	OnCurrMove func(CurrMove)
}

// Result is the outcome of a search. Best is NoMove when the side to
// move has no legal move; Ponder is NoMove when there is none to suggest.
type Result struct {
	Best, Ponder v.Move
	Score        int
	Depth        int
	Nodes        uint64
}

// Options are the engine settings the UCI options map to.
type Options struct {
	HashMB       int
	Threads      int
	MultiPV      int
	MoveOverhead time.Duration
	ShowWDL      bool
	// Net is the evaluation network, shared read-only by every thread;
	// nil selects the hand-written evaluation.
	Net *eval.Net

	// Syzygy tablebases (nil: none). The search probes WDL tables at
	// nodes with at most TBProbeLimit pieces (at that count only from
	// depth TBProbeDepth) and ranks the root moves by DTZ.
	Tablebase    Tablebase
	TBProbeDepth int
	TBProbeLimit int
	TB50MoveRule bool // cursed wins and blessed losses count as draws

	// Playing strength (strength.go): when LimitStrength is on, Elo
	// (EloMin..EloMax) sets a node and a depth cap per move and a random
	// choice among the near-best moves. Seed seeds that choice; 0 seeds
	// it from the clock.
	LimitStrength bool
	Elo           int
	Seed          uint64
}

// DefaultOptions are the UCI defaults.
func DefaultOptions() Options {
	return Options{HashMB: 16, Threads: 1, MultiPV: 1, MoveOverhead: 30 * time.Millisecond,
		TBProbeDepth: 1, TBProbeLimit: 7, TB50MoveRule: true, Elo: EloMax}
}
