package tablebase

import (
	"runtime/debug"

	v "github.com/rochade/rochade/variant960"
)

// MaxDTZ is the rank of a sure win in RankRoot (and -MaxDTZ a sure loss).
const MaxDTZ = 1 << 18

// RankRoot ranks the root moves of pos, higher is better. With DTZ tables
// (dtz true) a win that the 50-move rule cannot spoil ranks MaxDTZ, a win
// that it may spoil ranks lower the longer it takes, a draw 0, and losses
// mirror wins. Without DTZ tables the WDL tables rank the moves by their
// result alone (MaxDTZ, MaxDTZ-101, 0, -MaxDTZ+101, -MaxDTZ). ok is false
// when the tables cannot rank pos (too many pieces, castling rights, a
// table missing or unreadable). rule50 is the Syzygy50MoveRule option:
// without it, cursed wins count as wins. A table that fails midway (a
// damaged file, see guard.go) fails the whole ranking: ok is false, and
// the caller searches as without tables.
func (tb *Tablebases) RankRoot(pos *v.Position, moves []v.Move, rule50 bool) (ranks []int, dtz bool, ok bool) {
	if !tb.probeable(pos) || len(moves) == 0 {
		return nil, false, false
	}
	defer tb.endProbe(pos, pos.GamePly(), debug.SetPanicOnFault(true), &ok)
	ranks, dtz, ok = tb.rankRoot(pos, moves, rule50)
	if !ok {
		ranks, dtz = nil, false
	}
	return ranks, dtz, ok
}

func (tb *Tablebases) rankRoot(pos *v.Position, moves []v.Move, rule50 bool) (ranks []int, dtz bool, ok bool) {
	if ranks, ok := tb.rankDTZ(pos, moves); ok {
		tb.hits.Add(uint64(len(moves)))
		return ranks, true, true
	}
	if ranks, ok := tb.rankWDL(pos, moves, rule50); ok {
		tb.hits.Add(uint64(len(moves)))
		return ranks, false, true
	}
	return nil, false, false
}

func (tb *Tablebases) rankDTZ(pos *v.Position, moves []v.Move) ([]int, bool) {
	cnt50 := pos.Rule50()
	rep := pos.IsRepetition()
	ranks := make([]int, len(moves))
	for i, m := range moves {
		pos.Make(m)
		var dtz int
		ok := true
		switch {
		case pos.Rule50() == 0:
			var w, r int
			w, r = tb.search(pos, false)
			ok = r != resFail
			dtz = dtzBeforeZeroing(-w)
		case (pos.Rule50() >= 100 && !(pos.InCheck() && !pos.HasLegalMove())) || pos.RepetitionCount() >= 2:
			dtz = 0 // a draw by the 50-move rule (unless mated) or threefold repetition
		default:
			var d int
			d, ok = tb.probeDTZ(pos)
			dtz = -d
			dtz += sign(dtz)
		}
		// A mate is one ply to zeroing.
		if ok && dtz == 2 && pos.InCheck() && !pos.HasLegalMove() {
			dtz = 1
		}
		pos.Unmake()
		if !ok {
			return nil, false
		}
		var r int
		switch {
		case dtz > 0:
			if dtz+cnt50 <= 99 && !rep {
				r = MaxDTZ
			} else {
				r = MaxDTZ - (dtz + cnt50)
			}
		case dtz < 0:
			if -dtz*2+cnt50 < 100 {
				r = -MaxDTZ
			} else {
				r = -MaxDTZ + (-dtz + cnt50)
			}
		}
		ranks[i] = r
	}
	return ranks, true
}

func (tb *Tablebases) rankWDL(pos *v.Position, moves []v.Move, rule50 bool) ([]int, bool) {
	ranks := make([]int, len(moves))
	toRank := [5]int{-MaxDTZ, -MaxDTZ + 101, 0, MaxDTZ - 101, MaxDTZ}
	for i, m := range moves {
		pos.Make(m)
		w, r := tb.search(pos, false)
		pos.Unmake()
		if r == resFail {
			return nil, false
		}
		w = -w
		if !rule50 {
			w = 2 * sign(w)
		}
		ranks[i] = toRank[w+2]
	}
	return ranks, true
}

// RankWDL says what a rank from RankRoot means: Win, CursedWin, Draw,
// BlessedLoss or Loss, given the same rule50 setting.
func RankWDL(rank int, rule50 bool) int {
	bound := 1
	if rule50 {
		bound = MaxDTZ - 100
	}
	switch {
	case rank >= bound:
		return Win
	case rank > 0:
		return CursedWin
	case rank == 0:
		return Draw
	case rank > -bound:
		return BlessedLoss
	}
	return Loss
}
