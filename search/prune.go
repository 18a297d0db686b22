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
//
// Reverse futility and null-move pruning both assume that the side to
// move has a move at least as good as passing. A side whose only piece
// is one knight or bishop is often in zugzwang, so neither prunes there
// (see loneMinor).
func (t *thread) pruneBeforeMoves(n *node) (score int, cut bool) {
	pos := t.pos
	depth, beta, eval := n.depth, n.beta, n.eval
	// Reverse futility pruning.
	if depth <= sp.rfpMaxDepth && eval-sp.rfpMargin*(depth-b2i(n.improving)) >= beta && !isDecisive(eval) && beta > -MateInMaxPly &&
		!loneMinor(pos) {
		return (eval + beta) / 2, true
	}
	// Null-move pruning, not without pieces nor with a lone minor piece
	// (zugzwang guards).
	prev := t.stack[n.ply+stackOff-1].move
	if depth >= sp.nmpMinDepth && prev != v.NullMove && eval >= beta && n.staticEval >= beta-sp.nmpEvalSlope*depth+sp.nmpEvalBase &&
		pos.NonPawnMaterial(pos.Side()) && beta > -MateInMaxPly && !loneMinor(pos) {
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

// loneMinor reports whether the side to move has exactly one piece
// besides king and pawns, a knight or a bishop. Such a side has few
// moves that do not worsen its position, and zugzwang is common: in
// kbK5/pp6/1P6/8/8/8/8/R7 w, after 1.Ra6 Black's bishop moves allow
// Rxa7#, bxa6 allows b7# and the pawns are blocked or pinned, yet its
// eval (or a pass) says Black is fine. With the default net, reverse
// futility (depth 2-8) and null-move pruning (depth 3 on) cut that node
// in every iteration, and `go mate 2` needed depth 30 to find 1.Ra6.
func loneMinor(pos *v.Position) bool {
	us := pos.Side()
	pieces := pos.ByColor(us) &^ (pos.Pieces(us, v.Pawn) | pos.Pieces(us, v.King))
	return pieces != 0 && pieces&(pieces-1) == 0 && pieces&(pos.Pieces(us, v.Knight)|pos.Pieces(us, v.Bishop)) != 0
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
