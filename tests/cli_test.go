package tests

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// runCLI runs the binary with arguments and returns stdout; it fails on
// a non-zero exit unless wantFail.
func runCLI(t *testing.T, wantFail bool, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(plainBin(t), args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if wantFail != (err != nil) {
		t.Fatalf("rochade %q: err %v (want failure: %v)\nstdout: %s\nstderr: %s", args, err, wantFail, out, stderr.String())
	}
	return string(out), stderr.String()
}

func TestCLIStartpos(t *testing.T) {
	rows := readTSV(t, "chess960_startpos.tsv")
	for _, sp := range []int{0, 1, 518, 959} {
		out, _ := runCLI(t, false, "startpos", strconv.Itoa(sp))
		want := rows[sp]["fen_shredder"]
		if sp == 518 {
			want = v.StartFEN
		}
		if strings.TrimSpace(out) != want {
			t.Errorf("startpos %d: %q, want %q", sp, out, want)
		}
	}
	f168 := readTSV(t, "fischer168.tsv")
	out, _ := runCLI(t, false, "startpos", "--fischer168", "17")
	if strings.TrimSpace(out) != f168[16]["fen_shredder"] {
		t.Errorf("--fischer168 17: %q, want %q", out, f168[16]["fen_shredder"])
	}
	out, _ = runCLI(t, false, "startpos", "--dfrc", "12", "400")
	p := v.MustParseFEN(strings.TrimSpace(out))
	if w, b, err := v.StartPositionNumbers(p.FEN()); err != nil || w != 12 || b != 400 {
		t.Errorf("--dfrc 12 400: %q gives %d %d %v", out, w, b, err)
	}
	for _, args := range [][]string{{"--random"}, {"--random", "--fischer168"}, {"--random", "--dfrc"}} {
		out, _ = runCLI(t, false, append([]string{"startpos"}, args...)...)
		w, b, err := v.StartPositionNumbers(strings.TrimSpace(out))
		if err != nil {
			t.Errorf("%v: %q: %v", args, out, err)
			continue
		}
		if args[len(args)-1] == "--fischer168" {
			if _, ok := v.Fischer168Index(w); !ok {
				t.Errorf("%v: SP %d is not Fischer168", args, w)
			}
		}
		if len(args) == 1 && w != b {
			t.Errorf("--random gave DFRC %d/%d", w, b)
		}
	}
	a, _ := runCLI(t, false, "startpos", "--random", "--seed", "7")
	b, _ := runCLI(t, false, "startpos", "--random", "--seed", "7")
	if a != b {
		t.Errorf("--seed 7 not reproducible: %q %q", a, b)
	}
	// --number, from a back rank, a Shredder-FEN, an X-FEN and a DFRC FEN.
	for _, c := range []struct{ in, want string }{
		{"RNBQKBNR", "SP: 518\nFischer168: 97\n"},
		{"BQNNRBKR", "SP: 2\nFischer168: 1\n"},
		{f168[16]["fen_xfen"], "SP: " + f168[16]["sp"] + "\nFischer168: 17\n"},
		{rows[0]["fen_shredder"], "SP: 0\n"},
		{p.ShredderFEN(), "DFRC: White SP 12, Black SP 400\n"},
	} {
		out, _ := runCLI(t, false, "startpos", "--number", c.in)
		if out != c.want {
			t.Errorf("--number %q: %q, want %q", c.in, out, c.want)
		}
	}
	// Each refusal names its cause (out-of-range numbers once printed
	// only "no position").
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"960"}, "960 out of range 0..959"},
		{[]string{"5000"}, "5000 out of range 0..959"},
		{[]string{"-1"}, "-1 out of range 0..959"},
		{[]string{"x"}, `"x" is not a number`},
		{[]string{"--fischer168", "0"}, "index 0 out of range 1..168"},
		{[]string{"--fischer168", "y"}, `"y" is not a number`},
		{[]string{"--dfrc", "1"}, "--dfrc needs two SP numbers"},
		{[]string{"--dfrc", "1", "2000"}, "2000 out of range 0..959"},
		{[]string{"--dfrc", "2000", "1"}, "2000 out of range 0..959"},
		{[]string{"--dfrc", "1", "z"}, `"z" is not a number`},
		{[]string{"--random", "3"}, `unexpected argument "3"`},
		{[]string{"--number", "RNBQKBNQ"}, "RNBQKBNQ"},
		{[]string{"--number"}, "--number needs"},
		{[]string{}, "need one SP number"},
	} {
		out, stderr := runCLI(t, true, append([]string{"startpos"}, c.args...)...)
		if out != "" || !strings.HasPrefix(stderr, "rochade startpos: ") || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "no position") {
			t.Errorf("startpos %q: stdout %q, stderr %q; want a message with %q", c.args, out, stderr, c.want)
		}
	}
}

