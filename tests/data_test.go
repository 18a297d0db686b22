package tests

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/rochade/rochade/internal/testutil"
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
	return testutil.ReadTSV(t, filepath.Join(boardTestdata, name))
}
