package eval

import "math"

// Score packs a middlegame and an endgame value into one integer so that
// both are summed with a single addition: eg in the low 16 bits, mg above.
type Score int32

// S builds a Score from its middlegame and endgame parts.
func S(mg, eg int) Score { return Score(int32(uint32(mg)<<16) + int32(eg)) }

// MG returns the middlegame part.
func (s Score) MG() int { return int(int16(uint32(s+0x8000) >> 16)) }

// EG returns the endgame part.
func (s Score) EG() int { return int(int16(uint32(s))) }

// Params holds every evaluation weight. Tables indexed by square are from
// White's point of view (a1 = 0); Black uses the rank-mirrored square.
// Tables indexed by rank use the relative rank (0 = own back rank).
type Params struct {
	PieceValue [7]Score     // by piece type; the king's entry is unused
	PST        [7][64]Score // piece-square tables by piece type

	// Mobility by number of safe squares (not attacked by enemy pawns,
	// not occupied by own pawns or king).
	KnightMob [9]Score
	BishopMob [14]Score
	RookMob   [15]Score
	QueenMob  [28]Score

	// Pawn structure.
	Isolated     Score
	Doubled      Score
	Backward     Score
	Connected    [8]Score // supported or phalanx pawn, by relative rank
	PhalanxExtra [8]Score // extra for side-by-side pawns, by relative rank
	Passed       [8]Score // passed pawn by relative rank

	// Passed-pawn extras, multiplied by a rank weight (rank-2, >= 0).
	PassedOwnKingDist   Score // per square of own king distance to the stop square (penalty)
	PassedEnemyKingDist Score // per square of enemy king distance to the stop square
	PassedFreePath      Score // every square to promotion is empty
	PassedSafePath      Score // ... and none is attacked by the enemy
	UnstoppablePawn     Score // the pawn outruns the king and the enemy has no pieces

	// King safety: attack units, summed and squared.
	KingAttackWeight [7]int // per attacking piece, by its type
	KingAdjacentUnit int    // per attack on a square next to the king
	KingAttackerUnit int    // per attacking piece beyond the first
	KingWeakSquare   int    // per zone square attacked and defended only by king/queen
	KingSafeCheck    [7]int // a safe check is available to a piece of this type
	KingNoQueen      int    // units removed when the attacker has no queen
	KingDangerDiv    int    // mg penalty = units^2 / KingDangerDiv
	KingDangerEGDiv  int    // eg penalty = units / KingDangerEGDiv
	KingDangerMax    int    // cap on units
	Shelter          [8]int // own pawn d ranks in front of the king on a file near it (0 = none)
	Storm            [8]int // enemy pawn d ranks in front of the king (0 = none)
	StormBlocked     int    // enemy storm pawn blocked by one of our pawns
	ShelterKingFile  int    // weight (out of 2) for the king's own file: added on top

	// Threats.
	ThreatByPawn  [7]Score // our piece of this type attacked by an enemy pawn
	ThreatByMinor [7]Score // attacked by an enemy minor (rooks/queens, or undefended)
	ThreatByRook  [7]Score // attacked by an enemy rook (queen, or undefended)
	Hanging       Score    // attacked and undefended piece

	// Pieces.
	BishopPair     Score
	RookOpenFile   Score
	RookSemiOpen   Score
	QueenOpenFile  Score
	QueenSemiOpen  Score
	RookOn7th      Score
	KnightOutpost  Score
	BishopOutpost  Score
	Tempo          Score
	CorneredBishop Score // bishop on a1/h1 with its own pawn on b2/g2
	CorneredBlock  Score // ... and that pawn cannot advance (b3/g3 occupied)
	Undeveloped    Score // minor piece still on the back rank (mg only)
	CastlingRight  Score // per castling right still held (mg only)

	// Endgames.
	KnownWin    int // bonus for a won basic ending (mop-up, KPK win)
	MopEdge     int // per step of the lone king towards the edge/corner
	MopKings    int // per step the kings come closer
	ScaleOCB    int // pure opposite-coloured bishops (out of 64), <= 1 extra pawn
	ScaleOCBPer int // ... per extra pawn beyond the first
	ScaleOCBPcs int // opposite-coloured bishops with other pieces
	ScaleEqual  int // one equal piece each, pawn difference <= 1
	ScaleNoPawn int // stronger side has no pawns and at most a minor more, but a rook or more
}

// mobTable fills a mobility table with a concave curve a*(sqrt(n)-sqrt(n0)).
func mobTable(t []Score, mgA, egA, n0 float64) {
	for n := range t {
		d := math.Sqrt(float64(n)) - math.Sqrt(n0)
		t[n] = S(int(math.Round(mgA*d)), int(math.Round(egA*d)))
	}
}