func TestCLIPerft(t *testing.T) {
	out, _ := runCLI(t, false, "perft", "3")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 20+3 {
		t.Fatalf("perft 3: %d lines:\n%s", len(lines), out)
	}
	if lines[20] != "" || lines[21] != "Nodes searched: 8902" || !regexp.MustCompile(`^Time: \d+ ms, \d+ nps$`).MatchString(lines[22]) {
		t.Errorf("perft 3 ends %q", lines[20:])
	}
	for _, l := range lines[:20] {
		if !reDivide.MatchString(l) {
			t.Errorf("divide line %q", l)
		}
	}
	for _, row := range readTSV(t, "perft960_tricky.tsv")[:5] {
		out, _ := runCLI(t, false, "perft", "2", row["fen_shredder"])
		if !strings.Contains(out, "\nNodes searched: "+row["d2"]+"\n") {
			t.Errorf("perft 2 %s: want %s:\n%s", row["fen_shredder"], row["d2"], out)
		}
	}
	// Depth 0 counts the position and lists no move (it listed every root
	// move at 1 while counting 1 in all).
	if out, _ := runCLI(t, false, "perft", "0"); !strings.HasPrefix(out, "\nNodes searched: 1\n") {
		t.Errorf("perft 0:\n%s", out)
	}
	// Castling is written as UCI_Chess960 would have it: e1g1 in a
	// standard position (it was always king takes rook), king takes rook
	// in a Chess960 one.
	for _, c := range []struct{ fen, want, not string }{
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "\ne1g1: 1\n", "e1h1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "\ne1c1: 1\n", "e1a1"},
		{"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", "\nb1h1: 1\n", "b1g1"},
	} {
		out, _ := runCLI(t, false, "perft", "1", c.fen)
		if !strings.Contains("\n"+out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("perft 1 %s: want %q and no %q:\n%s", c.fen, strings.TrimSpace(c.want), c.not, out)
		}
	}
	runCLI(t, true, "perft")
	runCLI(t, true, "perft", "x")
	runCLI(t, true, "perft", "2", "not a fen")
}

func TestCLIBench(t *testing.T) {
	depth := "4"
	if raceEnabled {
		depth = "2"
	}
	a, _ := runCLI(t, false, "bench", depth)
	b, _ := runCLI(t, false, "bench", depth)
	last := func(s string) string {
		l := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return l[len(l)-1]
	}
	re := regexp.MustCompile(`^(\d+) nodes (\d+) nps$`)
	ma, mb := re.FindStringSubmatch(last(a)), re.FindStringSubmatch(last(b))
	if ma == nil || mb == nil {
		t.Fatalf("bench output does not end with `<N> nodes <M> nps`:\n%s", a)
	}
	if ma[1] != mb[1] {
		t.Errorf("bench is not deterministic: %s vs %s nodes", ma[1], mb[1])
	}
	runCLI(t, true, "bench", "x")
}

func TestCLIVersionHelp(t *testing.T) {
	out, _ := runCLI(t, false, "version")
	if !regexp.MustCompile(`^Rochade \S+\n$`).MatchString(out) {
		t.Errorf("version: %q", out)
	}
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		out, stderr := runCLI(t, false, args...)
		if stderr != "" {
			t.Errorf("%v wrote to stderr too (%d bytes): the usage must come once, on stdout", args, len(stderr))
		}
		for _, want := range []string{"bench", "perft", "startpos", "--fischer168", "--dfrc", "--random", "--number", "--log"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v lacks %s", args, want)
			}
		}
	}
	_, stderr := runCLI(t, true, "frobnicate")
	if !strings.Contains(stderr, "frobnicate") {
		t.Errorf("unknown command: %q", stderr)
	}
	// --version is the version; a bad global flag is named before the
	// usage (it was the usage alone); version and help refuse arguments
	// they do not take (they were ignored).
	for _, args := range [][]string{{"--version"}, {"-version"}} {
		if out, _ := runCLI(t, false, args...); !regexp.MustCompile(`^Rochade \S+\n$`).MatchString(out) {
			t.Errorf("%v: %q", args, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "rochade: flag provided but not defined: -bogus"},
		{[]string{"--log"}, "rochade: flag needs an argument: -log"},
		{[]string{"version", "--bogus"}, `rochade version: unexpected argument "--bogus"`},
		{[]string{"--version", "x"}, `rochade version: unexpected argument "x"`},
		{[]string{"help", "--bogus"}, `rochade help: unexpected argument "--bogus"`},
	} {
		out, stderr := runCLI(t, true, c.args...)
		if out != "" || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%q: stdout %q, stderr starts %q; want %q first", c.args, out, firstLine(stderr), c.want)
		}
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
