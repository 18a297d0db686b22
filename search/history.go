package search

// The history tables that order and prune moves, and the static-eval
// correction history.

import (
	v "github.com/rochade/rochade/variant960"
)

// History tables, per thread.
const histMax = 16384

// contHist is indexed [prevPiece][prevTo][piece][to].
type contHistTable [16 * 64][16 * 64]int16

type histories struct {
	butterfly [2][4][64 * 64]int16 // [side][threat class][from and to]: see butterflyAt
	capture   [16][64][8]int16     // [piece][to][captured type]
	cont      *contHistTable
	counter   [16][64]v.Move        // countermove by [prev piece][prev to]
	corr      [2][corrSize]int32    // static-eval correction by pawn structure
	npCorr    [2][2][corrSize]int32 // by [colour][side to move]: that colour's other pieces
}

// threatClass says whether the enemy attacks a move's from and to
// squares: a quiet move that leaves a threatened square, or steps onto
// one, is a different move from the same one elsewhere.
func threatClass(threats v.Bitboard, m v.Move) int {
	return 2*b2i(threats.Has(m.From())) + b2i(threats.Has(m.To()))
}

// butterflyAt is the butterfly entry of side's move m, with threats the
// squares the enemy attacks. The move's low 12 bits hold its from and to
// squares, so they index the 4096 entries directly. Kept small enough for
// the compiler to inline: the move picker calls it for every quiet move.
func (h *histories) butterflyAt(side v.Color, threats v.Bitboard, m v.Move) *int16 {
	return &h.butterfly[side][threatClass(threats, m)][m&4095]
}

