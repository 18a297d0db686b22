package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTrainFactorisedKingBuckets: the built binary trains a net with 4
// king buckets and the factoriser on imported fastchess games, keeps the
// factoriser in its checkpoint (a resume that asks for none is refused),
// and the engine loads the file it writes through EvalFile and searches
// with it.
func TestTrainFactorisedKingBuckets(t *testing.T) {
	dir := t.TempDir()
	chunk := importGames(t, dir)
	net, ckpt := filepath.Join(dir, "f.nnue"), filepath.Join(dir, "ck")
	stdout, _ := runCLI(t, false, "train", "--data", chunk, "--epochs", "1", "--finish-epochs", "0", "--batch", "64", "--threads", "1",
		"--king-buckets", "4", "--factorise", "--out", net, "--checkpoint", ckpt)
	if !strings.Contains(stdout, "king buckets 4 (mirror true, factoriser true)") {
		t.Errorf("train:\n%s", stdout)
	}
	_, stderr := runCLI(t, true, "train", "--data", chunk, "--epochs", "2", "--out", net, "--resume", ckpt, "--factorise=false")
	if !strings.Contains(stderr, "has factoriser true") {
		t.Errorf("resume without the factoriser: %s", stderr)
	}
	_, stderr = runCLI(t, true, "train", "--data", chunk, "--epochs", "1", "--out", net, "--factorise")
	if !strings.Contains(stderr, "--factorise needs king buckets") {
		t.Errorf("--factorise without king buckets: %s", stderr)
	}

	e := startEngine(t)
	e.handshake()
	e.send("setoption name EvalFile value "+net, "isready")
	got := e.until("readyok", 10*time.Second)
	if len(got) != 2 || !strings.Contains(got[0], "info string EvalFile "+net+" loaded") {
		t.Fatalf("loading the factorised net: %q", got)
	}
	e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1")
	if best, _, _ := e.search("go depth 6", 30*time.Second); best == "" || best == "0000" {
		t.Errorf("bestmove %q", best)
	}
	e.send("quit")
	e.waitExit(10 * time.Second)
	e.checkProtocol()
}

// TestTrainInitFromPlainNet: the built binary starts a king-bucketed run
// from a trained plain net (--init, from the net file and from the
// checkpoint). Before any step, the 4-bucket unmirrored net it writes, with
// and without the factoriser, evaluates every position as the plain net
// does; --init with --resume, or with a width the net does not have, is
// refused.
func TestTrainInitFromPlainNet(t *testing.T) {
	dir := t.TempDir()
	chunk := importGames(t, dir)
	plain, ckpt := filepath.Join(dir, "plain.nnue"), filepath.Join(dir, "ck")
	runCLI(t, false, "train", "--data", chunk, "--epochs", "1", "--finish-epochs", "0", "--batch", "64", "--threads", "1",
		"--out", plain, "--checkpoint", ckpt)

	evals := func(net string) string {
		cmd := execCLI(t, "eval", "--evalfile", net)
		cmd.Stdin = strings.NewReader(strings.Join([]string{
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
			"rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R b HAha - 0 1",
			"8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
			"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
		}, "\n") + "\n")
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("eval --evalfile %s: %v", net, err)
		}
		return string(got)
	}
	want := evals(plain)
	for i, c := range [][]string{
		{"--init", plain, "--factorise"},
		{"--init", ckpt},
	} {
		net := filepath.Join(dir, fmt.Sprintf("init%d.nnue", i))
		args := append([]string{"train", "--data", chunk, "--epochs", "0", "--finish-epochs", "0", "--threads", "1",
			"--king-buckets", "4", "--king-mirror=false", "--out", net}, c...)
		runCLI(t, false, args...)
		if got := evals(net); got != want {
			t.Errorf("%q: evals\n%s\nwant the plain net's\n%s", c, got, want)
		}
	}
	scratch := filepath.Join(dir, "scratch.nnue")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--init", plain, "--resume", ckpt}, "give one of them"},
		{[]string{"--init", plain, "--hidden", "512"}, "has width"},
		{[]string{"--init", filepath.Join(dir, "init0.nnue")}, "want the plain net"},
		{[]string{"--init", ckpt, "--checkpoint", ckpt}, "would be overwritten"},
		{[]string{"--init", plain, "--best", plain}, "would be overwritten"},
	} {
		args := append([]string{"train", "--data", chunk, "--epochs", "0", "--finish-epochs", "0", "--out", scratch}, c.args...)
		if _, stderr := runCLI(t, true, args...); !strings.Contains(stderr, c.want) {
			t.Errorf("%q: %s", c.args, stderr)
		}
	}
	// A finished run resumed has nothing to train and writes nothing.
	stdout, _ := runCLI(t, false, "train", "--data", chunk, "--resume", ckpt, "--epochs", "1", "--finish-epochs", "0", "--out", scratch)
	if !strings.Contains(stdout, "nothing to train") {
		t.Errorf("a finished run resumed:\n%s", stdout)
	}
	if _, err := os.Stat(scratch); err == nil {
		t.Error("a refused run, or a finished one resumed, wrote its net")
	}
}

// importGames imports the fastchess games of datagen's testdata into a run
// below dir with the built binary, and returns its chunk.
func importGames(t *testing.T, dir string) string {
	t.Helper()
	var files []string
	for _, name := range []string{"fastchess_standard.pgn", "fastchess_chess960.pgn"} {
		files = append(files, filepath.Join("..", "datagen", "testdata", name))
	}
	out := filepath.Join(dir, "data")
	runCLI(t, false, "datagen", "--import-pgn", strings.Join(files, ","), "--out", out)
	return filepath.Join(out, "chunk-000000.rdg.zst")
}
