// Package eval scores positions for the search: a tapered, hand-written
// evaluation whose weights live in one parameter structure (Params,
// Default).
package eval

import v "github.com/rochade/rochade/variant960"

// Evaluator holds per-thread state: the network's accumulator stack and
// refresh cache when a net is set, and the pawn hash table of the
// hand-written evaluation. It is not safe for concurrent use: give each
// search thread its own.
type Evaluator struct {
	pawns [pawnTableSize]pawnEntry
	net   *Net
	stack []accEntry
	accs  []int16 // the stack's accumulators: entry i, perspective c at (2i+c)*Hidden
	top   int
	// The refresh cache: entry (perspective*2*KingBuckets + state), its
	// accumulators in cacheAccs; cacheNet is the net it was filled for.
	cache     []cacheEntry
	cacheAccs []int16
	cacheNet  *Net
	// rooted is set by Reset: the stack then follows the position.
	rooted bool
}

// SetNet chooses the network; nil selects the hand-written evaluation.
// Call Reset before evaluating again.
func (e *Evaluator) SetNet(n *Net) {
	e.net = n
	e.rooted = false
}

// Net is the network in use, or nil.
func (e *Evaluator) Net() *Net { return e.net }

// New returns an Evaluator with empty caches.
func New() *Evaluator { return &Evaluator{} }

// Clear empties the caches (ucinewgame).
func (e *Evaluator) Clear() { clear(e.pawns[:]) }

// MaxEval bounds every value Evaluate returns.
const MaxEval = 19000

// Phase weights of the non-pawn pieces; the full phase is 24.
var phaseWeight = [7]int{0, 0, 1, 1, 2, 4, 0}

const fullPhase = 24

// Rough piece values used for endgame classification only.
var npmValue = [7]int{0, 0, 320, 330, 500, 1000, 0}

// evalInfo carries the attack maps between the passes of one evaluation.
type evalInfo struct {
	attBy    [2][7]v.Bitboard // by colour and attacker type (index 0 unused)
	attAll   [2]v.Bitboard
	attBy2   [2]v.Bitboard // attacked at least twice
	zone     [2]v.Bitboard // king zone of that colour
	kAtt     [2]int        // pieces of that colour attacking the enemy zone
	kUnits   [2]int        // their summed weights
	kAdj     [2]int        // attacks on squares next to the enemy king
	ksq      [2]v.Square
	npm      [2]int
	phaseSum int
}

// Evaluate returns the score in centipawns from the side to move's view.
// With a net, the exact endgame knowledge (bare-king mates, KPK) still
// takes precedence over the network.
func (e *Evaluator) Evaluate(p *v.Position) int {
	if e.net == nil {
		return e.evaluateHCE(p)
	}
	if s, ok := e.endgameOverride(p); ok {
		return s
	}
	var r int
	if e.rooted {
		r = e.evaluateNNUE(p)
	} else {
		r = EvaluateNet(e.net, p)
	}
	return clampEval(r)
}

// evaluateHCE is the hand-written evaluation.
func (e *Evaluator) evaluateHCE(p *v.Position) int {
	var ei evalInfo
	ei.material(p)
	if s, ok := specialEndgame(p, &ei); ok {
		return s
	}

	P := &Default
	ent := e.probePawns(p)
	occ := p.Occupied()

	for c := v.White; c <= v.Black; c++ {
		k := ei.ksq[c]
		z := v.KingAttacks(k) | v.SquareBB(k)
		ei.zone[c] = z | push(c, z)
		ka := v.KingAttacks(k)
		ei.attBy[c][v.Pawn] = ent.attacks[c]
		ei.attBy[c][v.King] = ka
		ei.attBy2[c] = ent.attacks2[c] | (ent.attacks[c] & ka)
		ei.attAll[c] = ent.attacks[c] | ka
	}

	score := ent.score
	score += e.pieces(p, &ei, ent, v.White, occ) - e.pieces(p, &ei, ent, v.Black, occ)

	// King shelter (cached per king square in the pawn entry), king
	// danger, threats and passed-pawn extras need both sides' attacks.
	for c := v.White; c <= v.Black; c++ {
		if !ent.kingOK[c] || ent.kingSq[c] != ei.ksq[c] {
			ent.shelter[c] = shelter(p, c, ei.ksq[c])
			ent.kingSq[c] = ei.ksq[c]
			ent.kingOK[c] = true
		}
	}
	score += S(ent.shelter[v.White]-ent.shelter[v.Black], 0)
	score += kingDanger(p, &ei, v.White, occ) - kingDanger(p, &ei, v.Black, occ)
	score += threats(p, &ei, v.White) - threats(p, &ei, v.Black)
	score += passers(p, &ei, ent, v.White, occ) - passers(p, &ei, ent, v.Black, occ)

	if p.Side() == v.White {
		score += P.Tempo
	} else {
		score -= P.Tempo
	}

	mg, eg := score.MG(), score.EG()
	sf := scaleFactor(p, &ei, eg)
	ph := min(ei.phaseSum, fullPhase)
	r := (mg*ph + eg*sf/64*(fullPhase-ph)) / fullPhase
	if p.Side() == v.Black {
		r = -r
	}
	return clampEval(r)
}

