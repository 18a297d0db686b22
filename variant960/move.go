package variant960

// Move is a compact 16-bit move: bits 0-5 from, 6-11 to, 12-13 promotion
// piece (knight..queen), 14-15 kind. A castling move is encoded as the king
// "taking" its own rook: to is the rook's square.
type Move uint16

// Move kinds.
const (
	KindNormal    = 0
	KindPromotion = 1
	KindEnPassant = 2
	KindCastling  = 3
)

// NoMove is the zero move; NullMove passes the turn.
const (
	NoMove   Move = 0
	NullMove Move = 65 // b1b1: never a real move
)

// NewMove builds a normal move.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// NewPromotion builds a promotion to pt (Knight..Queen).
func NewPromotion(from, to Square, pt PieceType) Move {
	return Move(from) | Move(to)<<6 | Move(pt-Knight)<<12 | KindPromotion<<14
}

// NewEnPassant builds an en-passant capture.
func NewEnPassant(from, to Square) Move { return Move(from) | Move(to)<<6 | KindEnPassant<<14 }

// NewCastling builds a castling move, king on from, castling rook on rook.
func NewCastling(king, rook Square) Move { return Move(king) | Move(rook)<<6 | KindCastling<<14 }

// From is the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To is the destination square (the rook's square for castling).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Kind is one of KindNormal, KindPromotion, KindEnPassant, KindCastling.
func (m Move) Kind() int { return int(m >> 14) }

// Promotion returns the promotion piece type, or NoPieceType.
func (m Move) Promotion() PieceType {
	if m.Kind() != KindPromotion {
		return NoPieceType
	}
	return PieceType(m>>12&3) + Knight
}

// IsCastling reports whether the move castles.
func (m Move) IsCastling() bool { return m.Kind() == KindCastling }

// CastlingKingTo is where the king ends when m castles.
func (m Move) CastlingKingTo() Square {
	r := m.From().Rank()
	if m.To() > m.From() {
		return SquareOf(6, r)
	}
	return SquareOf(2, r)
}

// CastlingRookTo is where the rook ends when m castles.
func (m Move) CastlingRookTo() Square {
	r := m.From().Rank()
	if m.To() > m.From() {
		return SquareOf(5, r)
	}
	return SquareOf(3, r)
}

// UCI writes the move in UCI notation. With chess960, castling is written
// king-takes-rook (e1h1); otherwise as the king's own move (e1g1).
func (m Move) UCI(chess960 bool) string {
	if m == NoMove {
		return "(none)"
	}
	if m == NullMove {
		return "0000"
	}
	to := m.To()
	if m.IsCastling() && !chess960 {
		to = m.CastlingKingTo()
	}
	s := m.From().String() + to.String()
	if p := m.Promotion(); p != NoPieceType {
		s += string(" pnbrqk"[p])
	}
	return s
}

// String writes the move in Chess960 UCI form.
func (m Move) String() string { return m.UCI(true) }

// MaxMoves bounds the number of legal moves in any position.
const MaxMoves = 256

// MoveList is a fixed-capacity list of moves, allocation-free.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
	// countOnly makes the generators count moves without writing them
	// (perft's bulk counting at the last ply).
	countOnly bool
}

// addTargets adds a move from one square to each target.
func (l *MoveList) addTargets(from Square, b Bitboard) {
	if l.countOnly {
		l.N += b.Count()
		return
	}
	for b != 0 {
		l.Moves[l.N] = NewMove(from, b.PopLSB())
		l.N++
	}
}

// addPawnTargets adds a pawn move to each target, from target-delta.
func (l *MoveList) addPawnTargets(b Bitboard, delta int) {
	if l.countOnly {
		l.N += b.Count()
		return
	}
	for b != 0 {
		to := b.PopLSB()
		l.Moves[l.N] = NewMove(to-Square(delta), to)
		l.N++
	}
}

// addPromotionTargets adds the four promotions to each target.
func (l *MoveList) addPromotionTargets(b Bitboard, delta int) {
	if l.countOnly {
		l.N += 4 * b.Count()
		return
	}
	for b != 0 {
		to := b.PopLSB()
		addPromotions(l, to-Square(delta), to)
	}
}

// Add appends a move.
func (l *MoveList) Add(m Move) {
	l.Moves[l.N] = m
	l.N++
}

// Slice returns the moves as a slice into the list.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.Moves[:l.N] {
		if x == m {
			return true
		}
	}
	return false
}
