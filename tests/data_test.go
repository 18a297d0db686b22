package tests

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// long enables the slow suites (more self-play games and games against
// Stockfish, more hostile input, every release build). Run with
// `make test-long` or `go test ./tests -long`; variant960 has its own
// -long for deep perft and the oracle games.
var long = flag.Bool("long", false, "run the long test suites")

// boardTestdata holds the board's reference tables (start positions,
// perft counts), which variant960's own tests read too.
const boardTestdata = "../variant960/testdata"

// readTSV reads a table of the board's reference data (boardTestdata)
// as rows of named columns.
func readTSV(t testing.TB, name string) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(boardTestdata, name))
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
