package tablebase

// Index tables for the Syzygy position encoding. They depend only on the
// board geometry and are built once at package start.

var (
	// binomial[k][n] is the number of ways to choose k of n.
	binomial [8][65]uint64
	// mapB1H1H7 numbers the 28 squares below the a1-h8 diagonal.
	mapB1H1H7 [64]int
	// mapA1D1D4 numbers the a1-d1-d4 triangle: the six squares below the
	// diagonal first (b1=0), then the four diagonal squares.
	mapA1D1D4 [64]int
	// mapKK numbers the 462 placements of two kings, the first in the
	// a1-d1-d4 triangle.
	mapKK [10][64]int
	// mapPawns numbers the pawn squares a2..h7 so that the higher number is
	// the leading pawn (nearest the edge, then lowest rank).
	mapPawns [64]int
	// leadPawnIdx and leadPawnsSize encode the group of leading pawns
	// by file of the leading pawn.
	leadPawnIdx   [7][64]uint64
	leadPawnsSize [7][4]uint64
)

// offDiag is rank minus file: negative below the a1-h8 diagonal.
func offDiag(s int) int { return s>>3 - s&7 }

func kingNear(a, b int) bool {
	df := a&7 - b&7
	dr := a>>3 - b>>3
	return df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

func init() {
	code := 0
	for s := 0; s < 64; s++ {
		if offDiag(s) < 0 {
			mapB1H1H7[s] = code
			code++
		}
	}
	code = 0
	var diag []int
	for s := 0; s <= 27; s++ { // a1..d4
		if s&7 > 3 {
			continue
		}
		if offDiag(s) < 0 {
			mapA1D1D4[s] = code
			code++
		} else if offDiag(s) == 0 {
			diag = append(diag, s)
		}
	}
	for _, s := range diag {
		mapA1D1D4[s] = code
		code++
	}

	type pair struct{ idx, s int }
	var both []pair
	code = 0
	for idx := 0; idx < 10; idx++ {
		for s1 := 0; s1 <= 27; s1++ {
			if s1&7 > 3 || offDiag(s1) > 0 || mapA1D1D4[s1] != idx || (idx == 0 && s1 != 1) {
				continue
			}
			for s2 := 0; s2 < 64; s2++ {
				switch {
				case kingNear(s1, s2):
				case offDiag(s1) == 0 && offDiag(s2) > 0:
				case offDiag(s1) == 0 && offDiag(s2) == 0:
					both = append(both, pair{idx, s2})
				default:
					mapKK[idx][s2] = code
					code++
				}
			}
		}
	}
	for _, p := range both {
		mapKK[p.idx][p.s] = code
		code++
	}

	binomial[0][0] = 1
	for n := 1; n <= 64; n++ {
		for k := 0; k < 8 && k <= n; k++ {
			var x uint64
			if k > 0 {
				x += binomial[k-1][n-1]
			}
			if k < n {
				x += binomial[k][n-1]
			}
			binomial[k][n] = x
		}
	}

	avail := 47
	for cnt := 1; cnt <= 6; cnt++ {
		for f := 0; f < 4; f++ {
			var idx uint64
			for r := 1; r <= 6; r++ {
				s := r*8 + f
				if cnt == 1 {
					mapPawns[s] = avail
					avail--
					mapPawns[s^7] = avail
					avail--
				}
				leadPawnIdx[cnt][s] = idx
				idx += binomial[cnt-1][mapPawns[s]]
			}
			leadPawnsSize[cnt][f] = idx
		}
	}
}
