package search

// Playing below full strength (UCI_LimitStrength, UCI_Elo).
//
// An Elo maps to three limits (docs/strength.md):
//
//   - a node cap per move: nodes, not time, so that a level plays alike
//     on fast and slow machines (the GUI's clock still applies on top);
//   - a depth cap;
//   - a choice among the near-best root moves: the search scores up to
//     strengthMultiPV root lines (the level's MultiPV), and each move whose score is within Margin
//     centipawns of the best gets a random bonus of 0..Noise centipawns;
//     the highest score plus bonus is played. Weak levels thus often play
//     the 2nd or 3rd best move, but never one the search scored more than
//     Margin below the best, and never one that lets a found mate go.
//
// The anchors below are fitted to match results against Stockfish 15.1
// at the same UCI_Elo (scripts/elo-ladder.sh, docs/strength.md). Between
// two anchors a level takes the fraction f of the way from one to the
// other and interpolates:
//
//   - the node cap on a log scale;
//   - the cost of the lines scored, on a log scale too, and the width is
//     the one whose cost is nearest. Scoring w lines costs lineCost[w]
//     times the nodes one line needs for the same depth, so a w-line
//     search of N nodes searches about as deep as a one-line search of
//     N/lineCost[w] nodes: its per-line budget. Near full strength the
//     width thus falls as the cap rises (both cap and per-line budget
//     grow with the level), and the margin and noise, not the extra lines,
//     do the weakening; a width of strengthMultiPV up to the anchor with
//     none made the search between them cost more than either anchor's;
//   - the depth cap linearly in f (so about linearly in the log of the
//     nodes, as depth grows), an anchor without a cap counting as the depth its budget reaches
//     (capDepth);
//   - margin and noise linearly in f.

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// The UCI_Elo range: from Stockfish 15.1's lowest level up to 2600, on
// Stockfish's scale at 10+0.1 (docs/strength.md). Full strength is above
// it: with net w512i a one-line search capped at 1,000,000 nodes played
// about +105 against Stockfish's 2600, so the top level caps the nodes
// lower.
const (
	EloMin = 1320
	EloMax = 2600
)

// strengthMultiPV is the most root moves a limited search scores for the
// choice.
const strengthMultiPV = 4

// lineCost[w] is the nodes a search scoring w root lines needs to reach a
// depth, over what one line needs: measured with net h6 on 16 positions
// of std_openings.epd at depths 10 and 13 (2 lines 1.36 and 1.38 times
// the nodes, 3 lines 1.82 and 2.12, 4 lines 2.08 and 2.52; the means).
var lineCost = [strengthMultiPV + 1]float64{0, 1, 1.37, 1.97, 2.30}

// strengthAnchor is one point of the Elo table. Depth 0 means no cap.
type strengthAnchor struct {
	elo    int
	nodes  uint64
	depth  int
	margin int // centipawns below the best a chosen move may score
	noise  int // largest random bonus, centipawns
	lines  int // root moves scored: strengthMultiPV with a margin, else 1
}

var strengthTable = []strengthAnchor{
	{elo: 1320, nodes: 1000, depth: 3, margin: 100, noise: 120, lines: 4},
	{elo: 1700, nodes: 4000, depth: 6, margin: 55, noise: 65, lines: 4},
	{elo: 2100, nodes: 50000, depth: 11, margin: 12, noise: 15, lines: 4},
	{elo: 2400, nodes: 140000, depth: 14, margin: 7, noise: 9, lines: 2},
	{elo: 2600, nodes: 200000, depth: 0, margin: 0, noise: 0, lines: 1},
}

// Strength is what a UCI_Elo level limits.
type Strength struct {
	Elo     int    // the level, clamped to EloMin..EloMax
	Nodes   uint64 // node cap per move
	Depth   int    // depth cap; 0: none
	Margin  int    // centipawns below the best a chosen move may score
	Noise   int    // largest random bonus, centipawns
	MultiPV int    // root moves scored for the choice
}

// lineBudget is the log of an anchor's per-line budget: its node cap
// over the cost of its lines.
func lineBudget(a strengthAnchor) float64 {
	return math.Log(float64(a.nodes) / lineCost[a.lines])
}

// capDepth is the depth cap anchor i counts as when interpolating: its
// own, or for an anchor without one the depth its per-line budget
// reaches, extended from the two nearest capped anchors on the same log
// scale (depth grows about linearly with the log of the nodes); MaxPly-1
// when there are not two.
func capDepth(i int) float64 {
	a := strengthTable[i]
	if a.depth != 0 {
		return float64(a.depth)
	}
	var near []strengthAnchor
	for d := 1; len(near) < 2 && d < len(strengthTable); d++ {
		for _, j := range []int{i - d, i + d} {
			if j >= 0 && j < len(strengthTable) && strengthTable[j].depth != 0 && len(near) < 2 {
				near = append(near, strengthTable[j])
			}
		}
	}
	if len(near) < 2 || lineBudget(near[0]) == lineBudget(near[1]) {
		return MaxPly - 1
	}
	p, q := near[0], near[1]
	slope := float64(q.depth-p.depth) / (lineBudget(q) - lineBudget(p))
	d := float64(p.depth) + slope*(lineBudget(a)-lineBudget(p))
	return min(max(d, 1), MaxPly-1)
}

