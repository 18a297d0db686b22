package variant960

// Castling-right indices: colour*2 + side, side 0 = king-side (the rook on
// the h-file side of the king), 1 = queen-side.
const (
	KingSide  = 0
	QueenSide = 1
)

// CastleIndex returns the index of a castling right.
func CastleIndex(c Color, side int) int { return int(c)*2 + side }

// state is what a move changes beyond the pieces and what unmaking needs.
type state struct {
	key           uint64
	pawnKey       uint64
	nonPawnKey    [2]uint64 // by colour: that colour's pieces other than pawns (kings included)
	castling      uint8     // bit i set: right i (CastleIndex) held
	ep            Square
	rule50        int
	pliesFromNull int
	captured      Piece
	checkers      Bitboard
	pinned        Bitboard    // pieces of the side to move pinned to its king
	blockers      [2]Bitboard // by king colour: pieces of either colour that alone block an enemy slider's line to that king
	pinners       [2]Bitboard // by king colour: enemy sliders pinning a piece of that colour to its king
	checkSquares  [7]Bitboard // by piece type: where a piece of the side to move would give direct check
	moveInfo      bool        // blockers/pinners of the other king and checkSquares are set
	move          Move
}

// Position is a chess position with its game history (for repetition and
// unmaking). Make and Unmake do not allocate once the history has grown to
// the game's length.
type Position struct {
	board   [64]Piece
	byType  [7]Bitboard // index 0: all pieces
	byColor [2]Bitboard
	side    Color
	ply     int // plies since the start of the game (for the move counter)
	// Castling geometry, fixed for a game: the rook square for each right
	// (NoSquare if the right was never set up), the squares that must be
	// empty, the king's walk, and which rights a square touches.
	castleRook [4]Square
	castlePath [4]Bitboard
	castleWalk [4]Bitboard
	castleMask [64]uint8
	states     []state
}

func (p *Position) st() *state { return &p.states[len(p.states)-1] }

// Zobrist keys.
var (
	zPiece  [16][64]uint64
	zCastle [2][8]uint64 // by colour and castling rook file
	zEP     [8]uint64
	zSide   uint64
)

func init() {
	rng := prng(0x2545F4914F6CDD1D)
	for p := range zPiece {
		for s := range zPiece[p] {
			zPiece[p][s] = rng.next()
		}
	}
	for c := range zCastle {
		for f := range zCastle[c] {
			zCastle[c][f] = rng.next()
		}
	}
	for f := range zEP {
		zEP[f] = rng.next()
	}
	zSide = rng.next()
}

func (p *Position) castlingKey(rights uint8) uint64 {
	var k uint64
	for i := 0; i < 4; i++ {
		if rights&(1<<i) != 0 {
			k ^= zCastle[i>>1][p.castleRook[i].File()]
		}
	}
	return k
}

// Side returns the side to move.
func (p *Position) Side() Color { return p.side }

// PieceOn returns the piece on a square.
func (p *Position) PieceOn(s Square) Piece { return p.board[s] }

// Occupied returns all pieces.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// ByColor returns the pieces of one colour.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// Pieces returns the pieces of one colour and type.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.byColor[c] & p.byType[t] }

// KingSquare returns the square of c's king.
func (p *Position) KingSquare(c Color) Square { return (p.byColor[c] & p.byType[King]).LSB() }

// Key returns the Zobrist key.
func (p *Position) Key() uint64 { return p.st().key }

// PawnKey returns the Zobrist key of the pawns alone.
func (p *Position) PawnKey() uint64 { return p.st().pawnKey }

// NonPawnKey returns the Zobrist key of colour c's pieces other than
// pawns (its king included).
func (p *Position) NonPawnKey(c Color) uint64 { return p.st().nonPawnKey[c] }

// EPSquare returns the en-passant square, or NoSquare. It is set only when
// an en-passant capture is really legal.
func (p *Position) EPSquare() Square { return p.st().ep }

// Rule50 returns the half-move clock.
func (p *Position) Rule50() int { return p.st().rule50 }

// FullMove returns the full-move number.
func (p *Position) FullMove() int { return 1 + p.ply/2 }

// GamePly returns the number of plies played since the game's start
// position (including those before the FEN, by its move number).
func (p *Position) GamePly() int { return p.ply }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.st().checkers != 0 }

// LastMove returns the move that led to this position, or NoMove.
func (p *Position) LastMove() Move { return p.st().move }

