// Package variant960 is Rochade's board layer: bitboards, positions, FEN,
// legal and pseudo-legal move generation with full Chess960 and Double
// Fischer Random castling, start-position numbering, SAN and perft.
// It depends on nothing else in the project.
package variant960

import "math/bits"

// Bitboard is a set of squares, bit i standing for square i (a1 = 0, h8 = 63).
type Bitboard uint64

// Square is a board square, a1 = 0 ... h8 = 63. NoSquare marks "none".
type Square int8

// NoSquare is the "no square" marker.
const NoSquare Square = -1

// Color is White or Black.
type Color uint8

// The two colours.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// PieceType is a kind of piece without colour.
type PieceType uint8

// Piece types. NoPieceType is zero.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece is a coloured piece: colour<<3 | type. NoPiece is zero.
type Piece uint8

// NoPiece is the empty square.
const NoPiece Piece = 0

// MakePiece combines a colour and a type.
func MakePiece(c Color, t PieceType) Piece { return Piece(c)<<3 | Piece(t) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

const pieceChars = " PNBRQK  pnbrqk"

// String gives the FEN letter of the piece.
func (p Piece) String() string {
	if p == NoPiece {
		return "."
	}
	return string(pieceChars[p])
}

// SquareOf builds a square from file (0..7) and rank (0..7).
func SquareOf(file, rank int) Square { return Square(rank*8 + file) }

// File of the square, 0 = a.
func (s Square) File() int { return int(s) & 7 }

// Rank of the square, 0 = first rank.
func (s Square) Rank() int { return int(s) >> 3 }

// String gives the square's name, e.g. "e4".
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads a square name such as "e4".
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return SquareOf(int(s[0]-'a'), int(s[1]-'1')), true
}

// SquareBB returns the bitboard of one square.
func SquareBB(s Square) Bitboard { return 1 << uint(s) }

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// LSB returns the lowest square in a non-empty set.
func (b Bitboard) LSB() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// MSB returns the highest square in a non-empty set.
func (b Bitboard) MSB() Square { return Square(63 - bits.LeadingZeros64(uint64(b))) }

// PopLSB removes and returns the lowest square.
func (b *Bitboard) PopLSB() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// Has reports whether the square is in the set.
func (b Bitboard) Has(s Square) bool { return b&(1<<uint(s)) != 0 }

// More reports whether the set has more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }

// Files and ranks.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xFF
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
	// LightSquares are the light squares (b1, a2, ...).
	LightSquares Bitboard = 0x55AA55AA55AA55AA
	DarkSquares  Bitboard = ^LightSquares
)

// FileBB returns the bitboard of a file.
func FileBB(f int) Bitboard { return FileA << uint(f) }

// RankBB returns the bitboard of a rank.
func RankBB(r int) Bitboard { return Rank1 << uint(8*r) }

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	betweenBB     [64][64]Bitboard // squares strictly between two aligned squares
	lineBB        [64][64]Bitboard // the whole line through two aligned squares
	squareDist    [64][64]int8
)

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

// Between returns the squares strictly between a and b if aligned, else 0.
func Between(a, b Square) Bitboard { return betweenBB[a][b] }

// Line returns the full line through a and b if aligned, else 0.
func Line(a, b Square) Bitboard { return lineBB[a][b] }

// Distance is the king distance between two squares.
func Distance(a, b Square) int { return int(squareDist[a][b]) }

// magic is one square's entry of the magic-bitboard slider tables.
type magic struct {
	mask   Bitboard
	magic  uint64
	shift  uint8
	offset uint32
}

var (
	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    [102400]Bitboard
	bishopTable  [5248]Bitboard
)

// RookAttacks returns rook attacks from s given the occupancy.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return rookTable[m.offset+uint32(uint64(occ&m.mask)*m.magic>>m.shift)]
}

// BishopAttacks returns bishop attacks from s given the occupancy.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return bishopTable[m.offset+uint32(uint64(occ&m.mask)*m.magic>>m.shift)]
}

