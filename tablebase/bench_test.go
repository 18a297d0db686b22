package tablebase

import (
	"sync"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

func benchPositions(b *testing.B) []*v.Position {
	rows := readWDLRows(b)
	var ps []*v.Position
	for _, r := range rows {
		ps = append(ps, v.MustParseFEN(r.fen))
	}
	return ps
}

// BenchmarkProbeWDL is one WDL probe (with its capture resolution) of
// the 600 list positions in turn.
func BenchmarkProbeWDL(b *testing.B) {
	tb := openTables(b)
	ps := benchPositions(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.ProbeWDL(ps[i%len(ps)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeWDLParallel probes from all GOMAXPROCS goroutines.
func BenchmarkProbeWDLParallel(b *testing.B) {
	tb := openTables(b)
	ps := benchPositions(b)
	var mu sync.Mutex
	next := 0
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		mine := make([]*v.Position, len(ps))
		for i, p := range ps {
			mine[i] = p.Copy()
		}
		k := next
		next++
		mu.Unlock()
		for pb.Next() {
			tb.ProbeWDL(mine[k%len(mine)])
			k++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeDTZ is one DTZ probe of the list positions in turn.
func BenchmarkProbeDTZ(b *testing.B) {
	tb := openTables(b)
	ps := benchPositions(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.ProbeDTZ(ps[i%len(ps)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// Many goroutines probe at once (run with -race).
func TestConcurrentProbes(t *testing.T) {
	tb := openTables(t)
	rows := readWDLRows(t)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := range rows {
				r := rows[(i+g*75)%len(rows)]
				pos := v.MustParseFEN(r.fen)
				if w, ok := tb.ProbeWDL(pos); !ok || w != r.wdl {
					errs <- r.fen
					return
				}
				tb.ProbeDTZ(pos)
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for fen := range errs {
		t.Errorf("%s: wrong under concurrency", fen)
	}
}