func defaultParams() Params {
	var p Params
	p.PieceValue = [7]Score{0, S(85, 110), S(330, 310), S(345, 330), S(470, 560), S(1000, 1020), 0}

	// Piece-square tables from simple geometric ideas: centralisation for
	// the minor pieces and queen, central pawns in the middlegame and
	// advanced pawns in the endgame, a king that stays home in the
	// middlegame (on any file, Chess960) and centralises in the endgame.
	fileCentre := [8]int{-6, -2, 3, 8, 8, 3, -2, -6}
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		cf, cr := min(f, 7-f), min(r, 7-r) // 0..3 each
		c := cf + cr                       // 0..6
		if r >= 1 && r <= 6 {
			p.PST[1][s] = S(fileCentre[f]*min(r, 4)/2, 5*(r-1)-5)
		}
		fwd := 0
		if r >= 3 && r <= 5 {
			fwd = 6
		}
		p.PST[2][s] = S(8*c-24+fwd, 6*c-18)
		p.PST[3][s] = S(4*c-12, 3*c-9)
		rk := 0
		if r == 6 {
			rk = 6
		}
		p.PST[4][s] = S(2*cf-3+rk, 0)
		p.PST[5][s] = S(2*c-6, 4*c-12)
		kingFile := [8]int{8, 12, 6, -4, -4, 6, 12, 8}
		p.PST[6][s] = S(kingFile[f]-16*min(r, 4), 6*c-18)
	}

	mobTable(p.KnightMob[:], 22, 20, 4)
	mobTable(p.BishopMob[:], 20, 24, 6)
	mobTable(p.RookMob[:], 12, 25, 6)
	mobTable(p.QueenMob[:], 8, 16, 10)

	p.Isolated = S(-10, -12)
	p.Doubled = S(-8, -20)
	p.Backward = S(-8, -10)
	p.Connected = [8]Score{0, S(3, 0), S(5, 3), S(8, 6), S(14, 12), S(25, 25), S(45, 45), 0}
	p.PhalanxExtra = [8]Score{0, 0, S(2, 1), S(4, 2), S(8, 6), S(14, 12), S(20, 20), 0}
	p.Passed = [8]Score{0, S(4, 10), S(6, 14), S(12, 26), S(28, 50), S(55, 95), S(90, 150), 0}

	p.PassedOwnKingDist = S(0, -4)
	p.PassedEnemyKingDist = S(0, 8)
	p.PassedFreePath = S(3, 8)
	p.PassedSafePath = S(6, 14)
	p.UnstoppablePawn = S(0, 600)

	p.KingAttackWeight = [7]int{0, 0, 20, 20, 28, 45, 0}
	p.KingAdjacentUnit = 8
	p.KingAttackerUnit = 15
	p.KingWeakSquare = 6
	p.KingSafeCheck = [7]int{0, 0, 30, 20, 35, 40, 0}
	p.KingNoQueen = 50
	p.KingDangerDiv = 160
	p.KingDangerEGDiv = 8
	p.KingDangerMax = 380
	p.Shelter = [8]int{-30, 24, 14, 4, 0, 0, 0, 0}
	p.Storm = [8]int{0, -8, -28, -18, -8, 0, 0, 0}
	p.StormBlocked = -4
	p.ShelterKingFile = 1

	p.ThreatByPawn = [7]Score{0, 0, S(45, 35), S(45, 35), S(60, 40), S(70, 50), 0}
	p.ThreatByMinor = [7]Score{0, S(4, 12), S(20, 25), S(20, 25), S(40, 40), S(50, 50), 0}
	p.ThreatByRook = [7]Score{0, S(3, 12), S(18, 25), S(18, 25), S(10, 15), S(45, 45), 0}
	p.Hanging = S(30, 20)

	p.BishopPair = S(30, 50)
	p.RookOpenFile = S(35, 12)
	p.RookSemiOpen = S(15, 8)
	p.QueenOpenFile = S(8, 6)
	p.QueenSemiOpen = S(4, 4)
	p.RookOn7th = S(10, 25)
	p.KnightOutpost = S(25, 15)
	p.BishopOutpost = S(15, 8)
	p.Tempo = S(18, 8)
	p.CorneredBishop = S(-22, -12)
	p.CorneredBlock = S(-22, -12)
	p.Undeveloped = S(-12, 0)
	p.CastlingRight = S(12, 0)

	p.KnownWin = 1000
	p.MopEdge = 20
	p.MopKings = 10
	p.ScaleOCB = 16
	p.ScaleOCBPer = 8
	p.ScaleOCBPcs = 48
	p.ScaleEqual = 44
	p.ScaleNoPawn = 10
	return p
}

// Default is the parameter set the engine uses.
var Default = defaultParams()
