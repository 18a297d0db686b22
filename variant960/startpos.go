package variant960

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// StandardSP is the Scharnagl number of the standard array.
const StandardSP = 518

var knightPairs = [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}

// BackRank returns the white back rank of Chess960 position n (0..959)
// in Scharnagl numbering, as eight letters from a to h, e.g. "RNBQKBNR".
func BackRank(n int) (string, error) {
	if n < 0 || n > 959 {
		return "", fmt.Errorf("start position %d out of range 0..959", n)
	}
	var r [8]byte
	r[1+2*(n%4)] = 'B' // light-squared bishop: b, d, f or h
	n /= 4
	r[2*(n%4)] = 'B' // dark-squared bishop: a, c, e or g
	n /= 4
	place := func(k int, piece byte) { // put piece on the k-th empty square
		for i := range r {
			if r[i] == 0 {
				if k == 0 {
					r[i] = piece
					return
				}
				k--
			}
		}
	}
	place(n%6, 'Q')
	n /= 6
	pair := knightPairs[n]
	place(pair[1], 'N') // the later one first, so the first index is unchanged
	place(pair[0], 'N')
	place(0, 'R')
	place(0, 'K')
	place(0, 'R')
	return string(r[:]), nil
}

// SPNumber returns the Scharnagl number of a Chess960 back rank such as
// "RNBQKBNR" (either case).
func SPNumber(rank string) (int, error) {
	rank = strings.ToUpper(rank)
	if len(rank) != 8 {
		return 0, fmt.Errorf("back rank %q: need 8 pieces", rank)
	}
	count := map[byte]int{}
	for i := 0; i < 8; i++ {
		count[rank[i]]++
	}
	if count['R'] != 2 || count['N'] != 2 || count['B'] != 2 || count['Q'] != 1 || count['K'] != 1 {
		return 0, fmt.Errorf("back rank %q: need R, N, B twice and Q, K once", rank)
	}
	k := strings.IndexByte(rank, 'K')
	if strings.IndexByte(rank, 'R') > k || strings.LastIndexByte(rank, 'R') < k {
		return 0, fmt.Errorf("back rank %q: the king must stand between the rooks", rank)
	}
	light, dark := -1, -1
	for i := 0; i < 8; i++ {
		if rank[i] == 'B' {
			if i%2 == 1 {
				light = i
			} else {
				dark = i
			}
		}
	}
	if light < 0 || dark < 0 {
		return 0, fmt.Errorf("back rank %q: the bishops must stand on squares of opposite colours", rank)
	}
	// Index of the queen among the squares the bishops leave, then the
	// knights among the squares bishops and queen leave.
	q, free := 0, []int{}
	for i := 0; i < 8; i++ {
		switch {
		case rank[i] == 'B':
		case rank[i] == 'Q':
			q = len(free)
		default:
			free = append(free, i)
		}
	}
	var kn []int
	for j, i := range free {
		if rank[i] == 'N' {
			kn = append(kn, j)
		}
	}
	pair := -1
	for i, pr := range knightPairs {
		if pr[0] == kn[0] && pr[1] == kn[1] {
			pair = i
		}
	}
	return (light-1)/2 + 4*(dark/2) + 16*q + 96*pair, nil
}

// fenFromRanks builds the start FEN with the given white and black back
// ranks (uppercase), with every castling right.
func fenFromRanks(white, black string) string {
	f := strings.ToLower(black) + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w "
	var rights []byte
	for _, pair := range []struct {
		rank  string
		lower bool
	}{{white, false}, {black, true}} {
		for _, r := range []int{strings.LastIndexByte(pair.rank, 'R'), strings.IndexByte(pair.rank, 'R')} {
			ch := byte('A' + r)
			if pair.lower {
				ch += 'a' - 'A'
			}
			rights = append(rights, ch)
		}
	}
	return f + string(rights) + " - 0 1"
}