func gravity(h *int16, bonus int) {
	b := max(-histMax, min(histMax, bonus))
	*h += int16(b - int(*h)*abs(b)/histMax)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func histBonus(depth int) int {
	return min(sp.histBonusMax, sp.histBonusSlope*depth-sp.histBonusBase)
}

const (
	corrSize  = 1 << 14
	corrGrain = 256
	corrMax   = 96 * corrGrain
)

// correction returns the learned static-eval correction for the side to
// move: a weighted mean of the entries for the pawn structure (weight 2)
// and for each colour's placement of its other pieces (1 each). Each entry
// moves toward the search result less the corrected eval, so the sum
// settles at half the raw eval's error, as one table's entry did.
func (t *thread) correction() int {
	pawn, white, black := t.corrEntries()
	return int(2**pawn+*white+*black) / (4 * corrGrain)
}

// corrEntries returns the position's entries in the correction tables:
// its pawn structure's and each colour's other pieces', for the side to
// move.
func (t *thread) corrEntries() (pawn, white, black *int32) {
	pos, h := t.pos, &t.hist
	stm := pos.Side()
	return &h.corr[stm][pos.PawnKey()&(corrSize-1)],
		&h.npCorr[v.White][stm][pos.NonPawnKey(v.White)&(corrSize-1)],
		&h.npCorr[v.Black][stm][pos.NonPawnKey(v.Black)&(corrSize-1)]
}

// correct applies the correction to a raw evaluation.
func (t *thread) correct(raw int) int {
	return max(-MateInMaxPly+1, min(MateInMaxPly-1, raw+t.correction()))
}

// updateCorrection moves each table's entry for the position toward diff,
// the search result less the corrected static eval.
func (t *thread) updateCorrection(diff, depth int) {
	pawn, white, black := t.corrEntries()
	w := int32(min(depth+1, 16))
	corrMove(pawn, diff, w)
	corrMove(white, diff, w)
	corrMove(black, diff, w)
}

// corrMove moves a correction entry a share w/corrGrain of the way to diff.
func corrMove(e *int32, diff int, w int32) {
	nv := (*e*(corrGrain-w) + int32(diff*corrGrain)*w) / corrGrain
	*e = max(-corrMax, min(corrMax, nv))
}

func (t *thread) updateCaptureHist(m v.Move, bonus int) {
	pos := t.pos
	gravity(&t.hist.capture[pos.PieceOn(m.From())][m.To()][capturedType(pos, m)], bonus)
}

func (t *thread) updateQuietStats(ply int, best v.Move, bonus int, quiets []v.Move, depth int) {
	ss := &t.stack[ply+stackOff]
	if ss.killers[0] != best {
		ss.killers[1] = ss.killers[0]
		ss.killers[0] = best
	}
	prev := &t.stack[ply+stackOff-1]
	if prev.move != v.NoMove && prev.move != v.NullMove {
		t.hist.counter[prev.piece][prev.move.To()] = best
	}
	t.updateQuietHist(ply, best, bonus)
	for _, m := range quiets {
		t.updateQuietHist(ply, m, -bonus)
	}
}

func (t *thread) updateQuietHist(ply int, m v.Move, bonus int) {
	pos := t.pos
	pc := pos.PieceOn(m.From())
	to := m.To()
	if m.IsCastling() {
		to = m.CastlingKingTo()
	}
	idx := int(pc)*64 + int(to)
	gravity(t.hist.butterflyAt(pos.Side(), t.stack[ply+stackOff].threats.All, m), bonus)
	gravity(&t.hist.cont[t.stack[ply+stackOff-1].contIdx][idx], bonus)
	gravity(&t.hist.cont[t.stack[ply+stackOff-2].contIdx][idx], bonus)
}

// updateHistories rewards the move that raised alpha and punishes the
// moves tried before it: quiets in the quiet histories (with killers and
// countermove), captures in the capture history.
func (t *thread) updateHistories(ply, depth int, best v.Move, quiets, noisies []v.Move) {
	bonus := histBonus(depth)
	if !isNoisy(t.pos, best) {
		t.updateQuietStats(ply, best, bonus, quiets, depth)
	} else {
		t.updateCaptureHist(best, bonus)
	}
	for _, m := range noisies {
		t.updateCaptureHist(m, -bonus)
	}
}

// learnFromEvalSwing teaches the butterfly history of the quiet move that
// led to node n (made by the side not to move) from how the static eval
// swung across it: the sum of the parent's and the node's static evals,
// each from its own side to move, is what the move lost for its mover
// (negative: what it gained). The bonus is -histEvalSwingSlope/8 of that
// sum, held to +-histEvalSwingMax. It runs once, at a node's first visit
// (no TT entry yet), and never after a null move, a capture or a
// promotion, or when either eval is unknown (in check). Slope 0 turns it
// off.
func (t *thread) learnFromEvalSwing(n *node) {
	if sp.histEvalSwingSlope == 0 || n.ply < 1 {
		return
	}
	prev, quiet := t.quietPriorMove(n.ply)
	if !quiet || prev.staticEval == -Infinity || n.staticEval == -Infinity {
		return
	}
	sum := prev.staticEval + n.staticEval
	bonus := max(-sp.histEvalSwingMax, min(sp.histEvalSwingMax, -sp.histEvalSwingSlope*sum/8))
	gravity(t.hist.butterflyAt(t.pos.Side()^1, prev.threats.All, prev.move), bonus)
}

// quietPriorMove returns the stack entry of the parent of the node at ply
// (ply >= 1), whose move led to the node, and whether that move was
// quiet, as isNoisy says before the move: not a null move, no capture
// (en passant included) and no promotion. The node's position tells the
// capture, since the parent's is gone.
func (t *thread) quietPriorMove(ply int) (prev *stackEntry, quiet bool) {
	prev = &t.stack[ply+stackOff-1]
	m := prev.move
	return prev, m != v.NullMove && m != v.NoMove && m.Kind() != v.KindPromotion && t.pos.Captured() == v.NoPiece
}

// learnFromNode updates the histories once a node's moves are searched:
// from its best move and the moves tried before it, or, when every move
// failed low, for the move that led to it.
func (t *thread) learnFromNode(n *node, bestMove v.Move, tried *triedMoves) {
	if bestMove != v.NoMove {
		t.updateHistories(n.ply, n.depth, bestMove, tried.quiets[:tried.nQuiets], tried.noisies[:tried.nNoisies])
	} else if !n.root && n.excluded == v.NoMove {
		t.rewardPriorMove(n.ply, n.depth)
	}
}

// rewardPriorMove gives the quiet move that led to a node whose moves all
// failed low (made by the side not to move) histPriorBonus percent of the
// bonus at the node's depth, in the butterfly and both continuation
// histories of the parent. Never after a null move, a capture or a
// promotion.
func (t *thread) rewardPriorMove(ply, depth int) {
	if sp.histPriorBonus == 0 || ply < 1 {
		return
	}
	prev, quiet := t.quietPriorMove(ply)
	if !quiet {
		return
	}
	bonus := histBonus(depth) * sp.histPriorBonus / 100
	gravity(t.hist.butterflyAt(t.pos.Side()^1, prev.threats.All, prev.move), bonus)
	gravity(&t.hist.cont[t.stack[ply+stackOff-2].contIdx][prev.contIdx], bonus)
	gravity(&t.hist.cont[t.stack[ply+stackOff-3].contIdx][prev.contIdx], bonus)
}
