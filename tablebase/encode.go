package tablebase

import (
	"slices"

	v "github.com/rochade/rochade/variant960"
)

// probe result states.
const (
	stFail      = iota // no table, or it cannot be read
	stOK               // value found
	stChangeSTM        // DTZ table stores the other side to move
)

// positionKey is the material key of a position, white's pieces first.
func positionKey(pos *v.Position) uint64 {
	var k uint64
	for c := v.White; c <= v.Black; c++ {
		for pt := v.Pawn; pt <= v.Queen; pt++ {
			k |= uint64(pos.Pieces(c, pt).Count()&15) << (4 * (int(c)*5 + int(pt) - 1))
		}
	}
	return k
}

// probeTable encodes the position as the table's index and returns the
// stored value: a WDL score (-2..2) for WDL tables, or for DTZ tables the
// distance in plies (given the position's WDL score wdl).
func (t *table) probeTable(pos *v.Position, wdl int) (int, int) {
	if t.mm == nil || t.failed.Load() {
		return 0, stFail // closed, or found damaged
	}
	defer t.blame()
	var squares [maxTBPieces]int
	var pcs [maxTBPieces]byte
	size, leadCnt := 0, 0
	var leadPawns v.Bitboard
	tbFile := 0

	// Tables are built with the stronger side (the name's first side) as
	// white, and symmetric tables only with white to move; otherwise swap
	// the colours and mirror the ranks.
	stm := int(pos.Side())
	flip := false
	if t.key == t.key2 {
		flip = stm == 1
	} else {
		flip = positionKey(pos) != t.key
	}
	flipColor, flipSq := byte(0), 0
	if flip {
		flipColor, flipSq = 8, 56
		stm ^= 1
	}
	if t.hasPawns {
		pc := t.items[0][0].pieces[0] ^ flipColor
		leadPawns = pos.Pieces(v.Color(pc>>3), v.Pawn)
		b := leadPawns
		for b != 0 {
			if size == maxTBPieces {
				return 0, stFail
			}
			squares[size] = int(b.PopLSB()) ^ flipSq
			size++
		}
		leadCnt = size
		if leadCnt == 0 {
			return 0, stFail
		}
		best := 0
		for i := 1; i < leadCnt; i++ {
			if mapPawns[squares[i]] > mapPawns[squares[best]] {
				best = i
			}
		}
		squares[0], squares[best] = squares[best], squares[0]
		tbFile = squares[0] & 7
		if tbFile > 3 {
			tbFile = 7 - tbFile
		}
	}
	if t.dtz {
		flags := t.items[0][tbFile].flags
		if int(flags&flagSTM) != stm && !(t.key == t.key2 && !t.hasPawns) {
			return 0, stChangeSTM
		}
	}
	b := pos.Occupied() &^ leadPawns
	for b != 0 {
		if size == maxTBPieces {
			return 0, stFail
		}
		s := b.PopLSB()
		squares[size] = int(s) ^ flipSq
		pcs[size] = byte(pos.PieceOn(s)) ^ flipColor
		size++
	}
	if size != t.pieces {
		return 0, stFail
	}
	side := stm
	if t.sides == 1 {
		side = 0
	}
	d := &t.items[side][tbFile]

	// Put the pieces in the table's order.
	for i := leadCnt; i < size-1; i++ {
		for j := i + 1; j < size; j++ {
			if d.pieces[i] == pcs[j] {
				pcs[i], pcs[j] = pcs[j], pcs[i]
				squares[i], squares[j] = squares[j], squares[i]
				break
			}
		}
	}
	// Mirror so the leading piece is on files a-d.
	if squares[0]&7 > 3 {
		for i := 0; i < size; i++ {
			squares[i] ^= 7
		}
	}
	var idx uint64
	if t.hasPawns {
		idx = leadPawnIdx[leadCnt][squares[0]]
		rest := squares[1:leadCnt]
		slices.SortStableFunc(rest, func(a, b int) int { return mapPawns[a] - mapPawns[b] })
		for i := 1; i < leadCnt; i++ {
			idx += binomial[i][mapPawns[squares[i]]]
		}
	} else {
		// Without pawns: leading piece on ranks 1-4, then below the a1-h8
		// diagonal (the first piece of the leading group off it decides).
		if squares[0]>>3 > 3 {
			for i := 0; i < size; i++ {
				squares[i] ^= 56
			}
		}
		for i := 0; i < d.groupLen[0]; i++ {
			o := offDiag(squares[i])
			if o == 0 {
				continue
			}
			if o > 0 {
				for j := i; j < size; j++ {
					s := squares[j]
					squares[j] = (s>>3 | s<<3) & 63
				}
			}
			break
		}
		if t.unique {
			s0, s1, s2 := squares[0], squares[1], squares[2]
			adj1 := b2i(s1 > s0)
			adj2 := b2i(s2 > s0) + b2i(s2 > s1)
			switch {
			case offDiag(s0) != 0:
				idx = uint64((mapA1D1D4[s0]*63+(s1-adj1))*62 + s2 - adj2)
			case offDiag(s1) != 0:
				idx = uint64((6*63+(s0>>3)*28+mapB1H1H7[s1])*62 + s2 - adj2)
			case offDiag(s2) != 0:
				idx = uint64(6*63*62 + 4*28*62 + (s0>>3)*7*28 + ((s1>>3)-adj1)*28 + mapB1H1H7[s2])
			default:
				idx = uint64(6*63*62 + 4*28*62 + 4*7*28 + (s0>>3)*7*6 + ((s1>>3)-adj1)*6 + (s2 >> 3) - adj2)
			}
		} else {
			idx = uint64(mapKK[mapA1D1D4[squares[0]]][squares[1]])
		}
	}
	idx *= d.groupIdx[0]

	// The other groups: each a set of like pieces, numbered by choosing
	// its squares among those the earlier groups leave free.
	start := d.groupLen[0]
	remainingPawns := t.hasPawns && t.pawnCount[1] > 0
	for next := 1; next < len(d.groupLen) && d.groupLen[next] != 0; next++ {
		g := squares[start : start+d.groupLen[next]]
		slices.Sort(g)
		var n uint64
		for i, s := range g {
			adjust := 0
			for _, prev := range squares[:start] {
				if s > prev {
					adjust++
				}
			}
			x := s - adjust
			if remainingPawns {
				x -= 8
			}
			if x < 0 {
				return 0, stFail
			}
			n += binomial[i+1][x]
		}
		remainingPawns = false
		idx += n * d.groupIdx[next]
		start += d.groupLen[next]
	}
	val, ok := d.decompress(idx)
	if !ok || (!t.dtz && val > 4) {
		// A position of the table's material always has a value: the
		// file's data is not what its header said when it was opened.
		t.fail("inconsistent data")
		return 0, stFail
	}
	if !t.dtz {
		return val - 2, stOK
	}
	return t.mapScore(tbFile, val, wdl)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mapScore turns a stored DTZ value into plies.
func (t *table) mapScore(f, val, wdl int) (int, int) {
	d := &t.items[0][f]
	if d.flags&flagMapped != 0 {
		m := [5]int{1, 3, 0, 2, 0}[wdl+2]
		i := d.mapIdx[m] + val
		if d.flags&flagWide != 0 {
			o := t.dtzMap + 2*i
			if o+2 > t.mm.Len() {
				return 0, stFail
			}
			val = u16le(t.mm, o)
		} else {
			o := t.dtzMap + i
			if o >= t.mm.Len() {
				return 0, stFail
			}
			val = int(t.mm.At(o))
		}
	}
	if (wdl == 2 && d.flags&flagWinPlies == 0) || (wdl == -2 && d.flags&flagLossPlies == 0) || wdl == 1 || wdl == -1 {
		val *= 2
	}
	return val + 1, stOK
}
