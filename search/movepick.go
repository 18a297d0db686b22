package search

// The staged move picker.

import (
	v "github.com/rochade/rochade/variant960"
)

// Picker stages.
const (
	stTT = iota
	stGenNoisy
	stGoodNoisy
	stKiller1
	stKiller2
	stCounter
	stGenQuiet
	stQuiet
	stBadNoisy
	stDone
	stEvTT
	stEvGen
	stEvasion
	stQsTT
	stQsGen
	stQsNoisy
)

var mvvValue = [8]int{0, 100, 300, 320, 500, 900, 0, 0}

type scoredMove struct {
	m     v.Move
	score int
}

// picker hands out moves in stages, generating only what is needed. Moves
// are pseudo-legal; the search vets them with IsLegal.
type picker struct {
	pos     *v.Position
	t       *thread
	ply     int
	stage   int
	ttMove  v.Move
	killers [2]v.Move
	counter v.Move
	list    [v.MaxMoves]scoredMove
	n, cur  int
	bad     [v.MaxMoves]v.Move
	nBad    int
	curBad  int
	ml      v.MoveList
	// skipQuiets, set by the search once late-move pruning fires, leaves
	// only the quiet checks (which that pruning spares) to be tried: the
	// other quiets are neither scored nor returned.
	skipQuiets bool
}

func (pk *picker) init(t *thread, ply int, ttMove v.Move, qsearch bool) {
	pk.t, pk.pos, pk.ply = t, t.pos, ply
	pk.n, pk.cur, pk.nBad, pk.curBad = 0, 0, 0, 0
	pk.skipQuiets = false
	pk.ttMove = v.NoMove
	if ttMove != v.NoMove && pk.pos.IsPseudoLegal(ttMove) {
		pk.ttMove = ttMove
	}
	switch {
	case pk.pos.InCheck():
		pk.stage = stEvTT
	case qsearch:
		pk.stage = stQsTT
		if pk.ttMove != v.NoMove && !isNoisy(pk.pos, pk.ttMove) {
			pk.ttMove = v.NoMove
		}
	default:
		pk.stage = stTT
		ss := &t.stack[ply+stackOff]
		pk.killers = ss.killers
		pk.counter = v.NoMove
		if prev := t.stack[ply+stackOff-1]; prev.move != v.NoMove && prev.move != v.NullMove {
			pk.counter = t.hist.counter[prev.piece][prev.move.To()]
		}
	}
}

// capturedType is the type of the piece that noisy move m takes: a pawn
// for en passant, otherwise what stands on the target square (the empty
// square's type for a promotion that takes nothing).
func capturedType(p *v.Position, m v.Move) v.PieceType {
	if m.Kind() == v.KindEnPassant {
		return v.Pawn
	}
	return p.PieceOn(m.To()).Type()
}

func isNoisy(p *v.Position, m v.Move) bool {
	k := m.Kind()
	return k == v.KindEnPassant || k == v.KindPromotion ||
		(k == v.KindNormal && p.PieceOn(m.To()) != v.NoPiece)
}

func (pk *picker) scoreNoisy() {
	p := pk.pos
	h := &pk.t.hist
	for i := 0; i < pk.n; i++ {
		m := pk.list[i].m
		cap := capturedType(p, m)
		s := mvvValue[cap]*16 + int(h.capture[p.PieceOn(m.From())][m.To()][cap])/16
		if m.Kind() == v.KindPromotion {
			if m.Promotion() == v.Queen {
				s += 8000
			} else {
				s -= 20000
			}
		}
		pk.list[i].score = s
	}
}

func (pk *picker) scoreQuiet() {
	p := pk.pos
	t := pk.t
	us := p.Side()
	s1 := &t.stack[pk.ply+stackOff-1]
	s2 := &t.stack[pk.ply+stackOff-2]
	tm := &t.stack[pk.ply+stackOff].threats
	for i := 0; i < pk.n; i++ {
		m := pk.list[i].m
		pc := p.PieceOn(m.From())
		to := m.To()
		if m.IsCastling() {
			to = m.CastlingKingTo()
		}
		idx := int(pc)*64 + int(to)
		s := int(*t.hist.butterflyAt(us, tm.All, m))
		s += int(t.hist.cont[s1.contIdx][idx]) + int(t.hist.cont[s2.contIdx][idx])
		if !m.IsCastling() {
			s += threatOrder(tm, pc.Type(), m.From(), to)
		}
		pk.list[i].score = s
	}
}

// fill copies the generated moves into the scored list, leaving out the
// moves already tried.
func (pk *picker) fill(skip1, skip2, skip3, skip4 v.Move) {
	pk.n, pk.cur = 0, 0
	for _, m := range pk.ml.Moves[:pk.ml.N] {
		if m == skip1 || m == skip2 || m == skip3 || m == skip4 {
			continue
		}
		pk.list[pk.n] = scoredMove{m: m}
		pk.n++
	}
}

