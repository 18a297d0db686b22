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
// it, and a later Reserve makes all of it resident.
func TestReserveStop(t *testing.T) {
	e := NewEngine(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	defer e.Close()
	e.SetHashGuard(noLimit)
	e.SetOptionsLazy(Options{HashMB: 256, Threads: 1, MultiPV: 1})
	asked := 0
	stop := func() bool { asked++; return asked > 2 }
	if e.Reserve(stop) {
		t.Fatal("Reserve told to stop after two chunks reported the table resident")
	}
	if asked != 3 || e.tt.resident || len(e.tt.buckets) != 256<<20/64 || e.Options().HashMB != 256 {
		t.Fatalf("stopped Reserve: asked %d times, resident %v, %d buckets, Hash %d",
			asked, e.tt.resident, len(e.tt.buckets), e.Options().HashMB)
	}
	if r := e.Search(v.NewStartPosition(), Limits{Depth: 5}, Callbacks{}); r.Best == v.NoMove {
		t.Fatal("no move with a table partly resident")
	}
	if !e.Reserve(func() bool { return false }) || !e.tt.resident {
		t.Error("a second Reserve did not make the table resident")
	}
}