// Captured returns the piece the last move took (the pawn, en passant),
// or NoPiece: after a quiet move, a castling, a null move or none.
func (p *Position) Captured() Piece { return p.st().captured }

// CastlingRights returns the rights as a 4-bit set indexed by CastleIndex.
func (p *Position) CastlingRights() uint8 { return p.st().castling }

// CastlingRook returns the rook square for a right, NoSquare if not held.
func (p *Position) CastlingRook(c Color, side int) Square {
	i := CastleIndex(c, side)
	if p.st().castling&(1<<i) == 0 {
		return NoSquare
	}
	return p.castleRook[i]
}

// AttackersTo returns the pieces of both colours attacking s given occ.
func (p *Position) AttackersTo(s Square, occ Bitboard) Bitboard {
	return (pawnAttacks[White][s] & p.Pieces(Black, Pawn)) |
		(pawnAttacks[Black][s] & p.Pieces(White, Pawn)) |
		(knightAttacks[s] & p.byType[Knight]) |
		(kingAttacks[s] & p.byType[King]) |
		(RookAttacks(s, occ) & (p.byType[Rook] | p.byType[Queen])) |
		(BishopAttacks(s, occ) & (p.byType[Bishop] | p.byType[Queen]))
}

// Threats returns every square that a piece of colour by attacks (its
// own pieces' squares included), with the board's occupancy.
func (p *Position) Threats(by Color) Bitboard {
	return p.ThreatsByValue(by).All
}

// ThreatMap is what a colour attacks, by the value of the attackers.
type ThreatMap struct {
	Pawns  Bitboard // squares its pawns attack
	Minors Bitboard // squares its pawns, knights or bishops attack
	Rooks  Bitboard // squares its pawns, minor pieces or rooks attack
	All    Bitboard // squares any of its pieces attacks
}

// ThreatsByValue returns the squares colour by attacks, grouped by the
// value of the attackers (each group includes the cheaper ones).
func (p *Position) ThreatsByValue(by Color) ThreatMap {
	occ := p.Occupied()
	pawns := p.Pieces(by, Pawn)
	var t ThreatMap
	if by == White {
		t.Pawns = (pawns&^FileA)<<7 | (pawns&^FileH)<<9
	} else {
		t.Pawns = (pawns&^FileA)>>9 | (pawns&^FileH)>>7
	}
	a := t.Pawns
	for b := p.Pieces(by, Knight); b != 0; {
		a |= knightAttacks[b.PopLSB()]
	}
	for b := p.Pieces(by, Bishop); b != 0; {
		a |= BishopAttacks(b.PopLSB(), occ)
	}
	t.Minors = a
	for b := p.Pieces(by, Rook); b != 0; {
		a |= RookAttacks(b.PopLSB(), occ)
	}
	t.Rooks = a
	for b := p.Pieces(by, Queen); b != 0; {
		a |= QueenAttacks(b.PopLSB(), occ)
	}
	for b := p.Pieces(by, King); b != 0; {
		a |= kingAttacks[b.PopLSB()]
	}
	t.All = a
	return t
}

// Attacked reports whether colour by attacks s given occ.
func (p *Position) Attacked(s Square, by Color, occ Bitboard) bool {
	them := p.byColor[by]
	return pawnAttacks[by^1][s]&p.byType[Pawn]&them != 0 ||
		knightAttacks[s]&p.byType[Knight]&them != 0 ||
		kingAttacks[s]&p.byType[King]&them != 0 ||
		RookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])&them != 0 ||
		BishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen])&them != 0
}

// blockersAndPinners returns the pieces (of either colour) that alone
// stand between the king of colour c on ksq and an enemy slider, and the
// enemy sliders that so pin a piece of colour c.
func (p *Position) blockersAndPinners(ksq Square, c Color) (blockers, pinners Bitboard) {
	snipers := ((RookAttacks(ksq, 0) & (p.byType[Rook] | p.byType[Queen])) |
		(BishopAttacks(ksq, 0) & (p.byType[Bishop] | p.byType[Queen]))) & p.byColor[c^1]
	occ := p.byType[0]
	for snipers != 0 {
		s := snipers.PopLSB()
		b := betweenBB[ksq][s] & occ
		if b != 0 && !b.More() {
			blockers |= b
			if b&p.byColor[c] != 0 {
				pinners |= SquareBB(s)
			}
		}
	}
	return blockers, pinners
}

