package search

import (
	"os"
	"slices"
	"strings"
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
