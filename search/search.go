package search

// The principal-variation search: pruning, extensions, reductions and
// the move loop of one node.

import (
	"math"

	v "github.com/rochade/rochade/variant960"
)

var lmrTable [64][64]int

func init() {
	for d := 1; d < 64; d++ {
		for m := 1; m < 64; m++ {
			lmrTable[d][m] = int(sp.lmrBase + math.Log(float64(d))*math.Log(float64(m))/sp.lmrDiv)
		}
	}
}

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

	// Tablebases: a sure result ends the search here; in PV nodes a
	// bound that does not cut limits the score.
	tbMin, tbMax := -Infinity, Infinity
	if !root && excluded == v.NoMove && t.e.tbCard > 0 {
		if s, b, ok := t.probeTB(depth, ply); ok {
			if b == BoundExact || (b == BoundLower && s >= beta) || (b == BoundUpper && s <= alpha) {
				t.e.tt.Store(key, v.NoMove, scoreToTT(s, ply), -Infinity, min(depth+6, MaxPly-1), b, ttPV)
				return s
			}
			if pvNode {
				if b == BoundLower {
					tbMin = s
				} else {
					tbMax = s
				}
			}
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
		if ttHit && ttScore != 0 && !isDecisive(ttScore) &&
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
		if depth <= sp.rfpMaxDepth && eval-sp.rfpMargin*(depth-b2i(improving)) >= beta && !isDecisive(eval) && beta > -MateInMaxPly {
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
				if isDecisive(s) {
					s = beta
				}
				return s
			}
		}
		// ProbCut: a good capture that beats beta by a margin at reduced depth.
		pcBeta := beta + sp.probCutMargin - sp.probCutImprove*b2i(improving)
		if depth >= sp.probCutDepth && !IsMate(beta) && !(ttHit && tte.depth >= depth-sp.probCutTTSlack && ttScore < pcBeta) {
			if s, cut := t.probCut(pcBeta, staticEval, rawEval, depth, ply, ttMove, cutNode, ttPV); cut {
				return s
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
					pk.skipQuiets = true // late-move pruning: quiet checks only from now on
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
			var cut bool
			var cutScore int
			ext, cut, cutScore = t.singularExtension(m, ttScore, beta, depth, ply, pvNode, cutNode)
			if cut {
				return cutScore
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
			t.updateRootMove(&t.rootMoves[t.pvIdx+rootIdx-1], s, alpha, beta, moveCount)
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
		t.updateHistories(ply, depth, bestMove, quiets[:nQuiets], noisies[:nNoisies])
	}

	if pvNode {
		bestScore = min(max(bestScore, tbMin), tbMax)
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
		if !inCheck && (bestMove == v.NoMove || !isNoisy(pos, bestMove)) && !isDecisive(bestScore) &&
			!(bound == BoundLower && bestScore <= ss.staticEval) && !(bound == BoundUpper && bestScore >= ss.staticEval) {
			t.updateCorrection(bestScore-ss.staticEval, depth)
		}
	}
	return bestScore
}

// probCut looks for a good capture that beats pcBeta, a margin above
// beta, in a reduced search (first verified by a quiescence search). If
// one does, the node is cut (cut is true, score its result; score 0 when
// the search was stopped).
func (t *thread) probCut(pcBeta, staticEval, rawEval, depth, ply int, ttMove v.Move, cutNode, ttPV bool) (score int, cut bool) {
	pos := t.pos
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
			return 0, true
		}
		if s >= pcBeta {
			t.e.tt.Store(pos.Key(), m, scoreToTT(s, ply), rawEval, depth-(sp.probCutReduce-1), BoundLower, ttPV)
			return s, true
		}
	}
	return 0, false
}

// singularExtension searches the node without the TT move m, at half
// depth and below a beta a little under the TT score. If nothing else
// comes close, m is singular and is extended (by two plies when by far);
// if even the rest beats beta, the node fails high at once (multi-cut,
// cut is true and score is the node's result); if the TT score alone beats
// beta, m is extended negatively (searched a ply shallower).
func (t *thread) singularExtension(m v.Move, ttScore, beta, depth, ply int, pvNode, cutNode bool) (ext int, cut bool, score int) {
	ss := &t.stack[ply+stackOff]
	sBeta := ttScore - sp.seBetaPerDepth*depth
	ss.excluded = m
	s := t.search(sBeta-1, sBeta, (depth-1)/2, ply, cutNode)
	ss.excluded = v.NoMove
	if t.stopped {
		return 0, true, 0
	}
	switch {
	case s < sBeta:
		if !pvNode && s < sBeta-sp.seDoubleMargin && ss.doubleExt <= sp.seMaxDoubleExts {
			return 2, false, 0
		}
		return 1, false, 0
	case sBeta >= beta:
		return 0, true, sBeta // multi-cut
	case ttScore >= beta:
		return -1, false, 0
	}
	return 0, false, 0
}

// updateRootMove records the result s of a root move searched in the
// window (alpha, beta): its score, bound and PV when it is the first move
// or raises alpha, otherwise -Infinity (below the best, unknown by how
// much).
func (t *thread) updateRootMove(rm *rootMove, s, alpha, beta, moveCount int) {
	if moveCount > 1 && s <= alpha {
		rm.score = -Infinity
		return
	}
	rm.score = s
	rm.selDepth = t.selDepth
	rm.pv = append(rm.pv[:0], rm.move)
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
}
