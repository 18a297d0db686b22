package search

import "reflect"

// params holds every margin, threshold and reduction constant of the
// search, each with the reason it exists; paramTable below gives each its
// default and, for SPSA, its range. Scores are in centipawns, depths in
// plies. The defaults of every tuned row are the second full SPSA tune's
// of 2026-12-06 (20,000 games at 10,000 nodes, adopted on 2026-12-07 after
// an SPRT at 5+0.05; docs/search-tests.md); the fixed rows are hand-set.
type params struct {
	// Transposition table.
	ttCutRule50  int // no TT cutoff from this half-move clock on: the stored score may not survive the fifty-move rule
	ttEvalDepth  int // depth of an entry that only caches the static eval (below every real search depth)
	aspiration   int // first half-width of the aspiration window around the previous score
	aspirationAt int // aspiration windows from this depth on (shallower scores are too unstable)

	// Iterative deepening stops (without a depth limit) once a mate score
	// is the same for mateStableIters iterations after the first and the
	// depth exceeds the mate's length in plies by mateExtraDepth.
	mateStableIters int
	mateExtraDepth  int

	// Reverse futility pruning: the static eval beats beta by a margin per ply.
	rfpMaxDepth int // only near the leaves, where the eval is a fair guess of the search result
	rfpMargin   int // per ply of depth (one ply less when improving)

	// Null-move pruning.
	nmpMinDepth    int // shallower nodes gain too little from a null search
	nmpEvalSlope   int // the static eval must reach beta - nmpEvalSlope*depth + nmpEvalBase
	nmpEvalBase    int //   (deeper nodes may try with a lower eval)
	nmpBaseR       int // base reduction
	nmpDepthDiv    int // plus one ply of reduction per this many plies of depth
	nmpEvalDiv     int // plus one ply per this much eval above beta ...
	nmpEvalMaxR    int //   ... at most this many
	probCutMargin  int // ProbCut: a capture that beats beta by this margin at reduced depth
	probCutImprove int // smaller margin when the eval is improving
	probCutDepth   int // ProbCut from this depth on
	probCutReduce  int // the ProbCut verification search is this many plies shallower
	probCutTTSlack int // skip ProbCut when a TT entry this close to full depth says it fails

	iirMinDepth int // internal iterative reduction without a TT move, from this depth on

	// Move-loop pruning of late moves.
	lmpBase         int // late-move pruning: skip quiets after (lmpBase + depth²)/(2 - improving) moves
	futMaxDepth     int // futility pruning of quiets up to this LMR depth
	futBase         int // static eval + futBase + futPerDepth*lmrDepth must reach alpha
	futPerDepth     int
	histPruneDepth  int // history pruning of quiets up to this LMR depth
	histPruneMargin int // quiets whose history is below -histPruneMargin*depth are skipped
	seeQuietMargin  int // quiets must not lose more than seeQuietMargin*lmrDepth² by SEE
	seeNoisyDepth   int // SEE pruning of captures up to this depth
	seeNoisyMargin  int // captures must not lose more than seeNoisyMargin*depth by SEE

	// Extensions.
	seMinDepth      int // singular extensions from this depth on
	seTTSlack       int // the TT entry must be at most this many plies shallower
	seBetaPerDepth  int // singular beta = TT score - seBetaPerDepth*depth
	seDoubleMargin  int // double extension when the move is singular by this much more
	seMaxDoubleExts int // at most this many double extensions on one path (explosion guard)

	// Once a move raises alpha at a non-root node of depth 3 to
	// alphaRaiseMaxDepth-1, the moves after it are searched a ply
	// shallower (the node's depth falls by one, once per raise).
	alphaRaiseMaxDepth int

	// Late-move reductions.
	lmrBase    float64 // reduction = lmrBase + ln(depth)·ln(move number)/lmrDiv
	lmrDiv     float64
	lmrHistDiv int // one ply less (more) reduction per this much history above (below) zero

	// History updates: bonus = min(histBonusMax, histBonusSlope*depth - histBonusBase).
	histBonusSlope int // deeper cutoffs teach more
	histBonusBase  int
	histBonusMax   int // capped, so one deep cutoff does not swamp the table

	// The quiet move's eval swing (learnFromEvalSwing): a node's first
	// visit moves the butterfly history of the quiet move that led to it
	// by -histEvalSwingSlope/8 times the sum of the two static evals,
	// held to +-histEvalSwingMax. Slope 0 turns it off; 32 passed its
	// SPRT (docs/search-tests.md).
	histEvalSwingSlope int
	histEvalSwingMax   int

	// The prior move's bonus (rewardPriorMove): when every move of a
	// non-root node fails low, the quiet move that led to it refuted
	// something, and its histories for the side that made it gain
	// histPriorBonus percent of the node's history bonus. 0 turns it
	// off; 100 passed its SPRT (docs/search-tests.md).
	histPriorBonus int

	// Time management by effort: between iterations the soft limit is
	// scaled by 1 + tmEffortWeight/100 * (tmEffortPivot/100 - share),
	// held to 0.6-1.6, where share is the best root move's part of all
	// the nodes searched under root moves so far: a move that takes most
	// of the search is clear, and one that takes little is in doubt.
	// tmEffortWeight 0 (the default) turns it off; it is not tuned at
	// fixed nodes, where no clock runs.
	tmEffortPivot  int // percent
	tmEffortWeight int // percent

	// Time management by score trend: between iterations the soft limit
	// is scaled by 1 + tmTrendWeight/100 * drop/100, held to 0.8-1.5,
	// where drop is how far the best score fell (in centipawns) since the
	// iteration two before, of the same parity; a rise counts as a
	// negative drop. Mate and tablebase scores count as no drop.
	// tmTrendWeight 0 (the default) turns it off; not tuned at fixed nodes.
	tmTrendWeight int // percent

	// The low-clock comfort level by the increment: below the comfort
	// level (2 s) the low-clock rules of timeman.go hold the clock back.
	// The clock settles at a share of that level which grows with the
	// increment (near 1.0 s at 2+0.02 but 1.35 s at 5+0.05 and 1.5 s at
	// 8+0.08 in a model game), so a larger increment keeps the same bank
	// with a lower level: from an increment of 20 ms on, the level falls
	// by tmLowIncSlope times the increment beyond 20 ms, to 1 s (at 20:
	// 1.4 s at 5+0.05, 1 s from 70 ms on). 0 (the default) keeps 2 s at
	// every increment; 20 is the setting under test. Not tuned at fixed
	// nodes.
	tmLowIncSlope int

	// Quiescence search.
	qsDeltaMargin int // delta pruning: a capture must be able to lift the eval within this margin of alpha
	qsSEEMargin   int // captures losing more than this by SEE are skipped
	qsEvasions    int // evasions tried before quiet evasions are skipped (when not mated)
}

