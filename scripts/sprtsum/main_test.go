package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Results that fastchess printed for SPRTs logged in docs/search-tests.md:
// the pentanomial counts, the bounds and fastchess's own LLR, Elo and nElo.
var fastchessRuns = []struct {
	ptnml        [5]int
	elo0, elo1   float64
	llr          float64
	elo, eloErr  float64 // 0: not logged
	nelo, neloEr float64
}{
	{[5]int{279, 588, 1166, 652, 394}, 0, 3, 2.95, 16.60, 6.93, 20.83, 8.68},
	{[5]int{174, 401, 816, 429, 260}, 0, 3, 2.05, 16.7, 8.3, 21.4, 10.6},
	{[5]int{171, 541, 876, 479, 163}, -3, 1, -1.09, -6.1, 7.4, 0, 0},
	{[5]int{215, 469, 912, 525, 229}, 0, 3, 0.77, 6.2, 7.6, 0, 0},
	{[5]int{156, 303, 557, 348, 167}, 0, 3, 0.61, 7.6, 9.8, 0, 0},
}

func TestAgreesWithFastchess(t *testing.T) {
	for _, r := range fastchessRuns {
		l, err := llr(r.ptnml, r.elo0, r.elo1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(l-r.llr) > 0.02 {
			t.Errorf("%v [%g, %g]: LLR %.3f, fastchess %.2f", r.ptnml, r.elo0, r.elo1, l, r.llr)
		}
		mean, variance, n := stats(r.ptnml)
		if e := logisticElo(mean); math.Abs(e-r.elo) > 0.06 {
			t.Errorf("%v: Elo %.2f, fastchess %.2f", r.ptnml, e, r.elo)
		}
		if r.nelo != 0 {
			if ne := (mean - 0.5) / math.Sqrt(variance) * nEloScale; math.Abs(ne-r.nelo) > 0.06 {
				t.Errorf("%v: nElo %.2f, fastchess %.2f", r.ptnml, ne, r.nelo)
			}
			if e := 1.959963984540054 * nEloScale / math.Sqrt(float64(n)); math.Abs(e-r.neloEr) > 0.06 {
				t.Errorf("%v: nElo error %.2f, fastchess %.2f", r.ptnml, e, r.neloEr)
			}
		}
		out := report(tally{p: r.ptnml}, r.elo0, r.elo1, 0.05, 0.05)
		if !strings.Contains(out, "+/- ") {
			t.Errorf("report without errors:\n%s", out)
		}
	}
}

// Two runs' counts added up are one test: its LLR is that of the sum.
func TestRunsAddUp(t *testing.T) {
	var sum tally
	sum.addPtnml(fastchessRuns[0].ptnml)
	sum.addPtnml(fastchessRuns[1].ptnml)
	want := [5]int{279 + 174, 588 + 401, 1166 + 816, 652 + 429, 394 + 260}
	if sum.p != want {
		t.Fatalf("sum %v, want %v", sum.p, want)
	}
	out := report(sum, 0, 3, 0.05, 0.05)
	if !strings.Contains(out, "H1 accepted") || !strings.Contains(out, "games 10318") {
		t.Errorf("report:\n%s", out)
	}
}

const samplePGN = `[Event "Fastchess Tournament"]
[Round "1"]
[White "new"]
[Black "base"]
[Result "1-0"]

1. e4 {+0.30/10 0.1s} e5 1-0

[Event "Fastchess Tournament"]
[Round "2"]
[White "new"]
[Black "base"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Event "Fastchess Tournament"]
[Round "1"]
[White "base"]
[Black "new"]
[Result "1-0"]

1. e4 e5 1-0

[Event "Fastchess Tournament"]
[Round "3"]
[White "base"]
[Black "new"]
[Result "0-1"]

1. c4 c5 0-1

[Event "Fastchess Tournament"]
[Round "2"]
[White "base"]
[Black "new"]
[Result "0-1"]

1. d4 d5 0-1

[Event "Fastchess Tournament"]
[Round "5"]
[White "new"]
[Black "base"]
[Result "0-1"]

1. b3 b6 0-1

[Event "Fastchess Tournament"]
[Round "5"]
[White "base"]
[Black "new"]
[Result "1/2-1/2"]

1. b3 b6 1/2-1/2

[Event "Fastchess Tournament"]
[Round "5"]
[White "new"]
[Black "base"]
[Result "1-0"]

1. b3 b6 1-0

[Event "Fastchess Tournament"]
[Round "4"]
[White "new"]
[Black "base"]
[Result "*"]

1. g3 *
`

func TestReadPGNPairsByRound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(path, []byte(samplePGN), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readPGN(path, "new")
	if err != nil {
		t.Fatal(err)
	}
	// Round 1: a win and a loss (1 point of 2: index 2). Round 2: a draw
	// and a win (index 3). Round 3's partner and round 4 never finished.
	// Round 5 was stopped after its first game (a loss) and played again
	// whole on resuming: a draw and a win (index 3).
	want := tally{w: 3, d: 2, l: 1, p: [5]int{0, 0, 1, 2, 0}}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if _, err := readPGN(path, "other"); err == nil {
		t.Error("a PGN without the engine was read")
	}
}

func TestParsePtnml(t *testing.T) {
	for _, s := range []string{"1,2,3,4,5", "[1, 2, 3, 4, 5]", "1 2 3 4 5"} {
		c, err := parsePtnml(s)
		if err != nil || c != [5]int{1, 2, 3, 4, 5} {
			t.Errorf("%q: %v %v", s, c, err)
		}
	}
	for _, s := range []string{"1,2,3,4", "1,2,x,4,5", "1,2,-3,4,5"} {
		if _, err := parsePtnml(s); err == nil {
			t.Errorf("%q was read", s)
		}
	}
}

// The command as it is run: two PGN files and counts from a log, added up.
func TestCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "sprtsum")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte(samplePGN), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(exe, "-engine", "new", "-ptnml", "279,588,1166,652,394", a, b).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "pairs 3085, games 6170") || !strings.Contains(string(out), "ptnml [279 588 1168 656 394]") {
		t.Errorf("output:\n%s", out)
	}
}
