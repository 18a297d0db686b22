package search

import "sync/atomic"

// Control carries the stop and ponderhit signals of one search. Make a
// fresh one for every search and give it to SearchWith: a signal sent to
// it reaches that search alone, even when it is sent before the search
// has started, and can never leak into a later search.
type Control struct {
	stop      atomic.Bool
	ponderHit atomic.Bool
}

// NewControl returns the control for one new search.
func NewControl() *Control { return &Control{} }

// Stop ends the search (it still returns its best move). A ponder search
// that is stopped ends too.
func (c *Control) Stop() {
	c.stop.Store(true)
	c.ponderHit.Store(true)
}

// PonderHit turns a ponder search into a normal timed search.
func (c *Control) PonderHit() { c.ponderHit.Store(true) }

// Stopped reports whether Stop was called.
func (c *Control) Stopped() bool { return c.stop.Load() }
