package uci

import (
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
