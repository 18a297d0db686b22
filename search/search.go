package search

// The principal-variation search: pruning, extensions, reductions and
// the move loop of one node.

import (
	"math"

	v "github.com/rochade/rochade/variant960"
)

// lmrTable is the base late-move reduction by depth and move number,
// from lmrBase and lmrDiv (rebuilt when SetTunable changes them).
var lmrTable [64][64]int

func init() { initLMR() }

func initLMR() {
	for d := 1; d < 64; d++ {
		for m := 1; m < 64; m++ {
			lmrTable[d][m] = int(sp.lmrBase + math.Log(float64(d))*math.Log(float64(m))/sp.lmrDiv)
		}
	}
}

// node is the state of one node of the principal-variation search that
// its helpers share: the window, the depth, what the TT said and the
// static evaluation. It lives on the Go stack of search.
type node struct {
	alpha, beta  int // alpha is raised as moves beat it
	depth, ply   int // depth is reduced by internal iterative reduction
	pvNode, root bool
	cutNode      bool
	inCheck      bool
	excluded     v.Move // the TT move, in a singular-extension search of the node
	ss           *stackEntry

	key     uint64
	tte     ttData
	ttHit   bool
	ttMove  v.Move // the current PV move at the root
	ttScore int    // tte.score relative to the node (0 without a hit)
	ttPV    bool   // the node is or was on a PV

	tbMin, tbMax int // tablebase bounds on the score of a PV node

	rawEval    int  // uncorrected static eval (-Infinity in check or in a singular search)
	staticEval int  // corrected static eval (-Infinity in check)
	eval       int  // staticEval, or the TT score where its bound says it is closer
	improving  bool // staticEval above that of two plies before (four if that ply was in check)
}

// raiseAlpha records the score s of a move that beat alpha without
// reaching beta. A move that raised alpha makes the later ones less likely
// to matter, so at a non-root node of depth 3 to alphaRaiseMaxDepth-1 they
// are searched a ply shallower (the depth falls once per raise), unless s
// is decisive. The lowered depth is also the one the node's TT entry and
// its history and correction updates use.
func (n *node) raiseAlpha(s int) {
	n.alpha = s
	if !n.root && n.depth > 2 && n.depth < sp.alphaRaiseMaxDepth && !isDecisive(s) {
		n.depth--
	}
}

