package variant960

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Random openings: a start position (DFRC, Chess960 or standard, or one
// the caller supplies) followed by random legal plies, kept when a short
// search finds it balanced. Self-play data generation (rochade datagen)
// and OpenBench's genfens command both draw their openings here.

// StartKind is the kind of start position an opening came from.
type StartKind int

// Start position kinds.
const (
	StartStandard StartKind = iota
	StartChess960
	StartDFRC
)

// OpeningMix says which start positions to draw, in percent, and how many
// random plies follow them.
type OpeningMix struct {
	PctDFRC, PctChess960 int // the rest: the standard start position
	MinPlies, MaxPlies   int
}

// Percents is the mix's start shares in percent, "DFRC/Chess960/standard"
// (the standard start takes what the other two leave).
func (m OpeningMix) Percents() string {
	return fmt.Sprintf("%d/%d/%d", m.PctDFRC, m.PctChess960, 100-m.PctDFRC-m.PctChess960)
}

// DatagenMix is the opening mix of rochade datagen: 60% DFRC (two
// independent SP numbers), 30% Chess960, 10% the standard start, then 8
// or 9 random plies.
var DatagenMix = OpeningMix{PctDFRC: 60, PctChess960: 30, MinPlies: 8, MaxPlies: 9}

// The balance test: an opening is thrown away when a search to
// OpeningSearchDepth (the caller's scorer runs it) scores it beyond
// OpeningMaxScore centipawns for the side to move.
const (
	OpeningSearchDepth = 8
	OpeningMaxScore    = 500
	// OpeningTries bounds the draws made for one opening.
	OpeningTries = 1000
)

// ErrNoOpening is returned when OpeningTries draws gave no opening.
var ErrNoOpening = errors.New("no balanced opening in 1000 tries")

// DrawStart draws a start position by the mix's percentages.
func (m OpeningMix) DrawStart(r *rand.Rand) (*Position, StartKind, error) {
	switch k := r.IntN(100); {
	case k < m.PctDFRC:
		pos, err := DFRCPosition(RandomSP(r), RandomSP(r))
		return pos, StartDFRC, err
	case k < m.PctDFRC+m.PctChess960:
		pos, err := Chess960Position(RandomSP(r))
		return pos, StartChess960, err
	default:
		pos, err := Chess960Position(518)
		return pos, StartStandard, err
	}
}

// RandomPlies plays MinPlies to MaxPlies random legal moves from pos. It
// reports false when the game ended on the way, or ended with the last
// ply (no legal move, or too little material to mate).
func (m OpeningMix) RandomPlies(r *rand.Rand, pos *Position, ml *MoveList) bool {
	plies := m.MinPlies + r.IntN(m.MaxPlies-m.MinPlies+1)
	for range plies {
		pos.GenerateLegal(ml)
		if ml.N == 0 {
			return false
		}
		pos.Make(ml.Moves[r.IntN(ml.N)])
	}
	return pos.HasLegalMove() && !pos.InsufficientMaterial()
}

// Opening draws openings until one passes: start gives the start
// position (nil: DrawStart), random plies follow, and the opening is
// re-read from its FEN (in the style fen writes) so that what follows
// depends on the FEN alone. keep, when not nil, may refuse an opening
// before it is scored (a repeat, say); score is the balance search, in
// centipawns for the side to move. Each draw consumes r in the same
// order, so a seed gives the same openings.
func (m OpeningMix) Opening(r *rand.Rand, ml *MoveList, start func(*rand.Rand) (*Position, error),
	fen func(*Position) string, keep func(fen string) bool, score func(*Position) int) (*Position, string, error) {
	for range OpeningTries {
		var pos *Position
		var err error
		if start != nil {
			pos, err = start(r)
		} else {
			pos, _, err = m.DrawStart(r)
		}
		if err != nil {
			return nil, "", err
		}
		if !m.RandomPlies(r, pos, ml) {
			continue
		}
		f := fen(pos)
		if pos, err = ParseFEN(f); err != nil {
			return nil, "", err
		}
		if keep != nil && !keep(f) {
			continue
		}
		if s := score(pos); s > OpeningMaxScore || s < -OpeningMaxScore {
			continue
		}
		return pos, f, nil
	}
	return nil, "", ErrNoOpening
}
