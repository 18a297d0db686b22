package search

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rochade/rochade/tablebase"
	v "github.com/rochade/rochade/variant960"
)

// The 3-4-piece tables and their WDL list are kept once, in the
// tablebase package's testdata (see its README.md).
const (
	testTablesPath = "../tablebase/testdata/syzygy"
	testWDLPath    = "../tablebase/testdata/syzygy_wdl.tsv"
)

func testTables(t *testing.T) *tablebase.Tablebases {
	t.Helper()
	tb, warn := tablebase.Open(testTablesPath)
	if len(warn) > 0 || tb.Count() == 0 {
		t.Fatalf("%d tables in %s, warnings %q", tb.Count(), testTablesPath, warn)
	}
	return tb
}

func TestTBRankConstant(t *testing.T) {
	if tbMaxDTZ != tablebase.MaxDTZ {
		t.Fatal("tbMaxDTZ differs from tablebase.MaxDTZ")
	}
	if IsMate(TBWin) || IsMate(TBWin-MaxPly) || !isDecisive(TBWin-MaxPly) {
		t.Fatal("the tablebase band overlaps the mate scores")
	}
}

// With tables the root is ranked (the move keeps the win, the score is a
// table win) and inner nodes probe (tbhits grow); two threads share the
// tables (run with -race).
func TestSearchWithTablebases(t *testing.T) {
	tb := testTables(t)
	opts := DefaultOptions()
	opts.Threads = 2
	opts.Tablebase = tb
	e := NewEngine(opts)
	cases := []struct {
		fen  string
		want int // root WDL
	}{
		{"8/8/8/1n5k/8/8/3K1Q2/8 w - - 0 1", 2},   // in the tables: ranked at the root
		{"8/8/8/2K5/7k/r7/3P4/8 w - - 0 1", -2},   // lost: the score says so
		{"8/8/4k3/8/3n4/8/2KR4/6B1 w - - 0 1", 0}, // 5 pieces: probes inside
	}
	for _, c := range cases {
		pos := v.MustParseFEN(c.fen)
		var last Info
		res := e.Search(pos, Limits{Depth: 10}, Callbacks{OnInfo: func(i Info) { last = i }})
		if res.Best == v.NoMove {
			t.Fatalf("%s: no move", c.fen)
		}
		if last.TBHits == 0 {
			t.Errorf("%s: no tbhits", c.fen)
		}
		if pos.Occupied().Count() <= 4 {
			p := pos.Copy()
			p.Make(res.Best)
			w, ok := tb.ProbeWDL(p)
			if !ok || -w != c.want {
				t.Errorf("%s: %s leads to WDL %d, want %d", c.fen, res.Best, -w, c.want)
			}
			switch {
			case c.want > 0 && res.Score < TBWin-MaxPly:
				t.Errorf("%s: score %d for a win", c.fen, res.Score)
			case c.want < 0 && res.Score > -(TBWin-MaxPly):
				t.Errorf("%s: score %d for a loss", c.fen, res.Score)
			}
		}
	}
	// Without tables the same engine searches as before.
	opts.Tablebase = nil
	e.SetOptions(opts)
	var last Info
	e.Search(v.MustParseFEN(cases[0].fen), Limits{Depth: 6}, Callbacks{OnInfo: func(i Info) { last = i }})
	if last.TBHits != 0 {
		t.Errorf("tbhits %d without tables", last.TBHits)
	}
}

