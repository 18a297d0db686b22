package search

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
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

// Every exported Engine method may be called from any goroutine at any
// time: searches, option changes (the table resized), clears and the
// readers run at once, and the readers are also called from inside the
// search's callbacks. Run under -race; a deadlock shows as the timeout.
func TestEngineConcurrentCalls(t *testing.T) {
	e := NewEngine(Options{HashMB: 1, Threads: 2, MultiPV: 2})
	const rounds = 12
	var infos atomic.Int64
	cb := Callbacks{
		OnInfo: func(Info) {
			infos.Add(1)
			if h := e.HashFull(); h < 0 || h > 1000 {
				t.Errorf("hashfull %d", h)
			}
			if o := e.Options(); o.Threads < 1 || o.HashMB < 1 {
				t.Errorf("options %+v", o)
			}
			e.PonderHit()
		},
		OnCurrMove: func(CurrMove) { e.HashFull() },
	}

	var workers, readers sync.WaitGroup
	for g := 0; g < 2; g++ {
		workers.Go(func() {
			pos := v.NewStartPosition()
			for i := 0; i < rounds; i++ {
				if r := e.Search(pos, Limits{Nodes: 3000}, cb); r.Best == v.NoMove {
					t.Error("no move")
				}
			}
		})
	}
	workers.Go(func() {
		for i := 0; i < rounds; i++ {
			e.SetOptions(Options{HashMB: 1 + i%3, Threads: 1 + i%2, MultiPV: 1 + i%2})
			e.Clear()
		}
	})
	stop := make(chan struct{})
	read := func(f func()) {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				f()
				time.Sleep(100 * time.Microsecond)
			}
		})
	}
	read(func() { e.HashFull() })
	read(func() { e.Options() })
	read(func() { e.Stop(); e.PonderHit() })

	finished := make(chan struct{})
	go func() { workers.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(60 * time.Second):
		t.Fatal("searches, SetOptions and Clear did not finish: deadlock?")
	}
	close(stop)
	readers.Wait()
	if infos.Load() == 0 {
		t.Error("no info line reached the callback")
	}
}

// Once stopped, a search with more threads than Go processors ends at
// once: the main thread does not wait long for helpers that had no
// processor, as each one sees the stop as soon as it runs and the
// helpers that end free their processors. (Most of the time from a GUI's
// stop to bestmove went before that, to the goroutine that reads stdin
// waiting for a processor; TestUCIStopLatency measures the whole path.)
func TestStopEndsHelpersAtOnce(t *testing.T) {
	threads := min(max(4, 2*runtime.GOMAXPROCS(0)), 16)
	e := NewEngine(Options{HashMB: 16, Threads: threads, MultiPV: 1})
	pos := v.NewStartPosition()
	if _, err := pos.PlayMoves("e2e4"); err != nil {
		t.Fatal(err)
	}
	const n = 15
	lat := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		ctl := NewControl()
		done := make(chan time.Time, 1)
		go func() {
			e.SearchWith(ctl, pos, Limits{Infinite: true}, Callbacks{})
			done <- time.Now()
		}()
		time.Sleep(time.Duration(50+i%5*20) * time.Millisecond)
		stop := time.Now()
		ctl.Stop()
		select {
		case end := <-done:
			lat = append(lat, end.Sub(stop))
		case <-time.After(5 * time.Second):
			t.Fatal("stop did not end the search")
		}
	}
	slices.Sort(lat)
	median, worst := lat[n/2], lat[n-1]
	t.Logf("Threads %d on %d processors: Stop to the end of SearchWith, median %v, worst %v", threads, runtime.GOMAXPROCS(0), median, worst)
	if median > 10*time.Millisecond || worst > 250*time.Millisecond {
		t.Errorf("Stop to the end of SearchWith: median %v (want at most 10ms), worst %v (want at most 250ms)", median, worst)
	}
}

// A ponder search with a node limit does not end by itself: the limit is
// ignored while it ponders (it searches on past it) and applies from the
// ponderhit, which then ends the search at once. Before, the node check
// stopped the search before it looked at the pondering, and the search
// returned at its node limit without a ponderhit.
func TestPonderIgnoresNodeLimit(t *testing.T) {
	for _, threads := range []int{1, 2} {
		o := DefaultOptions()
		o.Threads = threads
		e := NewEngine(o)
		ctl := NewControl()
		done := make(chan Result, 1)
		const limit = 20000
		past := make(chan struct{})
		var once sync.Once
		cb := Callbacks{OnInfo: func(i Info) {
			if i.Nodes > 2*limit {
				once.Do(func() { close(past) })
			}
		}}
		go func() {
			done <- e.SearchWith(ctl, v.NewStartPosition(), Limits{Ponder: true, Nodes: limit}, cb)
		}()
		select {
		case r := <-done:
			t.Fatalf("threads %d: ponder search with nodes %d ended before its ponderhit: %+v", threads, limit, r)
		case <-past:
		case <-time.After(10 * time.Second):
			ctl.Stop()
			t.Fatalf("threads %d: no info past twice the node limit in 10 s", threads)
		}
		ctl.PonderHit()
		select {
		case r := <-done:
			if r.Best == v.NoMove {
				t.Errorf("threads %d: no move", threads)
			}
		case <-time.After(2 * time.Second):
			ctl.Stop()
			t.Fatalf("threads %d: the node limit did not end the search after the ponderhit", threads)
		}
	}
}