// material fills in the king squares, non-pawn material and game phase.
func (ei *evalInfo) material(p *v.Position) {
	for c := v.White; c <= v.Black; c++ {
		ei.ksq[c] = p.KingSquare(c)
		for pt := v.Knight; pt <= v.Queen; pt++ {
			n := p.Pieces(c, pt).Count()
			ei.npm[c] += n * npmValue[pt]
			ei.phaseSum += n * phaseWeight[pt]
		}
	}
}

func clampEval(r int) int {
	return min(max(r, -MaxEval), MaxEval)
}

// pieces scores c's knights, bishops, rooks, queens and king (material,
// PST, mobility and piece terms) and fills the attack maps.
func (e *Evaluator) pieces(p *v.Position, ei *evalInfo, ent *pawnEntry, c v.Color, occ v.Bitboard) Score {
	P := &Default
	them := c.Other()
	var sc Score
	ownPawns := p.Pieces(c, v.Pawn)
	theirPawns := p.Pieces(them, v.Pawn)
	mobArea := ^(ownPawns | p.Pieces(c, v.King) | ent.attacks[them])
	enemyZone := ei.zone[them]
	enemyKingAdj := v.KingAttacks(ei.ksq[them])
	outposts := ent.attacks[c] &^ ent.span[them] & relRanks456[c]
	flip := v.Square(56 * int(c))

	// King PST.
	sc += P.PST[v.King][ei.ksq[c]^flip]

	for pt := v.Knight; pt <= v.Queen; pt++ {
		for b := p.Pieces(c, pt); b != 0; {
			s := b.PopLSB()
			rs := s ^ flip
			sc += P.PieceValue[pt] + P.PST[pt][rs]
			var a v.Bitboard
			switch pt {
			case v.Knight:
				a = v.KnightAttacks(s)
				sc += P.KnightMob[(a & mobArea).Count()]
				if outposts.Has(s) {
					sc += P.KnightOutpost
				}
				if rs < 8 {
					sc += P.Undeveloped
				}
			case v.Bishop:
				a = v.BishopAttacks(s, occ)
				sc += P.BishopMob[(a & mobArea).Count()]
				if outposts.Has(s) {
					sc += P.BishopOutpost
				}
				if rs < 8 {
					sc += P.Undeveloped
					// Chess960 cornered bishop: a1/h1 behind its own b2/g2 pawn.
					if rs == 0 || rs == 7 {
						relPawn := v.Square(9) // b2
						if rs == 7 {
							relPawn = 14 // g2
						}
						if ownPawns.Has(relPawn ^ flip) {
							sc += P.CorneredBishop
							if occ.Has((relPawn + 8) ^ flip) {
								sc += P.CorneredBlock
							}
						}
					}
				}
			case v.Rook:
				a = v.RookAttacks(s, occ)
				sc += P.RookMob[(a & mobArea).Count()]
				fb := v.FileBB(s.File())
				if ownPawns&fb == 0 {
					if theirPawns&fb == 0 {
						sc += P.RookOpenFile
					} else {
						sc += P.RookSemiOpen
					}
				}
				if rs.Rank() == 6 && (relRank(c, ei.ksq[them]) == 7 || theirPawns&v.RankBB(s.Rank()) != 0) {
					sc += P.RookOn7th
				}
			case v.Queen:
				a = v.QueenAttacks(s, occ)
				sc += P.QueenMob[(a & mobArea).Count()]
				fb := v.FileBB(s.File())
				if ownPawns&fb == 0 {
					if theirPawns&fb == 0 {
						sc += P.QueenOpenFile
					} else {
						sc += P.QueenSemiOpen
					}
				}
			}
			ei.attBy2[c] |= ei.attAll[c] & a
			ei.attAll[c] |= a
			ei.attBy[c][pt] |= a
			if a&enemyZone != 0 {
				ei.kAtt[c]++
				ei.kUnits[c] += P.KingAttackWeight[pt]
				ei.kAdj[c] += (a & enemyKingAdj).Count()
			}
		}
	}

	if p.Pieces(c, v.Bishop)&v.LightSquares != 0 && p.Pieces(c, v.Bishop)&v.DarkSquares != 0 {
		sc += P.BishopPair
	}
	rights := p.CastlingRights() >> (2 * uint(c)) & 3
	sc += P.CastlingRight * Score(rights&1+rights>>1)
	return sc
}

