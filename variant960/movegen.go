package variant960

// GenType selects which moves a generator produces. When the side to move
// is in check every type produces evasions only.
type GenType int

// Generator types.
const (
	// GenAll: every move.
	GenAll GenType = iota
	// GenNoisy: captures, en passant and every promotion.
	GenNoisy
	// GenQuiet: everything GenNoisy leaves out, castling included.
	GenQuiet
)

// GenerateLegal fills ml with every legal move.
func (p *Position) GenerateLegal(ml *MoveList) {
	ml.N = 0
	p.generate(ml, GenAll, true)
}

// Generate appends moves of the given type to ml. With legal set, only
// legal moves; otherwise pseudo-legal moves that IsLegal must vet (castling
// and en passant are always fully checked).
func (p *Position) Generate(ml *MoveList, gt GenType, legal bool) {
	p.generate(ml, gt, legal)
}

// HasLegalMove reports whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	var ml MoveList
	p.generate(&ml, GenAll, true)
	return ml.N > 0
}

func (p *Position) generate(ml *MoveList, gt GenType, legal bool) {
	us, them := p.side, p.side^1
	own, enemy, occ := p.byColor[us], p.byColor[them], p.byType[0]
	st := p.st()
	ksq := (own & p.byType[King]).LSB()
	checkers := st.checkers

	var target Bitboard
	switch gt {
	case GenNoisy:
		target = enemy
	case GenQuiet:
		target = ^occ
	default:
		target = ^own
	}

	// King moves.
	b := kingAttacks[ksq] & target
	if legal {
		occNoK := occ ^ SquareBB(ksq)
		for b != 0 {
			to := b.PopLSB()
			if !p.Attacked(to, them, occNoK) {
				ml.Add(NewMove(ksq, to))
			}
		}
	} else {
		ml.addTargets(ksq, b)
	}
	if checkers.More() {
		return
	}
	// Squares for the other pieces: in check, capture or block only.
	checkMask := ^Bitboard(0)
	if checkers != 0 {
		checkMask = betweenBB[ksq][checkers.LSB()] | checkers
	}
	var pinned Bitboard
	if legal {
		pinned = st.pinned
	}
	p.genPawns(ml, gt, checkMask, pinned, ksq)

	target &= checkMask
	for pieces := own & p.byType[Knight] &^ pinned; pieces != 0; {
		from := pieces.PopLSB()
		ml.addTargets(from, knightAttacks[from]&target)
	}
	for pieces := own & (p.byType[Bishop] | p.byType[Queen]); pieces != 0; {
		from := pieces.PopLSB()
		a := BishopAttacks(from, occ) & target
		if pinned.Has(from) {
			a &= lineBB[ksq][from]
		}
		ml.addTargets(from, a)
	}
	for pieces := own & (p.byType[Rook] | p.byType[Queen]); pieces != 0; {
		from := pieces.PopLSB()
		a := RookAttacks(from, occ) & target
		if pinned.Has(from) {
			a &= lineBB[ksq][from]
		}
		ml.addTargets(from, a)
	}
	if gt != GenNoisy && checkers == 0 {
		for side := 0; side < 2; side++ {
			i := CastleIndex(us, side)
			if st.castling&(1<<i) != 0 && p.castlingOK(i, ksq) {
				ml.Add(NewCastling(ksq, p.castleRook[i]))
			}
		}
	}
}

// castlingOK checks right i in full, the side to move not being in check.
func (p *Position) castlingOK(i int, ksq Square) bool {
	occ := p.byType[0]
	if occ&p.castlePath[i] != 0 {
		return false
	}
	them := p.side ^ 1
	for walk := p.castleWalk[i] &^ SquareBB(ksq); walk != 0; {
		if p.Attacked(walk.PopLSB(), them, occ) {
			return false
		}
	}
	// The rook leaving its square may uncover the king's target square.
	rsq := p.castleRook[i]
	kto, rto := SquareOf(6, ksq.Rank()), SquareOf(5, ksq.Rank())
	if i&1 == QueenSide {
		kto, rto = SquareOf(2, ksq.Rank()), SquareOf(3, ksq.Rank())
	}
	final := occ&^(SquareBB(ksq)|SquareBB(rsq)) | SquareBB(kto) | SquareBB(rto)
	return RookAttacks(kto, final)&(p.byType[Rook]|p.byType[Queen])&p.byColor[them] == 0
}

