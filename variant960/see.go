package variant960

// SEEValue are the piece values static exchange evaluation uses.
var SEEValue = [7]int{0, 100, 320, 330, 500, 950, 20000}

// SEE reports whether the static exchange evaluation of move m is at
// least threshold (in SEEValue units), by the swap algorithm.
func (p *Position) SEE(m Move, threshold int) bool {
	if m.Kind() != KindNormal {
		return threshold <= 0 // castling, en passant, promotions: assume fine
	}
	from, to := m.From(), m.To()
	swap := SEEValue[p.board[to].Type()] - threshold
	if swap < 0 {
		return false
	}
	swap = SEEValue[p.board[from].Type()] - swap
	if swap <= 0 {
		return true
	}
	occ := p.byType[0] ^ SquareBB(from) ^ SquareBB(to)
	stm := p.side
	attackers := p.AttackersTo(to, occ)
	res := 1
	pinners := [2]Bitboard{p.pinnersOf(White), p.pinnersOf(Black)}
	pinned := [2]Bitboard{p.blockersFor(White), p.blockersFor(Black)}
	bishops := p.byType[Bishop] | p.byType[Queen]
	rooks := p.byType[Rook] | p.byType[Queen]
	for {
		stm ^= 1
		attackers &= occ
		stmAtt := attackers & p.byColor[stm]
		if stmAtt == 0 {
			break
		}
		// Pinned pieces may not recapture while their pinner stands.
		if pinners[stm]&occ != 0 {
			stmAtt &^= pinned[stm]
			if stmAtt == 0 {
				break
			}
		}
		res ^= 1
		var pt PieceType
		for pt = Pawn; pt <= King; pt++ {
			if stmAtt&p.byType[pt] != 0 {
				break
			}
		}
		if pt == King {
			if attackers&p.byColor[stm^1] != 0 {
				res ^= 1
			}
			break
		}
		swap = SEEValue[pt] - swap
		if swap < res {
			break
		}
		occ ^= SquareBB((stmAtt & p.byType[pt]).LSB())
		switch pt {
		case Pawn, Bishop:
			attackers |= BishopAttacks(to, occ) & bishops
		case Rook:
			attackers |= RookAttacks(to, occ) & rooks
		case Queen:
			attackers |= (BishopAttacks(to, occ) & bishops) | (RookAttacks(to, occ) & rooks)
		}
	}
	return res != 0
}

// pinnersOf returns enemy sliders pinning c's pieces to c's king.
func (p *Position) pinnersOf(c Color) Bitboard {
	ksq := p.KingSquare(c)
	them := p.byColor[c^1]
	snipers := ((RookAttacks(ksq, 0) & (p.byType[Rook] | p.byType[Queen])) |
		(BishopAttacks(ksq, 0) & (p.byType[Bishop] | p.byType[Queen]))) & them
	var pinners Bitboard
	occ := p.byType[0]
	for snipers != 0 {
		s := snipers.PopLSB()
		b := betweenBB[ksq][s] & occ
		if b != 0 && !b.More() && b&p.byColor[c] != 0 {
			pinners |= SquareBB(s)
		}
	}
	return pinners
}

// blockersFor returns c's pieces pinned to c's king.
func (p *Position) blockersFor(c Color) Bitboard {
	return p.sliderBlockers(p.KingSquare(c), c^1) & p.byColor[c]
}
