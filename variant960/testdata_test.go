package variant960_test

import (
	"flag"
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
	return testutil.ReadTSV(t, filepath.Join("testdata", name))
}

// splitFields splits a space-separated list; "-" is the empty list.
func splitFields(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Fields(s)
}
