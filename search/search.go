package search

import (
	"math"
	"sync/atomic"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

const stackOff = 4 // stack entries below ply 0, for ply-1, ply-2 look-backs

type stackEntry struct {
	move       v.Move
	piece      v.Piece
	contIdx    int // piece*64+to of the move made at this ply
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
	selDepth  int
	rootMoves []rootMove
	pvIdx     int
	depth     int // completed depth
	rootDepth int
	stopped   bool
	pickers   [MaxPly + 2][2]picker
}

var lmrTable [64][64]int

func init() {
	for d := 1; d < 64; d++ {
		for m := 1; m < 64; m++ {
			lmrTable[d][m] = int(sp.lmrBase + math.Log(float64(d))*math.Log(float64(m))/sp.lmrDiv)
		}
	}
}

func (t *thread) checkStop() bool {
	if t.stopped {
		return true
	}
	if t.nodes&1023 == 0 {
		t.pubNodes.Store(t.nodes)
	}
	if t.id == 0 && (t.nodes&1023 == 0 || t.e.limits.Nodes > 0) {
		t.e.checkTime(t)
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
	t.ev.Push(t.pos, m)
	t.pos.Make(m)
	t.nodes++
}

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

func (t *thread) search(alpha, beta, depth, ply int, cutNode bool) int {
	pvNode := beta-alpha > 1
	root := ply == 0
	if depth <= 0 {
		return t.qsearch(alpha, beta, ply)
	}
	t.pvLen[ply] = ply
	if t.checkStop() {
		return 0
	}
	if pvNode && ply > t.selDepth {
		t.selDepth = ply
	}
	pos := t.pos
	inCheck := pos.InCheck()
	if !root {
		if pos.IsDrawInSearch(ply) {
			return drawScore(t)
		}
		if ply >= MaxPly-1 {
			if inCheck {
				return 0
			}
			return t.evaluate()
		}
		alpha = max(alpha, -MateScore+ply)
		beta = min(beta, MateScore-ply-1)
		if alpha >= beta {
			return alpha
		}
	}
	ss := &t.stack[ply+stackOff]
	excluded := ss.excluded
	t.stack[ply+stackOff+1].killers = [2]v.Move{}
	t.stack[ply+stackOff+2].excluded = v.NoMove

	// A singular-extension search (excluded != NoMove) reads the entry of
	// its node, whose move is the excluded one, but never cuts off on it
	// nor stores.
	key := pos.Key()
	tte, ttHit := t.e.tt.Probe(key)
	ttMove := v.NoMove
	ttScore := 0
	if ttHit {
		ttMove = tte.move
		ttScore = scoreFromTT(tte.score, ply, pos.Rule50())
	}
	if root {
		ttMove = t.rootMoves[t.pvIdx].move
	}
	ttPV := pvNode || (ttHit && tte.pv)
	if !pvNode && ttHit && excluded == v.NoMove && tte.depth >= depth &&
		(tte.bound == BoundExact || (tte.bound == BoundLower && ttScore >= beta) || (tte.bound == BoundUpper && ttScore < beta)) {
		if ttMove != v.NoMove && ttScore >= beta && !isNoisy(pos, ttMove) && pos.IsPseudoLegal(ttMove) {
			t.updateQuietStats(ply, ttMove, histBonus(depth), nil, 0)
		}
		if pos.Rule50() < sp.ttCutRule50 {
			return ttScore
		}
	}

	// Static evaluation. The TT stores the raw eval; the correction is
	// applied when it is read.
	var staticEval, eval int
	rawEval := -Infinity
	improving := false
	if inCheck {
		staticEval = -Infinity
		eval = -Infinity
		ss.staticEval = -Infinity
	} else if excluded != v.NoMove {
		// The singular search shares its node's evaluation.
		staticEval, eval = ss.staticEval, ss.staticEval
	} else {
		rawEval = t.rawEval(tte, ttHit)
		staticEval = t.correct(rawEval)
		ss.staticEval = staticEval
		eval = staticEval
		if ttHit && ttScore != 0 && !IsMate(ttScore) &&
			((tte.bound == BoundLower && ttScore > eval) || (tte.bound == BoundUpper && ttScore < eval) || tte.bound == BoundExact) {
			eval = ttScore
		}
		if !ttHit {
			t.e.tt.Store(key, v.NoMove, 0, rawEval, sp.ttEvalDepth, BoundNone, ttPV)
		}
	}
	if !inCheck {
		prev2 := t.stack[ply+stackOff-2].staticEval
		improving = ply >= 2 && prev2 != -Infinity && staticEval > prev2
	}

	if !pvNode && !inCheck && excluded == v.NoMove {
		// Reverse futility pruning.
		if depth <= sp.rfpMaxDepth && eval-sp.rfpMargin*(depth-b2i(improving)) >= beta && eval < MateInMaxPly && beta > -MateInMaxPly {
			return (eval + beta) / 2
		}
		// Null-move pruning, not without pieces (zugzwang guard).
		prev := t.stack[ply+stackOff-1].move
		if depth >= sp.nmpMinDepth && prev != v.NullMove && eval >= beta && staticEval >= beta-sp.nmpEvalSlope*depth+sp.nmpEvalBase &&
			pos.NonPawnMaterial(pos.Side()) && beta > -MateInMaxPly {
			r := sp.nmpBaseR + depth/sp.nmpDepthDiv + min((eval-beta)/sp.nmpEvalDiv, sp.nmpEvalMaxR)
			t.makeNull(ply)
			s := -t.search(-beta, -beta+1, depth-r, ply+1, !cutNode)
			t.unmakeNull()
			if t.stopped {
				return 0
			}
			if s >= beta {
				if s >= MateInMaxPly {
					s = beta
				}
				return s
			}
		}
		// ProbCut: a good capture that beats beta by a margin at reduced depth.
		pcBeta := beta + sp.probCutMargin - sp.probCutImprove*b2i(improving)
		if depth >= sp.probCutDepth && !IsMate(beta) && !(ttHit && tte.depth >= depth-sp.probCutTTSlack && ttScore < pcBeta) {
			pk := &t.pickers[ply][0]
			pk.init(t, ply, ttMove, true)
			for m := pk.next(); m != v.NoMove; m = pk.next() {
				if !pos.SEE(m, pcBeta-staticEval) || !pos.IsLegal(m) {
					continue
				}
				t.makeMove(m, ply)
				s := -t.qsearch(-pcBeta, -pcBeta+1, ply+1)
				if s >= pcBeta {
					s = -t.search(-pcBeta, -pcBeta+1, depth-sp.probCutReduce, ply+1, !cutNode)
				}
				t.unmakeMove()
				if t.stopped {
					return 0
				}
				if s >= pcBeta {
					t.e.tt.Store(key, m, scoreToTT(s, ply), rawEval, depth-(sp.probCutReduce-1), BoundLower, ttPV)
					return s
				}
			}
		}
	}

	// Internal iterative reduction.
	if depth >= sp.iirMinDepth && ttMove == v.NoMove && (pvNode || cutNode) {
		depth--
	}

	var quiets [64]v.Move
	var noisies [32]v.Move
	nQuiets, nNoisies := 0, 0
	bestScore := -Infinity
	bestMove := v.NoMove
	moveCount := 0
	origAlpha := alpha
	us := pos.Side()
	ttMoveNoisy := ttMove != v.NoMove && isNoisy(pos, ttMove)

	pk := &t.pickers[ply][b2i(excluded != v.NoMove)]
	pk.init(t, ply, ttMove, false)
	rootIdx := 0
	for {
		var m v.Move
		if root {
			if t.pvIdx+rootIdx >= len(t.rootMoves) {
				break
			}
			m = t.rootMoves[t.pvIdx+rootIdx].move
			rootIdx++
		} else {
			m = pk.next()
			if m == v.NoMove {
				break
			}
			if m == excluded || !pos.IsLegal(m) {
				continue
			}
		}
		moveCount++
		if root && t.id == 0 {
			t.e.reportCurrMove(t, m, moveCount+t.pvIdx)
		}
		noisy := isNoisy(pos, m)
		givesCheck := pos.GivesCheck(m)
		from, to := m.From(), m.To()
		pc := pos.PieceOn(from)
		hist := 0
		if !noisy {
			cto := to
			if m.IsCastling() {
				cto = m.CastlingKingTo()
			}
			idx := int(pc)*64 + int(cto)
			hist = int(t.hist.butterfly[us][int(from)*64+int(to)]) +
				int(t.hist.cont[t.stack[ply+stackOff-1].contIdx][idx]) +
				int(t.hist.cont[t.stack[ply+stackOff-2].contIdx][idx])
		}

		// Shallow-depth pruning.
		r := lmrTable[min(depth, 63)][min(moveCount, 63)]
		if !root && bestScore > -MateInMaxPly && pos.NonPawnMaterial(us) {
			lmrDepth := max(depth-1-r, 0)
			if !noisy && !givesCheck {
				if moveCount >= (sp.lmpBase+depth*depth)/(2-b2i(improving)) {
					continue
				}
				if !inCheck && lmrDepth <= sp.futMaxDepth && staticEval+sp.futBase+sp.futPerDepth*lmrDepth <= alpha {
					continue
				}
				if lmrDepth <= sp.histPruneDepth && hist < -sp.histPruneMargin*depth {
					continue
				}
				if !pos.SEE(m, -sp.seeQuietMargin*lmrDepth*lmrDepth) {
					continue
				}
			} else if depth <= sp.seeNoisyDepth && !pos.SEE(m, -sp.seeNoisyMargin*depth) {
				continue
			}
		}

		// Extensions.
		ext := 0
		if !root && ply < 2*t.rootDepth && m == ttMove && excluded == v.NoMove && depth >= sp.seMinDepth &&
			ttHit && tte.bound&BoundLower != 0 && tte.depth >= depth-sp.seTTSlack && !IsMate(ttScore) {
			sBeta := ttScore - sp.seBetaPerDepth*depth
			ss.excluded = m
			s := t.search(sBeta-1, sBeta, (depth-1)/2, ply, cutNode)
			ss.excluded = v.NoMove
			if t.stopped {
				return 0
			}
			if s < sBeta {
				ext = 1
				if !pvNode && s < sBeta-sp.seDoubleMargin && ss.doubleExt <= sp.seMaxDoubleExts {
					ext = 2
				}
			} else if sBeta >= beta {
				return sBeta // multi-cut
			} else if ttScore >= beta {
				ext = -1
			}
		} else if givesCheck && depth < sp.checkExtDepth {
			ext = 1
		}

		t.makeMove(m, ply)
		t.stack[ply+stackOff+1].doubleExt = ss.doubleExt + b2i(ext == 2)
		newDepth := depth - 1 + ext
		var s int
		if depth >= 2 && moveCount > 1+b2i(root) && (!noisy || !ttPV) {
			r -= b2i(ttPV)
			r += b2i(cutNode)
			r += b2i(!improving)
			r -= b2i(givesCheck)
			if !noisy {
				r -= hist / sp.lmrHistDiv
			} else {
				r--
			}
			if ttMoveNoisy {
				r++
			}
			d := max(1, min(newDepth-r, newDepth))
			s = -t.search(-alpha-1, -alpha, d, ply+1, true)
			if s > alpha && d < newDepth {
				s = -t.search(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
			}
		} else if !pvNode || moveCount > 1 {
			s = -t.search(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
		}
		if pvNode && (moveCount == 1 || s > alpha) {
			s = -t.search(-beta, -alpha, newDepth, ply+1, false)
		}
		t.unmakeMove()
		if t.stopped {
			return 0
		}

		if root {
			rm := &t.rootMoves[t.pvIdx+rootIdx-1]
			if moveCount == 1 || s > alpha {
				rm.score = s
				rm.selDepth = t.selDepth
				rm.pv = append(rm.pv[:0], m)
				rm.pv = append(rm.pv, t.pv[1][1:t.pvLen[1]]...)
				rm.bound = BoundExact
				if s >= beta {
					rm.bound = BoundLower
				} else if s <= alpha {
					rm.bound = BoundUpper
				}
				if moveCount > 1 && t.id == 0 {
					t.e.bestMoveChanges++
				}
			} else {
				rm.score = -Infinity
			}
		}

		if s > bestScore {
			bestScore = s
			if s > alpha {
				bestMove = m
				if pvNode && !root {
					t.updatePV(ply, m)
				}
				if s >= beta {
					break
				}
				alpha = s
			}
		}
		if m != bestMove {
			if noisy && nNoisies < len(noisies) {
				noisies[nNoisies] = m
				nNoisies++
			} else if !noisy && nQuiets < len(quiets) {
				quiets[nQuiets] = m
				nQuiets++
			}
		}
	}

	if moveCount == 0 {
		if excluded != v.NoMove {
			return alpha
		}
		if inCheck {
			return -MateScore + ply
		}
		return 0
	}

	if bestMove != v.NoMove {
		bonus := histBonus(depth)
		if !isNoisy(pos, bestMove) {
			t.updateQuietStats(ply, bestMove, bonus, quiets[:nQuiets], depth)
		} else {
			t.updateCaptureHist(bestMove, bonus)
		}
		for _, m := range noisies[:nNoisies] {
			t.updateCaptureHist(m, -bonus)
		}
	}

	if excluded == v.NoMove && !(root && t.pvIdx > 0) {
		bound := BoundUpper
		if bestScore >= beta {
			bound = BoundLower
		} else if pvNode && bestScore > origAlpha {
			bound = BoundExact
		}
		t.e.tt.Store(key, bestMove, scoreToTT(bestScore, ply), rawEval, depth, bound, ttPV)
		// Correction history: learn how far search results stray from the
		// static eval for this pawn structure.
		if !inCheck && (bestMove == v.NoMove || !isNoisy(pos, bestMove)) && !IsMate(bestScore) &&
			!(bound == BoundLower && bestScore <= ss.staticEval) && !(bound == BoundUpper && bestScore >= ss.staticEval) {
			t.updateCorrection(bestScore-ss.staticEval, depth)
		}
	}
	return bestScore
}

const (
	corrSize  = 1 << 14
	corrGrain = 256
	corrMax   = 96 * corrGrain
)

// correction returns the learned static-eval correction for the pawn
// structure and side to move.
func (t *thread) correction() int {
	return int(t.hist.corr[t.pos.Side()][t.pos.PawnKey()&(corrSize-1)]) / corrGrain
}

// correct applies the correction to a raw evaluation.
func (t *thread) correct(raw int) int {
	return max(-MateInMaxPly+1, min(MateInMaxPly-1, raw+t.correction()))
}

func (t *thread) updateCorrection(diff, depth int) {
	e := &t.hist.corr[t.pos.Side()][t.pos.PawnKey()&(corrSize-1)]
	w := int32(min(depth+1, 16))
	nv := (int32(*e)*(corrGrain-w) + int32(diff*corrGrain)*w) / corrGrain
	*e = max(-corrMax, min(corrMax, nv))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (t *thread) updateCaptureHist(m v.Move, bonus int) {
	pos := t.pos
	cap := v.Pawn
	if m.Kind() != v.KindEnPassant {
		cap = pos.PieceOn(m.To()).Type()
	}
	gravity(&t.hist.capture[pos.PieceOn(m.From())][m.To()][cap], bonus)
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
	gravity(&t.hist.butterfly[pos.Side()][int(m.From())*64+int(m.To())], bonus)
	gravity(&t.hist.cont[t.stack[ply+stackOff-1].contIdx][idx], bonus)
	gravity(&t.hist.cont[t.stack[ply+stackOff-2].contIdx][idx], bonus)
}

func (t *thread) qsearch(alpha, beta, ply int) int {
	pvNode := beta-alpha > 1
	t.pvLen[ply] = ply
	if t.checkStop() {
		return 0
	}
	pos := t.pos
	if pvNode && ply > t.selDepth {
		t.selDepth = ply
	}
	if pos.IsDrawInSearch(ply) {
		return drawScore(t)
	}
	inCheck := pos.InCheck()
	if ply >= MaxPly-1 {
		if inCheck {
			return 0
		}
		return t.evaluate()
	}
	key := pos.Key()
	tte, ttHit := t.e.tt.Probe(key)
	ttScore := 0
	ttMove := v.NoMove
	if ttHit {
		ttScore = scoreFromTT(tte.score, ply, pos.Rule50())
		ttMove = tte.move
		if !pvNode && pos.Rule50() < sp.ttCutRule50 &&
			(tte.bound == BoundExact || (tte.bound == BoundLower && ttScore >= beta) || (tte.bound == BoundUpper && ttScore < beta)) {
			return ttScore
		}
	}
	bestScore := -Infinity
	staticEval := -Infinity
	raw := -Infinity
	if !inCheck {
		raw = t.rawEval(tte, ttHit)
		staticEval = t.correct(raw)
		bestScore = staticEval
		if ttHit && !IsMate(ttScore) &&
			((tte.bound == BoundLower && ttScore > bestScore) || (tte.bound == BoundUpper && ttScore < bestScore)) {
			bestScore = ttScore
		}
		if bestScore >= beta {
			if !ttHit {
				t.e.tt.Store(key, v.NoMove, scoreToTT(bestScore, ply), raw, sp.ttEvalDepth, BoundLower, false)
			}
			return bestScore
		}
		alpha = max(alpha, bestScore)
	}
	pk := &t.pickers[ply][0]
	pk.init(t, ply, ttMove, true)
	bestMove := v.NoMove
	moveCount := 0
	for m := pk.next(); m != v.NoMove; m = pk.next() {
		if !pos.IsLegal(m) {
			continue
		}
		moveCount++
		if !inCheck {
			if m.Kind() == v.KindPromotion && m.Promotion() != v.Queen {
				continue
			}
			if m.Kind() == v.KindNormal {
				gain := mvvValue[pos.PieceOn(m.To()).Type()]
				if staticEval+gain+sp.qsDeltaMargin <= alpha && !pos.GivesCheck(m) {
					bestScore = max(bestScore, staticEval+gain+sp.qsDeltaMargin)
					continue
				}
			}
			if !pos.SEE(m, -sp.qsSEEMargin) {
				continue
			}
		} else if bestScore > -MateInMaxPly && moveCount > sp.qsEvasions && !isNoisy(pos, m) {
			continue // enough evasions tried; we are not being mated here
		}
		t.makeMove(m, ply)
		s := -t.qsearch(-beta, -alpha, ply+1)
		t.unmakeMove()
		if t.stopped {
			return 0
		}
		if s > bestScore {
			bestScore = s
			if s > alpha {
				bestMove = m
				if pvNode {
					t.updatePV(ply, m)
				}
				if s >= beta {
					break
				}
				alpha = s
			}
		}
	}
	if inCheck && moveCount == 0 {
		return -MateScore + ply
	}
	bound := BoundUpper
	if bestScore >= beta {
		bound = BoundLower
	}
	t.e.tt.Store(key, bestMove, scoreToTT(bestScore, ply), raw, 0, bound, false)
	return bestScore
}
