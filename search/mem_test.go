package search

import (
	"runtime"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse + ms.StackInuse)
}

// TestThreadBytes checks the documented per-thread constant against the
// heap: adding threads and searching with them grows the heap by at most
// ThreadBytes each, and taking them away gives the memory back.
func TestThreadBytes(t *testing.T) {
	const extra = 7
	e := NewEngine(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	base := heapInUse()
	e.SetOptions(Options{HashMB: 1, Threads: 1 + extra, MultiPV: 1})
	var peak int64
	e.Search(v.NewStartPosition(), Limits{Depth: 9}, Callbacks{OnInfo: func(Info) {
		peak = max(peak, heapInUse())
	}})
	grown := max(peak, heapInUse()) - base
	t.Logf("ThreadBytes %d; %d threads grew the heap by %d (%d each)", ThreadBytes, extra, grown, grown/extra)
	if grown > extra*ThreadBytes {
		t.Errorf("%d threads grew the heap by %d bytes, more than %d x ThreadBytes (%d)", extra, grown, extra, ThreadBytes)
	}
	e.SetOptions(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	if after := heapInUse() - base; after > ThreadBytes {
		t.Errorf("after Threads went back to 1 the heap is still %d bytes above the start", after)
	}
}

// TestResizeReleases checks that resizing the table frees the old one
// first: the heap never holds both.
func TestResizeReleases(t *testing.T) {
	e := NewEngine(Options{HashMB: 64, Threads: 1, MultiPV: 1})
	base := heapInUse()
	e.SetOptions(Options{HashMB: 32, Threads: 1, MultiPV: 1})
	if d := heapInUse() - base; d > -30<<20 {
		t.Errorf("Hash 64 -> 32 MB changed the heap by %d bytes, want about -32 MB", d)
	}
	e.SetOptions(Options{HashMB: 64, Threads: 1, MultiPV: 1})
	if d := heapInUse() - base; d > 2<<20 {
		t.Errorf("Hash back to 64 MB: heap %d bytes above the start", d)
	}
}
