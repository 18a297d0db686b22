package variant960

import (
	"fmt"
	"strings"
)

var pieceLetters = [7]string{"", "", "N", "B", "R", "Q", "K"}

func (p *Position) legalMoves() MoveList {
	var ml MoveList
	p.GenerateLegal(&ml)
	return ml
}

// SAN writes a legal move in Standard Algebraic Notation, with O-O and
// O-O-O for Chess960 castling and a + or # suffix.
func (p *Position) SAN(m Move) string {
	var sb strings.Builder
	from, to := m.From(), m.To()
	pt := p.board[from].Type()
	switch {
	case m.IsCastling():
		if to > from {
			sb.WriteString("O-O")
		} else {
			sb.WriteString("O-O-O")
		}
	case pt == Pawn:
		if from.File() != to.File() {
			sb.WriteByte(byte('a' + from.File()))
			sb.WriteByte('x')
		}
		sb.WriteString(to.String())
		if pr := m.Promotion(); pr != NoPieceType {
			sb.WriteByte('=')
			sb.WriteString(pieceLetters[pr])
		}
	default:
		sb.WriteString(pieceLetters[pt])
		// Disambiguate against other pieces of the type reaching to.
		ml := p.legalMoves()
		sameFile, sameRank, others := false, false, false
		for _, o := range ml.Slice() {
			if o == m || o.IsCastling() || o.To() != to || p.board[o.From()].Type() != pt {
				continue
			}
			others = true
			if o.From().File() == from.File() {
				sameFile = true
			}
			if o.From().Rank() == from.Rank() {
				sameRank = true
			}
		}
		if others {
			if !sameFile {
				sb.WriteByte(byte('a' + from.File()))
			} else if !sameRank {
				sb.WriteByte(byte('1' + from.Rank()))
			} else {
				sb.WriteString(from.String())
			}
		}
		if p.board[to] != NoPiece {
			sb.WriteByte('x')
		}
		sb.WriteString(to.String())
	}
	p.Make(m)
	if p.InCheck() {
		if p.HasLegalMove() {
			sb.WriteByte('+')
		} else {
			sb.WriteByte('#')
		}
	}
	p.Unmake()
	return sb.String()
}

// castlingMove returns the legal castling move on the given side, if any.
func (p *Position) castlingMove(ml *MoveList, side int) (Move, bool) {
	for _, m := range ml.Slice() {
		if m.IsCastling() && (m.To() > m.From()) == (side == KingSide) {
			return m, true
		}
	}
	return NoMove, false
}

// parseCastlingToken reads O-O, O-O-O, 0-0 and 0-0-0 (any case of O).
func parseCastlingToken(s string) (int, bool) {
	switch strings.ToUpper(strings.ReplaceAll(s, "0", "O")) {
	case "O-O":
		return KingSide, true
	case "O-O-O":
		return QueenSide, true
	}
	return 0, false
}

// ParseSAN reads a move in SAN (lenient: check marks, annotations, "e.p."
// and a missing "=" are accepted, 0-0 as well as O-O).
func (p *Position) ParseSAN(s string) (Move, error) {
	orig := s
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimRight(s, "+#!?")
	ml := p.legalMoves()
	if side, ok := parseCastlingToken(s); ok {
		if m, ok := p.castlingMove(&ml, side); ok {
			return m, nil
		}
		return NoMove, fmt.Errorf("illegal move %q: castling not possible", orig)
	}
	if len(s) < 2 {
		return NoMove, fmt.Errorf("unreadable move %q", orig)
	}
	pt := Pawn
	if i := strings.IndexByte("NBRQK", s[0]); i >= 0 {
		pt = PieceType(i) + Knight
		s = s[1:]
	}
	promo := NoPieceType
	if n := len(s); n > 0 {
		if i := strings.IndexByte("NBRQnbrq", s[n-1]); i >= 0 && pt == Pawn {
			promo = PieceType(i%4) + Knight
			s = strings.TrimSuffix(s[:n-1], "=")
		}
	}
	if len(s) < 2 {
		return NoMove, fmt.Errorf("unreadable move %q", orig)
	}
	to, ok := ParseSquare(s[len(s)-2:])
	if !ok {
		return NoMove, fmt.Errorf("unreadable move %q: bad destination", orig)
	}
	hint := strings.ReplaceAll(strings.ReplaceAll(s[:len(s)-2], "x", ""), "-", "")
	fileHint, rankHint := -1, -1
	for _, c := range hint {
		switch {
		case c >= 'a' && c <= 'h':
			fileHint = int(c - 'a')
		case c >= '1' && c <= '8':
			rankHint = int(c - '1')
		default:
			return NoMove, fmt.Errorf("unreadable move %q", orig)
		}
	}
	var found Move
	n := 0
	for _, m := range ml.Slice() {
		if m.IsCastling() || m.To() != to || p.board[m.From()].Type() != pt || m.Promotion() != promo {
			continue
		}
		if (fileHint >= 0 && m.From().File() != fileHint) || (rankHint >= 0 && m.From().Rank() != rankHint) {
			continue
		}
		found = m
		n++
	}
	switch n {
	case 0:
		return NoMove, fmt.Errorf("illegal move %q", orig)
	case 1:
		return found, nil
	}
	return NoMove, fmt.Errorf("ambiguous move %q", orig)
}

