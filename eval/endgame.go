package eval

import v "github.com/rochade/rochade/variant960"

// specialEndgame handles endings with a bare king (mop-up, KPK) and
// returns the score from the side to move's view.
func specialEndgame(p *v.Position, ei *evalInfo) (int, bool) {
	for strong := v.White; strong <= v.Black; strong++ {
		weak := strong.Other()
		if p.ByColor(weak) != p.Pieces(weak, v.King) {
			continue
		}
		// The weak side has a bare king.
		s, ok := bareKing(p, ei, strong)
		if !ok {
			return 0, false
		}
		if p.Side() != strong {
			s = -s
		}
		return clampEval(s), true
	}
	return 0, false
}

// bareKing scores strong's winning attempt against a lone king, from
// strong's view. ok is false when the normal evaluation should be used.
func bareKing(p *v.Position, ei *evalInfo, strong v.Color) (int, bool) {
	P := &Default
	weak := strong.Other()
	sk, wk := ei.ksq[strong], ei.ksq[weak]
	pawns := p.Pieces(strong, v.Pawn)
	knights := p.Pieces(strong, v.Knight)
	bishops := p.Pieces(strong, v.Bishop)
	heavy := p.Pieces(strong, v.Rook) | p.Pieces(strong, v.Queen)

	if ei.npm[strong] == 0 {
		if pawns == 0 {
			return 0, true // K v K
		}
		if !pawns.More() {
			ps := pawns.LSB()
			if kpkProbe(strong, p.Side() == strong, sk, wk, ps) {
				return P.KnownWin/2 + 25*relRank(strong, ps), true
			}
			return 0, true
		}
		return 0, false
	}
	twoColours := bishops&v.LightSquares != 0 && bishops&v.DarkSquares != 0
	mating := heavy != 0 || twoColours || (bishops != 0 && knights != 0)
	if !mating {
		if pawns == 0 {
			return 0, true // lone minors (or same-coloured bishops, or knights)
		}
		return 0, false
	}
	s := P.KnownWin + ei.npm[strong] + 100*pawns.Count()
	s += P.MopKings * (7 - v.Distance(sk, wk))
	if heavy == 0 && pawns == 0 && !twoColours && knights.Count() == 1 && bishops.Count() == 1 {
		// KBNK: drive the king to a corner of the bishop's colour.
		c1, c2 := v.Square(0), v.Square(63) // a1, h8: dark
		if bishops&v.LightSquares != 0 {
			c1, c2 = 7, 56 // h1, a8
		}
		d := min(v.Distance(wk, c1), v.Distance(wk, c2))
		s += 3 * P.MopEdge * (7 - d)
		s += P.MopEdge * centreDist(wk) / 2
	} else {
		s += P.MopEdge * centreDist(wk)
	}
	return s, true
}

// centreDist is the Manhattan distance from the centre, 0..6.
func centreDist(s v.Square) int {
	f, r := s.File(), s.Rank()
	return (3 - min(f, 7-f)) + (3 - min(r, 7-r))
}

// scaleFactor returns how much of the endgame score the stronger side
// keeps, out of 64.
func scaleFactor(p *v.Position, ei *evalInfo, eg int) int {
	P := &Default
	if eg == 0 {
		return 64
	}
	strong := v.White
	if eg < 0 {
		strong = v.Black
	}
	weak := strong.Other()
	sPawns := p.Pieces(strong, v.Pawn).Count()
	wPawns := p.Pieces(weak, v.Pawn).Count()
	sNpm, wNpm := ei.npm[strong], ei.npm[weak]

	if sPawns == 0 && sNpm-wNpm <= npmValue[v.Bishop] {
		if sNpm < npmValue[v.Rook] {
			return 0
		}
		return P.ScaleNoPawn
	}
	sb, wb := p.Pieces(strong, v.Bishop), p.Pieces(weak, v.Bishop)
	sNonPawn := p.ByColor(strong) &^ p.Pieces(strong, v.Pawn) &^ p.Pieces(strong, v.King)
	wNonPawn := p.ByColor(weak) &^ p.Pieces(weak, v.Pawn) &^ p.Pieces(weak, v.King)
	if sPawns == 0 && sNonPawn == p.Pieces(strong, v.Knight) && sNonPawn.Count() <= 2 && wNpm == 0 {
		return P.ScaleNoPawn // two knights hardly win
	}

	// A bishop and rook pawns of the wrong colour against a king in the
	// corner.
	if sNonPawn == sb && !sb.More() && sb != 0 && wNonPawn == 0 && sPawns > 0 {
		pw := p.Pieces(strong, v.Pawn)
		for _, file := range [2]v.Bitboard{v.FileA, v.FileH} {
			if pw&^file == 0 {
				promo := v.SquareOf(pw.LSB().File(), 7*(1-int(strong)))
				light := v.LightSquares.Has(promo)
				if light != (sb&v.LightSquares != 0) && v.Distance(ei.ksq[weak], promo) <= 1 {
					return 0
				}
			}
		}
	}

	if sb.Count() == 1 && wb.Count() == 1 &&
		(sb&v.LightSquares != 0) != (wb&v.LightSquares != 0) {
		if sNonPawn == sb && wNonPawn == wb {
			d := max(sPawns-wPawns-1, 0)
			return min(P.ScaleOCB+P.ScaleOCBPer*d, 64)
		}
		return P.ScaleOCBPcs
	}
	if sNpm == wNpm && !sNonPawn.More() && !wNonPawn.More() && sNonPawn != 0 &&
		sPawns-wPawns <= 1 {
		return P.ScaleEqual
	}
	return 64
}

// endgameOverride applies the exact bare-king knowledge (mop-up and the
// KPK bitbase) in front of the network. It is cheap when neither side has
// a bare king.
func (e *Evaluator) endgameOverride(p *v.Position) (int, bool) {
	if p.ByColor(v.White) != p.Pieces(v.White, v.King) && p.ByColor(v.Black) != p.Pieces(v.Black, v.King) {
		return 0, false
	}
	var ei evalInfo
	ei.material(p)
	return specialEndgame(p, &ei)
}
