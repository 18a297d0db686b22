package eval

import v "github.com/rochade/rochade/variant960"

const pawnTableSize = 1 << 14 // entries per Evaluator

// pawnEntry caches what depends on the pawns alone, plus the king shelter
// for the king squares it was last computed for.
type pawnEntry struct {
	key      uint64
	used     bool
	score    Score         // pawn material, PST and structure, White minus Black
	passed   [2]v.Bitboard // passed pawns
	attacks  [2]v.Bitboard // squares attacked by pawns
	attacks2 [2]v.Bitboard // squares attacked by two pawns
	span     [2]v.Bitboard // squares the pawns may attack now or later
	kingSq   [2]v.Square   // king square the shelter was computed for
	shelter  [2]int        // mg shelter/storm for that king square
	kingOK   [2]bool       // shelter valid
	filesOwn [2]uint8      // files holding a pawn of the side
}

// Precomputed masks, by colour and square.
var (
	forwardRanks [2][64]v.Bitboard // ranks strictly in front of the square
	forwardFile  [2][64]v.Bitboard // the file strictly in front of the square
	passedMask   [2][64]v.Bitboard // squares enemy pawns must avoid for a passer
	attackSpan   [2][64]v.Bitboard // squares this pawn may attack as it advances
	adjFiles     [8]v.Bitboard
)

func init() {
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjFiles[f] |= v.FileBB(f - 1)
		}
		if f < 7 {
			adjFiles[f] |= v.FileBB(f + 1)
		}
	}
	for s := v.Square(0); s < 64; s++ {
		r := s.Rank()
		for rr := r + 1; rr < 8; rr++ {
			forwardRanks[v.White][s] |= v.RankBB(rr)
		}
		for rr := r - 1; rr >= 0; rr-- {
			forwardRanks[v.Black][s] |= v.RankBB(rr)
		}
		for c := 0; c < 2; c++ {
			forwardFile[c][s] = forwardRanks[c][s] & v.FileBB(s.File())
			attackSpan[c][s] = forwardRanks[c][s] & adjFiles[s.File()]
			passedMask[c][s] = forwardFile[c][s] | attackSpan[c][s]
		}
	}
}

// push shifts a set one rank forward for colour c.
func push(c v.Color, b v.Bitboard) v.Bitboard {
	if c == v.White {
		return b << 8
	}
	return b >> 8
}

// pawnAttackSets returns the squares attacked by pawns of colour c
// towards the left and right.
func pawnAttackSets(c v.Color, b v.Bitboard) (v.Bitboard, v.Bitboard) {
	if c == v.White {
		return (b &^ v.FileA) << 7, (b &^ v.FileH) << 9
	}
	return (b &^ v.FileA) >> 9, (b &^ v.FileH) >> 7
}

func relSq(c v.Color, s v.Square) v.Square { return s ^ v.Square(56*int(c)) }

func relRank(c v.Color, s v.Square) int { return s.Rank() ^ (7 * int(c)) }

// probePawns returns the pawn entry for p, computing it if needed.
func (e *Evaluator) probePawns(p *v.Position) *pawnEntry {
	key := p.PawnKey()
	ent := &e.pawns[key&(pawnTableSize-1)]
	if ent.used && ent.key == key {
		return ent
	}
	*ent = pawnEntry{key: key, used: true}
	for c := v.White; c <= v.Black; c++ {
		l, r := pawnAttackSets(c, p.Pieces(c, v.Pawn))
		ent.attacks[c] = l | r
		ent.attacks2[c] = l & r
	}
	ent.score = evalPawnsSide(p, v.White, ent) - evalPawnsSide(p, v.Black, ent)
	return ent
}

func evalPawnsSide(p *v.Position, c v.Color, ent *pawnEntry) Score {
	P := &Default
	them := c.Other()
	us := p.Pieces(c, v.Pawn)
	theirs := p.Pieces(them, v.Pawn)
	var sc Score
	for b := us; b != 0; {
		s := b.PopLSB()
		f := s.File()
		rr := relRank(c, s)
		ent.filesOwn[c] |= 1 << uint(f)
		ent.span[c] |= attackSpan[c][s]
		sc += P.PieceValue[v.Pawn] + P.PST[v.Pawn][relSq(c, s)]

		adj := adjFiles[f]
		stop := push(c, v.SquareBB(s))
		supported := v.PawnAttacks(them, s) & us
		phalanx := us & adj & v.RankBB(s.Rank())
		doubled := forwardFile[c][s]&us != 0
		isolated := us&adj == 0

		if isolated {
			sc += P.Isolated
		} else if us&adj&^forwardRanks[c][s] == 0 &&
			(ent.attacks[them]&stop != 0 || theirs&stop != 0) {
			sc += P.Backward
		}
		if doubled {
			sc += P.Doubled
		}
		if supported != 0 || phalanx != 0 {
			sc += P.Connected[rr]
			if phalanx != 0 {
				sc += P.PhalanxExtra[rr]
			}
		}
		if !doubled && passedMask[c][s]&theirs == 0 {
			ent.passed[c] |= v.SquareBB(s)
			sc += P.Passed[rr]
		}
	}
	return sc
}

// shelter returns the middlegame pawn shelter and storm score for c's king
// on k, looking at the king's own file and its neighbours wherever it is.
func shelter(p *v.Position, c v.Color, k v.Square) int {
	P := &Default
	them := c.Other()
	ours := p.Pieces(c, v.Pawn) & forwardRanks[c][k]
	theirs := p.Pieces(them, v.Pawn) & forwardRanks[c][k]
	kf := min(max(k.File(), 1), 6)
	kr := k.Rank()
	total := 0
	for f := kf - 1; f <= kf+1; f++ {
		fb := v.FileBB(f)
		d := 0
		var front v.Square = v.NoSquare
		if o := ours & fb; o != 0 {
			if c == v.White {
				front = o.LSB()
			} else {
				front = o.MSB()
			}
			d = min(abs(front.Rank()-kr), 7)
		}
		w := P.Shelter[d]
		if f == k.File() {
			w += w * P.ShelterKingFile
		}
		total += w
		if t := theirs & fb; t != 0 {
			var n v.Square
			if c == v.White {
				n = t.LSB()
			} else {
				n = t.MSB()
			}
			dd := min(abs(n.Rank()-kr), 7)
			// The storming pawn is blocked when our pawn stands right in
			// front of it.
			if front != v.NoSquare && push(them, v.SquareBB(n))&v.SquareBB(front) != 0 {
				total += P.StormBlocked
			} else {
				total += P.Storm[dd]
			}
		}
	}
	return total
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