func addPromotions(ml *MoveList, from, to Square) {
	ml.Add(NewPromotion(from, to, Queen))
	ml.Add(NewPromotion(from, to, Knight))
	ml.Add(NewPromotion(from, to, Rook))
	ml.Add(NewPromotion(from, to, Bishop))
}

func shift(b Bitboard, d int) Bitboard {
	if d > 0 {
		return b << uint(d)
	}
	return b >> uint(-d)
}

// genPawns adds pawn moves. checkMask limits the destinations (the
// captured pawn's square for en passant is checked separately).
func (p *Position) genPawns(ml *MoveList, gt GenType, checkMask, pinned Bitboard, ksq Square) {
	us, them := p.side, p.side^1
	occ := p.byType[0]
	enemy := p.byColor[them]
	empty := ^occ
	pawns := p.Pieces(us, Pawn)
	up, left, right := 8, 7, 9 // left: towards the a-file
	rank7, rank3 := Rank7, Rank3
	if us == Black {
		up, left, right = -8, -9, -7
		rank7, rank3 = Rank2, Rank6
	}
	free := pawns &^ pinned
	promo := free & rank7
	norm := free &^ rank7

	if gt != GenNoisy {
		one := shift(norm, up) & empty
		two := shift(one&rank3, up) & empty & checkMask
		ml.addPawnTargets(one&checkMask, up)
		ml.addPawnTargets(two, 2*up)
	}
	if gt != GenQuiet {
		ml.addPawnTargets(shift(norm&^FileA, left)&enemy&checkMask, left)
		ml.addPawnTargets(shift(norm&^FileH, right)&enemy&checkMask, right)
		if promo != 0 {
			ml.addPromotionTargets(shift(promo, up)&empty&checkMask, up)
			ml.addPromotionTargets(shift(promo&^FileA, left)&enemy&checkMask, left)
			ml.addPromotionTargets(shift(promo&^FileH, right)&enemy&checkMask, right)
		}
		if ep := p.st().ep; ep != NoSquare {
			for b := pawnAttacks[them][ep] & pawns; b != 0; {
				from := b.PopLSB()
				if p.epLegal(from, ep) {
					ml.Add(NewEnPassant(from, ep))
				}
			}
		}
	}
	// Pinned pawns move only along the pin line.
	for b := pawns & pinned; b != 0; {
		from := b.PopLSB()
		line := lineBB[ksq][from] & checkMask
		var dest Bitboard
		if gt != GenQuiet {
			dest |= pawnAttacks[us][from] & enemy
		}
		if gt != GenNoisy || rank7.Has(from) {
			if to := from + Square(up); empty.Has(to) {
				dest |= SquareBB(to)
				if rank3.Has(to) && empty.Has(to+Square(up)) {
					dest |= SquareBB(to + Square(up))
				}
			}
		}
		dest &= line
		for dest != 0 {
			to := dest.PopLSB()
			if rank7.Has(from) {
				if gt != GenQuiet {
					ml.addPromotionTargets(SquareBB(to), int(to)-int(from))
				}
			} else if gt == GenAll || (gt == GenNoisy) == enemy.Has(to) {
				ml.Add(NewMove(from, to))
			}
		}
	}
}

// epLegal tests an en-passant capture in full.
func (p *Position) epLegal(from, ep Square) bool {
	us := p.side
	capSq := ep - 8
	if us == Black {
		capSq = ep + 8
	}
	ksq := p.KingSquare(us)
	occ := (p.byType[0] ^ SquareBB(from) ^ SquareBB(capSq)) | SquareBB(ep)
	them := p.byColor[us^1]
	if RookAttacks(ksq, occ)&(p.byType[Rook]|p.byType[Queen])&them != 0 ||
		BishopAttacks(ksq, occ)&(p.byType[Bishop]|p.byType[Queen])&them != 0 {
		return false
	}
	// Any other checker must be the captured pawn itself.
	return p.st().checkers&^SquareBB(capSq)&^(p.byType[Rook]|p.byType[Queen]|p.byType[Bishop]) == 0
}