// sp is the parameters the search reads: plain struct fields, no lookup
// at search time. It starts at the defaults of paramTable; the tune build
// changes it between searches (SetTunable).
var sp = defaultParams()

// paramTable declares every search parameter once: the params field it
// sets (its name is the parameter's name), its default and, for one that
// SPSA may tune, its range and c_end. The defaults of sp, the tune
// build's UCI options and the `spsa` output all come from it.
//
//	tuned(field, default, min, max, c_end)
//	tunedF(field, default, scale, min, max, c_end)  a float, offered as value*scale
//	fixed(field, default)                          not tuned
//
// c_end, OpenBench's perturbation at the end of a tune, is a twentieth of
// the range as a rule of thumb, but at least 0.5: OpenBench never
// perturbs an integer by less. Left out of tuning: ttEvalDepth (a marker
// below every real depth, not a strength setting) and
// mateStableIters/mateExtraDepth (when a search without a depth limit
// stops on a found mate; no game result depends on them), and
// tmEffortPivot/tmEffortWeight, tmTrendWeight and tmLowIncSlope (they
// act only on a clock, and the tunes run at fixed nodes).
var paramTable = []param{
	// Transposition table and aspiration windows.
	tuned(func(p *params) *int { return &p.ttCutRule50 }, 89, 50, 100, 2.5),
	fixed(func(p *params) *int { return &p.ttEvalDepth }, -6),
	tuned(func(p *params) *int { return &p.aspiration }, 16, 5, 60, 2.75),
	tuned(func(p *params) *int { return &p.aspirationAt }, 4, 1, 8, 0.5),

	// Mate-found stop of iterative deepening (not tuned: no game result depends on it).
	fixed(func(p *params) *int { return &p.mateStableIters }, 2),
	fixed(func(p *params) *int { return &p.mateExtraDepth }, 4),

	// Reverse futility pruning.
	tuned(func(p *params) *int { return &p.rfpMaxDepth }, 8, 3, 14, 0.55),
	tuned(func(p *params) *int { return &p.rfpMargin }, 63, 30, 160, 6.5),

	// Null-move pruning and ProbCut.
	tuned(func(p *params) *int { return &p.nmpMinDepth }, 3, 1, 6, 0.5),
	tuned(func(p *params) *int { return &p.nmpEvalSlope }, 20, 0, 60, 3),
	tuned(func(p *params) *int { return &p.nmpEvalBase }, 130, 0, 400, 20),
	tuned(func(p *params) *int { return &p.nmpBaseR }, 3, 1, 6, 0.5),
	tuned(func(p *params) *int { return &p.nmpDepthDiv }, 3, 2, 8, 0.5),
	tuned(func(p *params) *int { return &p.nmpEvalDiv }, 224, 50, 500, 22.5),
	tuned(func(p *params) *int { return &p.nmpEvalMaxR }, 3, 0, 6, 0.5),
	tuned(func(p *params) *int { return &p.probCutMargin }, 193, 80, 400, 16),
	tuned(func(p *params) *int { return &p.probCutImprove }, 44, 0, 150, 7.5),
	tuned(func(p *params) *int { return &p.probCutDepth }, 5, 3, 10, 0.5),
	tuned(func(p *params) *int { return &p.probCutReduce }, 4, 2, 6, 0.5),
	tuned(func(p *params) *int { return &p.probCutTTSlack }, 3, 1, 6, 0.5),

	// Internal iterative reduction.
	tuned(func(p *params) *int { return &p.iirMinDepth }, 3, 2, 10, 0.5),

	// Move-loop pruning of late moves.
	tuned(func(p *params) *int { return &p.lmpBase }, 5, 0, 10, 0.5),
	tuned(func(p *params) *int { return &p.futMaxDepth }, 8, 3, 14, 0.55),
	tuned(func(p *params) *int { return &p.futBase }, 47, 0, 300, 15),
	tuned(func(p *params) *int { return &p.futPerDepth }, 99, 40, 250, 10.5),
	tuned(func(p *params) *int { return &p.histPruneDepth }, 4, 1, 8, 0.5),
	tuned(func(p *params) *int { return &p.histPruneMargin }, 3911, 500, 8000, 375),
	tuned(func(p *params) *int { return &p.seeQuietMargin }, 19, 5, 80, 3.75),
	tuned(func(p *params) *int { return &p.seeNoisyDepth }, 8, 3, 14, 0.55),
	tuned(func(p *params) *int { return &p.seeNoisyMargin }, 74, 20, 200, 9),

	// Extensions.
	tuned(func(p *params) *int { return &p.seMinDepth }, 7, 4, 12, 0.5),
	tuned(func(p *params) *int { return &p.seTTSlack }, 3, 1, 6, 0.5),
	tuned(func(p *params) *int { return &p.seBetaPerDepth }, 2, 1, 6, 0.5),
	tuned(func(p *params) *int { return &p.seDoubleMargin }, 21, 0, 60, 3),
	tuned(func(p *params) *int { return &p.seMaxDoubleExts }, 6, 0, 16, 0.8),
	tuned(func(p *params) *int { return &p.alphaRaiseMaxDepth }, 11, 3, 30, 1.4),

	// Late-move reductions (the floats are offered as value*100).
	tunedF(func(p *params) *float64 { return &p.lmrBase }, 0.84, 100, 0, 200, 10),
	tunedF(func(p *params) *float64 { return &p.lmrDiv }, 2.13, 100, 120, 400, 14),
	tuned(func(p *params) *int { return &p.lmrHistDiv }, 8624, 2000, 20000, 900),

	// History updates.
	tuned(func(p *params) *int { return &p.histBonusSlope }, 196, 60, 400, 17),
	tuned(func(p *params) *int { return &p.histBonusBase }, 100, 0, 300, 15),
	tuned(func(p *params) *int { return &p.histBonusMax }, 2169, 800, 4000, 160),
	tuned(func(p *params) *int { return &p.histEvalSwingSlope }, 36, 0, 96, 5),
	tuned(func(p *params) *int { return &p.histEvalSwingMax }, 977, 200, 3000, 140),
	tuned(func(p *params) *int { return &p.histPriorBonus }, 103, 0, 300, 15),

	// Time management by effort (off: its weight is 0).
	fixed(func(p *params) *int { return &p.tmEffortPivot }, 70),
	fixed(func(p *params) *int { return &p.tmEffortWeight }, 0),

	// Time management by score trend (off: its weight is 0).
	fixed(func(p *params) *int { return &p.tmTrendWeight }, 0),

	// The low-clock comfort level by the increment (off: its slope is 0).
	fixed(func(p *params) *int { return &p.tmLowIncSlope }, 0),

	// Quiescence search.
	tuned(func(p *params) *int { return &p.qsDeltaMargin }, 182, 50, 400, 17.5),
	tuned(func(p *params) *int { return &p.qsSEEMargin }, 9, -50, 100, 7.5),
	tuned(func(p *params) *int { return &p.qsEvasions }, 3, 1, 8, 0.5),
}

