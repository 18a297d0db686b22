package search

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/rochade/rochade/internal/testutil"
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

// tableMemory is what the tables take: the resident set where it can be
// read (on Linux the table is outside the Go heap), else the heap.
func tableMemory(t *testing.T) int64 {
	if runtime.GOOS == "linux" {
		return settledRSS(t)
	}
	return heapInUse()
}

// settledRSS is the resident set once the garbage of earlier tests is
// collected and its pages returned, which the runtime otherwise does in
// the background, while a test measures.
func settledRSS(t *testing.T) int64 {
	debug.FreeOSMemory()
	return vmRSS(t)
}

// noLimit is a guard that lets the table have what it asks for.
var noLimit = HashGuard{Fit: func(int) int { return 1 << 20 }}

// TestResizeReleases checks that resizing the table frees the old one
// first: memory never holds both.
func TestResizeReleases(t *testing.T) {
	e := NewEngine(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	e.SetHashGuard(noLimit)
	e.SetOptions(Options{HashMB: 64, Threads: 1, MultiPV: 1})
	base := tableMemory(t)
	e.SetOptions(Options{HashMB: 32, Threads: 1, MultiPV: 1})
	if d := tableMemory(t) - base; d > -30<<20 {
		t.Errorf("Hash 64 -> 32 MB changed the memory by %d bytes, want about -32 MB", d)
	}
	e.SetOptions(Options{HashMB: 64, Threads: 1, MultiPV: 1})
	if d := tableMemory(t) - base; d > 2<<20 {
		t.Errorf("Hash back to 64 MB: memory %d bytes above the start", d)
	}
}

// TestReserve: with a guard, a new table is resident when SetOptions
// returns; where the guard allows less while the table is being made
// resident (another process taking memory), the table is cut to it, the
// cut is reported, and the engine searches with the smaller table. Clear
// keeps a resident table resident and empties it.
func TestReserve(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	e := NewEngine(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	before := settledRSS(t)
	e.SetHashGuard(noLimit)
	e.SetOptions(Options{HashMB: 256, Threads: 1, MultiPV: 1})
	if grew := settledRSS(t) - before; grew < 250<<20 {
		t.Errorf("Hash 256 MB: the resident set grew by %d MB", grew>>20)
	}
	pos := v.NewStartPosition()
	e.Search(pos, Limits{Depth: 6}, Callbacks{})
	held := settledRSS(t)
	e.Clear()
	if d := settledRSS(t) - held; d < -8<<20 || d > 8<<20 {
		t.Errorf("Clear of a resident table changed the resident set by %d MB", d>>20)
	}
	if _, ok := e.tt.Probe(pos.Key()); ok {
		t.Error("the root is still in the table after Clear")
	}

	// Another process takes 40 MB each time the memory is looked at,
	// from 400 MB allowed on.
	e.SetOptions(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	before = settledRSS(t)
	allowed, looks := 400, 0
	var cuts [][2]int
	e.SetHashGuard(HashGuard{
		Fit: func(threads int) int {
			if threads != 2 {
				t.Errorf("Fit asked for %d threads", threads)
			}
			looks++
			allowed -= 40
			return allowed
		},
		Cut: func(asked, got int) { cuts = append(cuts, [2]int{asked, got}) },
	})
	e.SetOptions(Options{HashMB: 512, Threads: 2, MultiPV: 1})
	got := e.Options().HashMB
	grew := settledRSS(t) - before
	t.Logf("Hash 512 MB against a shrinking allowance: %d looks, table %d MB, cuts %v, resident set +%d MB", looks, got, cuts, grew>>20)
	if got != allowed || len(cuts) != 1 || cuts[0] != [2]int{512, got} {
		t.Errorf("table %d MB (allowed %d), cuts %v", got, allowed, cuts)
	}
	if grew > int64(got+16)<<20 || grew < int64(got-16)<<20 {
		t.Errorf("table cut to %d MB, resident set grew by %d MB", got, grew>>20)
	}
	if r := e.Search(pos, Limits{Depth: 6}, Callbacks{}); r.Best == v.NoMove {
		t.Error("no move with the cut table")
	}
}

// vmRSS is the resident set of this process from /proc (Linux only).
func vmRSS(t *testing.T) int64 {
	kb, ok := testutil.ResidentKB(0)
	if !ok {
		t.Skip("no VmRSS in /proc/self/status on this system")
	}
	return kb << 10
}

// TestClearLeavesUnusedPages: clearing a large table after a short
// search must not write every page of it (ucinewgame after Hash 17 GB
// blocked the engine for a minute and made the table resident).
func TestClearLeavesUnusedPages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	e := NewEngine(Options{HashMB: 1024, Threads: 1, MultiPV: 1})
	e.Search(v.MustParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), Limits{Depth: 6}, Callbacks{})
	before := settledRSS(t)
	start := time.Now()
	e.Clear()
	took := time.Since(start)
	grew := settledRSS(t) - before
	t.Logf("Clear of a used 1024 MB table: %v, resident set %d MB before, %+d MB after", took, before>>20, grew>>20)
	if grew > 256<<20 {
		t.Errorf("Clear made %d MB of the 1024 MB table resident", grew>>20)
	}
	// The table still works.
	r := e.Search(v.MustParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), Limits{Depth: 4}, Callbacks{})
	if r.Best == v.NoMove {
		t.Error("no move after Clear")
	}
}

// TestSearchSetupAllocs: a search reuses the last one's position, root
// moves and PVs, so repeated short searches (datagen plays millions)
// allocate nothing once the buffers have grown.
func TestSearchSetupAllocs(t *testing.T) {
	e := NewEngine(Options{HashMB: 1, Threads: 1, MultiPV: 1})
	pos, err := v.ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	if err != nil {
		t.Fatal(err)
	}
	limits := Limits{SoftNodes: 2000, Nodes: 8000}
	const runs = 20
	ctls := make([]*Control, runs+2)
	for i := range ctls {
		ctls[i] = NewControl()
	}
	e.SearchWith(ctls[runs+1], pos, limits, Callbacks{})
	i := 0
	n := testing.AllocsPerRun(runs, func() {
		if res := e.SearchWith(ctls[i], pos, limits, Callbacks{}); res.Best == v.NoMove {
			t.Fatal("no move")
		}
		i++
	})
	if n != 0 {
		t.Errorf("%v allocations per search, want 0", n)
	}
}
