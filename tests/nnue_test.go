package tests

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// writeRandomNet writes a net with eight output buckets and random
// weights in a trained net's ranges and returns its path.
func writeRandomNet(t *testing.T, seed uint64) (string, *eval.Net) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	n, err := eval.NewNet(eval.NetHidden, eval.PlainKings, 8)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n.W {
		n.W[i] = int16(r.IntN(121) - 60)
	}
	for i := range n.B {
		n.B[i] = int16(r.IntN(301) - 50)
	}
	for b := range 8 {
		o := n.OutputRow(b)
		for i := range o {
			o[i] = int16(r.IntN(255) - 127)
		}
	}
	var buf bytes.Buffer
	if err := eval.WriteNet(&buf, n, `{"test":"random"}`); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "random.nnue")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := eval.LoadNet(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return path, loaded
}

// searchSig runs go depth 6 on a middlegame and returns what identifies
// the search: the last info line's depth, seldepth, score, nodes and pv,
// and the bestmove. One thread at a fixed depth is deterministic, so two
// engines with the same evaluation and the same table and histories give
// the same signature.
func searchSig(t *testing.T, e *engine) string {
	t.Helper()
	e.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8")
	best, _, lines := e.search("go depth 6", 30*time.Second)
	var last string
	for _, l := range lines {
		if strings.HasPrefix(l, "info depth ") && strings.Contains(l, " score ") {
			last = l
		}
	}
	f := strings.Fields(last)
	keep := map[string]bool{"depth": true, "seldepth": true, "score": true, "nodes": true}
	var sig []string
	for i := 1; i < len(f); i++ {
		switch {
		case f[i] == "pv":
			sig = append(sig, f[i:]...)
			i = len(f)
		case f[i] == "score" && i+2 < len(f):
			sig = append(sig, f[i:i+3]...)
			i += 2
		case keep[f[i]] && i+1 < len(f):
			sig = append(sig, f[i:i+2]...)
			i++
		}
	}
	if len(sig) < 8 {
		t.Fatalf("no score line: %q", lines)
	}
	return strings.Join(sig, " ") + "; bestmove " + best
}

// TestEvalFileOption: a good net file loads and is the one that
// evaluates, a missing or corrupt one is one info string error and the
// last good net stays, Use NNUE switches between the net and the
// hand-written evaluation, and each switch clears what the old
// evaluation left in the table and the correction histories. Each search
// is compared with the same search of a fresh engine set up the same way:
// a different score shows the net is used; an identical search
// (score, nodes, pv) shows nothing of the old evaluation stayed.
func TestEvalFileOption(t *testing.T) {
	path, net := writeRandomNet(t, 1)
	data, _ := os.ReadFile(path)
	corrupt := filepath.Join(t.TempDir(), "corrupt.nnue")
	os.WriteFile(corrupt, data[:len(data)/2], 0o644)
	// Unclipped: 32 pieces could take unit 0's accumulator to 32*1100.
	unclipped, err := eval.NewNet(eval.NetHidden, eval.PlainKings, 1)
	if err != nil {
		t.Fatal(err)
	}
	for f := range eval.NetInputs {
		unclipped.W[f*eval.NetHidden] = 1100
	}
	var buf bytes.Buffer
	if err := eval.WriteNet(&buf, unclipped, "{}"); err != nil {
		t.Fatal(err)
	}
	overflow := filepath.Join(t.TempDir(), "unclipped.nnue")
	os.WriteFile(overflow, buf.Bytes(), 0o644)
	// freshSig is the signature of a new engine given these options.
	freshSig := func(opts ...string) string {
		f := startEngine(t)
		f.handshake()
		for _, o := range opts {
			f.send("setoption name " + o)
		}
		sig := searchSig(t, f)
		f.send("quit")
		f.waitExit(10 * time.Second)
		return sig
	}
	internal, random, hce := freshSig(), freshSig("EvalFile value "+path), freshSig("Use NNUE value false")
	if internal == random || internal == hce || random == hce {
		t.Fatalf("the evaluations search alike:\n  internal %s\n  random   %s\n  hce      %s", internal, random, hce)
	}

	e := startEngine(t)
	e.handshake()
	if got := searchSig(t, e); got != internal {
		t.Fatalf("the embedded net: %s, want %s", got, internal)
	}
	e.send("setoption name EvalFile value "+path, "isready")
	got := e.until("readyok", 10*time.Second)
	if len(got) != 2 || !strings.Contains(got[0], "info string EvalFile "+path+" loaded (net "+net.Hash+")") {
		t.Fatalf("loading a good net: %q", got)
	}
	if got := searchSig(t, e); got != random {
		t.Errorf("after loading %s: %s, want %s (a fresh engine with that net)", path, got, random)
	}
	for _, bad := range []struct{ path, why string }{
		{filepath.Join(t.TempDir(), "missing.nnue"), "no such file"},
		{corrupt, "net file"},
		{overflow, "hidden unit 0's accumulator can reach [0, 35200] with 32 pieces, outside int16"},
	} {
		e.send("setoption name EvalFile value "+bad.path, "isready")
		got = e.until("readyok", 10*time.Second)
		if len(got) != 2 || !strings.HasPrefix(got[0], "info string error: EvalFile") || !strings.Contains(got[0], "keeping "+path) ||
			!strings.Contains(got[0], bad.why) {
			t.Fatalf("bad net %s: %q", bad.path, got)
		}
	}
	for _, c := range []struct{ opt, want, name string }{
		{"Use NNUE value false", hce, "hand-written"},
		{"Use NNUE value true", random, "the loaded net"},
		{"EvalFile value <internal>", internal, "the embedded net"},
		{"EvalFile value " + path, random, "the loaded net again"},
	} {
		e.send("setoption name " + c.opt)
		if got := searchSig(t, e); got != c.want {
			t.Errorf("%s (%s): %s, want %s", c.opt, c.name, got, c.want)
		}
	}
	e.send("quit")
	e.waitExit(10 * time.Second)
}

// TestCLIEval: `rochade eval` prints the net's score from White's view,
// negated for the colour-mirrored position, and reads data lines too.
func TestCLIEval(t *testing.T) {
	path, net := writeRandomNet(t, 2)
	fens := []string{
		v.StartFEN,
		"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
		"rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R b HAha - 0 1",
	}
	mirrored := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
		"r2qkb1r/pp1b1ppp/2n1pn2/2pp4/3P4/2N1PN2/PP2BPPP/R1BQ1RK1 b kq - 0 8",
		"rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R w HAha - 0 1",
	}
	in := strings.Join(fens, "\n") + "\n" + strings.Join(mirrored, " | 10 | 0.5\n") + " | 10 | 0.5\nnot a fen\n"
	cmd := execCLI(t, "eval", "--evalfile", path)
	cmd.Stdin = strings.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[6], "error line 7") {
		t.Fatalf("eval output: %q", lines)
	}
	for i, fen := range fens {
		p := v.MustParseFEN(fen)
		want := min(max(eval.EvaluateNet(net, p), -eval.MaxEval), eval.MaxEval)
		if p.Side() == v.Black {
			want = -want
		}
		a, _ := strconv.Atoi(lines[i])
		b, _ := strconv.Atoi(lines[i+3])
		if a != want || b != -want {
			t.Errorf("%s: eval %d, mirrored %d; want %d and %d", fen, a, b, want, -want)
		}
	}
}

func execCLI(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	return exec.Command(plainBin(t), args...)
}