// StrengthFor returns the limits of an Elo level.
func StrengthFor(elo int) Strength {
	elo = min(max(elo, EloMin), EloMax)
	i := 1
	for i < len(strengthTable)-1 && strengthTable[i].elo < elo {
		i++
	}
	a, b := strengthTable[i-1], strengthTable[i]
	f := float64(elo-a.elo) / float64(b.elo-a.elo)
	lerp := func(x, y float64) float64 { return x + f*(y-x) }
	lin := func(x, y int) int { return int(math.Round(lerp(float64(x), float64(y)))) }
	s := Strength{Elo: elo}
	if elo == b.elo {
		a, f = b, 0 // an anchor's own settings, exactly
	}

	s.Nodes = uint64(math.Round(math.Exp(lerp(math.Log(float64(a.nodes)), math.Log(float64(b.nodes))))))
	// The width whose cost is nearest the interpolated one, on the log
	// scale.
	cost := lerp(math.Log(lineCost[a.lines]), math.Log(lineCost[b.lines]))
	s.MultiPV = 1
	for w := 2; w <= strengthMultiPV; w++ {
		if math.Abs(math.Log(lineCost[w])-cost) < math.Abs(math.Log(lineCost[s.MultiPV])-cost) {
			s.MultiPV = w
		}
	}

	if a.depth != 0 || (b.depth != 0 && f > 0) {
		s.Depth = int(math.Round(lerp(capDepth(i-1), capDepth(i))))
		if f == 0 {
			s.Depth = a.depth
		}
		if s.Depth >= MaxPly-1 {
			s.Depth = 0
		}
	}
	s.Margin = lin(a.margin, b.margin)
	s.Noise = lin(a.noise, b.noise)
	if s.Margin <= 0 {
		s.MultiPV = 1
	}
	return s
}

// newRand returns the generator of the move choice: seeded by seed, or
// from the clock when seed is 0.
func newRand(seed uint64) *rand.Rand {
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// strengthSetup applies a limited level to a search about to start: the
// node and depth caps and the lines to score.
func (e *Engine) strengthSetup() {
	e.limited = e.opts.LimitStrength
	e.multiPV = e.opts.MultiPV
	e.capNodes = 0
	e.snap = e.snap[:0]
	if !e.limited {
		return
	}
	st := StrengthFor(e.opts.Elo)
	e.strength = st
	e.capNodes = st.Nodes
	if st.Depth > 0 && (e.limits.Depth == 0 || st.Depth < e.limits.Depth) {
		e.limits.Depth = st.Depth
	}
	e.multiPV = max(e.multiPV, st.MultiPV)
}

// snapshot records the scored lines of the main thread's completed
// iteration, for the choice.
func (e *Engine) snapshot(t *thread) {
	n := min(e.multiPV, len(t.rootMoves))
	for len(e.snap) < n {
		e.snap = append(e.snap, rootMove{})
	}
	e.snap = e.snap[:n]
	for i := 0; i < n; i++ {
		rm := t.rootMoves[i]
		s := &e.snap[i]
		s.move, s.score, s.prevScore, s.selDepth, s.bound = rm.move, rm.score, rm.score, rm.selDepth, rm.bound
		s.pv = append(s.pv[:0], rm.pv...)
	}
}

// pickMove returns the index in lines (best first) of the move a
// limited level plays.
func pickMove(lines []rootMove, st Strength, r *rand.Rand) int {
	if len(lines) == 0 || st.Margin <= 0 {
		return 0
	}
	best := lines[0].score
	if best == -Infinity || IsMate(best) {
		return 0
	}
	choice, top := 0, -Infinity
	for i, rm := range lines {
		if rm.score == -Infinity || IsMate(rm.score) || best-rm.score > st.Margin {
			continue
		}
		v := rm.score + r.IntN(st.Noise+1)
		if v > top {
			choice, top = i, v
		}
	}
	return choice
}

// strengthChoose puts the move the level plays first among the main
// thread's root moves, with the score and line of its completed iteration.
// It reports whether that is another move than the iteration's best (the
// last info line then did not show it).
func (e *Engine) strengthChoose(t *thread) bool {
	if len(e.snap) == 0 {
		return false
	}
	k := pickMove(e.snap, e.strength, e.rng)
	c := e.snap[k]
	for i := range t.rootMoves {
		if t.rootMoves[i].move == c.move {
			rm := &t.rootMoves[i]
			rm.score, rm.prevScore, rm.selDepth, rm.bound = c.score, c.score, c.selDepth, c.bound
			rm.pv = slices.Clone(c.pv)
			t.rootMoves[0], t.rootMoves[i] = t.rootMoves[i], t.rootMoves[0]
			break
		}
	}
	return k != 0
}