// search returns the score of the position at ply, searched to depth in
// the window (alpha, beta): TT and tablebase probes, pruning before the
// moves, then the move loop with per-move pruning, extensions and
// late-move reductions, and the TT store.
func (t *thread) search(alpha, beta, depth, ply int, cutNode bool) int {
	if depth <= 0 {
		return t.qsearch(alpha, beta, ply)
	}
	t.pvLen[ply] = ply
	if t.checkStop() {
		return 0
	}
	pos := t.pos
	n := node{alpha: alpha, beta: beta, depth: depth, ply: ply, pvNode: beta-alpha > 1, root: ply == 0,
		cutNode: cutNode, inCheck: pos.InCheck(), ss: &t.stack[ply+stackOff]}
	if n.pvNode && ply > t.selDepth {
		t.selDepth = ply
	}
	if !n.root {
		if s, done := t.drawOrMateDistance(&n); done {
			return s
		}
	}
	n.excluded = n.ss.excluded
	n.ss.threats = pos.ThreatsByValue(pos.Side() ^ 1)
	t.stack[ply+stackOff+1].killers = [2]v.Move{}
	t.stack[ply+stackOff+2].excluded = v.NoMove

	if s, cut := t.probeTT(&n); cut {
		return s
	}
	n.tbMin, n.tbMax = -Infinity, Infinity
	if !n.root && n.excluded == v.NoMove && t.e.tbCard > 0 {
		if s, cut := t.probeTBNode(&n); cut {
			return s
		}
	}
	t.staticEval(&n)
	if !n.pvNode && !n.inCheck && n.excluded == v.NoMove {
		if s, cut := t.pruneBeforeMoves(&n); cut {
			return s
		}
	}

	// Internal iterative reduction.
	if n.depth >= sp.iirMinDepth && n.ttMove == v.NoMove && (n.pvNode || n.cutNode) {
		n.depth--
	}

	var tried triedMoves
	bestScore := -Infinity
	bestMove := v.NoMove
	moveCount := 0
	origAlpha := n.alpha
	us := pos.Side()
	ttMoveNoisy := n.ttMove != v.NoMove && isNoisy(pos, n.ttMove)

	pk := &t.pickers[ply][b2i(n.excluded != v.NoMove)]
	pk.init(t, ply, n.ttMove, false)
	rootIdx := 0
	for {
		m := t.nextMove(&n, pk, &rootIdx)
		if m == v.NoMove {
			break
		}
		moveCount++
		if n.root && t.id == 0 {
			t.e.reportCurrMove(t, m, moveCount+t.pvIdx)
		}
		noisy := isNoisy(pos, m)
		givesCheck := pos.GivesCheck(m)
		hist := 0
		if !noisy {
			hist = t.quietHistory(m, us, ply)
		}

		r := lmrTable[min(n.depth, 63)][min(moveCount, 63)]
		if !n.root && bestScore > -MateInMaxPly && pos.NonPawnMaterial(us) &&
			t.pruneMove(&n, pk, m, noisy, givesCheck, hist, r, moveCount) {
			continue
		}
		ext, cut, cutScore := t.extension(&n, m)
		if cut {
			return cutScore
		}

		// Principal-variation search, with late-move reductions.
		rootNodes := t.nodes
		t.makeMove(m, ply)
		t.stack[ply+stackOff+1].doubleExt = n.ss.doubleExt + b2i(ext == 2)
		newDepth := n.depth - 1 + ext
		alpha, beta := n.alpha, n.beta
		var s int
		if n.depth >= 2 && moveCount > 1+b2i(n.root) && (!noisy || !n.ttPV) {
			d := max(1, min(newDepth-n.reduction(r, noisy, givesCheck, hist, ttMoveNoisy), newDepth))
			s = -t.search(-alpha-1, -alpha, d, ply+1, true)
			if s > alpha && d < newDepth {
				s = -t.search(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
			}
		} else if !n.pvNode || moveCount > 1 {
			s = -t.search(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
		}
		if n.pvNode && (moveCount == 1 || s > alpha) {
			s = -t.search(-beta, -alpha, newDepth, ply+1, false)
		}
		t.unmakeMove()
		if n.root && t.pvIdx == 0 {
			t.rootMoves[rootIdx-1].nodes += t.nodes - rootNodes
		}
		if t.stopped {
			return 0
		}

		if n.root {
			t.updateRootMove(&t.rootMoves[t.pvIdx+rootIdx-1], s, alpha, beta, moveCount)
		}
		if s > bestScore {
			bestScore = s
			if s > alpha {
				bestMove = m
				if n.pvNode && !n.root {
					t.updatePV(ply, m)
				}
				if s >= beta {
					break
				}
				n.raiseAlpha(s)
			}
		}
		if m != bestMove {
			tried.add(m, noisy)
		}
	}

	if moveCount == 0 {
		if n.excluded != v.NoMove {
			return n.alpha
		}
		if n.inCheck {
			return -MateScore + ply
		}
		return 0
	}
	t.learnFromNode(&n, bestMove, &tried)
	if n.pvNode {
		bestScore = min(max(bestScore, n.tbMin), n.tbMax)
	}
	if n.excluded == v.NoMove && !(n.root && t.pvIdx > 0) {
		t.storeNode(&n, bestScore, bestMove, origAlpha)
	}
	return bestScore
}

// drawOrMateDistance ends a non-root node that is drawn or at the
// maximum ply, and narrows the window to the mate scores still possible
// at this ply (mate-distance pruning); done when the node ends there.
func (t *thread) drawOrMateDistance(n *node) (score int, done bool) {
	if t.pos.IsDrawInSearch(n.ply) {
		return drawScore(t), true
	}
	if n.ply >= MaxPly-1 {
		if n.inCheck {
			return 0, true
		}
		return t.evaluate(), true
	}
	n.alpha = max(n.alpha, -MateScore+n.ply)
	n.beta = min(n.beta, MateScore-n.ply-1)
	if n.alpha >= n.beta {
		return n.alpha, true
	}
	return 0, false
}

// probeTT reads the node's TT entry into n and cuts the node when the
// entry's depth and bound decide it (never in PV nodes). A singular-
// extension search (n.excluded set) reads the entry of its node, whose
// move is the excluded one, but never cuts off on it nor stores.
func (t *thread) probeTT(n *node) (score int, cut bool) {
	pos := t.pos
	n.key = pos.Key()
	n.tte, n.ttHit = t.e.tt.Probe(n.key)
	tte := &n.tte
	if n.ttHit {
		n.ttMove = tte.move
		n.ttScore = scoreFromTT(tte.score, n.ply, pos.Rule50())
	}
	if n.root {
		n.ttMove = t.rootMoves[t.pvIdx].move
	}
	n.ttPV = n.pvNode || (n.ttHit && tte.pv)
	ttScore, beta := n.ttScore, n.beta
	if !n.pvNode && n.ttHit && n.excluded == v.NoMove && tte.depth >= n.depth &&
		(tte.bound == BoundExact || (tte.bound == BoundLower && ttScore >= beta) || (tte.bound == BoundUpper && ttScore < beta)) {
		if n.ttMove != v.NoMove && ttScore >= beta && !isNoisy(pos, n.ttMove) && pos.IsPseudoLegal(n.ttMove) {
			t.updateQuietStats(n.ply, n.ttMove, histBonus(n.depth), nil, 0)
		}
		if pos.Rule50() < sp.ttCutRule50 {
			return ttScore, true
		}
	}
	return 0, false
}

// probeTBNode asks the tablebases: a sure result ends the search here
// (cut, and stored); in PV nodes a bound that does not cut limits the
// score (n.tbMin, n.tbMax).
func (t *thread) probeTBNode(n *node) (score int, cut bool) {
	s, b, ok := t.probeTB(n.depth, n.ply)
	if !ok {
		return 0, false
	}
	if b == BoundExact || (b == BoundLower && s >= n.beta) || (b == BoundUpper && s <= n.alpha) {
		t.e.tt.Store(n.key, v.NoMove, scoreToTT(s, n.ply), -Infinity, min(n.depth+6, MaxPly-1), b, n.ttPV)
		return s, true
	}
	if n.pvNode {
		if b == BoundLower {
			n.tbMin = s
		} else {
			n.tbMax = s
		}
	}
	return 0, false
}

// staticEval sets the node's static evaluations and whether it is
// improving. The TT stores the raw eval; the correction is applied when
// it is read. A node without a TT entry stores its raw eval at once.
func (t *thread) staticEval(n *node) {
	n.rawEval = -Infinity
	if n.inCheck {
		n.staticEval = -Infinity
		n.eval = -Infinity
		n.ss.staticEval = -Infinity
		return
	}
	if n.excluded != v.NoMove {
		// The singular search shares its node's evaluation.
		n.staticEval, n.eval = n.ss.staticEval, n.ss.staticEval
	} else {
		tte, ttScore := &n.tte, n.ttScore
		n.rawEval = t.rawEval(*tte, n.ttHit)
		n.staticEval = t.correct(n.rawEval)
		n.ss.staticEval = n.staticEval
		n.eval = n.staticEval
		if n.ttHit && ttScore != 0 && !isDecisive(ttScore) &&
			((tte.bound == BoundLower && ttScore > n.eval) || (tte.bound == BoundUpper && ttScore < n.eval) || tte.bound == BoundExact) {
			n.eval = ttScore
		}
		if !n.ttHit {
			t.e.tt.Store(n.key, v.NoMove, 0, n.rawEval, sp.ttEvalDepth, BoundNone, n.ttPV)
			t.learnFromEvalSwing(n)
		}
	}
	// Compare with two plies before, or four when that ply was in check.
	n.improving = false
	if prev2 := t.stack[n.ply+stackOff-2].staticEval; n.ply >= 2 && prev2 != -Infinity {
		n.improving = n.staticEval > prev2
	} else if prev4 := t.stack[n.ply+stackOff-4].staticEval; n.ply >= 4 && prev4 != -Infinity {
		n.improving = n.staticEval > prev4
	}
}

// nextMove returns the next move to search at the node (NoMove when there
// are no more): the root moves in order from the current PV index, or
// the picker's legal moves but the excluded one.
func (t *thread) nextMove(n *node, pk *picker, rootIdx *int) v.Move {
	if n.root {
		i := t.pvIdx + *rootIdx
		if i >= len(t.rootMoves) {
			return v.NoMove
		}
		*rootIdx++
		return t.rootMoves[i].move
	}
	for {
		m := pk.next()
		if m == v.NoMove || (m != n.excluded && t.pos.IsLegal(m)) {
			return m
		}
	}
}

// quietHistory is the history score of the quiet move m by side us at
// ply: butterfly plus the 1-ply and 2-ply continuation histories.
func (t *thread) quietHistory(m v.Move, us v.Color, ply int) int {
	from, to := m.From(), m.To()
	cto := to
	if m.IsCastling() {
		cto = m.CastlingKingTo()
	}
	idx := int(t.pos.PieceOn(from))*64 + int(cto)
	return int(*t.hist.butterflyAt(us, t.stack[ply+stackOff].threats.All, m)) +
		int(t.hist.cont[t.stack[ply+stackOff-1].contIdx][idx]) +
		int(t.hist.cont[t.stack[ply+stackOff-2].contIdx][idx])
}

// extension returns how many plies to extend move m by: singular
// extensions for the TT move (which may instead cut the node: multi-cut,
// or a stopped search). Checks are not extended (docs/search-tests.md,
// "Search: no check extension").
func (t *thread) extension(n *node, m v.Move) (ext int, cut bool, score int) {
	if !n.root && n.ply < 2*t.rootDepth && m == n.ttMove && n.excluded == v.NoMove && n.depth >= sp.seMinDepth &&
		n.ttHit && n.tte.bound&BoundLower != 0 && n.tte.depth >= n.depth-sp.seTTSlack && !IsMate(n.ttScore) {
		return t.singularExtension(m, n.ttScore, n.beta, n.depth, n.ply, n.pvNode, n.cutNode)
	}
	return 0, false, 0
}

// storeNode stores the node's result in the TT and, when the result is
// a usable bound on the static eval, teaches the correction history how
// far search results stray from the static eval for this pawn structure
// and for each colour's other pieces.
func (t *thread) storeNode(n *node, bestScore int, bestMove v.Move, origAlpha int) {
	bound := BoundUpper
	if bestScore >= n.beta {
		bound = BoundLower
	} else if n.pvNode && bestScore > origAlpha {
		bound = BoundExact
	}
	t.e.tt.Store(n.key, bestMove, scoreToTT(bestScore, n.ply), n.rawEval, n.depth, bound, n.ttPV)
	se := n.ss.staticEval
	if !n.inCheck && (bestMove == v.NoMove || !isNoisy(t.pos, bestMove)) && !isDecisive(bestScore) &&
		!(bound == BoundLower && bestScore <= se) && !(bound == BoundUpper && bestScore >= se) {
		t.updateCorrection(bestScore-se, n.depth)
	}
}

// triedMoves are the moves searched at a node that did not become its
// best move, for the history maluses (as many as fit).
type triedMoves struct {
	quiets            [64]v.Move
	noisies           [32]v.Move
	nQuiets, nNoisies int
}

func (tm *triedMoves) add(m v.Move, noisy bool) {
	if noisy {
		if tm.nNoisies < len(tm.noisies) {
			tm.noisies[tm.nNoisies] = m
			tm.nNoisies++
		}
	} else if tm.nQuiets < len(tm.quiets) {
		tm.quiets[tm.nQuiets] = m
		tm.nQuiets++
	}
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