// best selects the highest-scored remaining move.
func (pk *picker) best() v.Move {
	b := pk.cur
	for i := pk.cur + 1; i < pk.n; i++ {
		if pk.list[i].score > pk.list[b].score {
			b = i
		}
	}
	pk.list[pk.cur], pk.list[b] = pk.list[b], pk.list[pk.cur]
	m := pk.list[pk.cur].m
	pk.cur++
	return m
}

// bestStable selects the highest-scored remaining move and keeps the
// others in order, so equal scores go in generation order (as a stable
// sort would have them).
func (pk *picker) bestStable() v.Move {
	b := pk.cur
	for i := pk.cur + 1; i < pk.n; i++ {
		if pk.list[i].score > pk.list[b].score {
			b = i
		}
	}
	x := pk.list[b]
	copy(pk.list[pk.cur+1:b+1], pk.list[pk.cur:b])
	pk.list[pk.cur] = x
	pk.cur++
	return x.m
}

func (pk *picker) quietOK(m v.Move) bool {
	return m != v.NoMove && m != pk.ttMove && !isNoisy(pk.pos, m) && pk.pos.IsPseudoLegal(m)
}

// next returns the next move, or NoMove when there are no more.
func (pk *picker) next() v.Move {
	p := pk.pos
	for {
		switch pk.stage {
		case stTT, stEvTT, stQsTT:
			pk.stage++
			if pk.ttMove != v.NoMove {
				return pk.ttMove
			}
		case stGenNoisy, stQsGen:
			pk.ml.N = 0
			p.Generate(&pk.ml, v.GenNoisy, false)
			pk.fill(pk.ttMove, v.NoMove, v.NoMove, v.NoMove)
			pk.scoreNoisy()
			pk.stage++
		case stGoodNoisy:
			for pk.cur < pk.n {
				m := pk.best()
				// Losing captures wait until after the quiet moves.
				if !p.SEE(m, -pk.list[pk.cur-1].score/64) {
					pk.bad[pk.nBad] = m
					pk.nBad++
					continue
				}
				return m
			}
			pk.stage++
		case stKiller1:
			pk.stage++
			if m := pk.killers[0]; pk.quietOK(m) {
				return m
			}
		case stKiller2:
			pk.stage++
			if m := pk.killers[1]; pk.quietOK(m) {
				return m
			}
		case stCounter:
			pk.stage++
			if m := pk.counter; m != pk.killers[0] && m != pk.killers[1] && pk.quietOK(m) {
				return m
			}
		case stGenQuiet:
			pk.stage++
			pk.ml.N = 0
			p.Generate(&pk.ml, v.GenQuiet, false)
			pk.fill(pk.ttMove, pk.killers[0], pk.killers[1], pk.counter)
			if !pk.skipQuiets {
				pk.scoreQuiet()
			}
		case stQuiet:
			if pk.skipQuiets {
				// Only the checks are left, in generation order.
				for pk.cur < pk.n {
					m := pk.list[pk.cur].m
					pk.cur++
					if p.GivesCheck(m) {
						return m
					}
				}
				pk.stage++
				continue
			}
			// Selection, not a sort: most nodes use only a few quiets.
			if pk.cur < pk.n {
				return pk.bestStable()
			}
			pk.stage++
		case stBadNoisy:
			if pk.curBad < pk.nBad {
				pk.curBad++
				return pk.bad[pk.curBad-1]
			}
			pk.stage = stDone
		case stEvGen:
			pk.ml.N = 0
			p.Generate(&pk.ml, v.GenAll, false)
			pk.fill(pk.ttMove, v.NoMove, v.NoMove, v.NoMove)
			pk.scoreEvasions()
			pk.stage++
		case stEvasion, stQsNoisy:
			if pk.cur < pk.n {
				return pk.best()
			}
			pk.stage = stDone
		default:
			return v.NoMove
		}
	}
}

func (pk *picker) scoreEvasions() {
	p := pk.pos
	us := p.Side()
	threats := pk.t.stack[pk.ply+stackOff].threats.All
	for i := 0; i < pk.n; i++ {
		m := pk.list[i].m
		if isNoisy(p, m) {
			pk.list[i].score = 1<<20 + mvvValue[capturedType(p, m)]*16 - int(p.PieceOn(m.From()).Type())
		} else {
			pk.list[i].score = int(*pk.t.hist.butterflyAt(us, threats, m))
		}
	}
}

// threatOrder is the ordering bonus of a quiet move of a piece of type pt
// from from to to: a piece attacked by a cheaper enemy piece that steps
// out of such attacks is tried early, a safe one that steps into them
// late.
func threatOrder(tm *v.ThreatMap, pt v.PieceType, from, to v.Square) int {
	var cheaper v.Bitboard
	bonus := 0
	switch pt {
	case v.Queen:
		cheaper, bonus = tm.Rooks, 16000
	case v.Rook:
		cheaper, bonus = tm.Minors, 12000
	case v.Knight, v.Bishop:
		cheaper, bonus = tm.Pawns, 8000
	default:
		return 0
	}
	switch {
	case cheaper.Has(from) && !cheaper.Has(to):
		return bonus
	case !cheaper.Has(from) && cheaper.Has(to):
		return -bonus
	}
	return 0
}