// QueenAttacks returns queen attacks from s given the occupancy.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// slideAttacks walks the rays the slow way; used to fill the tables.
func slideAttacks(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			sq := SquareOf(f, r)
			att |= SquareBB(sq)
			if occ.Has(sq) {
				break
			}
			f += d[0]
			r += d[1]
		}
	}
	return att
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// prng is a xorshift64* generator with a fixed seed, so that start-up is
// deterministic.
type prng uint64

func (p *prng) next() uint64 {
	x := uint64(*p)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*p = prng(x)
	return x * 2685821657736338717
}

// sparse returns a random number with few bits set, good magic candidates.
func (p *prng) sparse() uint64 { return p.next() & p.next() & p.next() }

// initMagics finds a magic multiplier for every square by trial, with a
// fixed seed; it takes a few milliseconds.
func initMagics(table []Bitboard, magics *[64]magic, dirs [4][2]int, seed uint64) {
	rng := prng(seed)
	var occs, atts [4096]Bitboard
	var epoch [4096]int
	cnt := 0
	offset := uint32(0)
	for sq := Square(0); sq < 64; sq++ {
		edges := ((Rank1 | Rank8) &^ RankBB(sq.Rank())) | ((FileA | FileH) &^ FileBB(sq.File()))
		mask := slideAttacks(sq, 0, dirs) &^ edges
		n := mask.Count()
		m := &magics[sq]
		m.mask = mask
		m.shift = uint8(64 - n)
		m.offset = offset
		// Enumerate all subsets of the mask (Carry-Rippler).
		size := 0
		for b := Bitboard(0); ; {
			occs[size] = b
			atts[size] = slideAttacks(sq, b, dirs)
			size++
			b = (b - mask) & mask
			if b == 0 {
				break
			}
		}
		entries := table[offset : offset+uint32(size)]
		for {
			mg := rng.sparse()
			if bits.OnesCount64((uint64(mask)*mg)>>56) < 6 {
				continue
			}
			cnt++
			ok := true
			for i := 0; i < size; i++ {
				idx := uint64(occs[i]) * mg >> m.shift
				if epoch[idx] < cnt {
					epoch[idx] = cnt
					entries[idx] = atts[i]
				} else if entries[idx] != atts[i] {
					ok = false
					break
				}
			}
			if ok {
				m.magic = mg
				break
			}
		}
		offset += uint32(size)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func init() {
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if ff, rr := f+d[0], r+d[1]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				knightAttacks[s] |= SquareBB(SquareOf(ff, rr))
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if ff, rr := f+df, r+dr; (df != 0 || dr != 0) && ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
					kingAttacks[s] |= SquareBB(SquareOf(ff, rr))
				}
			}
		}
		for _, df := range []int{-1, 1} {
			if ff := f + df; ff >= 0 && ff < 8 {
				if r < 7 {
					pawnAttacks[White][s] |= SquareBB(SquareOf(ff, r+1))
				}
				if r > 0 {
					pawnAttacks[Black][s] |= SquareBB(SquareOf(ff, r-1))
				}
			}
		}
		for t := Square(0); t < 64; t++ {
			squareDist[s][t] = int8(max(abs(f-t.File()), abs(r-t.Rank())))
		}
	}
	initMagics(rookTable[:], &rookMagics, rookDirs, 0x9E3779B97F4A7C15)
	initMagics(bishopTable[:], &bishopMagics, bishopDirs, 0xD1B54A32D192ED03)
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b {
				continue
			}
			if slideAttacks(a, 0, rookDirs).Has(b) {
				lineBB[a][b] = (slideAttacks(a, 0, rookDirs) & slideAttacks(b, 0, rookDirs)) | SquareBB(a) | SquareBB(b)
				betweenBB[a][b] = slideAttacks(a, SquareBB(b), rookDirs) & slideAttacks(b, SquareBB(a), rookDirs)
			} else if slideAttacks(a, 0, bishopDirs).Has(b) {
				lineBB[a][b] = (slideAttacks(a, 0, bishopDirs) & slideAttacks(b, 0, bishopDirs)) | SquareBB(a) | SquareBB(b)
				betweenBB[a][b] = slideAttacks(a, SquareBB(b), bishopDirs) & slideAttacks(b, SquareBB(a), bishopDirs)
			}
		}
	}
}