// PlayMoves reads and makes the moves in order (UCI notation, as
// ParseMove reads them). At the first move it cannot read or that is
// illegal it stops and returns that move's index (from 0) with the error;
// the moves before it stay made.
func (p *Position) PlayMoves(moves ...string) (int, error) {
	for i, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			return i, err
		}
		p.Make(m)
	}
	return len(moves), nil
}

// ParseMove reads a move in UCI notation as any GUI sends it: castling as
// king-takes-own-rook (e1h1), as the king's own move (e1g1) when no normal
// king move has that form, or as O-O / O-O-O / 0-0 / 0-0-0; promotion
// letters in either case. The move must be legal.
func (p *Position) ParseMove(s string) (Move, error) {
	ml := p.legalMoves()
	if side, ok := parseCastlingToken(s); ok {
		if m, ok := p.castlingMove(&ml, side); ok {
			return m, nil
		}
		return NoMove, fmt.Errorf("illegal move %q: castling not possible", s)
	}
	if len(s) != 4 && len(s) != 5 {
		return NoMove, fmt.Errorf("unreadable move %q", s)
	}
	from, ok1 := ParseSquare(s[0:2])
	to, ok2 := ParseSquare(s[2:4])
	if !ok1 || !ok2 {
		return NoMove, fmt.Errorf("unreadable move %q", s)
	}
	promo := NoPieceType
	if len(s) == 5 {
		i := strings.IndexByte("nbrqNBRQ", s[4])
		if i < 0 {
			return NoMove, fmt.Errorf("unreadable move %q: bad promotion letter", s)
		}
		promo = PieceType(i%4) + Knight
	}
	var castle Move
	for _, m := range ml.Slice() {
		if m.From() != from {
			continue
		}
		if m.IsCastling() {
			if promo == NoPieceType && (m.To() == to || (m.CastlingKingTo() == to && to != from)) {
				if m.To() == to {
					return m, nil
				}
				castle = m
			}
			continue
		}
		if m.To() == to && m.Promotion() == promo {
			return m, nil
		}
	}
	if castle != NoMove {
		return castle, nil
	}
	return NoMove, fmt.Errorf("illegal move %q in position %s", s, p.FEN())
}

// MoveToUCI writes a legal move in UCI notation. With chess960 castling is
// king-takes-rook. Without it castling is the king's move to c or g, unless
// that would read as a different move here (a plain king move to the same
// square, or a king already on its target), when king-takes-rook is used.
func (p *Position) MoveToUCI(m Move, chess960 bool) string {
	if !m.IsCastling() || chess960 {
		return m.UCI(true)
	}
	kto := m.CastlingKingTo()
	if kto == m.From() {
		return m.UCI(true)
	}
	if kingAttacks[m.From()].Has(kto) && !p.byColor[p.side].Has(kto) {
		// A plain king move from→kto might exist; check it is not legal.
		ml := p.legalMoves()
		if ml.Contains(NewMove(m.From(), kto)) {
			return m.UCI(true)
		}
	}
	return m.UCI(false)
}
