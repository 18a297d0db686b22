package tests

import (
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
	var files []string
	for _, name := range []string{"fastchess_standard.pgn", "fastchess_chess960.pgn"} {
		files = append(files, filepath.Join("..", "datagen", "testdata", name))
	}
	out := filepath.Join(dir, "data")
	runCLI(t, false, "datagen", "--import-pgn", strings.Join(files, ","), "--out", out)
	chunk := filepath.Join(out, "chunk-000000.rdg.zst")
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
