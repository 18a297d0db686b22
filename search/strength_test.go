package search

import (
	"math"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// The Elo table: clamped at both ends, exact at its anchors, and
// monotonic in between (more Elo: more nodes and depth, less margin and
// noise). The ends are a beginner and a one-line search under a node cap.
func TestStrengthTable(t *testing.T) {
	if s := StrengthFor(0); s != StrengthFor(EloMin) || s.Elo != EloMin {
		t.Errorf("Elo 0: %+v, want the EloMin level", s)
	}
	if s := StrengthFor(99999); s != StrengthFor(EloMax) || s.Elo != EloMax {
		t.Errorf("Elo 99999: %+v, want the EloMax level", s)
	}
	for _, a := range strengthTable {
		s := StrengthFor(a.elo)
		if s.Nodes != a.nodes || s.Depth != a.depth || s.Margin != a.margin || s.Noise != a.noise || s.MultiPV != a.lines {
			t.Errorf("anchor %d: %+v, want %+v", a.elo, s, a)
		}
	}
	depth := func(d int) int {
		if d == 0 {
			return MaxPly
		}
		return d
	}
	prev := StrengthFor(EloMin)
	for elo := EloMin + 1; elo <= EloMax; elo++ {
		s := StrengthFor(elo)
		if s.Nodes < prev.Nodes || depth(s.Depth) < depth(prev.Depth) || s.Margin > prev.Margin || s.Noise > prev.Noise {
			t.Fatalf("Elo %d: %+v after %+v: not monotonic", elo, s, prev)
		}
		if s.MultiPV > prev.MultiPV || s.MultiPV < 1 || (s.MultiPV > 1 && s.Margin == 0) {
			t.Fatalf("Elo %d: %+v after %+v: lines to score rise with the level, or without a margin", elo, s, prev)
		}
		prev = s
	}
	low, high := StrengthFor(EloMin), StrengthFor(EloMax)
	if low.Nodes < 200 || low.Nodes > 1000 || low.Depth < 1 || low.Depth > 3 || low.Margin < 100 {
		t.Errorf("EloMin level %+v is no beginner", low)
	}
	if high.Nodes < 50000 || high.Depth != 0 || high.Margin != 0 || high.MultiPV != 1 {
		t.Errorf("EloMax level %+v is not a one-line search with only a node cap", high)
	}
}

// Between anchors the levels move smoothly from one anchor's search to
// the next: the cost of the lines scored follows the log-scale
// interpolation of the anchors' costs (the width is the nearest), so that
// the 4-line search of 2100 does not last up to 2600's single line; the
// per-line budget (node cap over line cost) never falls as the level
// rises; and the depth cap rises by at most a ply per 20 Elo, toward about
// the depth the uncapped anchor's budget reaches instead of MaxPly.
func TestStrengthBetweenAnchors(t *testing.T) {
	halfGap := 0.0
	for w := 2; w <= strengthMultiPV; w++ {
		halfGap = max(halfGap, (math.Log(lineCost[w])-math.Log(lineCost[w-1]))/2)
	}
	prev := StrengthFor(EloMin)
	for i := 1; i < len(strengthTable); i++ {
		a, b := strengthTable[i-1], strengthTable[i]
		for elo := a.elo; elo <= b.elo; elo++ {
			s := StrengthFor(elo)
			f := float64(elo-a.elo) / float64(b.elo-a.elo)
			want := math.Log(lineCost[a.lines]) + f*(math.Log(lineCost[b.lines])-math.Log(lineCost[a.lines]))
			if s.Margin > 0 && math.Abs(math.Log(lineCost[s.MultiPV])-want) > halfGap+1e-9 {
				t.Fatalf("Elo %d: %d lines cost %.2f, the anchors' interpolate to %.2f", elo, s.MultiPV, lineCost[s.MultiPV], math.Exp(want))
			}
			if per, was := float64(s.Nodes)/lineCost[s.MultiPV], float64(prev.Nodes)/lineCost[prev.MultiPV]; per < was {
				t.Fatalf("Elo %d: %+v after %+v: per-line budget %.0f fell from %.0f", elo, s, prev, per, was)
			}
			prev = s
		}
	}
	for elo := EloMin; elo+20 <= EloMax; elo++ {
		s, u := StrengthFor(elo), StrengthFor(elo+20)
		if u.Depth != 0 && u.Depth > s.Depth+1 {
			t.Fatalf("Elo %d: depth cap %d, at %d already %d", elo, s.Depth, elo+20, u.Depth)
		}
	}
	if d := capDepth(len(strengthTable) - 1); d < 12 || d > 24 {
		t.Errorf("the uncapped anchor counts as depth %.1f", d)
	}
	// The midpoint of the 4-line and the 2-line anchor scores 3 lines.
	if s := StrengthFor(2250); s.MultiPV != 3 || s.Depth == 0 || s.Margin == 0 {
		t.Errorf("Elo 2250: %+v", s)
	}
}

// A limited search scores as many lines as its level's width, and no more.
func TestStrengthLinesScored(t *testing.T) {
	pos := v.MustParseFEN(strengthFEN)
	for _, elo := range []int{1900, 2250, 2400, 2650} {
		st := StrengthFor(elo)
		e := NewEngine(limitedOpts(elo, 1))
		e.Search(pos, Limits{Nodes: 20000}, Callbacks{})
		if len(e.snap) != st.MultiPV {
			t.Errorf("Elo %d: %d lines scored, want %d", elo, len(e.snap), st.MultiPV)
		}
	}
}

// limitedOpts are the default options at a level, with a seed.
func limitedOpts(elo int, seed uint64) Options {
	o := DefaultOptions()
	o.LimitStrength, o.Elo, o.Seed = true, elo, seed
	return o
}

const strengthFEN = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"

// A limited level stops at its node cap under a clock that would allow
// far more (movetime and wtime/btime): no info line and no result counts
// more nodes than the cap, and the search ends long before its time. With
// the depth caps taken out of the table, the node cap alone ends it, with
// more than half the cap searched.
func TestStrengthNodeCap(t *testing.T) {
	pos := v.MustParseFEN(strengthFEN)
	t.Run("table", func(t *testing.T) { testNodeCap(t, pos, false) })
	saved := strengthTable
	defer func() { strengthTable = saved }()
	strengthTable = append([]strengthAnchor(nil), saved...)
	for i := range strengthTable {
		strengthTable[i].depth = 0
	}
	t.Run("nodes only", func(t *testing.T) { testNodeCap(t, pos, true) })
}

func testNodeCap(t *testing.T, pos *v.Position, capEnds bool) {
	for _, elo := range []int{EloMin, 1800, 2400} {
		cap := StrengthFor(elo).Nodes
		for _, l := range []Limits{{MoveTime: 20 * time.Second},
			{WTime: 600 * time.Second, BTime: 600 * time.Second, TimeGiven: true}} {
			e := NewEngine(limitedOpts(elo, 1))
			var maxInfo uint64
			start := time.Now()
			res := e.Search(pos, l, Callbacks{OnInfo: func(in Info) { maxInfo = max(maxInfo, in.Nodes) }})
			took := time.Since(start)
			if res.Nodes > cap || maxInfo > cap {
				t.Errorf("Elo %d, %+v: %d nodes (info up to %d), cap %d", elo, l, res.Nodes, maxInfo, cap)
			}
			if capEnds && res.Nodes < cap/2 {
				t.Errorf("Elo %d, %+v: %d nodes, cap %d: the cap did not end the search", elo, l, res.Nodes, cap)
			}
			// Both clocks allow 15 s or more; under -race the 2400 cap alone
			// takes about 6.5 s on the 2-core build machine.
			if took > 10*time.Second {
				t.Errorf("Elo %d: took %v: the clock, not the cap, ended the search", elo, took)
			}
			if res.Best == v.NoMove || !pos.IsPseudoLegal(res.Best) || !pos.IsLegal(res.Best) {
				t.Errorf("Elo %d: best %v is not legal", elo, res.Best)
			}
		}
	}
}

// The clock still applies on top of the cap: at EloMax (200,000 nodes) a
// 30 ms move ends on time.
func TestStrengthClock(t *testing.T) {
	e := NewEngine(limitedOpts(EloMax, 1))
	start := time.Now()
	res := e.Search(v.MustParseFEN(strengthFEN), Limits{MoveTime: 30 * time.Millisecond}, Callbacks{})
	if took := time.Since(start); took > 500*time.Millisecond || res.Nodes >= StrengthFor(EloMax).Nodes {
		t.Errorf("movetime 30 at EloMax: %v, %d nodes", took, res.Nodes)
	}
}

// An infinite search at a level stops searching at the cap but answers
// only after stop, as UCI wants.
func TestStrengthInfiniteWaits(t *testing.T) {
	e := NewEngine(limitedOpts(EloMin, 1))
	ctl := NewControl()
	done := make(chan Result, 1)
	go func() { done <- e.SearchWith(ctl, v.MustParseFEN(strengthFEN), Limits{Infinite: true}, Callbacks{}) }()
	select {
	case res := <-done:
		t.Fatalf("infinite search answered %v before stop", res.Best)
	case <-time.After(300 * time.Millisecond):
	}
	ctl.Stop()
	res := <-done
	if res.Nodes > StrengthFor(EloMin).Nodes || res.Best == v.NoMove {
		t.Errorf("after stop: %+v", res)
	}
}

// At a low level the move varies with the seed, among the near-best
// moves: each chosen move was scored by the search within the level's
// margin of the best. The same seed plays the same move. A level never
// leaves its queen to a pawn, whatever the seed.
func TestStrengthChoice(t *testing.T) {
	st := StrengthFor(EloMin)
	for _, fen := range []string{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", strengthFEN} {
		pos := v.MustParseFEN(fen)
		seen := map[v.Move]int{}
		for seed := uint64(1); seed <= 24; seed++ {
			e := NewEngine(limitedOpts(EloMin, seed))
			res := e.Search(pos, Limits{MoveTime: 10 * time.Second}, Callbacks{})
			if !pos.IsPseudoLegal(res.Best) || !pos.IsLegal(res.Best) {
				t.Fatalf("%s seed %d: illegal %v", fen, seed, res.Best)
			}
			if len(e.snap) < 2 {
				t.Fatalf("%s seed %d: %d lines scored, want %d", fen, seed, len(e.snap), st.MultiPV)
			}
			ok := false
			for _, rm := range e.snap {
				ok = ok || (rm.move == res.Best && e.snap[0].score-rm.score <= st.Margin)
			}
			if !ok {
				t.Errorf("%s seed %d: %s is not within %d cp of the best line %s (%d)", fen, seed,
					pos.MoveToUCI(res.Best, false), st.Margin, pos.MoveToUCI(e.snap[0].move, false), e.snap[0].score)
			}
			seen[res.Best]++
			again := NewEngine(limitedOpts(EloMin, seed)).Search(pos, Limits{MoveTime: 10 * time.Second}, Callbacks{})
			if again.Best != res.Best {
				t.Errorf("%s seed %d: %v then %v", fen, seed, res.Best, again.Best)
			}
		}
		if len(seen) < 2 {
			t.Errorf("%s: one move for every seed: %v", fen, seen)
		}
		t.Logf("%s: %d moves over 24 seeds", fen, len(seen))
	}

	// The black queen on d4 is attacked by a pawn.
	pos := v.MustParseFEN("rnb1kbnr/pppp1ppp/8/4p3/3q4/2P5/PP1PPPPP/RNBQKBNR b KQkq - 0 3")
	d4 := v.SquareOf(3, 3)
	for seed := uint64(1); seed <= 16; seed++ {
		res := NewEngine(limitedOpts(EloMin, seed)).Search(pos, Limits{MoveTime: 10 * time.Second}, Callbacks{})
		p := pos.Copy()
		p.Make(res.Best)
		var ml v.MoveList
		p.GenerateLegal(&ml)
		for _, m := range ml.Slice() {
			if m.To() == res.Best.To() && res.Best.From() == d4 {
				t.Errorf("seed %d: %s leaves the queen to %s", seed, pos.MoveToUCI(res.Best, false), p.MoveToUCI(m, false))
				break
			}
			if m.To() == d4 && res.Best.From() != d4 {
				t.Errorf("seed %d: %s leaves the queen on d4", seed, pos.MoveToUCI(res.Best, false))
				break
			}
		}
	}
}

// pickMove plays only moves within the margin, more than one of them
// across seeds, never one of unknown score, and never lets a mate go.
func TestPickMove(t *testing.T) {
	st := Strength{Margin: 150, Noise: 200, MultiPV: 4}
	lines := func(scores ...int) []rootMove {
		var l []rootMove
		for _, s := range scores {
			l = append(l, rootMove{score: s})
		}
		return l
	}
	count := func(l []rootMove) map[int]int {
		n := map[int]int{}
		r := newRand(5)
		for i := 0; i < 2000; i++ {
			n[pickMove(l, st, r)]++
		}
		return n
	}
	if n := count(lines(0, -100, -180, -400)); n[2] != 0 || n[3] != 0 || n[0] == 0 || n[1] == 0 {
		t.Errorf("scores 0 -100 -180 -400, margin 150: picks %v", n)
	}
	if n := count(lines(20, 20, 20, -Infinity)); n[3] != 0 || n[0] == 0 || n[1] == 0 || n[2] == 0 {
		t.Errorf("scores 20 20 20 -Infinity: picks %v", n)
	}
	if n := count(lines(MateScore-5, 300, 290)); n[0] != 2000 {
		t.Errorf("a mate first: picks %v", n)
	}
	if n := count(lines(10, 0, -MateScore+4)); n[2] != 0 {
		t.Errorf("a mated line: picks %v", n)
	}
	if n := count(lines(0, -5, -10)); len(n) != 3 {
		t.Errorf("three close moves: picks %v", n)
	}
	st.Margin = 0
	if n := count(lines(0, -5, -10)); n[0] != 2000 {
		t.Errorf("margin 0: picks %v", n)
	}
}

// At EloMax a limited search is the full search with the level's node
// cap: the same move, score, depth and nodes as `go nodes <cap>`, for any
// seed.
func TestStrengthMaxIsFull(t *testing.T) {
	pos := v.MustParseFEN(strengthFEN)
	cap := StrengthFor(EloMax).Nodes
	full := NewEngine(DefaultOptions()).Search(pos, Limits{Nodes: cap}, Callbacks{})
	for _, seed := range []uint64{1, 2} {
		res := NewEngine(limitedOpts(EloMax, seed)).Search(pos, Limits{MoveTime: 60 * time.Second}, Callbacks{})
		if res != full {
			t.Errorf("seed %d: %+v, want the full search's %+v", seed, res, full)
		}
	}
}

// With LimitStrength off, Elo and Seed change nothing.
func TestStrengthOffUnchanged(t *testing.T) {
	pos := v.MustParseFEN(strengthFEN)
	want := NewEngine(DefaultOptions()).Search(pos, Limits{Depth: 6}, Callbacks{})
	o := DefaultOptions()
	o.Elo, o.Seed = EloMin, 7
	if got := NewEngine(o).Search(pos, Limits{Depth: 6}, Callbacks{}); got != want {
		t.Errorf("Elo %d with LimitStrength off: %+v, want %+v", EloMin, got, want)
	}
}
