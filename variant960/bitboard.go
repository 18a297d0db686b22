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

// initMagics finds a magic multiplier for every square: the recorded one
// when it works, else by trial with a fixed seed.
func initMagics(table []Bitboard, magics *[64]magic, dirs [4][2]int, seed uint64, known *[64]uint64) {
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
		for try := 0; ; try++ {
			mg := known[sq]
			if try > 0 || mg == 0 {
				mg = rng.sparse()
				if bits.OnesCount64((uint64(mask)*mg)>>56) < 6 {
					continue
				}
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
	initMagics(rookTable[:], &rookMagics, rookDirs, 0x9E3779B97F4A7C15, &knownRookMagics)
	initMagics(bishopTable[:], &bishopMagics, bishopDirs, 0xD1B54A32D192ED03, &knownBishopMagics)
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b {
				continue
			}
			for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
				if slideAttacks(a, 0, dirs).Has(b) {
					lineBB[a][b] = (slideAttacks(a, 0, dirs) & slideAttacks(b, 0, dirs)) | SquareBB(a) | SquareBB(b)
					betweenBB[a][b] = slideAttacks(a, SquareBB(b), dirs) & slideAttacks(b, SquareBB(a), dirs)
					break
				}
			}
		}
	}
}

// Magic multipliers found by initMagics's search with its fixed seeds,
// recorded so that start-up only checks them (the search took a quarter
// of a second of CPU, seconds on a busy machine, and a GUI gives an
// engine only so long to answer uci). initMagics still searches for any
// square whose recorded multiplier does not work.
var knownRookMagics = [64]uint64{
	0x1080004008801020, 0x0840092002c03000, 0x1900200010400900, 0x0880100008000480,
	0x4200100420080200, 0x8100020100080400, 0x0200040110886200, 0x0200008040220411,
	0x0404800084400220, 0x0000401000402000, 0x0086001081220440, 0x0408800800100280,
	0x000a001201040820, 0x8848800200840080, 0x4001000100040200, 0x0442000102105084,
	0x9080010020804100, 0x0040404000201009, 0x0000808010002009, 0x2200090021d00100,
	0x0008008008040080, 0x0004004002010040, 0x0011040008015042, 0x00000a0001768104,
	0x0000800080204009, 0x2010004140002001, 0x9800200280100080, 0x1000100080080080,
	0x0442000a00049020, 0x2100040080020080, 0x0800120400900148, 0x0010040a00128541,
	0x2800804000800030, 0x1010002000400041, 0x4000200011004100, 0x0610008410800800,
	0x0400802402800800, 0xc100020080800400, 0x0002000802000401, 0x0182085882000401,
	0x0220204000808000, 0x2860100040024022, 0x0001002004110040, 0x99101042000a0020,
	0x0004080004008080, 0x0010040002008080, 0x2012004881020004, 0x8300842444820011,
	0x0088403882010200, 0x0820400080210100, 0x0110910040a00300, 0x0801100280080480,
	0x0242009008200600, 0x1002000489500200, 0x0040800200010080, 0x0091800041000080,
	0x0000209300488001, 0x04c1002414824001, 0x020020000b001041, 0x7000100004200901,
	0x8002002004100802, 0x30010002084c0007, 0x0888221800813004, 0x4000002840840112,
}

var knownBishopMagics = [64]uint64{
	0x2048017020910100, 0x0044410424008008, 0x040828a400900000, 0x8002209200022000,
	0x0002021000540002, 0x0021018840000000, 0x00009e8420204002, 0x00a0920110084480,
	0x4003062018010110, 0x0221046812004e09, 0x01e11002958912a0, 0x0000044410804000,
	0x0000821210000080, 0x080201102210a800, 0x0080040411045004, 0x00704a1842021000,
	0x1005061070322800, 0x0018001010410444, 0x0010000800401420, 0x2204002844000800,
	0x2052020412022280, 0x000a020101008208, 0x0040400201042000, 0x03e1082040480410,
	0x1004200004208414, 0x08700400984808c8, 0x0088080004004410, 0x008c0240140100a2,
	0x0008840001822000, 0x0050088001080100, 0x98140840040a2200, 0x3002020900210110,
	0x1004040640206000, 0x1090909000840400, 0x9002444810100020, 0x4000020080080080,
	0x0028020400011010, 0x0290808300020100, 0x8010020882004410, 0x0604010040082c20,
	0x20040104c0801008, 0x6004208424001050, 0x1002840041000800, 0x0200042018000102,
	0xa8002000a0821c00, 0x0040080802201910, 0x0222620444000100, 0x0002080041020088,
	0x1500820110401050, 0x0000492090100080, 0x0900410041100000, 0x0302000420880000,
	0x0010501202020020, 0x0008200490049040, 0x0462080214a40120, 0x2421310102008100,
	0x2400420080884060, 0x0800804406184208, 0x0b0080124a084400, 0x082e082300840412,
	0x6051049040082200, 0xc610211002102101, 0x0000048808010433, 0x0010200804405440,
}