// param is one row of paramTable.
type param struct {
	name     string                 // the params field
	i        func(*params) *int     // the field, for an int
	f        func(*params) *float64 // the field, for a float
	defI     int
	defF     float64
	tuned    bool
	scale    int     // a tuned float is offered as an integer: value*scale
	min, max int     // the tuning range (scaled)
	cEnd     float64 // OpenBench's c_end
}

func tuned(field func(*params) *int, def, lo, hi int, cEnd float64) param {
	return param{name: fieldName(field), i: field, defI: def, tuned: true, scale: 1, min: lo, max: hi, cEnd: cEnd}
}

func tunedF(field func(*params) *float64, def float64, scale, lo, hi int, cEnd float64) param {
	return param{name: fieldName(field), f: field, defF: def, tuned: true, scale: scale, min: lo, max: hi, cEnd: cEnd}
}

func fixed(field func(*params) *int, def int) param {
	return param{name: fieldName(field), i: field, defI: def}
}

// fieldName is the name of the params field that field points to.
func fieldName[T any](field func(*params) *T) string {
	var p params
	addr := reflect.ValueOf(field(&p)).Pointer()
	rv := reflect.ValueOf(&p).Elem()
	for i := range rv.NumField() {
		if rv.Field(i).Addr().Pointer() == addr {
			return rv.Type().Field(i).Name
		}
	}
	panic("search: a paramTable row does not point into params")
}

// defaultParams is params with every field at its paramTable default.
func defaultParams() params {
	var p params
	for _, r := range paramTable {
		if r.f != nil {
			*r.f(&p) = r.defF
		} else {
			*r.i(&p) = r.defI
		}
	}
	return p
}
