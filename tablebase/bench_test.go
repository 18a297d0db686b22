package tablebase

import (
	"os"
	"runtime"
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

// Probing allocates nothing, the first probe of each table included: the
// files are mapped and parsed when the folder is opened, not by a search
// thread in the middle of a search. And the tables take next to no heap:
// the probes read the mapped files in place.
func TestProbesAllocateNothing(t *testing.T) {
	var m0, m1, m2 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	tb := openTables(t)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	var files int64
	entries, err := os.ReadDir(tablesPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			files += fi.Size()
		}
	}
	// The descriptions (piece lists, Huffman codes) take about 5 KB a
	// table here; a file read into memory would take its whole size.
	if heap := int64(m1.HeapAlloc) - int64(m0.HeapAlloc); heap > files/2 {
		t.Errorf("the open tables take %d bytes of heap, their files %d", heap, files)
	}

	rows := readWDLRows(t)
	ps := make([]*v.Position, len(rows))
	for i, r := range rows {
		ps[i] = v.MustParseFEN(r.fen)
	}
	runtime.ReadMemStats(&m1)
	for _, p := range ps {
		tb.ProbeWDL(p)
		tb.ProbeDTZ(p)
	}
	runtime.ReadMemStats(&m2)
	if n := m2.Mallocs - m1.Mallocs; n > 0 {
		t.Errorf("the first probes of %d positions allocated %d times, %d bytes", len(ps), n, m2.TotalAlloc-m1.TotalAlloc)
	}
	if tb.Hits() == 0 {
		t.Fatal("no probe answered")
	}
	if n := testing.AllocsPerRun(3, func() {
		for _, p := range ps {
			tb.ProbeWDL(p)
			tb.ProbeDTZ(p)
		}
	}); n > 0 {
		t.Errorf("probes allocate: %.0f times a pass", n)
	}
}

// BenchmarkProbeTable is the table read alone (index and decompression, no
// capture search) of the list positions' own WDL tables, in turn: the part
// of a probe that reads the mapped file.
func BenchmarkProbeTable(b *testing.B) {
	tb := openTables(b)
	type probe struct {
		t   *table
		pos *v.Position
	}
	var ps []probe
	for _, p := range benchPositions(b) {
		if t := tb.wdl[positionKey(p)]; t != nil {
			ps = append(ps, probe{t, p})
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := ps[i%len(ps)]
		p.t.probeTable(p.pos, 0)
	}
}

// probeWDLUnguarded and probeDTZUnguarded are ProbeWDL and ProbeDTZ
// without the fault guard (guard.go), for BenchmarkProbeGuard.
func (tb *Tablebases) probeWDLUnguarded(pos *v.Position) (int, bool) {
	if !tb.probeable(pos) {
		return 0, false
	}
	val, res := tb.search(pos, false)
	if res == resFail {
		return 0, false
	}
	tb.hits.Add(1)
	return val, true
}

func (tb *Tablebases) probeDTZUnguarded(pos *v.Position) (int, bool) {
	if !tb.probeable(pos) {
		return 0, false
	}
	d, ok := tb.probeDTZ(pos)
	if ok {
		tb.hits.Add(1)
	}
	return d, ok
}