// setCheckInfo fills what move generation needs of a new position: the
// checkers, and the slider blockers and pinners of the side to move's
// king.
func (p *Position) setCheckInfo(st *state) {
	us := p.side
	ksq := p.KingSquare(us)
	st.checkers = p.AttackersTo(ksq, p.byType[0]) & p.byColor[us^1]
	st.blockers[us], st.pinners[us] = p.blockersAndPinners(ksq, us)
	st.pinned = st.blockers[us] & p.byColor[us]
	st.moveInfo = false
}

// moveInfo returns the state with what GivesCheck and SEE need, computed
// once per position on first use (perft and move generation never need
// it): the slider blockers and pinners of the other king, and the squares
// from which each piece type of the side to move would check it.
func (p *Position) moveInfo() *state {
	st := p.st()
	if st.moveInfo {
		return st
	}
	them := p.side ^ 1
	occ := p.byType[0]
	tksq := p.KingSquare(them)
	st.blockers[them], st.pinners[them] = p.blockersAndPinners(tksq, them)
	st.checkSquares[Pawn] = pawnAttacks[them][tksq]
	st.checkSquares[Knight] = knightAttacks[tksq]
	st.checkSquares[Bishop] = BishopAttacks(tksq, occ)
	st.checkSquares[Rook] = RookAttacks(tksq, occ)
	st.checkSquares[Queen] = st.checkSquares[Bishop] | st.checkSquares[Rook]
	st.checkSquares[King] = 0
	st.moveInfo = true
	return st
}

func (p *Position) putPiece(pc Piece, s Square) {
	b := SquareBB(s)
	p.board[s] = pc
	p.byType[0] |= b
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
}

func (p *Position) removePiece(s Square) {
	pc := p.board[s]
	b := SquareBB(s)
	p.board[s] = NoPiece
	p.byType[0] ^= b
	p.byType[pc.Type()] ^= b
	p.byColor[pc.Color()] ^= b
}

func (p *Position) movePiece(from, to Square) {
	pc := p.board[from]
	b := SquareBB(from) | SquareBB(to)
	p.board[from] = NoPiece
	p.board[to] = pc
	p.byType[0] ^= b
	p.byType[pc.Type()] ^= b
	p.byColor[pc.Color()] ^= b
}

// epAllowed reports whether the side to move has a legal en-passant
// capture onto ep. The check info must be set.
func (p *Position) epAllowed(ep Square) bool {
	for b := pawnAttacks[p.side^1][ep] & p.Pieces(p.side, Pawn); b != 0; {
		if p.epLegal(b.PopLSB(), ep) {
			return true
		}
	}
	return false
}

// KeyAfter returns the key the position will have after move m, for
// prefetching the table entry of the child before the move is made. It
// is exact for ordinary moves, captures and promotions that change no
// castling right and leave no en-passant square; otherwise it may differ
// from the key Make computes (it leaves out changes of castling rights, a
// new en-passant square, the pawn taken en passant and, when castling,
// the rook), and a caller must use it only as a hint.
func (p *Position) KeyAfter(m Move) uint64 {
	st := p.st()
	k := st.key ^ zSide
	if st.ep != NoSquare {
		k ^= zEP[st.ep.File()]
	}
	from, to := m.From(), m.To()
	pc := p.board[from]
	if m.Kind() == KindCastling {
		return k ^ zPiece[pc][from] ^ zPiece[pc][m.CastlingKingTo()]
	}
	if cap := p.board[to]; cap != NoPiece {
		k ^= zPiece[cap][to]
	}
	if promo := m.Promotion(); promo != NoPieceType {
		return k ^ zPiece[pc][from] ^ zPiece[MakePiece(p.side, promo)][to]
	}
	return k ^ zPiece[pc][from] ^ zPiece[pc][to]
}

