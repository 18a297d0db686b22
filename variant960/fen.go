package variant960

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// FENError is a FEN rejected by ParseFEN; Field names the bad field.
type FENError struct {
	Field string
	Msg   string
}

func (e *FENError) Error() string { return "invalid FEN: " + e.Field + ": " + e.Msg }

func fenErr(field, format string, args ...any) error {
	return &FENError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// NewStartPosition returns the standard starting position.
func NewStartPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err)
	}
	return p
}

// MustParseFEN parses a FEN known to be valid and panics otherwise.
func MustParseFEN(fen string) *Position {
	p, err := ParseFEN(fen)
	if err != nil {
		panic(err)
	}
	return p
}

// Larger move counters are read as these (they mean nothing more, and
// would overflow the plies counted from them).
const (
	maxRule50   = 1 << 16
	maxFullMove = 1 << 24
)

// fenCounter reads a move counter: a number too large for an int reads
// as the largest int (the caller clamps it further), any other error
// stands.
func fenCounter(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if errors.Is(err, strconv.ErrRange) && n > 0 {
		return n, nil
	}
	return n, err
}

// ParseFEN reads standard FEN, X-FEN or Shredder-FEN. The move counters
// may be left out. The position is validated; an error names the field.
// A castling right that the board cannot have (no rook of that colour
// where the right needs one, or the king off its first rank) is dropped
// and the rest of the FEN is read, as Stockfish does; ParseFENDropped
// names the rights it dropped.
func ParseFEN(fen string) (*Position, error) {
	p, _, err := ParseFENDropped(fen)
	return p, err
}

// DroppedRight is a castling right that ParseFEN left out.
type DroppedRight struct {
	Char   rune   // as written in the FEN
	Reason string // e.g. "no white rook on the king's side"
}

func (d DroppedRight) String() string { return fmt.Sprintf("%c (%s)", d.Char, d.Reason) }

// ParseFENDropped is ParseFEN that also returns the castling rights it
// dropped because the board cannot have them. Rights that contradict each
// other (two rooks for the same side) and characters that are no right
// at all are still errors.
func ParseFENDropped(fen string) (*Position, []DroppedRight, error) {
	f, err := fenFields(fen)
	if err != nil {
		return nil, nil, err
	}
	p := &Position{states: make([]state, 1, 256)}
	p.states[0].ep = NoSquare
	for i := range p.castleRook {
		p.castleRook[i] = NoSquare
	}
	if err := p.parsePlacement(f[0]); err != nil {
		return nil, nil, err
	}
	if err := p.parseSideToMove(f[1]); err != nil {
		return nil, nil, err
	}
	dropped, err := p.parseCastling(f[2])
	if err != nil {
		return nil, nil, err
	}
	if err := p.parseEnPassant(f[3]); err != nil {
		return nil, nil, err
	}
	if err := p.parseCounters(f[4:]); err != nil {
		return nil, nil, err
	}
	if err := p.initFENState(); err != nil {
		return nil, nil, err
	}
	return p, dropped, nil
}

// fenFields splits a FEN into its 4 to 6 fields.
func fenFields(fen string) ([]string, error) {
	f := strings.Fields(fen)
	if len(f) < 4 {
		if len(f) == 0 {
			return nil, fenErr("fen", "empty")
		}
		return nil, fenErr("fen", "need at least 4 fields (placement, side, castling, en passant), got %d", len(f))
	}
	if len(f) > 6 {
		return nil, fenErr("fen", "too many fields (%d), unexpected %q", len(f), f[6])
	}
	return f, nil
}

// parsePlacement reads the piece placement field onto the empty board
// and checks the kings, the piece and pawn counts and the pawns' ranks.
func (p *Position) parsePlacement(field string) error {
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return fenErr("piece placement", "need 8 ranks, got %d", len(ranks))
	}
	for i, row := range ranks {
		if err := p.parseRank(row, 7-i); err != nil {
			return err
		}
	}
	for c := White; c <= Black; c++ {
		name := [2]string{"white", "black"}[c]
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fenErr("piece placement", "%s has %d kings, need exactly 1", name, n)
		}
		if n := p.byColor[c].Count(); n > 16 {
			return fenErr("piece placement", "%s has %d pieces, at most 16 allowed", name, n)
		}
		if n := p.Pieces(c, Pawn).Count(); n > 8 {
			return fenErr("piece placement", "%s has %d pawns, at most 8 allowed", name, n)
		}
	}
	if p.byType[Pawn]&(Rank1|Rank8) != 0 {
		return fenErr("piece placement", "pawn on the first or eighth rank (%s)", (p.byType[Pawn] & (Rank1 | Rank8)).LSB())
	}
	return nil
}

// parseRank reads one rank (0 = the first) of the placement field.
func (p *Position) parseRank(row string, r int) error {
	file := 0
	for _, ch := range row {
		switch {
		case ch >= '1' && ch <= '8':
			file += int(ch - '0')
		default:
			idx := strings.IndexRune(pieceChars, ch)
			if idx <= 0 || ch == ' ' {
				return fenErr("piece placement", "bad character %q in rank %d", ch, r+1)
			}
			if file > 7 {
				return fenErr("piece placement", "rank %d has more than 8 squares", r+1)
			}
			p.putPiece(Piece(idx), SquareOf(file, r))
			file++
		}
		if file > 8 {
			return fenErr("piece placement", "rank %d has more than 8 squares", r+1)
		}
	}
	if file != 8 {
		return fenErr("piece placement", "rank %d has %d squares, need 8", r+1, file)
	}
	return nil
}

