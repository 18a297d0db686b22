package search

import (
	"fmt"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// BenchmarkTimeToDepth prints, for 1 and 2 threads, the time to reach a
// fixed depth on the bench positions (Lazy SMP speed-up). Run it on an
// otherwise idle machine: `go test -run '^$' -bench TimeToDepth ./search/`.
func BenchmarkTimeToDepth(b *testing.B) {
	const depth = 13
	var base time.Duration
	for _, threads := range []int{1, 2} {
		var total time.Duration
		var nodes uint64
		for i := 0; i < b.N; i++ {
			e := NewEngine(Options{HashMB: 64, Threads: threads, MultiPV: 1})
			for _, fen := range BenchPositions[:12] {
				e.Clear()
				start := time.Now()
				r := e.Search(v.MustParseFEN(fen), Limits{Depth: depth}, Callbacks{})
				total += time.Since(start)
				nodes += r.Nodes
			}
		}
		if threads == 1 {
			base = total
		}
		fmt.Printf("threads %d: depth %d on 12 positions in %v (%d nodes, %.0f nps); speed-up %.2fx\n",
			threads, depth, (total / time.Duration(b.N)).Round(time.Millisecond), nodes/uint64(b.N),
			float64(nodes)/total.Seconds(), float64(base)/float64(total))
	}
}
