package tablebase

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// The 3-4-piece tables and the WDL list live in testdata (see
// testdata/README.md); the search and tests packages use them too.
const (
	tablesPath = "testdata/syzygy"
	wdlPath    = "testdata/syzygy_wdl.tsv"
)

func openTables(t testing.TB) *Tablebases {
	t.Helper()
	tb, warn := Open(tablesPath)
	if len(warn) > 0 {
		t.Fatalf("warnings: %v", warn)
	}
	if tb.Count() == 0 {
		t.Fatalf("no tables in %s", tablesPath)
	}
	return tb
}

type wdlRow struct {
	fen      string
	wdl      int
	bestmove string
}

func readWDLRows(t testing.TB) []wdlRow {
	t.Helper()
	f, err := os.Open(wdlPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []wdlRow
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 {
			continue
		}
		w, err := strconv.Atoi(cols[1])
		if err != nil {
			t.Fatalf("bad row %q", sc.Text())
		}
		rows = append(rows, wdlRow{cols[0], w, cols[2]})
	}
	return rows
}

func TestOpenCounts(t *testing.T) {
	tb := openTables(t)
	if tb.CountWDL() != 35 || tb.CountDTZ() != 35 || tb.MaxPieces() != 4 {
		t.Fatalf("found %d WDL, %d DTZ, max %d pieces", tb.CountWDL(), tb.CountDTZ(), tb.MaxPieces())
	}
}

func TestWDLList(t *testing.T) {
	tb := openTables(t)
	rows := readWDLRows(t)
	if len(rows) != 600 {
		t.Fatalf("%d rows, want 600", len(rows))
	}
	bad := 0
	for _, r := range rows {
		pos, err := v.ParseFEN(r.fen)
		if err != nil {
			t.Fatalf("%s: %v", r.fen, err)
		}
		got, ok := tb.ProbeWDL(pos)
		if !ok || got != r.wdl {
			bad++
			if bad <= 20 {
				t.Errorf("%s: got %d ok=%v, want %d", r.fen, got, ok, r.wdl)
			}
		}
		if pos.FEN() != r.fen {
			t.Fatalf("probe changed the position: %s", pos.FEN())
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d rows wrong", bad, len(rows))
	}
}
