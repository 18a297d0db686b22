package search

import (
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// TestSetOptionsLazy: with a HashGuard, SetOptions makes a new table
// resident, SetOptionsLazy does not, and Reserve does so afterwards.
func TestSetOptionsLazy(t *testing.T) {
	e := NewEngine(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	defer e.Close()
	e.SetHashGuard(noLimit)
	e.SetOptions(Options{HashMB: 8, Threads: 1, MultiPV: 1})
	if !e.tt.resident {
		t.Fatal("SetOptions with a guard left the table not resident")
	}
	e.SetOptionsLazy(Options{HashMB: 16, Threads: 1, MultiPV: 1})
	if e.tt.resident || len(e.tt.buckets) != 16<<20/64 {
		t.Fatalf("SetOptionsLazy: resident %v, %d buckets", e.tt.resident, len(e.tt.buckets))
	}
	if !e.Reserve(nil) || !e.tt.resident || e.Options().HashMB != 16 {
		t.Errorf("Reserve: resident %v, Hash %d", e.tt.resident, e.Options().HashMB)
	}
}

// TestReserveStop: a stop ends Reserve after the chunk under way, with
// the table as it was set up and not resident; the engine searches with
// it; Clear empties it and keeps the resident part; and a later Reserve
// goes on from where the first ended and makes all of it resident.
func TestReserveStop(t *testing.T) {
	e := NewEngine(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	defer e.Close()
	e.SetHashGuard(noLimit)
	e.SetOptionsLazy(Options{HashMB: 256, Threads: 1, MultiPV: 1})
	asked := 0
	stop := func() bool { asked++; return asked > 2 }
	if e.Reserve(stop) {
		t.Fatal("Reserve told to stop after two chunks reported that it ran to its end")
	}
	const chunk = reserveChunk / 64
	if asked != 3 || e.tt.resident || e.tt.populated != 2*chunk || len(e.tt.buckets) != 256<<20/64 || e.Options().HashMB != 256 {
		t.Fatalf("stopped Reserve: asked %d times, resident %v, %d buckets populated of %d, Hash %d",
			asked, e.tt.resident, e.tt.populated, len(e.tt.buckets), e.Options().HashMB)
	}
	pos := v.NewStartPosition()
	if r := e.Search(pos, Limits{Depth: 5}, Callbacks{}); r.Best == v.NoMove {
		t.Fatal("no move with a table partly resident")
	}
	e.Clear()
	if _, ok := e.tt.Probe(pos.Key()); ok || e.tt.populated != 2*chunk {
		t.Fatalf("Clear: root still found %v, %d buckets populated", ok, e.tt.populated)
	}
	for i := range e.tt.buckets {
		if e.tt.buckets[i] != (ttBucket{}) {
			t.Fatalf("Clear left bucket %d written", i)
		}
	}
	asked = 0
	if !e.Reserve(func() bool { asked++; return false }) || !e.tt.resident {
		t.Fatal("a second Reserve did not make the table resident")
	}
	if want := 256<<20/reserveChunk - 2; asked != want {
		t.Errorf("the second Reserve made %d chunks resident, want the %d left", asked, want)
	}
}
