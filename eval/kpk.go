package eval

import (
	"sync"

	v "github.com/rochade/rochade/variant960"
)

// KPK bitbase: for White king, Black king, White pawn on files a-d and
// ranks 2-7, and the side to move, whether White wins. It is built by
// retrograde iteration (about 0.1 s) behind a sync.Once: by Prepare (the
// search engine calls it when it is made) or else by the first probe.

const kpkSize = 24 * 64 * 64 * 2

var (
	kpkOnce sync.Once
	kpkWins [kpkSize / 64]uint64
)

const (
	kpkUnknown uint8 = iota
	kpkInvalid
	kpkDraw
	kpkWinRes
)

// Prepare builds the endgame tables now rather than at the first probe,
// so that no search pays for them. It is safe to call more than once and
// from several goroutines.
func Prepare() { kpkOnce.Do(kpkInit) }

// kpkIndex: stm 0 = White (the pawn's side) to move.
func kpkIndex(stm int, wk, bk, ps v.Square) int {
	pi := (ps.Rank()-1)*4 + ps.File()
	return ((pi*64+int(wk))*64+int(bk))*2 + stm
}

func kpkDecode(idx int) (stm int, wk, bk, ps v.Square) {
	stm = idx & 1
	bk = v.Square(idx >> 1 & 63)
	wk = v.Square(idx >> 7 & 63)
	pi := idx >> 13
	ps = v.SquareOf(pi&3, pi>>2+1)
	return
}

func kpkInitial(stm int, wk, bk, ps v.Square) uint8 {
	if wk == bk || wk == ps || bk == ps || v.Distance(wk, bk) <= 1 {
		return kpkInvalid
	}
	pawnAtt := v.PawnAttacks(v.White, ps)
	if stm == 0 {
		if pawnAtt.Has(bk) {
			return kpkInvalid
		}
		if ps.Rank() == 6 {
			q := ps + 8
			if q != wk && q != bk && (v.Distance(bk, q) > 1 || v.Distance(wk, q) == 1) {
				return kpkWinRes
			}
		}
		return kpkUnknown
	}
	moves := v.KingAttacks(bk) &^ v.KingAttacks(wk) &^ pawnAtt
	if moves == 0 {
		if pawnAtt.Has(bk) {
			return kpkWinRes // mate
		}
		return kpkDraw // stalemate
	}
	if moves.Has(ps) {
		return kpkDraw // the pawn falls
	}
	return kpkUnknown
}

func kpkStep(res []uint8, idx int) uint8 {
	stm, wk, bk, ps := kpkDecode(idx)
	if stm == 0 {
		unknown := false
		see := func(r uint8) bool {
			if r == kpkWinRes {
				return true
			}
			if r == kpkUnknown {
				unknown = true
			}
			return false
		}
		for b := v.KingAttacks(wk) &^ v.KingAttacks(bk) &^ v.SquareBB(ps); b != 0; {
			t := b.PopLSB()
			if see(res[kpkIndex(1, t, bk, ps)]) {
				return kpkWinRes
			}
		}
		if ps.Rank() < 6 {
			n := ps + 8
			if n != wk && n != bk {
				if see(res[kpkIndex(1, wk, bk, n)]) {
					return kpkWinRes
				}
				if ps.Rank() == 1 && n+8 != wk && n+8 != bk {
					if see(res[kpkIndex(1, wk, bk, n+8)]) {
						return kpkWinRes
					}
				}
			}
		}
		if unknown {
			return kpkUnknown
		}
		return kpkDraw
	}
	unknown := false
	for b := v.KingAttacks(bk) &^ v.KingAttacks(wk) &^ v.PawnAttacks(v.White, ps); b != 0; {
		t := b.PopLSB()
		switch res[kpkIndex(0, wk, t, ps)] {
		case kpkDraw, kpkInvalid:
			return kpkDraw
		case kpkUnknown:
			unknown = true
		}
	}
	if unknown {
		return kpkUnknown
	}
	return kpkWinRes
}

func kpkInit() {
	res := make([]uint8, kpkSize)
	for idx := range res {
		stm, wk, bk, ps := kpkDecode(idx)
		res[idx] = kpkInitial(stm, wk, bk, ps)
	}
	for changed := true; changed; {
		changed = false
		for idx := range res {
			if res[idx] != kpkUnknown {
				continue
			}
			if r := kpkStep(res, idx); r != kpkUnknown {
				res[idx] = r
				changed = true
			}
		}
	}
	for idx, r := range res {
		if r == kpkWinRes {
			kpkWins[idx>>6] |= 1 << uint(idx&63)
		}
	}
}

// kpkProbe reports whether the side strong, with king sk and pawn ps,
// wins against the lone king wk; strongToMove tells who moves.
func kpkProbe(strong v.Color, strongToMove bool, sk, wk, ps v.Square) bool {
	kpkOnce.Do(kpkInit)
	if strong == v.Black {
		sk, wk, ps = sk^56, wk^56, ps^56
	}
	if ps.File() > 3 {
		sk, wk, ps = sk^7, wk^7, ps^7
	}
	stm := 1
	if strongToMove {
		stm = 0
	}
	idx := kpkIndex(stm, sk, wk, ps)
	return kpkWins[idx>>6]>>uint(idx&63)&1 != 0
}
