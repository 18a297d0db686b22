package uci

import (
	"fmt"
	"testing"
	"time"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// TestClockWatch: the GUI charged 250 ms for a move we measured at
// 100 ms, so the lag is 150 ms; it decays when the lag goes away, and a
// new game (plies not following on) is not counted.
func TestClockWatch(t *testing.T) {
	var c clockWatch
	pos := v.NewStartPosition()
	ms := time.Millisecond
	lim := func(wtime int) search.Limits {
		return search.Limits{WTime: time.Duration(wtime) * ms, BTime: time.Second, WInc: 10 * ms, TimeGiven: true}
	}
	play := func(moves ...string) {
		if i, err := pos.PlayMoves(moves...); err != nil {
			t.Fatalf("move %d %q: %v", i+1, moves[i], err)
		}
	}
	*c.startMove(pos, lim(1000)) = 100 * ms
	play("e2e4", "e7e5")
	*c.startMove(pos, lim(1000+10-250)) = 50 * ms
	if c.lag != 150*ms {
		t.Fatalf("lag %v, want 150ms", c.lag)
	}
	play("g1f3", "b8c6")
	*c.startMove(pos, lim(760+10-50)) = 50 * ms // no lag this time
	if c.lag != 150*ms*3/4 {
		t.Fatalf("lag %v, want it to decay to %v", c.lag, 150*ms*3/4)
	}
	// A new game from the start: not the next move, not counted.
	pos = v.NewStartPosition()
	old := c.lag
	c.startMove(pos, lim(100))
	if c.lag != old {
		t.Fatalf("a new game changed the lag to %v", c.lag)
	}
}

// TestLagActsAtOnce: the GUI charges 2.7 s more than the engine's moves
// take. The raised Move Overhead (twice the lag, at most 5 s) applies to
// the move whose clock shows the lag, not one move later, and only to
// timed searches: it used to stay set, and `go movetime 2000` then
// answered in 1 ms.
func TestLagActsAtOnce(t *testing.T) {
	rec := &optsSearcher{}
	s := NewSession(&syncBuffer{}, Config{NewSearcher: func(o search.Options) Searcher {
		rec.opts = o
		return rec
	}})
	defer s.Close()
	ms := time.Millisecond
	lag := 2700 * ms
	wtime := 60000 * ms
	moves := "position startpos moves"
	for i, reply := range []string{"e2e4 e7e5", "g1f3 b8c6", "f1c4 g8f6"} {
		s.Handle(moves)
		s.Handle(fmt.Sprintf("go wtime %d btime 60000 winc 100 binc 100", wtime/ms))
		s.wait(0)
		want := 30 * ms // the option's default
		if i > 0 {
			want = 5 * time.Second // 2 × 2.7 s, at most 5 s
		}
		if got := rec.seen[len(rec.seen)-1].MoveOverhead; got != want {
			t.Errorf("timed move %d, lag %v: Move Overhead %v, want %v", i+1, lag, got, want)
		}
		// Our move took microseconds; the GUI charged the lag besides.
		wtime += 100*ms - lag
		moves += " " + reply
	}
	for _, goCmd := range []string{"go movetime 2000", "go depth 5", "go infinite"} {
		s.Handle(goCmd)
		s.stop()
		s.wait(0)
		if got := rec.seen[len(rec.seen)-1].MoveOverhead; got != 30*ms {
			t.Errorf("%s after lagged moves: Move Overhead %v, want the option's 30ms", goCmd, got)
		}
	}
}
