package variant960_test

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rochade/rochade/internal/testutil"
)

// raceEnabled: the tests run under the race detector (deep perft is
// trimmed there).
const raceEnabled = testutil.RaceEnabled

// long enables the slow runs (perft depth 5 of all 960 start positions,
// 2,000 oracle games). Run with `make test-long` or
// `go test ./variant960 -long`.
var long = flag.Bool("long", false, "run the long test suites")

// readTSV reads a file from testdata as rows of named columns.
func readTSV(t testing.TB, name string) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var header []string
	var rows []map[string]string
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = cols
			continue
		}
		row := map[string]string{}
		for i, h := range header {
			if i < len(cols) {
				row[h] = cols[i]
			}
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// splitFields splits a space-separated list; "-" is the empty list.
func splitFields(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Fields(s)
}
