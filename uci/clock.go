package uci

import (
	"fmt"
	"time"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// clockWatch estimates the lag between the GUI's clock and ours: the
// time the GUI charged for our last move (its clock then, plus the
// increment, less its clock now) beyond what we measured from reading
// `go` to writing `bestmove`. Pipes, a busy machine or a slow GUI all
// show up there; Move Overhead is raised to cover it (see useLag).
type clockWatch struct {
	last    clockMove
	lag     time.Duration // recent lag: jumps up at once, decays by 1/4 a move
	elapsed time.Duration // our time for the last move, written by its search goroutine
}

type clockMove struct {
	valid     bool
	side      v.Color
	ply       int
	time, inc time.Duration
}

// startMove records a timed go and returns where the search goroutine
// stores its elapsed time. It first updates the lag estimate from the
// previous move when this go continues the same game for the same side
// (the previous search has ended: reading s.done ordered its write).
func (c *clockWatch) startMove(pos *v.Position, lim search.Limits) *time.Duration {
	side := pos.Side()
	tm, inc := lim.WTime, lim.WInc
	if side == v.Black {
		tm, inc = lim.BTime, lim.BInc
	}
	if c.last.valid && c.last.side == side && pos.GamePly() == c.last.ply+2 && c.elapsed > 0 && lim.TimeGiven {
		lag := c.last.time + c.last.inc - tm - c.elapsed
		if lag >= 0 && lag < 10*time.Second {
			c.lag = max(lag, c.lag*3/4)
		}
	}
	c.last = clockMove{valid: lim.TimeGiven && !lim.Ponder, side: side, ply: pos.GamePly(), time: tm, inc: inc}
	c.elapsed = 0
	return &c.elapsed
}

// useLag gives the searcher, before every search (no search runs now),
// the Move Overhead it is to use: for a timed search at least twice the
// recent lag (startMove has taken in the last move), for any other search
// (movetime, depth, nodes, infinite) the option's value. The raised value
// must not outlive the timed search: with a 5 s overhead, `go movetime
// 2000` answered in 1 ms.
func (s *Session) useLag(lim search.Limits) {
	opts := s.set.searchOptions()
	if want := 2 * s.clock.lag; lim.TimeGiven && want > opts.MoveOverhead {
		opts.MoveOverhead = min(want, 5*time.Second)
		s.logEvent("lag", fmt.Sprintf("GUI lag %v; Move Overhead %v for this move", s.clock.lag, opts.MoveOverhead))
	}
	// The table is the one set up already (the same Hash): nothing is
	// made resident here.
	if l, ok := s.searcher.(lazyTables); ok {
		l.SetOptionsLazy(opts)
	} else {
		s.searcher.SetOptions(opts)
	}
}
