package variant960

import "fmt"

// Validate checks the position's internal consistency: the board array
// against the bitboards, one king each, no pawn on a back rank, the side
// not to move not in check, the Zobrist and pawn keys against keys
// computed afresh, the castling rights against the kings and rooks, the
// en-passant square, and the check and pin sets. It returns the first
// inconsistency found, or nil. It is for tests and fuzzing; every
// position ParseFEN returns, and every position reached from one by
// legal moves, passes it.
func (p *Position) Validate() error {
	if len(p.states) == 0 {
		return fmt.Errorf("no state")
	}
	if p.side != White && p.side != Black {
		return fmt.Errorf("side to move %d", p.side)
	}
	if p.byColor[White]&p.byColor[Black] != 0 {
		return fmt.Errorf("squares of both colours: %x", uint64(p.byColor[White]&p.byColor[Black]))
	}
	if p.byType[0] != p.byColor[White]|p.byColor[Black] {
		return fmt.Errorf("occupancy %x is not the union of the colours", uint64(p.byType[0]))
	}
	var union Bitboard
	for t := Pawn; t <= King; t++ {
		if union&p.byType[t] != 0 {
			return fmt.Errorf("type %d overlaps another type", t)
		}
		union |= p.byType[t]
	}
	if union != p.byType[0] {
		return fmt.Errorf("occupancy %x is not the union of the types", uint64(p.byType[0]))
	}
	for s := Square(0); s < 64; s++ {
		pc := p.board[s]
		if pc == NoPiece {
			if p.byType[0].Has(s) {
				return fmt.Errorf("%s: empty on the board, occupied in the bitboards", s)
			}
			continue
		}
		if t := pc.Type(); t < Pawn || t > King || pc.Color() > Black {
			return fmt.Errorf("%s: bad piece code %d", s, pc)
		}
		if !p.byType[pc.Type()].Has(s) || !p.byColor[pc.Color()].Has(s) {
			return fmt.Errorf("%s: %s on the board, not in its bitboards", s, pc)
		}
	}
	for c := White; c <= Black; c++ {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fmt.Errorf("colour %d has %d kings", c, n)
		}
	}
	if p.byType[Pawn]&(Rank1|Rank8) != 0 {
		return fmt.Errorf("pawn on a back rank")
	}
	if p.Attacked(p.KingSquare(p.side^1), p.side, p.byType[0]) {
		return fmt.Errorf("the side not to move is in check")
	}
	st := p.st()
	if st.rule50 < 0 || st.pliesFromNull < 0 || p.ply < 0 {
		return fmt.Errorf("negative counter: rule50 %d, plies from null %d, ply %d", st.rule50, st.pliesFromNull, p.ply)
	}

	// Castling rights: the king on its back rank, the rook on its square
	// and on the right side of the king, and the masks that clear them.
	for i := 0; i < 4; i++ {
		if st.castling&(1<<i) == 0 {
			continue
		}
		c := Color(i >> 1)
		rsq, ksq := p.castleRook[i], p.KingSquare(c)
		back := 0
		if c == Black {
			back = 7
		}
		switch {
		case rsq < 0 || rsq > 63:
			return fmt.Errorf("castling right %d without a rook square", i)
		case p.board[rsq] != MakePiece(c, Rook):
			return fmt.Errorf("castling right %d: no rook on %s", i, rsq)
		case ksq.Rank() != back || rsq.Rank() != back:
			return fmt.Errorf("castling right %d: king %s or rook %s off the back rank", i, ksq, rsq)
		case (i&1 == KingSide) != (rsq > ksq):
			return fmt.Errorf("castling right %d: rook %s on the wrong side of king %s", i, rsq, ksq)
		case p.castleMask[ksq]&(1<<i) == 0 || p.castleMask[rsq]&(1<<i) == 0:
			return fmt.Errorf("castling right %d: king or rook move would not clear it", i)
		}
	}

	// En passant: set only when a capture is legal.
	if ep := st.ep; ep != NoSquare {
		wantRank, pushed := 5, ep-8
		if p.side == Black {
			wantRank, pushed = 2, ep+8
		}
		if ep < 0 || ep > 63 || ep.Rank() != wantRank || p.board[pushed] != MakePiece(p.side^1, Pawn) || p.board[ep] != NoPiece {
			return fmt.Errorf("en-passant square %s impossible", ep)
		}
		if !p.epAllowed(ep) {
			return fmt.Errorf("en-passant square %s set without a legal capture", ep)
		}
	}

	// Keys.
	var key, pawnKey uint64
	var nonPawnKey [2]uint64
	for s := Square(0); s < 64; s++ {
		if pc := p.board[s]; pc != NoPiece {
			key ^= zPiece[pc][s]
			if pc.Type() == Pawn {
				pawnKey ^= zPiece[pc][s]
			} else {
				nonPawnKey[pc.Color()] ^= zPiece[pc][s]
			}
		}
	}
	if p.side == Black {
		key ^= zSide
	}
	key ^= p.castlingKey(st.castling)
	if st.ep != NoSquare {
		key ^= zEP[st.ep.File()]
	}
	if key != st.key {
		return fmt.Errorf("key %016x, recomputed %016x", st.key, key)
	}
	if pawnKey != st.pawnKey {
		return fmt.Errorf("pawn key %016x, recomputed %016x", st.pawnKey, pawnKey)
	}
	if nonPawnKey != st.nonPawnKey {
		return fmt.Errorf("non-pawn keys %016x, recomputed %016x", st.nonPawnKey, nonPawnKey)
	}

	// Check and pin sets.
	var fresh state
	p.setCheckInfo(&fresh)
	if fresh.checkers != st.checkers {
		return fmt.Errorf("checkers %x, recomputed %x", uint64(st.checkers), uint64(fresh.checkers))
	}
	if fresh.pinned != st.pinned {
		return fmt.Errorf("pinned %x, recomputed %x", uint64(st.pinned), uint64(fresh.pinned))
	}
	if st.checkers.Count() > 2 {
		return fmt.Errorf("%d checkers", st.checkers.Count())
	}
	return nil
}

// SameState reports how p and q differ as positions, or "" when they
// agree on everything a FEN says (pieces, side, castling rights with
// their rook squares, en passant, counters) and on the keys, the
// bitboards and the check and pin sets. The history is not compared.
func (p *Position) SameState(q *Position) string {
	a, b := p.st(), q.st()
	switch {
	case p.board != q.board:
		return "board"
	case p.byType != q.byType || p.byColor != q.byColor:
		return "bitboards"
	case p.side != q.side:
		return "side to move"
	case a.castling != b.castling:
		return fmt.Sprintf("castling rights %04b vs %04b", a.castling, b.castling)
	case a.ep != b.ep:
		return fmt.Sprintf("en passant %v vs %v", a.ep, b.ep)
	case a.rule50 != b.rule50:
		return fmt.Sprintf("rule50 %d vs %d", a.rule50, b.rule50)
	case p.ply != q.ply:
		return fmt.Sprintf("ply %d vs %d", p.ply, q.ply)
	case a.key != b.key:
		return "key"
	case a.pawnKey != b.pawnKey:
		return "pawn key"
	case a.nonPawnKey != b.nonPawnKey:
		return "non-pawn keys"
	case a.checkers != b.checkers || a.pinned != b.pinned:
		return "check or pin set"
	}
	for i := 0; i < 4; i++ {
		if a.castling&(1<<i) != 0 && p.castleRook[i] != q.castleRook[i] {
			return fmt.Sprintf("castling rook %d: %v vs %v", i, p.castleRook[i], q.castleRook[i])
		}
	}
	return ""
}
