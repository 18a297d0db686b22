package search

// params holds every margin, threshold and reduction constant of the
// search in one place, each with the reason it exists. Scores are in
// centipawns, depths in plies. Fourteen of them (the eval margins and
// the LMR constants) were tuned by SPSA with net h6 on 2026-11-25
// (search/README.md); the rest are still hand-set.
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
	checkExtDepth   int // check extension below this depth only

	// Late-move reductions.
	lmrBase    float64 // reduction = lmrBase + ln(depth)·ln(move number)/lmrDiv
	lmrDiv     float64
	lmrHistDiv int // one ply less (more) reduction per this much history above (below) zero

	// History updates: bonus = min(histBonusMax, histBonusSlope*depth - histBonusBase).
	histBonusSlope int // deeper cutoffs teach more
	histBonusBase  int
	histBonusMax   int // capped, so one deep cutoff does not swamp the table

	// Quiescence search.
	qsDeltaMargin int // delta pruning: a capture must be able to lift the eval within this margin of alpha
	qsSEEMargin   int // captures losing more than this by SEE are skipped
	qsEvasions    int // evasions tried before quiet evasions are skipped (when not mated)
}

var sp = params{
	ttCutRule50:  90,
	ttEvalDepth:  -6,
	aspiration:   17,
	aspirationAt: 4,

	mateStableIters: 2,
	mateExtraDepth:  4,

	rfpMaxDepth: 8,
	rfpMargin:   69,

	nmpMinDepth:    3,
	nmpEvalSlope:   20,
	nmpEvalBase:    145,
	nmpBaseR:       3,
	nmpDepthDiv:    3,
	nmpEvalDiv:     214,
	nmpEvalMaxR:    3,
	probCutMargin:  195,
	probCutImprove: 50,
	probCutDepth:   5,
	probCutReduce:  4,
	probCutTTSlack: 3,

	iirMinDepth: 4,

	lmpBase:         3,
	futMaxDepth:     8,
	futBase:         77,
	futPerDepth:     107,
	histPruneDepth:  4,
	histPruneMargin: 3390,
	seeQuietMargin:  22,
	seeNoisyDepth:   8,
	seeNoisyMargin:  82,

	seMinDepth:      7,
	seTTSlack:       3,
	seBetaPerDepth:  2,
	seDoubleMargin:  20,
	seMaxDoubleExts: 6,
	checkExtDepth:   12,

	lmrBase:    0.84,
	lmrDiv:     2.19,
	lmrHistDiv: 7248,

	histBonusSlope: 180,
	histBonusBase:  100,
	histBonusMax:   2000,

	qsDeltaMargin: 185,
	qsSEEMargin:   20,
	qsEvasions:    3,
}
