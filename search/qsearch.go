package search

// The quiescence search: captures (and evasions) until the position is
// quiet.

import (
	v "github.com/rochade/rochade/variant960"
)

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
	if inCheck {
		t.stack[ply+stackOff].threats = pos.ThreatsByValue(pos.Side() ^ 1) // for ordering quiet evasions
	}
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