// IsLegal reports whether a pseudo-legal move (from Generate or vetted by
// IsPseudoLegal) leaves the king safe.
func (p *Position) IsLegal(m Move) bool {
	from, to := m.From(), m.To()
	switch m.Kind() {
	case KindEnPassant:
		return p.epLegal(from, to)
	case KindCastling:
		return true
	}
	us := p.side
	ksq := p.KingSquare(us)
	if from == ksq {
		return !p.Attacked(to, us^1, p.byType[0]^SquareBB(ksq))
	}
	return !p.st().pinned.Has(from) || lineBB[ksq][from].Has(to)
}

// IsPseudoLegal reports whether m could have come from Generate(GenAll,
// false) in this position: a check for moves from the hash table or the
// killer slots. Castling is checked in full.
func (p *Position) IsPseudoLegal(m Move) bool {
	if m == NoMove || m == NullMove {
		return false
	}
	us := p.side
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc.Color() != us {
		return false
	}
	st := p.st()
	switch m.Kind() {
	case KindCastling:
		if pc.Type() != King || st.checkers != 0 {
			return false
		}
		for side := 0; side < 2; side++ {
			i := CastleIndex(us, side)
			if st.castling&(1<<i) != 0 && p.castleRook[i] == to {
				return p.castlingOK(i, from)
			}
		}
		return false
	case KindEnPassant:
		return pc.Type() == Pawn && to == st.ep && pawnAttacks[us][from].Has(to)
	}
	if p.byColor[us].Has(to) {
		return false
	}
	lastRank := Rank8
	up := Square(8)
	if us == Black {
		lastRank, up = Rank1, -8
	}
	if pc.Type() == Pawn {
		if (m.Kind() == KindPromotion) != lastRank.Has(to) {
			return false
		}
		occ := p.byType[0]
		switch {
		case pawnAttacks[us][from].Has(to):
			if !p.byColor[us^1].Has(to) {
				return false
			}
		case to == from+up:
			if occ.Has(to) {
				return false
			}
		case to == from+2*up:
			if occ.Has(from+up) || occ.Has(to) || from.Rank() != [2]int{1, 6}[us] {
				return false
			}
		default:
			return false
		}
	} else {
		if m.Kind() != KindNormal {
			return false
		}
		if !p.attacksFrom(pc.Type(), from).Has(to) {
			return false
		}
	}
	if st.checkers != 0 && pc.Type() != King {
		if st.checkers.More() {
			return false
		}
		ksq := p.KingSquare(us)
		if !(betweenBB[ksq][st.checkers.LSB()] | st.checkers).Has(to) {
			return false
		}
	}
	return true
}

// attacksFrom returns the attacks of a non-pawn piece type from s.
func (p *Position) attacksFrom(pt PieceType, s Square) Bitboard {
	switch pt {
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return BishopAttacks(s, p.byType[0])
	case Rook:
		return RookAttacks(s, p.byType[0])
	case Queen:
		return QueenAttacks(s, p.byType[0])
	case King:
		return kingAttacks[s]
	}
	return 0
}

// GivesCheck reports whether a legal move gives check. Normal moves are
// decided from attack tables; the rarer kinds are made and taken back.
func (p *Position) GivesCheck(m Move) bool {
	if m.Kind() != KindNormal {
		p.Make(m)
		c := p.st().checkers != 0
		p.Unmake()
		return c
	}
	st := p.moveInfo()
	from, to := m.From(), m.To()
	// Direct check (from the squares moveInfo found).
	if st.checkSquares[p.board[from].Type()].Has(to) {
		return true
	}
	// Discovered check: the mover blocked one of our sliders and leaves
	// its line to the king.
	them := p.side ^ 1
	return st.blockers[them].Has(from) && !lineBB[p.KingSquare(them)][from].Has(to)
}

// Perft counts leaf nodes at the given depth (bulk counting at the last
// ply).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var ml MoveList
	if depth == 1 {
		ml.countOnly = true
		p.generate(&ml, GenAll, true)
		return uint64(ml.N)
	}
	p.generate(&ml, GenAll, true)
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		p.Make(m)
		n += p.Perft(depth - 1)
		p.Unmake()
	}
	return n
}

// DivideEntry is one root move and its perft count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count under every root move: none at depth 0,
// where perft counts the position itself.
func (p *Position) Divide(depth int) []DivideEntry {
	if depth <= 0 {
		return nil
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	out := make([]DivideEntry, 0, ml.N)
	for _, m := range ml.Moves[:ml.N] {
		p.Make(m)
		out = append(out, DivideEntry{m, p.Perft(depth - 1)})
		p.Unmake()
	}
	return out
}