// parseSideToMove reads the side to move; the side not to move must not
// be in check.
func (p *Position) parseSideToMove(field string) error {
	switch field {
	case "w", "W":
		p.side = White
	case "b", "B":
		p.side = Black
	default:
		return fenErr("side to move", "want w or b, got %q", field)
	}
	if p.Attacked(p.KingSquare(p.side^1), p.side, p.byType[0]) {
		return fenErr("side to move", "the side not to move (%s) is in check", [2]string{"white", "black"}[p.side^1])
	}
	return nil
}

// parseCastling reads the castling field and returns the rights it
// dropped because the board cannot have them.
func (p *Position) parseCastling(field string) ([]DroppedRight, error) {
	if field == "-" {
		return nil, nil
	}
	var dropped []DroppedRight
	for _, ch := range field {
		why, err := p.addCastlingRight(ch)
		if err != nil {
			return nil, err
		}
		if why != "" {
			dropped = append(dropped, DroppedRight{ch, why})
		}
	}
	return dropped, nil
}

// parseEnPassant reads the en passant field: a square that a pawn of the
// side not to move has just stepped past. It is kept later only if a
// capture on it is legal (initFENState).
func (p *Position) parseEnPassant(field string) error {
	if field == "-" {
		return nil
	}
	ep, ok := ParseSquare(strings.ToLower(field))
	if !ok {
		return fenErr("en passant", "bad square %q", field)
	}
	us := p.side
	wantRank, pushed, origin := 5, ep-8, ep+8
	if us == Black {
		wantRank, pushed, origin = 2, ep+8, ep-8
	}
	if ep.Rank() != wantRank || p.board[pushed] != MakePiece(us^1, Pawn) ||
		p.board[ep] != NoPiece || p.board[origin] != NoPiece {
		return fenErr("en passant", "square %s cannot exist here: no %s pawn just made a double step past it",
			field, [2]string{"white", "black"}[us^1])
	}
	p.states[0].ep = ep
	return nil
}

// parseCounters reads the halfmove clock and the fullmove number, either
// or both of which may be missing (f holds the fields after en passant).
func (p *Position) parseCounters(f []string) error {
	st := &p.states[0]
	if len(f) >= 1 {
		n, err := fenCounter(f[0])
		if err != nil || n < 0 {
			return fenErr("halfmove clock", "want a non-negative number, got %q", f[0])
		}
		st.rule50 = min(n, maxRule50) // no counter overflow in Make
	}
	full := 1
	if len(f) == 2 {
		n, err := fenCounter(f[1])
		if err != nil || n < 0 {
			return fenErr("fullmove number", "want a positive number, got %q", f[1])
		}
		full = min(max(n, 1), maxFullMove)
	}
	p.ply = 2*(full-1) + int(p.side)
	st.pliesFromNull = st.rule50
	return nil
}

// initFENState computes the keys and the check information of a parsed
// FEN, keeps its en passant square only where a capture is legal and
// rejects a check by more than two pieces.
func (p *Position) initFENState() error {
	st := &p.states[0]
	for s := Square(0); s < 64; s++ {
		if pc := p.board[s]; pc != NoPiece {
			st.key ^= zPiece[pc][s]
			if pc.Type() == Pawn {
				st.pawnKey ^= zPiece[pc][s]
			} else {
				st.nonPawnKey[pc.Color()] ^= zPiece[pc][s]
			}
		}
	}
	if p.side == Black {
		st.key ^= zSide
	}
	st.key ^= p.castlingKey(st.castling)
	ep := st.ep
	st.ep = NoSquare
	p.setCheckInfo(st)
	if ep != NoSquare && p.epAllowed(ep) {
		st.ep = ep
		st.key ^= zEP[ep.File()]
	}
	if st.checkers.Count() > 2 {
		return fenErr("piece placement", "the side to move is in check by %d pieces", st.checkers.Count())
	}
	return nil
}

