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
	st := p.moveInfo()
	pinners := st.pinners
	pinned := [2]Bitboard{st.blockers[White] & p.byColor[White], st.blockers[Black] & p.byColor[Black]}
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
