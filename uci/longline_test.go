package uci

import (
	"strings"
	"testing"
)

// TestDescribeLong: the command of an over-long line is found as Handle
// finds it, behind unknown tokens; the cut last word is not read.
func TestDescribeLong(t *testing.T) {
	for _, c := range []struct {
		head  string
		cmd   string
		perft bool
	}{
		{"go depth 5 searchmoves e2e4 e2", "go", false},
		{"joho hallo position startpos moves e2e4 e7", "position", false},
		{"go perft 3 x", "go", true},
		{"go perf", "go", false},
		{"isready xxxxxxxx", "isready", false},
		{"isrea", "", false},
		{"\t stop \t", "stop", false},
		{strings.Repeat("junk ", 10) + "quit x", "quit", false},
	} {
		got := describeLong([]byte(c.head))
		if got.cmd != c.cmd || got.perft != c.perft {
			t.Errorf("%q: %+v, want %q perft %v", c.head, *got, c.cmd, c.perft)
		}
	}
}