// Make plays a legal (or IsLegal-checked pseudo-legal) move.
func (p *Position) Make(m Move) {
	p.states = append(p.states, state{})
	st := &p.states[len(p.states)-1]
	prev := &p.states[len(p.states)-2]
	st.key = prev.key ^ zSide
	st.pawnKey = prev.pawnKey
	st.nonPawnKey = prev.nonPawnKey
	st.castling = prev.castling
	st.rule50 = prev.rule50 + 1
	st.pliesFromNull = prev.pliesFromNull + 1
	st.ep = NoSquare
	st.move = m
	epCand := NoSquare
	if prev.ep != NoSquare {
		st.key ^= zEP[prev.ep.File()]
	}
	us, them := p.side, p.side^1
	from, to := m.From(), m.To()
	pc := p.board[from]

	switch m.Kind() {
	case KindCastling:
		kto, rto := m.CastlingKingTo(), m.CastlingRookTo()
		rook := p.board[to]
		p.removePiece(from)
		p.removePiece(to)
		p.putPiece(pc, kto)
		p.putPiece(rook, rto)
		k := zPiece[pc][from] ^ zPiece[pc][kto] ^ zPiece[rook][to] ^ zPiece[rook][rto]
		st.key ^= k
		st.nonPawnKey[us] ^= k
	case KindEnPassant:
		capSq := to - 8
		if us == Black {
			capSq = to + 8
		}
		st.captured = p.board[capSq]
		p.removePiece(capSq)
		p.movePiece(from, to)
		k := zPiece[st.captured][capSq] ^ zPiece[pc][from] ^ zPiece[pc][to]
		st.key ^= k
		st.pawnKey ^= k
		st.rule50 = 0
	default:
		if cap := p.board[to]; cap != NoPiece {
			st.captured = cap
			p.removePiece(to)
			st.key ^= zPiece[cap][to]
			if cap.Type() == Pawn {
				st.pawnKey ^= zPiece[cap][to]
			} else {
				st.nonPawnKey[them] ^= zPiece[cap][to]
			}
			st.rule50 = 0
		}
		if promo := m.Promotion(); promo != NoPieceType {
			np := MakePiece(us, promo)
			p.removePiece(from)
			p.putPiece(np, to)
			st.key ^= zPiece[pc][from] ^ zPiece[np][to]
			st.pawnKey ^= zPiece[pc][from]
			st.nonPawnKey[us] ^= zPiece[np][to]
		} else {
			p.movePiece(from, to)
			st.key ^= zPiece[pc][from] ^ zPiece[pc][to]
			if pc.Type() == Pawn {
				st.pawnKey ^= zPiece[pc][from] ^ zPiece[pc][to]
			} else {
				st.nonPawnKey[us] ^= zPiece[pc][from] ^ zPiece[pc][to]
			}
		}
		if pc.Type() == Pawn {
			st.rule50 = 0
			if d := int(to) - int(from); d == 16 || d == -16 {
				if ep := Square((int(from) + int(to)) / 2); pawnAttacks[us][ep]&p.Pieces(them, Pawn) != 0 {
					epCand = ep // kept only if a capture is legal, below
				}
			}
		}
	}
	if cm := p.castleMask[from] | p.castleMask[to]; cm != 0 && st.castling&cm != 0 {
		st.key ^= p.castlingKey(st.castling)
		st.castling &^= cm
		st.key ^= p.castlingKey(st.castling)
	}
	p.side = them
	p.ply++
	p.setCheckInfo(st)
	if epCand != NoSquare && p.epAllowed(epCand) {
		st.ep = epCand
		st.key ^= zEP[epCand.File()]
	}
}

// Unmake takes back the last move made with Make.
func (p *Position) Unmake() {
	st := p.st()
	m := st.move
	p.side ^= 1
	p.ply--
	us := p.side
	from, to := m.From(), m.To()
	switch m.Kind() {
	case KindCastling:
		kto, rto := m.CastlingKingTo(), m.CastlingRookTo()
		king, rook := p.board[kto], p.board[rto]
		p.removePiece(kto)
		p.removePiece(rto)
		p.putPiece(king, from)
		p.putPiece(rook, to)
	case KindEnPassant:
		p.movePiece(to, from)
		capSq := to - 8
		if us == Black {
			capSq = to + 8
		}
		p.putPiece(st.captured, capSq)
	case KindPromotion:
		p.removePiece(to)
		p.putPiece(MakePiece(us, Pawn), from)
		if st.captured != NoPiece {
			p.putPiece(st.captured, to)
		}
	default:
		p.movePiece(to, from)
		if st.captured != NoPiece {
			p.putPiece(st.captured, to)
		}
	}
	p.states = p.states[:len(p.states)-1]
}

