package search

import (
	"math"
	"sync"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

const ms = time.Millisecond

func clock(tm, inc time.Duration) Limits {
	return Limits{TimeGiven: true, WTime: tm, BTime: tm, WInc: inc, BInc: inc}
}

func TestAllocateTime(t *testing.T) {
	oh := 30 * ms
	cases := []struct {
		name               string
		l                  Limits
		softMin, softMax   time.Duration
		hardMin, hardMax   time.Duration
		tmLeftAfterHardMin time.Duration // the clock after a move that takes the hard limit, at least
	}{
		// 30+1 at the start: about a fortieth of the clock plus the increment.
		{"30+1 start", clock(30000*ms, 1000*ms), 1500 * ms, 2000 * ms, 3000 * ms, 9000 * ms, 15000 * ms},
		// 30+1 with 9.1 s left: Rochade used to think 6 s (5× soft) here.
		{"30+1 low", clock(9100*ms, 1000*ms), 1000 * ms, 1400 * ms, 1000 * ms, 3700 * ms, 5000 * ms},
		// 30+1 with 1.5 s left: below 2 s, less than the increment, so
		// that the clock grows back (before: about the increment).
		{"30+1 very low", clock(1500*ms, 1000*ms), 400 * ms, 450 * ms, 580 * ms, 650 * ms, 400 * ms},
		{"10+1 start", clock(10000*ms, 1000*ms), 1000 * ms, 1300 * ms, 2000 * ms, 5000 * ms, 5000 * ms},
		// 1+0.01 (one second): a few milliseconds a move, below 2 s
		// (before: 22 ms soft, 112 ms hard).
		{"1+0.01", clock(1000*ms, 10*ms), 5 * ms, 8 * ms, 25 * ms, 35 * ms, 800 * ms},
		// 40 moves in 60 s with 10 moves to go.
		{"movestogo 10", Limits{TimeGiven: true, WTime: 6000 * ms, BTime: 6000 * ms, MovesToGo: 10}, 500 * ms, 620 * ms, 1000 * ms, 1250 * ms, 4500 * ms},
		// The last move before the time control may use most of it, less
		// the low-clock reserve (100 ms and 1/8 of the clock up to 1 s).
		{"movestogo 1", Limits{TimeGiven: true, WTime: 2000 * ms, BTime: 2000 * ms, MovesToGo: 1}, 1775 * ms, 1775 * ms, 1775 * ms, 1775 * ms, 195 * ms},
		// 2+0.02 with 1 s left: less than the increment, so that the clock
		// grows back (before: 37 ms soft, 176 ms hard).
		{"2+0.02 at 1 s", clock(1000*ms, 20*ms), 6 * ms, 8 * ms, 30 * ms, 40 * ms, 900 * ms},
		// 2+0.02 with 300 ms left: the least.
		{"2+0.02 at 0.3 s", clock(300*ms, 20*ms), 1 * ms, 2 * ms, 1 * ms, 5 * ms, 280 * ms},
		// 5+0.05 with 250 ms left (where moves of 0.18-0.37 s lost on time
		// beside a build; before: 14 ms soft, 103 ms hard).
		{"5+0.05 at 0.25 s", clock(250*ms, 50*ms), 1 * ms, 2 * ms, 1 * ms, 4 * ms, 240 * ms},
		// Under 115 ms (the reserve): depth 1 at once.
		{"100 ms", clock(100*ms, 50*ms), 1 * ms, 1 * ms, 1 * ms, 1 * ms, 100 * ms},
		// lichess-bot sends go movetime 10000 for the first move.
		{"movetime 10000", Limits{MoveTime: 10000 * ms}, 9900 * ms, 10000 * ms, 9900 * ms, 10000 * ms, 0},
	}
	for _, c := range cases {
		soft, hard, use := allocateTime(c.l, v.White, oh)
		if !use {
			t.Errorf("%s: clock not used", c.name)
			continue
		}
		if soft < c.softMin || soft > c.softMax {
			t.Errorf("%s: soft %v, want %v..%v", c.name, soft, c.softMin, c.softMax)
		}
		if hard < c.hardMin || hard > c.hardMax || hard < soft {
			t.Errorf("%s: hard %v, want %v..%v and at least soft %v", c.name, hard, c.hardMin, c.hardMax, soft)
		}
		if c.l.MoveTime == 0 {
			if left := c.l.WTime + c.l.WInc - hard - oh; left < c.tmLeftAfterHardMin {
				t.Errorf("%s: %v left after a hard-limit move, want at least %v", c.name, left, c.tmLeftAfterHardMin)
			}
		}
	}
	if _, _, use := allocateTime(Limits{Depth: 5}, v.White, oh); use {
		t.Error("a depth search uses the clock")
	}
	if _, _, use := allocateTime(Limits{Infinite: true, TimeGiven: true, WTime: time.Second}, v.White, oh); use {
		t.Error("an infinite search uses the clock")
	}
	// Black's clock for Black.
	l := Limits{TimeGiven: true, WTime: 100 * ms, BTime: 60000 * ms}
	if soft, _, _ := allocateTime(l, v.Black, oh); soft < time.Second {
		t.Errorf("black soft %v from white's clock", soft)
	}
}

// With a clock and one legal move the answer comes at once, from depth 1.
func TestOneLegalMoveAnswersAtOnce(t *testing.T) {
	e := NewEngine(DefaultOptions())
	p := v.MustParseFEN("k7/8/8/8/8/8/6r1/7K w - - 0 1") // only Kxg2
	var ml v.MoveList
	p.GenerateLegal(&ml)
	if ml.N != 1 {
		t.Fatalf("test position has %d legal moves", ml.N)
	}
	start := time.Now()
	r := e.Search(p, clock(60000*ms, 1000*ms), Callbacks{})
	if el := time.Since(start); el > 500*ms || r.Depth > 1 || r.Best != ml.Moves[0] {
		t.Errorf("one legal move: %v, depth %d, best %s", el, r.Depth, r.Best)
	}
}

// Once a mate is proven the search stops deepening instead of counting
// up to depth 127, with a clock and in an infinite search alike.
func TestMateStopsDeepening(t *testing.T) {
	fen := "k7/8/2K5/8/8/8/8/7R w - - 0 1" // mate in 2
	e := NewEngine(DefaultOptions())
	var last Info
	cb := Callbacks{OnInfo: func(i Info) { last = i }}
	start := time.Now()
	r := e.Search(v.MustParseFEN(fen), clock(600000*ms, 0), cb)
	if MateIn(r.Score) != 2 || r.Depth > 12 || time.Since(start) > 2*time.Second {
		t.Errorf("clock: mate %d at depth %d after %v", MateIn(r.Score), r.Depth, time.Since(start))
	}
	done := make(chan Result, 1)
	ctl := NewControl()
	go func() { done <- e.SearchWith(ctl, v.MustParseFEN(fen), Limits{Infinite: true}, cb) }()
	time.Sleep(300 * ms)
	ctl.Stop()
	r = <-done
	if MateIn(r.Score) != 2 || r.Depth > 12 || last.Depth > 12 {
		t.Errorf("infinite: mate %d at depth %d, last info depth %d", MateIn(r.Score), r.Depth, last.Depth)
	}
	// A depth limit is honoured even past the mate.
	if r := e.Search(v.MustParseFEN(fen), Limits{Depth: 20}, Callbacks{}); r.Depth != 20 {
		t.Errorf("depth 20 stopped at %d", r.Depth)
	}
}

// While pondering, the count of best-move changes decays each iteration
// as it does in a timed search. It used to be left out (softTimeUp
// returned first), so it grew all through the ponder search and
// stretched the move after the ponderhit up to the hard limit.
func TestPonderDecaysBestMoveChanges(t *testing.T) {
	e := NewEngine(DefaultOptions())
	e.ctl = NewControl()
	e.limits = clock(10000*ms, 100*ms)
	e.limits.Ponder = true
	e.pondering.Store(true)
	e.start = time.Now()
	e.setTimeLimits(v.NewStartPosition())
	e.bestMoveChanges = 8
	if e.softTimeUp(20, 0, -1, 0) {
		t.Fatal("a ponder search ended on its soft limit")
	}
	if e.bestMoveChanges != 4 {
		t.Errorf("best-move changes %v after an iteration of pondering, want 4", e.bestMoveChanges)
	}
}

// The clock of a ponder search counts from its go (see stillPondering):
// after 2 s of pondering at 10+0.1, past the hard limit of 1.7 s, the
// ponderhit ends the search at once. It used to count from the ponderhit
// and think up to the hard limit again; the info time, reset at the
// ponderhit, went backwards. (A ponderhit before the soft limit is
// tested against the same search without pondering in
// tests/TestUCIPonderHit.)
func TestPonderHitClockFromGo(t *testing.T) {
	e := NewEngine(DefaultOptions())
	pos := v.NewStartPosition()
	if _, err := pos.PlayMoves("e2e4"); err != nil {
		t.Fatal(err)
	}
	lim := clock(10000*ms, 100*ms)
	lim.Ponder = true
	var mu sync.Mutex
	var times []time.Duration
	cb := Callbacks{OnInfo: func(i Info) {
		mu.Lock()
		times = append(times, i.Time)
		mu.Unlock()
	}}
	ctl := NewControl()
	done := make(chan Result, 1)
	go func() { done <- e.SearchWith(ctl, pos, lim, cb) }()
	select {
	case r := <-done:
		t.Fatalf("the ponder search ended by itself: %+v", r)
	case <-time.After(2 * time.Second):
	}
	hit := time.Now()
	ctl.PonderHit()
	r := <-done
	if d := time.Since(hit); d > 200*ms {
		t.Errorf("the search took %v after a ponderhit past its hard limit", d)
	}
	if r.Best == v.NoMove || r.Depth < 1 {
		t.Errorf("result %+v", r)
	}
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(times); i++ {
		if times[i] < times[i-1] {
			t.Fatalf("info time went back from %v to %v", times[i-1], times[i])
		}
	}
	// The search's clock starts a little after the 2 s wait did (the
	// goroutine may be scheduled late on a loaded machine: CI once saw the
	// last info at 1.997 s). A clock reset at the ponderhit would read
	// under 200 ms.
	if len(times) == 0 || times[len(times)-1] < 1500*ms {
		t.Errorf("info times %v: the last one should count from the go, about 2 s before the ponderhit", times)
	}
}

// allocateTimeBefore is allocateTime as it was before the low-clock rules
// (build aed8281), to check that they leave normal clocks alone.
func allocateTimeBefore(l Limits, side v.Color, overhead time.Duration) (soft, hard time.Duration, use bool) {
	if l.MoveTime > 0 {
		t := max(l.MoveTime-min(overhead, l.MoveTime/2), time.Millisecond)
		return t, t, true
	}
	if !l.TimeGiven || l.Infinite {
		return 0, 0, false
	}
	tm, inc := l.WTime, l.WInc
	if side == v.Black {
		tm, inc = l.BTime, l.BInc
	}
	mtg := tmHorizon
	if l.MovesToGo > 0 {
		mtg = min(l.MovesToGo, tmHorizon)
	}
	share := func(n int) time.Duration {
		reserve := min(overhead*time.Duration(min(n, 10)), tm*3/4)
		avail := tm + inc*time.Duration(n-1) - reserve
		return max(avail, time.Millisecond) / time.Duration(n)
	}
	opt := share(mtg)
	afford := share(min(mtg, tmAffordMoves)) * tmAffordShare
	maxT := tm*3/4 - overhead
	if l.MovesToGo == 1 {
		maxT = tm - 2*overhead
	}
	maxT = max(maxT, time.Millisecond)
	soft = min(opt, maxT)
	hard = max(soft, min(opt*tmHardFactor, afford, maxT))
	return soft, hard, true
}

// testedLowIncSlope is the tmLowIncSlope under test (the default is 0).
const testedLowIncSlope = 20

// lowClockGrid calls f for clocks from 10 ms to 120 s, increments from 0
// to 2 s, Move Overheads from 0 to 1 s, with and without movestogo; first
// with tmLowIncSlope at 0 (the default), then at testedLowIncSlope.
func lowClockGrid(f func(l Limits, tm, inc, oh time.Duration)) {
	defer func(s int) { sp.tmLowIncSlope = s }(sp.tmLowIncSlope)
	for _, slope := range []int{0, testedLowIncSlope} {
		sp.tmLowIncSlope = slope
		for _, oh := range []time.Duration{0, 10 * ms, 30 * ms, 100 * ms, 250 * ms, 1000 * ms} {
			for _, inc := range []time.Duration{0, 10 * ms, 20 * ms, 50 * ms, 100 * ms, 1000 * ms, 2000 * ms} {
				for _, mtg := range []int{0, 1, 2, 10, 40} {
					for tm := 10 * ms; tm <= 120*time.Second; tm += tm/16 + ms {
						l := clock(tm, inc)
						l.MovesToGo = mtg
						f(l, tm, inc, oh)
					}
				}
			}
		}
	}
}

// At any clock the hard limit leaves max(Move Overhead, 100 ms) and an
// eighth of the clock (counted up to 10 such delays) on it: a move
// that runs to its hard limit and is then delayed by 100 ms more (or by
// Move Overhead, if more) does not lose on time, while the clock holds
// more than that reserve at all (below it the hard limit is 1 ms: depth
// 1). Before, at 5+0.05 with 250 ms left the hard limit was 103 ms,
// leaving 147 ms, and moves delayed beside a build took 0.18-0.37 s.
func TestLowClockReserve(t *testing.T) {
	lowClockGrid(func(l Limits, tm, inc, oh time.Duration) {
		soft, hard, _ := allocateTime(l, v.White, oh)
		delay := max(oh, tmLowDelay)
		want := delay + min(tm, tmLowCap*delay)/tmLowShare
		if soft > hard || soft <= 0 {
			t.Fatalf("tm %v inc %v oh %v mtg %d: soft %v, hard %v", tm, inc, oh, l.MovesToGo, soft, hard)
		}
		if hard > time.Millisecond && tm-hard < want {
			t.Fatalf("tm %v inc %v oh %v mtg %d: hard %v leaves %v, want at least %v", tm, inc, oh, l.MovesToGo, hard, tm-hard, want)
		}
		if tm < want && hard > time.Millisecond {
			t.Fatalf("tm %v inc %v oh %v mtg %d: hard %v below the reserve %v, want 1ms", tm, inc, oh, l.MovesToGo, hard, want)
		}
	})
}

// The limits shrink with the clock: for a given increment, overhead and
// movestogo, less clock never gives a longer soft or hard limit; and at
// a quarter of the comfort level or less (500 ms at the default
// overhead) a move's soft limit is less than the increment without
// movestogo, so the clock grows back (for Move Overheads up to 250 ms:
// with 1 s a move and 10 ms increments it cannot). At 2+0.02 and the
// default overhead that holds up to about 1.1 s.
func TestLowClockLimitsShrink(t *testing.T) {
	type key struct {
		inc, oh    time.Duration
		mtg, slope int
	}
	last := map[key][2]time.Duration{}
	lowClockGrid(func(l Limits, tm, inc, oh time.Duration) {
		soft, hard, _ := allocateTime(l, v.White, oh)
		k := key{inc, oh, l.MovesToGo, sp.tmLowIncSlope}
		if p, ok := last[k]; ok && (soft < p[0] || hard < p[1]) {
			t.Fatalf("tm %v inc %v oh %v mtg %d: soft %v hard %v, below %v %v at less clock", tm, inc, oh, l.MovesToGo, soft, hard, p[0], p[1])
		}
		last[k] = [2]time.Duration{soft, hard}
		comfort := lowComfort(oh, inc)
		if inc > 0 && l.MovesToGo == 0 && oh <= 250*ms && tm <= comfort/4 && soft >= inc {
			t.Fatalf("tm %v inc %v oh %v mtg %d: soft %v, want less than the increment", tm, inc, oh, l.MovesToGo, soft)
		}
	})
}

// The comfort level is 2 s at every increment by default (tmLowIncSlope
// 0). With the slope at 20 it is 2 s up to an increment of 20 ms, falls
// by 20 ms for each millisecond of increment beyond it, and is 1 s from
// 70 ms on; Move Overhead beyond 100 ms is added to it. The 30+1 cases
// of TestAllocateTime hold only with the slope at 0.
func TestLowComfortByIncrement(t *testing.T) {
	for _, inc := range []time.Duration{0, 20 * ms, 50 * ms, 1000 * ms} {
		if got := lowComfort(30*ms, inc); got != 2000*ms {
			t.Errorf("slope 0, increment %v: comfort %v, want 2s", inc, got)
		}
	}
	defer func(s int) { sp.tmLowIncSlope = s }(sp.tmLowIncSlope)
	sp.tmLowIncSlope = testedLowIncSlope
	cases := []struct{ oh, inc, want time.Duration }{
		{30 * ms, 0, 2000 * ms},
		{30 * ms, 10 * ms, 2000 * ms},
		{30 * ms, 20 * ms, 2000 * ms},
		{30 * ms, 50 * ms, 1400 * ms},
		{30 * ms, 70 * ms, 1000 * ms},
		{30 * ms, 80 * ms, 1000 * ms},
		{30 * ms, 1000 * ms, 1000 * ms},
		{100 * ms, 50 * ms, 1400 * ms},
		{250 * ms, 50 * ms, 1550 * ms},
		{5000 * ms, 100 * ms, 5900 * ms},
	}
	for _, c := range cases {
		if got := lowComfort(c.oh, c.inc); got != c.want {
			t.Errorf("Move Overhead %v, increment %v: comfort %v, want %v", c.oh, c.inc, got, c.want)
		}
	}
}

// At and above the comfort level (lowComfort, 2 s at the default
// overhead and slope, 1-2 s at the tested slope), but at movestogo 1, the limits
// are those of the time manager before the low-clock rules: normal
// clocks play as before.
func TestNormalClockUnchanged(t *testing.T) {
	lowClockGrid(func(l Limits, tm, inc, oh time.Duration) {
		if l.MovesToGo == 1 || tm < lowComfort(oh, inc) {
			return
		}
		s1, h1, _ := allocateTime(l, v.White, oh)
		s0, h0, _ := allocateTimeBefore(l, v.White, oh)
		if s1 != s0 || h1 != h0 {
			t.Fatalf("tm %v inc %v oh %v mtg %d: soft %v hard %v, before %v %v", tm, inc, oh, l.MovesToGo, s1, h1, s0, h0)
		}
	})
}

// A search at a low clock ends well inside it: 2+0.02 with 300 ms left
// (hard limit 3 ms). Generous bound for a busy machine.
func TestLowClockSearchEnds(t *testing.T) {
	e := NewEngine(DefaultOptions())
	pos := v.NewStartPosition()
	start := time.Now()
	r := e.Search(pos, clock(300*ms, 20*ms), Callbacks{})
	if el := time.Since(start); el > 150*ms || r.Best == v.NoMove {
		t.Errorf("2+0.02 at 300 ms: %v, best %v; want a move within 150 ms", el, r.Best)
	}
}

// effortFactor scales the soft limit by the best move's share of the
// root nodes: not at all with the weight at 0 (the default) or without a
// share, and within its bounds otherwise.
func TestEffortFactor(t *testing.T) {
	defer func(p, w int) { sp.tmEffortPivot, sp.tmEffortWeight = p, w }(sp.tmEffortPivot, sp.tmEffortWeight)
	sp.tmEffortWeight = 0
	for _, s := range []float64{-1, 0, 0.3, 0.7, 1} {
		if f := effortFactor(s); f != 1 {
			t.Errorf("weight 0: factor %v at share %v, want 1", f, s)
		}
	}
	sp.tmEffortPivot, sp.tmEffortWeight = 70, 150
	for _, c := range []struct{ share, want float64 }{
		{-1, 1}, {0.7, 1}, {0.5, 1.3}, {0.9, 0.7}, {0.1, 1.6}, {0, 1.6}, {1, 0.6},
	} {
		if f := effortFactor(c.share); math.Abs(f-c.want) > 1e-9 {
			t.Errorf("pivot 70, weight 150: factor %v at share %v, want %v", f, c.share, c.want)
		}
	}
}

// The root moves' node counts add up to all of the search's nodes (every
// node is made under some root move), afresh in each search of one
// engine. Under MultiPV only the first line's pass counts, so the
// counts fall short of the nodes there. The best move's share is a
// fraction of 1, every move having some (no move takes all the nodes
// of this position, where 31 are legal).
func TestRootMoveNodes(t *testing.T) {
	pos := v.MustParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3")
	rootSum := func(th *thread) (sum uint64) {
		for _, rm := range th.rootMoves {
			sum += rm.nodes
		}
		return sum
	}
	e := NewEngine(DefaultOptions())
	for i, nodes := range []uint64{200000, 50000} {
		e.Search(pos, Limits{Nodes: nodes}, Callbacks{})
		th := e.threads[0]
		if sum := rootSum(th); sum != th.nodes {
			t.Errorf("search %d: root moves count %d nodes of the search's %d", i, sum, th.nodes)
		}
		for _, rm := range th.rootMoves {
			if rm.nodes == 0 {
				t.Errorf("search %d: root move %v counts no node", i, rm.move)
			}
		}
		if s := bestMoveShare(th.rootMoves); s <= 0 || s >= 1 {
			t.Errorf("search %d: best move's share %v, want in (0, 1)", i, s)
		}
	}
	opts := DefaultOptions()
	opts.MultiPV = 3
	e = NewEngine(opts)
	e.Search(pos, Limits{Nodes: 200000}, Callbacks{})
	th := e.threads[0]
	if sum := rootSum(th); sum == 0 || sum >= th.nodes {
		t.Errorf("MultiPV 3: root moves count %d nodes of the search's %d, want fewer (the first line's pass only)", sum, th.nodes)
	}
	if s := bestMoveShare(th.rootMoves); s <= 0 || s >= 1 {
		t.Errorf("MultiPV 3: best move's share %v, want in (0, 1)", s)
	}
	if s := bestMoveShare(nil); s != -1 {
		t.Errorf("share without root moves %v, want -1", s)
	}
}

// trendFactor scales the soft limit by the fall of the best score: not
// at all with the weight at 0 (the default), and within its bounds
// otherwise.
func TestTrendFactor(t *testing.T) {
	defer func(w int) { sp.tmTrendWeight = w }(sp.tmTrendWeight)
	sp.tmTrendWeight = 0
	for _, d := range []int{-500, -20, 0, 20, 500} {
		if f := trendFactor(d); f != 1 {
			t.Errorf("weight 0: factor %v at drop %d, want 1", f, d)
		}
	}
	sp.tmTrendWeight = 100
	for _, c := range []struct {
		drop int
		want float64
	}{
		{0, 1}, {20, 1.2}, {-10, 0.9}, {50, 1.5}, {300, 1.5}, {-20, 0.8}, {-300, 0.8},
	} {
		if f := trendFactor(c.drop); math.Abs(f-c.want) > 1e-9 {
			t.Errorf("weight 100: factor %v at drop %d, want %v", f, c.drop, c.want)
		}
	}
}

// scoreDrop is the fall of a plain score; a mate or tablebase score on
// either side, or no score before, is no drop.
func TestScoreDrop(t *testing.T) {
	for _, c := range []struct{ before, now, want int }{
		{30, 10, 20}, {10, 30, -20}, {-50, -120, 70}, {0, 0, 0},
		{-Infinity, 10, 0},
		{MateScore - 9, 100, 0}, {100, -(MateScore - 8), 0}, {-(MateScore - 5), 0, 0},
		{TBWin - 10, 50, 0}, {50, -(TBWin - 12), 0},
	} {
		if d := scoreDrop(c.before, c.now); d != c.want {
			t.Errorf("scoreDrop(%d, %d) = %d, want %d", c.before, c.now, d, c.want)
		}
	}
}

// scoreTrend compares each score with the one two pushes before: no drop
// for the first two, then the fall against the older of the two held.
func TestScoreTrendPush(t *testing.T) {
	st := newScoreTrend()
	for i, c := range []struct{ score, want int }{
		{40, 0}, {10, 0}, {25, 15}, {-30, 40}, {60, -35}, {MateScore - 7, 0}, {0, 60}, {20, 0},
	} {
		if d := st.push(c.score); d != c.want {
			t.Errorf("push %d (%d): drop %d, want %d", i, c.score, d, c.want)
		}
	}
}

// softTimeUp with the score trend on: past the plain soft limit a
// falling score keeps the search going and a steady one does not. The
// soft limit is set by hand to 7 s with the start 10 s back, so that no
// stall of the machine can flip the answer (with no stable iteration the
// factor is 1.3, 9.1 s; times 1.5 at a fall of 50, 13.65 s).
func TestSoftTimeUpByTrend(t *testing.T) {
	defer func(w int) { sp.tmTrendWeight = w }(sp.tmTrendWeight)
	sp.tmTrendWeight = 100
	e := NewEngine(DefaultOptions())
	e.ctl = NewControl()
	e.limits = clock(600000*ms, 0)
	e.setTimeLimits(v.NewStartPosition())
	e.softLimit = 7 * time.Second
	e.start = time.Now().Add(-10 * time.Second)
	if !e.softTimeUp(20, 0, -1, 0) {
		t.Error("no drop: 10 s past a 7 s soft limit (x1.3) did not end the search")
	}
	if e.softTimeUp(20, 0, -1, 50) {
		t.Error("a drop of 50: 10 s within a 7 s soft limit x1.95 ended the search")
	}
	sp.tmTrendWeight = 0
	if !e.softTimeUp(20, 0, -1, 50) {
		t.Error("weight 0: a drop of 50 kept the search going")
	}
}
