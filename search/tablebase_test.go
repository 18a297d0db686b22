package search

import (
	"os"
	"testing"

	"github.com/rochade/rochade/tablebase"
	v "github.com/rochade/rochade/variant960"
)

func testTables(t *testing.T) *tablebase.Tablebases {
	t.Helper()
	dir := "../../shared/data/syzygy"
	if _, err := os.Stat(dir + "/KQvK.rtbw"); err != nil {
		t.Skip("no Syzygy tables")
	}
	tb, _ := tablebase.Open(dir)
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