// addCastlingRight reads one character of the castling field. A right
// the board cannot have is not added; why names the reason. err is for a
// character that is no right and for two rights on the same side.
func (p *Position) addCastlingRight(ch rune) (why string, err error) {
	var c Color
	letter := ch
	switch {
	case ch >= 'A' && ch <= 'Z':
		c = White
	case ch >= 'a' && ch <= 'z':
		c = Black
		letter -= 'a' - 'A'
	default:
		return "", fenErr("castling", "bad character %q", ch)
	}
	if letter != 'K' && letter != 'Q' && (letter < 'A' || letter > 'H') {
		return "", fenErr("castling", "bad character %q", ch)
	}
	name := [2]string{"white", "black"}[c]
	backRank := 0
	if c == Black {
		backRank = 7
	}
	ksq := p.KingSquare(c)
	if ksq.Rank() != backRank {
		return fmt.Sprintf("the %s king is not on its first rank", name), nil
	}
	rooks := p.Pieces(c, Rook) & RankBB(backRank)
	var rsq Square = NoSquare
	switch letter {
	case 'K':
		if b := rooks & ^(SquareBB(ksq)<<1 - 1); b != 0 { // files above the king
			rsq = b.MSB()
		}
		if rsq == NoSquare {
			return fmt.Sprintf("no %s rook on the king's side", name), nil
		}
	case 'Q':
		if b := rooks & (SquareBB(ksq) - 1); b != 0 {
			rsq = b.LSB()
		}
		if rsq == NoSquare {
			return fmt.Sprintf("no %s rook on the queen's side", name), nil
		}
	default:
		s := SquareOf(int(letter-'A'), backRank)
		if !rooks.Has(s) {
			return fmt.Sprintf("no %s rook on %s", name, s), nil
		}
		rsq = s
	}
	side := KingSide
	if rsq < ksq {
		side = QueenSide
	}
	i := CastleIndex(c, side)
	st := p.st()
	if st.castling&(1<<i) != 0 {
		if p.castleRook[i] == rsq {
			return "", nil
		}
		return "", fenErr("castling", "%q: two %s castling rights on the same side", ch, name)
	}
	st.castling |= 1 << i
	p.castleRook[i] = rsq
	kto, rto := SquareOf(6, backRank), SquareOf(5, backRank)
	if side == QueenSide {
		kto, rto = SquareOf(2, backRank), SquareOf(3, backRank)
	}
	p.castlePath[i] = (betweenBB[ksq][kto] | SquareBB(kto) | betweenBB[rsq][rto] | SquareBB(rto)) &^ (SquareBB(ksq) | SquareBB(rsq))
	p.castleWalk[i] = betweenBB[ksq][kto] | SquareBB(kto) | SquareBB(ksq)
	p.castleMask[ksq] |= 3 << (2 * c)
	p.castleMask[rsq] |= 1 << i
	return "", nil
}

// Placement returns the first FEN field.
func (p *Position) Placement() string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[SquareOf(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteString(pc.String())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	return sb.String()
}

// castlingField writes the castling rights in one of three styles:
// 's' Shredder (file letters), 'x' X-FEN, 'k' KQkq when every right is
// a standard one (falls back to Shredder otherwise).
// StandardCastling reports whether every castling right is a standard
// chess one: its king on the e-file and its rook on the a- or h-file (true
// with no rights at all).
func (p *Position) StandardCastling() bool {
	rights := p.st().castling
	for i := 0; i < 4; i++ {
		if rights&(1<<i) == 0 {
			continue
		}
		ksq, rsq := p.KingSquare(Color(i>>1)), p.castleRook[i]
		if ksq.File() != 4 || (rsq.File() != 0 && rsq.File() != 7) {
			return false
		}
	}
	return true
}

func (p *Position) castlingField(style byte) string {
	rights := p.st().castling
	if rights == 0 {
		return "-"
	}
	if style == 'k' && !p.StandardCastling() {
		style = 's'
	}
	var sb strings.Builder
	for i := 0; i < 4; i++ {
		if rights&(1<<i) == 0 {
			continue
		}
		c := Color(i >> 1)
		rsq := p.castleRook[i]
		ch := byte('A' + rsq.File())
		if style != 's' {
			ksq := p.KingSquare(c)
			rooks := p.Pieces(c, Rook) & RankBB(rsq.Rank())
			var beyond Bitboard
			if i&1 == KingSide {
				beyond = rooks & ^(SquareBB(rsq)<<1 - 1)
				if rsq > ksq && beyond == 0 {
					ch = 'K'
				}
			} else {
				beyond = rooks & (SquareBB(rsq) - 1)
				if rsq < ksq && beyond == 0 {
					ch = 'Q'
				}
			}
		}
		if c == Black {
			ch += 'a' - 'A'
		}
		sb.WriteByte(ch)
	}
	return sb.String()
}

func (p *Position) fen(style byte) string {
	ep := "-"
	if s := p.st().ep; s != NoSquare {
		ep = s.String()
	}
	side := "w"
	if p.side == Black {
		side = "b"
	}
	return fmt.Sprintf("%s %s %s %s %d %d", p.Placement(), side, p.castlingField(style), ep, p.st().rule50, p.FullMove())
}

// FEN writes standard FEN (KQkq) when every castling right is the
// standard one (king on e1/e8, rook on a or h), and Shredder-FEN otherwise.
func (p *Position) FEN() string { return p.fen('k') }

// ShredderFEN writes Shredder-FEN (castling by rook files, e.g. HAha).
func (p *Position) ShredderFEN() string { return p.fen('s') }

// XFEN writes X-FEN (KQkq for outermost rooks, file letters otherwise).
func (p *Position) XFEN() string { return p.fen('x') }

// String draws the board, for debugging.
func (p *Position) String() string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			sb.WriteString(p.board[SquareOf(f, r)].String())
			sb.WriteByte(' ')
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(p.FEN())
	return sb.String()
}
