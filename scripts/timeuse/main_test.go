package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rochade/rochade/datagen"
)

// Two games: one at 1+0.1 that opens with a book move (so Black plays
// the first engine move) and one without a TimeControl tag.
const testPGN = `[Event "t"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]
[TimeControl "1+0.1"]

1. e4 {book} e5 {+0.10/5 0.200s, n=1000} 2. Nf3 {+0.20/6 0.300s, n=3000}
Nc6 {-0.10/7 0.500s} 1/2-1/2

[Event "t"]
[White "B"]
[Black "A"]
[Result "1-0"]

1. e4 {+0.30/9 0.100s, n=500} 1-0
`

func readTest(t *testing.T, a *analysis, fixed *clockRule) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(path, []byte(testPGN), 0o644); err != nil {
		t.Fatal(err)
	}
	err := datagen.ReadPGNFile(path, func(g *datagen.PGNGame, perr *datagen.PGNError) error {
		if perr != nil {
			t.Fatalf("pgn error: %v", perr)
		}
		return a.addGame(g, fixed)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestClockRebuilt(t *testing.T) {
	a := newAnalysis(2, 2, 0.95, 3)
	readTest(t, a, nil)
	if a.skipped != 1 {
		t.Errorf("skipped %d games, want 1 (the one without TimeControl)", a.skipped)
	}
	b, e := a.engines["B"], a.engines["A"]
	// B: e5 at ply 0 with 1.0 s on its clock, Nc6 at ply 2 with 1.0-0.2+0.1.
	if b.rows[0].moves != 1 || b.rows[1].moves != 1 || e.rows[0].moves != 1 || e.rows[1].moves != 0 {
		t.Fatalf("rows: B %+v, A %+v", b.rows, e.rows)
	}
	if !near(b.rows[0].clocks[0], 1.0) || !near(b.rows[1].clocks[0], 0.9) || !near(e.rows[0].clocks[0], 1.0) {
		t.Errorf("clocks before the moves: B %v %v, A %v", b.rows[0].clocks, b.rows[1].clocks, e.rows[0].clocks)
	}
	if b.rows[0].lowMoves != 0 || b.rows[1].lowMoves != 1 {
		t.Errorf("moves below 0.95 s: %d and %d, want 0 and 1", b.rows[0].lowMoves, b.rows[1].lowMoves)
	}
	if !near(b.used, 0.7) || !near(b.given, 1.2) || !near(e.used, 0.3) || !near(e.given, 1.1) {
		t.Errorf("used/given: B %v/%v, A %v/%v", b.used, b.given, e.used, e.given)
	}
	if len(b.endClocks) != 1 || !near(b.endClocks[0], 0.5) || len(e.endClocks) != 1 || !near(e.endClocks[0], 0.8) {
		t.Errorf("end clocks: B %v, A %v", b.endClocks, e.endClocks)
	}
	if b.rows[1].nodesTime != 0 || !near(b.rows[0].nodes/b.rows[0].nodesTime, 5000) {
		t.Errorf("nodes: %+v", b.rows)
	}

	var out strings.Builder
	a.print(&out)
	for _, want := range []string{
		"B: 1 games, used 58.3% of its time, clock at the end of 1 games of 3 plies or more: median 0.50 s",
		"A: 1 games, used 27.3% of its time",
		"  2 on           1   0.500s   7.00        -    0.90s   100%",
		"1 games without a time control skipped",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// -tc takes the place of the tag, and reads the game without one.
func TestFixedTimeControl(t *testing.T) {
	a := newAnalysis(40, 5, 2, 80)
	readTest(t, a, &clockRule{base: 2, inc: 0})
	if a.skipped != 0 {
		t.Fatalf("skipped %d games with -tc", a.skipped)
	}
	if b := a.engines["B"]; b.games != 2 || !near(b.used, 0.8) || !near(b.given, 4) || b.rows[0].lowMoves != 1 {
		t.Errorf("B with -tc 2+0: %+v", b)
	}
}

func TestParseTC(t *testing.T) {
	for in, want := range map[string]clockRule{"5+0.05": {5, 0.05}, "8+0.08": {8, 0.08}, "60": {60, 0}} {
		if got, err := parseTC(in); err != nil || got != want {
			t.Errorf("parseTC(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "40/60", "0+1", "5+x", "x"} {
		if _, err := parseTC(bad); err == nil {
			t.Errorf("parseTC(%q): no error", bad)
		}
	}
}

func TestMoveTime(t *testing.T) {
	for _, c := range []struct {
		in    string
		secs  float64
		nodes int64
		ok    bool
	}{
		{"+0.35/12 0.219s, n=69119, sd=15", 0.219, 69119, true},
		{"-M3/9 0.001s, n=170", 0.001, 170, true},
		{"+0.35/12 0.1s", 0.1, 0, true},
		{"0.00/11 0.000s, n=2000, sd=11, Draw by adjudication", 0, 2000, true},
		{"book", 0, 0, false},
	} {
		secs, nodes, ok := moveTime(c.in)
		if ok != c.ok || !near(secs, c.secs) || nodes != c.nodes {
			t.Errorf("moveTime(%q) = %v, %v, %v", c.in, secs, nodes, ok)
		}
	}
}