// MakeNull passes the turn (for null-move pruning). Not legal in check.
func (p *Position) MakeNull() {
	p.states = append(p.states, state{})
	st := &p.states[len(p.states)-1]
	prev := &p.states[len(p.states)-2]
	*st = *prev
	st.move = NullMove
	st.key ^= zSide
	if prev.ep != NoSquare {
		st.key ^= zEP[prev.ep.File()]
		st.ep = NoSquare
	}
	st.rule50++
	st.pliesFromNull = 0
	st.captured = NoPiece
	p.side ^= 1
	p.ply++
	p.setCheckInfo(st)
}

// UnmakeNull takes back MakeNull.
func (p *Position) UnmakeNull() {
	p.side ^= 1
	p.ply--
	p.states = p.states[:len(p.states)-1]
}

// IsRepetition reports whether the position occurred before since the
// last irreversible move (a single earlier occurrence counts, as engines
// use it in search).
func (p *Position) IsRepetition() bool {
	st := p.st()
	end := min(st.rule50, st.pliesFromNull)
	n := len(p.states) - 1
	for i := 4; i <= end && n-i >= 0; i += 2 {
		if p.states[n-i].key == st.key {
			return true
		}
	}
	return false
}

// IsRepetitionInSearch is the repetition rule of a search whose root is
// ply plies back: a position that already occurred after the root is a
// draw at its first repetition (the side that could avoid it did not),
// while one from the game before the root (or the root itself) must have
// occurred twice before, a real threefold repetition.
func (p *Position) IsRepetitionInSearch(ply int) bool {
	st := p.st()
	end := min(st.rule50, st.pliesFromNull)
	n := len(p.states) - 1
	count := 0
	for i := 4; i <= end && n-i >= 0; i += 2 {
		if p.states[n-i].key == st.key {
			if i < ply {
				return true
			}
			count++
			if count >= 2 {
				return true
			}
		}
	}
	return false
}

// RepetitionCount returns how many times the current position occurred
// before, within the reversible history.
func (p *Position) RepetitionCount() int {
	st := p.st()
	end := min(st.rule50, st.pliesFromNull)
	n := len(p.states) - 1
	c := 0
	for i := 4; i <= end && n-i >= 0; i += 2 {
		if p.states[n-i].key == st.key {
			c++
		}
	}
	return c
}

// InsufficientMaterial reports a dead position by material: K v K, K+minor
// v K, and any number of bishops all on one square colour.
func (p *Position) InsufficientMaterial() bool {
	if p.byType[Pawn]|p.byType[Rook]|p.byType[Queen] != 0 {
		return false
	}
	minors := p.byType[Knight] | p.byType[Bishop]
	if minors.Count() <= 1 {
		return true
	}
	if p.byType[Knight] == 0 {
		b := p.byType[Bishop]
		return b&LightSquares == 0 || b&DarkSquares == 0
	}
	return false
}

// IsDraw reports a draw by the fifty-move rule, repetition (one earlier
// occurrence, as in search) or insufficient material. It does not look
// for stalemate.
func (p *Position) IsDraw() bool {
	if p.st().rule50 >= 100 {
		if !p.InCheck() {
			return true
		}
		var ml MoveList
		p.GenerateLegal(&ml)
		return ml.N > 0
	}
	return p.IsRepetition() || p.InsufficientMaterial()
}

// IsDrawInSearch is IsDraw with the repetition rule of IsRepetitionInSearch
// for a search whose root is ply plies back.
func (p *Position) IsDrawInSearch(ply int) bool {
	if p.st().rule50 >= 100 {
		return p.IsDraw()
	}
	return p.IsRepetitionInSearch(ply) || p.InsufficientMaterial()
}

// Copy returns a deep copy with its own history.
func (p *Position) Copy() *Position {
	q := *p
	q.states = make([]state, len(p.states), max(cap(p.states), 256))
	copy(q.states, p.states)
	return &q
}

// CopyTo makes q a deep copy of p, as Copy does, reusing q's history
// storage when it is large enough: a copy made again for every search
// allocates nothing.
func (p *Position) CopyTo(q *Position) {
	states := q.states
	*q = *p
	if need := max(cap(p.states), 256); cap(states) < need {
		states = make([]state, 0, need)
	}
	q.states = append(states[:0], p.states...)
}

// NonPawnMaterial reports whether colour c has a piece other than pawns
// and king (a zugzwang guard for null-move pruning).
func (p *Position) NonPawnMaterial(c Color) bool {
	return p.byColor[c]&^(p.byType[Pawn]|p.byType[King]) != 0
}
