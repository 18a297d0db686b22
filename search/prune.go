package search

// Pruning and reductions of the principal-variation search: what a node
// tries before its moves (reverse futility, null move, ProbCut), which
// late moves it skips, and how much late moves are reduced.

import (
	v "github.com/rochade/rochade/variant960"
)

// pruneBeforeMoves tries to cut a non-PV node that is not in check
// before searching its moves: reverse futility pruning, null-move
// pruning, ProbCut. When one succeeds, cut is true and score is the
// node's result (0 when the search was stopped).
func (t *thread) pruneBeforeMoves(n *node) (score int, cut bool) {
	pos := t.pos
	depth, beta, eval := n.depth, n.beta, n.eval
	// Reverse futility pruning.
	if depth <= sp.rfpMaxDepth && eval-sp.rfpMargin*(depth-b2i(n.improving)) >= beta && !isDecisive(eval) && beta > -MateInMaxPly {
		return (eval + beta) / 2, true
	}
	// Null-move pruning, not without pieces (zugzwang guard).
	prev := t.stack[n.ply+stackOff-1].move
	if depth >= sp.nmpMinDepth && prev != v.NullMove && eval >= beta && n.staticEval >= beta-sp.nmpEvalSlope*depth+sp.nmpEvalBase &&
		pos.NonPawnMaterial(pos.Side()) && beta > -MateInMaxPly {
		r := sp.nmpBaseR + depth/sp.nmpDepthDiv + min((eval-beta)/sp.nmpEvalDiv, sp.nmpEvalMaxR)
		t.makeNull(n.ply)
		s := -t.search(-beta, -beta+1, depth-r, n.ply+1, !n.cutNode)
		t.unmakeNull()
		if t.stopped {
			return 0, true
		}
		if s >= beta {
			if isDecisive(s) {
				s = beta
			}
			return s, true
		}
	}
	// ProbCut: a good capture that beats beta by a margin at reduced depth.
	pcBeta := beta + sp.probCutMargin - sp.probCutImprove*b2i(n.improving)
	if depth >= sp.probCutDepth && !IsMate(beta) && !(n.ttHit && n.tte.depth >= depth-sp.probCutTTSlack && n.ttScore < pcBeta) {
		return t.probCut(pcBeta, n.staticEval, n.rawEval, depth, n.ply, n.ttMove, n.cutNode, n.ttPV)
	}
	return 0, false
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

// pruneMove says whether to skip move m, the moveCount-th of a non-root
// node with a non-mated best score so far and pieces for the side to
// move: late-move pruning (which also tells the picker pk to hand out
// only quiet checks from now on), futility, history and SEE pruning of
// quiets, SEE pruning of captures. r is the move's base LMR reduction
// and hist its quiet history.
func (t *thread) pruneMove(n *node, pk *picker, m v.Move, noisy, givesCheck bool, hist, r, moveCount int) bool {
	depth := n.depth
	lmrDepth := max(depth-1-r, 0)
	if noisy || givesCheck {
		return depth <= sp.seeNoisyDepth && !t.pos.SEE(m, -sp.seeNoisyMargin*depth)
	}
	if moveCount >= (sp.lmpBase+depth*depth)/(2-b2i(n.improving)) {
		pk.skipQuiets = true // late-move pruning: quiet checks only from now on
		return true
	}
	if !n.inCheck && lmrDepth <= sp.futMaxDepth && n.staticEval+sp.futBase+sp.futPerDepth*lmrDepth <= n.alpha {
		return true
	}
	if lmrDepth <= sp.histPruneDepth && hist < -sp.histPruneMargin*depth {
		return true
	}
	return !t.pos.SEE(m, -sp.seeQuietMargin*lmrDepth*lmrDepth)
}

// reduction is the late-move reduction of a move from its base r in the
// LMR table: less on PV paths, for checks, captures and quiets with a good
// history; more at cut nodes, when not improving and after a noisy TT move.
func (n *node) reduction(r int, noisy, givesCheck bool, hist int, ttMoveNoisy bool) int {
	r -= b2i(n.ttPV)
	r += b2i(n.cutNode)
	r += b2i(!n.improving)
	r -= b2i(givesCheck)
	if !noisy {
		r -= hist / sp.lmrHistDiv
	} else {
		r--
	}
	if ttMoveNoisy {
		r++
	}
	return r
}
