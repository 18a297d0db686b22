package search

import (
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// A stop sent before the search starts is not lost: an infinite search
// under a stopped control ends at once, with a legal move.
func TestStopBeforeStart(t *testing.T) {
	e := NewEngine(DefaultOptions())
	ctl := NewControl()
	ctl.Stop()
	done := make(chan Result, 1)
	go func() { done <- e.SearchWith(ctl, v.NewStartPosition(), Limits{Infinite: true}, Callbacks{}) }()
	select {
	case r := <-done:
		if r.Best == v.NoMove || r.Depth < 1 {
			t.Errorf("stopped search: %+v, want a move from depth 1", r)
		}
	case <-time.After(5 * time.Second):
		e.Stop()
		t.Fatal("a stop sent before the search started was lost")
	}
}

// A stop of a finished search does not reach the next one.
func TestStaleStop(t *testing.T) {
	e := NewEngine(DefaultOptions())
	ctl := NewControl()
	e.SearchWith(ctl, v.NewStartPosition(), Limits{Depth: 2}, Callbacks{})
	ctl.Stop()
	e.Stop() // no search runs: a no-op
	r := e.Search(v.NewStartPosition(), Limits{Depth: 6}, Callbacks{})
	if r.Depth != 6 {
		t.Errorf("next search reached depth %d, want 6: a stale stop hit it", r.Depth)
	}
}

// SetOptions and Clear are safe during a search: they wait for it.
func TestOptionsAndClearWaitForSearch(t *testing.T) {
	e := NewEngine(DefaultOptions())
	ctl := NewControl()
	done := make(chan Result, 1)
	go func() { done <- e.SearchWith(ctl, v.NewStartPosition(), Limits{Infinite: true}, Callbacks{}) }()
	time.Sleep(50 * time.Millisecond)
	changed := make(chan struct{})
	go func() {
		o := DefaultOptions()
		o.HashMB, o.Threads = 2, 2
		e.SetOptions(o)
		e.Clear()
		close(changed)
	}()
	select {
	case <-changed:
		// Only possible if the search has not yet taken the engine; then
		// it must still end on stop below.
	case <-time.After(100 * time.Millisecond):
	}
	ctl.Stop()
	if r := <-done; r.Best == v.NoMove {
		t.Error("no move")
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("SetOptions/Clear did not return after the search ended")
	}
	if o := e.Options(); o.HashMB != 2 || o.Threads != 2 {
		t.Errorf("options %+v not applied", o)
	}
	if r := e.Search(v.NewStartPosition(), Limits{Depth: 4}, Callbacks{}); r.Best == v.NoMove {
		t.Error("no move after SetOptions")
	}
}
