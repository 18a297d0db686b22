package search

import (
	"slices"

	v "github.com/rochade/rochade/variant960"
)

// Tablebase is what the search needs from endgame tables (the tablebase
// package's *Tablebases implements it). WDL values are from the side to
// move's view: 2 win, 1 cursed win (a win the 50-move rule spoils), 0
// draw, -1 blessed loss, -2 loss.
type Tablebase interface {
	// MaxPieces is the largest piece count (kings included) the tables
	// cover; 0 for none.
	MaxPieces() int
	// ProbeWDL returns the WDL value of pos; ok is false when the tables
	// cannot tell (castling rights, too many pieces, table missing, or a
	// table file that fails while in use). It may make moves on pos but
	// leaves it as it was, also when it fails.
	ProbeWDL(pos *v.Position) (wdl int, ok bool)
	// RankRoot ranks the root moves, higher is better: tbMaxDTZ for a win
	// the 50-move rule cannot spoil, 0 for a draw, -tbMaxDTZ for a sure
	// loss, values between for wins and losses the rule may turn into
	// draws. dtz tells whether DTZ tables did the ranking. ok is false
	// when any move cannot be ranked (a table missing, or failing midway):
	// the root is then searched as without tables.
	RankRoot(pos *v.Position, moves []v.Move, rule50 bool) (ranks []int, dtz bool, ok bool)
}

// tbMaxDTZ is the rank of a sure win (tablebase.MaxDTZ).
const tbMaxDTZ = 1 << 18

// TBWin is the score of a tablebase win at the root; a win found n plies
// from the root scores TBWin-n. It lies just below the mate scores, so
// UCI shows it as a large centipawn value.
const TBWin = MateInMaxPly - 1

// isDecisive reports a mate or tablebase win/loss score.
func isDecisive(s int) bool { return s >= TBWin-MaxPly || s <= -(TBWin-MaxPly) }

// tbRootScore turns a root rank into the score shown for the move.
func tbRootScore(rank int, rule50 bool) int {
	bound := 1
	if rule50 {
		bound = tbMaxDTZ - 100
	}
	switch {
	case rank >= bound:
		return TBWin
	case rank > 0:
		// A cursed win: 1 to 50 cp, more as the real win gets closer.
		return max(3, rank-(tbMaxDTZ-200)) * 100 / 200
	case rank == 0:
		return 0
	case rank > -bound:
		return min(-3, rank+(tbMaxDTZ-200)) * 100 / 200
	}
	return -TBWin
}

// tbSetup ranks the root moves by the tables before a search. It keeps
// only the best-ranked moves and records the score each one gets, and it
// sets how many pieces the search may probe at (0: none).
func (e *Engine) tbSetup(pos *v.Position, roots []rootMove) []rootMove {
	e.tbRoot = nil
	e.tbCard = 0
	e.tbRootHits = 0
	tb := e.opts.Tablebase
	if tb == nil || tb.MaxPieces() == 0 || e.opts.TBProbeLimit <= 0 {
		return roots
	}
	e.tbCard = min(e.opts.TBProbeLimit, tb.MaxPieces())
	e.tbDepth = e.opts.TBProbeDepth
	if e.opts.TBProbeLimit > tb.MaxPieces() {
		e.tbDepth = 0 // the largest tables are always worth a probe
	}
	if pos.Occupied().Count() > e.tbCard || pos.CastlingRights() != 0 || len(roots) == 0 {
		return roots
	}
	moves := make([]v.Move, len(roots))
	for i := range roots {
		moves[i] = roots[i].move
	}
	// The ranking makes moves on the position: use a copy, the caller's
	// may be read meanwhile.
	ranks, dtz, ok := tb.RankRoot(pos.Copy(), moves, e.opts.TB50MoveRule)
	if !ok || len(ranks) != len(roots) {
		return roots
	}
	e.tbRootHits = uint64(len(roots))
	best := slices.Max(ranks)
	e.tbRoot = map[v.Move]int{}
	var kept []rootMove
	for i := range roots {
		if ranks[i] == best {
			kept = append(kept, roots[i])
			e.tbRoot[roots[i].move] = tbRootScore(ranks[i], e.opts.TB50MoveRule)
		}
	}
	// With DTZ the root ranking is enough; with WDL alone the search
	// probes on to find the way to win.
	if dtz || tbRootScore(best, e.opts.TB50MoveRule) <= 0 {
		e.tbCard = 0
	}
	return kept
}

// tbScore returns the score to show for a root move: the table's, unless
// the search found a mate.
func (e *Engine) tbScore(m v.Move, score int) int {
	if s, ok := e.tbRoot[m]; ok && !IsMate(score) {
		return s
	}
	return score
}

// probeTB asks the WDL tables about the position at an inner node. It
// returns the score and its bound.
func (t *thread) probeTB(depth, ply int) (int, Bound, bool) {
	e := t.e
	pos := t.pos
	n := pos.Occupied().Count()
	if n > e.tbCard || (n == e.tbCard && depth < e.tbDepth) ||
		pos.Rule50() != 0 || pos.CastlingRights() != 0 {
		return 0, 0, false
	}
	wdl, ok := e.opts.Tablebase.ProbeWDL(pos)
	if !ok {
		return 0, 0, false
	}
	t.tbHits.Add(1)
	draw := 0
	if e.opts.TB50MoveRule {
		draw = 1
	}
	switch {
	case wdl < -draw:
		return -TBWin + ply, BoundUpper, true
	case wdl > draw:
		return TBWin - ply, BoundLower, true
	}
	return 2 * wdl * draw, BoundExact, true
}

// tbHits sums the table hits of all threads.
func (e *Engine) tbHits() uint64 {
	n := e.tbRootHits
	for _, t := range e.threads {
		n += t.tbHits.Load()
	}
	return n
}
