package search

import "testing"

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
	e.Reserve()
	if !e.tt.resident || e.Options().HashMB != 16 {
		t.Errorf("Reserve: resident %v, Hash %d", e.tt.resident, e.Options().HashMB)
	}
}