// The engine, with the tables on both sides, converts the won positions
// of the list that take longest (by DTZ) into mate before the 50-move
// rule, at a small node count.
func TestTablebaseConversion(t *testing.T) {
	tb := testTables(t)
	f, err := os.ReadFile(testWDLPath)
	if err != nil {
		t.Fatal(err)
	}
	type cand struct {
		fen string
		dtz int
	}
	var cands []cand
	for _, line := range strings.Split(string(f), "\n")[1:] {
		c := strings.Split(line, "\t")
		if len(c) < 3 || c[1] != "2" {
			continue
		}
		d, ok := tb.ProbeDTZ(v.MustParseFEN(c[0]))
		if ok {
			cands = append(cands, cand{c[0], d})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return b.dtz - a.dtz })
	n := 4
	if testing.Short() {
		n = 1
	}
	opts := DefaultOptions()
	opts.Tablebase = tb
	e := NewEngine(opts)
	for _, c := range cands[:min(n, len(cands))] {
		pos := v.MustParseFEN(c.fen)
		winner := pos.Side()
		for ply := 0; ; ply++ {
			if !pos.HasLegalMove() {
				if pos.Side() == winner || !pos.InCheck() {
					t.Errorf("%s (DTZ %d): ends without mate for the winner at %s", c.fen, c.dtz, pos.FEN())
				}
				break
			}
			if pos.Rule50() >= 100 || ply > 300 {
				t.Errorf("%s (DTZ %d): not converted, at %s", c.fen, c.dtz, pos.FEN())
				break
			}
			res := e.Search(pos, Limits{Nodes: 3000}, Callbacks{})
			pos.Make(res.Best)
		}
	}
}

// A table file cut to 0 bytes between two searches: the probes that read
// it fail (the mapping faults), the root is searched as without tables and
// the threads' positions are left intact, so the search still gives a
// legal move and a legal PV.
func TestSearchTableTruncated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows refuses to cut a mapped file")
	}
	dir := t.TempDir()
	for _, n := range []string{"KBNvK", "KBvK", "KNvK"} {
		for _, ext := range []string{".rtbw", ".rtbz"} {
			data, err := os.ReadFile(filepath.Join(testTablesPath, n+ext))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, n+ext), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	tb, warn := tablebase.Open(dir)
	if len(warn) > 0 {
		t.Fatal(warn)
	}
	var reports []string
	var mu sync.Mutex
	tb.OnFailure(func(msg string) {
		mu.Lock()
		reports = append(reports, msg)
		mu.Unlock()
	})
	opts := DefaultOptions()
	opts.Threads = 2
	opts.Tablebase = tb
	e := NewEngine(opts)
	search := func(fen string) (Result, Info) {
		t.Helper()
		pos := v.MustParseFEN(fen)
		var last Info
		res := e.Search(pos, Limits{Depth: 8}, Callbacks{OnInfo: func(i Info) { last = i }})
		if pos.FEN() != fen {
			t.Fatalf("the search changed the caller's position to %s", pos.FEN())
		}
		p := pos.Copy()
		for _, m := range last.PV {
			if !p.IsLegal(m) || !p.IsPseudoLegal(m) {
				t.Fatalf("%s: PV %v has an illegal move %v", fen, last.PV, m)
			}
			p.Make(m)
		}
		if res.Best == v.NoMove || !pos.IsPseudoLegal(res.Best) || !pos.IsLegal(res.Best) {
			t.Fatalf("%s: best move %v", fen, res.Best)
		}
		return res, last
	}
	if res, _ := search("8/8/8/8/3k4/8/8/KBN5 w - - 0 1"); res.Score < TBWin-MaxPly {
		t.Fatalf("intact tables: score %d", res.Score)
	}
	for _, ext := range []string{".rtbw", ".rtbz"} {
		if err := os.Truncate(filepath.Join(dir, "KBNvK"+ext), 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, fen := range []string{"8/8/8/4k3/8/8/8/KBN5 w - - 0 1", "8/8/8/8/2k5/8/8/KBN5 w - - 0 1",
		"8/8/8/8/8/1k6/2N5/K6B b - - 0 1"} {
		res, _ := search(fen)
		if res.Score >= TBWin-MaxPly || res.Score <= -(TBWin-MaxPly) {
			t.Errorf("%s: a table score %d from a cut table", fen, res.Score)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 || !strings.Contains(reports[0], "KBNvK.rtbw") {
		t.Errorf("reports %q", reports)
	}
}
