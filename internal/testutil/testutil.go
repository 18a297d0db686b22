// Package testutil holds the small helpers that the tests of several
// packages share. It imports nothing of the engine, so that any package's
// tests, variant960's included, can use it.
package testutil

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Player is a position that plays moves given in UCI notation
// (*variant960.Position).
type Player interface {
	PlayMoves(moves ...string) (int, error)
}

// PlayMoves plays the space-separated moves on p; a move that cannot be
// played ends the test, naming it.
func PlayMoves(tb testing.TB, p Player, moves string) {
	tb.Helper()
	if i, err := p.PlayMoves(strings.Fields(moves)...); err != nil {
		tb.Fatalf("move %d of %q: %v", i+1, moves, err)
	}
}

// ReadTSV reads a tab-separated table with a header line (the reference
// tables under variant960/testdata) as rows of named columns.
func ReadTSV(tb testing.TB, path string) []map[string]string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
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
		tb.Fatal(err)
	}
	return rows
}

// ResidentKB is the resident set (VmRSS) of process pid, or of this
// process for pid 0, in KB from /proc; ok is false where there is none.
func ResidentKB(pid int) (kb int64, ok bool) {
	proc := "self"
	if pid != 0 {
		proc = strconv.Itoa(pid)
	}
	b, err := os.ReadFile("/proc/" + proc + "/status")
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb, err == nil
		}
	}
	return 0, false
}