// Chess960Position returns start position n (0..959). Its FEN is
// standard for 518 and Shredder-FEN otherwise.
func Chess960Position(n int) (*Position, error) {
	r, err := BackRank(n)
	if err != nil {
		return nil, err
	}
	return ParseFEN(fenFromRanks(r, r))
}

// DFRCPosition returns the Double Fischer Random position with White's
// back rank from SP white and Black's from SP black.
func DFRCPosition(white, black int) (*Position, error) {
	w, err := BackRank(white)
	if err != nil {
		return nil, err
	}
	b, err := BackRank(black)
	if err != nil {
		return nil, err
	}
	return ParseFEN(fenFromRanks(w, b))
}

var fischer168 []int // SP numbers, rising

func init() {
	for n := 0; n < 960; n++ {
		if isFischer168(n) {
			fischer168 = append(fischer168, n)
		}
	}
}

// isFischer168 reports whether every piece of SP n stands on a square of
// the same colour as in the standard array.
func isFischer168(n int) bool {
	r, _ := BackRank(n)
	// On the first rank, even files (a, c, e, g) are dark.
	var rookDark, rookLight, kDark, kLight int
	for i := 0; i < 8; i++ {
		dark := i%2 == 0
		switch r[i] {
		case 'R':
			if dark {
				rookDark++
			} else {
				rookLight++
			}
		case 'N':
			if dark {
				kDark++
			} else {
				kLight++
			}
		case 'Q':
			if dark {
				return false
			}
		case 'K':
			if !dark {
				return false
			}
		}
	}
	return rookDark == 1 && rookLight == 1 && kDark == 1 && kLight == 1
}

// Fischer168Count is the number of Fischer168 positions.
const Fischer168Count = 168

// Fischer168SP returns the SP number of Fischer168 position index (1..168).
func Fischer168SP(index int) (int, error) {
	if index < 1 || index > len(fischer168) {
		return 0, fmt.Errorf("Fischer168 index %d out of range 1..%d", index, len(fischer168))
	}
	return fischer168[index-1], nil
}

// Fischer168Index returns the Fischer168 index (1..168) of SP n, if it has one.
func Fischer168Index(n int) (int, bool) {
	for i, sp := range fischer168 {
		if sp == n {
			return i + 1, true
		}
	}
	return 0, false
}

// RandomSP draws a Chess960 start position number uniformly.
func RandomSP(r *rand.Rand) int { return r.IntN(960) }

// RandomFischer168 draws a Fischer168 index uniformly.
func RandomFischer168(r *rand.Rand) int { return 1 + r.IntN(len(fischer168)) }

// StartPositionNumbers identifies a start position from a FEN or a back
// rank (eight letters). It returns the SP numbers of White's and Black's
// back ranks (equal unless the position is Double Fischer Random).
func StartPositionNumbers(s string) (white, black int, err error) {
	s = strings.TrimSpace(s)
	if len(s) == 8 && !strings.ContainsAny(s, "/ ") {
		n, err := SPNumber(s)
		return n, n, err
	}
	p, err := ParseFEN(s)
	if err != nil {
		return 0, 0, err
	}
	ranks := strings.Split(p.Placement(), "/")
	if ranks[1] != "pppppppp" || ranks[6] != "PPPPPPPP" || ranks[2] != "8" || ranks[3] != "8" || ranks[4] != "8" || ranks[5] != "8" {
		return 0, 0, fmt.Errorf("not a start position: pawns and empty middle ranks expected")
	}
	if strings.ToUpper(ranks[7]) != ranks[7] || strings.ToLower(ranks[0]) != ranks[0] {
		return 0, 0, fmt.Errorf("not a start position: white pieces on rank 1 and black on rank 8 expected")
	}
	if white, err = SPNumber(ranks[7]); err != nil {
		return 0, 0, err
	}
	if black, err = SPNumber(strings.ToUpper(ranks[0])); err != nil {
		return 0, 0, err
	}
	return white, black, nil
}