// relRanks456 holds each colour's 4th, 5th and 6th ranks (outpost ranks).
var relRanks456 = [2]v.Bitboard{v.Rank4 | v.Rank5 | v.Rank6, v.Rank3 | v.Rank4 | v.Rank5}

// kingDanger returns the penalty (as a negative Score) for attacks on c's
// king.
func kingDanger(p *v.Position, ei *evalInfo, c v.Color, occ v.Bitboard) Score {
	P := &Default
	them := c.Other()
	if ei.kAtt[them] == 0 {
		return 0
	}
	k := ei.ksq[c]
	units := ei.kUnits[them] + P.KingAdjacentUnit*ei.kAdj[them] + P.KingAttackerUnit*(ei.kAtt[them]-1)
	weak := ei.zone[c] & ei.attAll[them] &^ ei.attBy2[c] &
		(ei.attBy[c][v.King] | ei.attBy[c][v.Queen] | ^ei.attAll[c])
	units += P.KingWeakSquare * weak.Count()
	safe := ^p.ByColor(them) &^ ei.attAll[c]
	bAtt := v.BishopAttacks(k, occ)
	rAtt := v.RookAttacks(k, occ)
	if v.KnightAttacks(k)&ei.attBy[them][v.Knight]&safe != 0 {
		units += P.KingSafeCheck[v.Knight]
	}
	if bAtt&ei.attBy[them][v.Bishop]&safe != 0 {
		units += P.KingSafeCheck[v.Bishop]
	}
	if rAtt&ei.attBy[them][v.Rook]&safe != 0 {
		units += P.KingSafeCheck[v.Rook]
	}
	if (bAtt|rAtt)&ei.attBy[them][v.Queen]&safe != 0 {
		units += P.KingSafeCheck[v.Queen]
	}
	if p.Pieces(them, v.Queen) == 0 {
		units -= P.KingNoQueen
	}
	if units <= 0 {
		return 0
	}
	units = min(units, P.KingDangerMax)
	return -S(units*units/P.KingDangerDiv, units/P.KingDangerEGDiv)
}

// threats returns c's bonus for attacking enemy pieces.
func threats(p *v.Position, ei *evalInfo, c v.Color) Score {
	P := &Default
	them := c.Other()
	var sc Score
	theirs := p.ByColor(them) &^ p.Pieces(them, v.King)
	nonPawn := theirs &^ p.Pieces(them, v.Pawn)
	undefended := theirs &^ ei.attAll[them]
	heavy := p.Pieces(them, v.Rook) | p.Pieces(them, v.Queen)

	byPawn := ei.attBy[c][v.Pawn] & nonPawn
	byMinor := (ei.attBy[c][v.Knight] | ei.attBy[c][v.Bishop]) & (heavy | undefended)
	byRook := ei.attBy[c][v.Rook] & (p.Pieces(them, v.Queen) | undefended)
	if byPawn|byMinor|byRook != 0 {
		for pt := v.Pawn; pt <= v.Queen; pt++ {
			b := p.Pieces(them, pt)
			sc += P.ThreatByPawn[pt] * Score((byPawn & b).Count())
			sc += P.ThreatByMinor[pt] * Score((byMinor & b).Count())
			sc += P.ThreatByRook[pt] * Score((byRook & b).Count())
		}
	}
	sc += P.Hanging * Score((nonPawn & undefended & ei.attAll[c]).Count())
	return sc
}

// passers returns the dynamic passed-pawn terms for c.
func passers(p *v.Position, ei *evalInfo, ent *pawnEntry, c v.Color, occ v.Bitboard) Score {
	P := &Default
	them := c.Other()
	var sc Score
	for b := ent.passed[c]; b != 0; {
		s := b.PopLSB()
		rr := relRank(c, s)
		w := rr - 2
		path := forwardFile[c][s]
		if w > 0 {
			stop := s + 8
			if c == v.Black {
				stop = s - 8
			}
			sc += P.PassedEnemyKingDist * Score(w*min(v.Distance(ei.ksq[them], stop), 5))
			sc += P.PassedOwnKingDist * Score(w*min(v.Distance(ei.ksq[c], stop), 5))
			if path&occ == 0 {
				sc += P.PassedFreePath * Score(w)
				if path&ei.attAll[them] == 0 {
					sc += P.PassedSafePath * Score(w)
				}
			}
		}
		if ei.npm[them] == 0 && path&occ == 0 {
			// Rule of the square.
			promo := v.SquareOf(s.File(), 7*(1-int(c)))
			pawnDist := 7 - rr
			if rr == 1 {
				pawnDist--
			}
			kd := v.Distance(ei.ksq[them], promo)
			if p.Side() == them {
				kd--
			}
			if kd > pawnDist {
				sc += P.UnstoppablePawn + S(0, 20*rr)
			}
		}
	}
	return sc
}
