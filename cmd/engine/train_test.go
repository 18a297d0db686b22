package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/train"
	v "github.com/rochade/rochade/variant960"
)

// writeTrainData writes 400 scored lines over the given positions.
func writeTrainData(t *testing.T, dir string, fens []string) string {
	t.Helper()
	var sb strings.Builder
	for i := range 400 {
		fmt.Fprintf(&sb, "%s | %d | %s\n", fens[i%len(fens)], (i%7)*40-120, []string{"1.0", "0.5", "0.0"}[i%3])
	}
	data := filepath.Join(dir, "d.txt")
	if err := os.WriteFile(data, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTrainCommand runs `rochade train` on a tiny file, resumes it from
// its checkpoint, and reads the net file back with its manifest.
func TestTrainCommand(t *testing.T) {
	dir := t.TempDir()
	fens := []string{
		"bqnrknrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKNRB w DGdg - 0 1",
		"r1nbkrqn/p1pppppp/8/1p6/6P1/8/PPPPPP1P/BNRKQNR1 w GCf - 0 3",
		"4k3/8/8/8/8/8/8/4K2R b K - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	}
	data := writeTrainData(t, dir, fens)
	net := filepath.Join(dir, "n.nnue")
	ckpt := filepath.Join(dir, "ck")
	var out, errOut bytes.Buffer
	args := []string{"--data", data, "--val-last", "40", "--epochs", "2", "--finish-epochs", "1", "--batch", "64", "--threads", "2", "--out", net, "--checkpoint", ckpt}
	if err := trainMain(append(args[:len(args):len(args)], "--epochs", "1", "--finish-epochs", "0"), &out, &errOut); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "K ") || !strings.Contains(out.String(), "epoch   1") {
		t.Errorf("output:\n%s", out.String())
	}
	out.Reset()
	best := filepath.Join(dir, "best.nnue")
	if err := trainMain(append(args, "--resume", ckpt, "--best", best), &out, &errOut); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "resumed") || strings.Contains(out.String(), "epoch   1") || !strings.Contains(out.String(), "epoch   3") {
		t.Errorf("resumed output:\n%s", out.String())
	}
	q, err := train.LoadNetFile(net)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(q.Manifest, &m); err != nil {
		t.Fatalf("manifest %s: %v", q.Manifest, err)
	}
	if m.EpochsDone != 3 || m.TrainCount != 360 || m.ValCount != 40 || len(m.Data) != 1 || m.Data[0].Kept != 400 || m.K <= 0 || m.ValLoss == nil ||
		m.Buckets != train.DefaultBuckets || q.Buckets() != train.DefaultBuckets || m.Format != "RCHDNNUE v2" {
		t.Errorf("manifest %s", q.Manifest)
	}
	if en, err := eval.LoadNetFile(net); err != nil || en.Buckets() != train.DefaultBuckets {
		t.Errorf("the engine loads the trained net: %v", err)
	}
	if _, err := train.LoadNetFile(best); err != nil {
		t.Error(err)
	}
	for _, f := range []string{"last.ckpt", "epoch-003.ckpt", "epoch-003.nnue"} {
		if _, err := os.Stat(filepath.Join(ckpt, f)); err != nil {
			t.Error(err)
		}
	}
	if err := trainMain([]string{"--epochs", "1"}, &out, &errOut); err == nil {
		t.Error("no --data: no error")
	}
	for _, b := range []string{"0", "33"} {
		if err := trainMain([]string{"--data", data, "--buckets", b}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "--buckets") {
			t.Errorf("--buckets %s: err = %v", b, err)
		}
	}
	if err := trainMain(append(args, "--resume", ckpt, "--buckets", "3"), &out, &errOut); err == nil || !strings.Contains(err.Error(), "output buckets") {
		t.Errorf("resuming an 8-bucket run with --buckets 3: err = %v", err)
	}
	// One bucket: a one-bucket version 2 file.
	one := filepath.Join(dir, "one.nnue")
	if err := trainMain([]string{"--data", data, "--epochs", "1", "--batch", "64", "--buckets", "1", "--out", one}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if q, err := train.LoadNetFile(one); err != nil || q.Buckets() != 1 {
		t.Errorf("--buckets 1: %v", err)
	}
}

// TestTrainBestKeptOnResume: a run resumed with --best replaces the best
// net only with a better one. Resumed with a learning rate that wrecks the
// net, every later epoch is worse and the file stays as it was; the loss
// to beat once started again at +Inf, and the first worse epoch replaced
// the best net.
func TestTrainBestKeptOnResume(t *testing.T) {
	dir := t.TempDir()
	data := writeTrainData(t, dir, []string{
		"bqnrknrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKNRB w DGdg - 0 1",
		"r1nbkrqn/p1pppppp/8/1p6/6P1/8/PPPPPP1P/BNRKQNR1 w GCf - 0 3",
		"4k3/8/8/8/8/8/8/4K2R b K - 0 1",
		"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	})
	best, ckpt := filepath.Join(dir, "best.nnue"), filepath.Join(dir, "ck")
	args := []string{"--data", data, "--val-last", "60", "--finish-epochs", "0", "--batch", "32", "--threads", "2",
		"--out", filepath.Join(dir, "n.nnue"), "--checkpoint", ckpt, "--best", best, "--k", "400"}
	var out, errOut bytes.Buffer
	if err := trainMain(append(args[:len(args):len(args)], "--epochs", "3"), &out, &errOut); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	first := quantLosses(t, out.String())
	kept, err := os.ReadFile(best)
	if err != nil || len(first) != 3 {
		t.Fatalf("first run: %d losses, %v\n%s", len(first), err, out.String())
	}
	bestLoss := min(first[0], first[1], first[2])
	out.Reset()
	if err := trainMain(append(args, "--epochs", "5", "--resume", ckpt, "--lr", "50"), &out, &errOut); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	second := quantLosses(t, out.String())
	if len(second) != 2 {
		t.Fatalf("resumed run:\n%s", out.String())
	}
	if second[0] <= bestLoss || second[1] <= bestLoss {
		t.Fatalf("the resumed epochs (%v) are not all worse than %.6f; the test needs them worse", second, bestLoss)
	}
	now, err := os.ReadFile(best)
	if err != nil || !bytes.Equal(now, kept) || strings.Contains(out.String(), "best so far: wrote") {
		t.Errorf("a worse epoch (val %v, best %.6f) replaced the best net:\n%s", second, bestLoss, out.String())
	}
	if !strings.Contains(out.String(), fmt.Sprintf("best net so far: %s, quantised val %.6f", best, bestLoss)) {
		t.Errorf("the resumed run does not name the kept net and its loss %.6f:\n%s", bestLoss, out.String())
	}
}

// quantLosses reads the quantised validation losses that train prints.
func quantLosses(t *testing.T, out string) []float64 {
	t.Helper()
	var ls []float64
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "quantised net: val "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			ls = append(ls, f)
		}
	}
	return ls
}

// TestTrainWritesToItsWriters: `rochade train` reports on the writers the
// command line is run with (it once wrote to os.Stdout and os.Stderr
// whatever it was given).
func TestTrainWritesToItsWriters(t *testing.T) {
	dir := t.TempDir()
	data := writeTrainData(t, dir, []string{"4k3/8/8/8/8/8/8/4K2R b K - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})
	net := filepath.Join(dir, "n.nnue")
	var out, errOut bytes.Buffer
	if rc := run([]string{"train", "--data", data, "--epochs", "1", "--finish-epochs", "0", "--batch", "64", "--threads", "1", "--out", net}, nil, &out, &errOut); rc != 0 {
		t.Fatalf("exit %d\n%s%s", rc, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "wrote "+net) {
		t.Errorf("stdout:\n%s", out.String())
	}
	out.Reset()
	if rc := run([]string{"train", "--epochs", "1"}, nil, &out, &errOut); rc != 1 || !strings.Contains(errOut.String(), "rochade train: --data is required") {
		t.Errorf("no --data: exit %d, stderr:\n%s", rc, errOut.String())
	}
}

// TestTrainRefusesBadNumbers: numeric flags a run cannot use are refused
// before any data is read. A negative --lr trained a net, a --lambda of 2
// and a negative --k trained on targets outside 0..1, and a NaN --lr
// trained the whole run before it failed to write the manifest.
func TestTrainRefusesBadNumbers(t *testing.T) {
	for _, c := range [][]string{
		{"--lr", "-1"}, {"--lr", "0"}, {"--lr", "NaN"}, {"--lr", "+Inf"},
		{"--wd", "NaN"}, {"--wd", "-0.1"}, {"--lambda", "2"}, {"--lambda", "-0.5"},
		{"--k", "-5"}, {"--k", "NaN"}, {"--lr-final", "1.5"}, {"--lr-gamma", "0"},
		{"--lr-step", "0"}, {"--max-score", "0"}, {"--min-ply", "-1"},
	} {
		var out, errOut bytes.Buffer
		args := append([]string{"train", "--data", "/nonexistent/data.txt", "--epochs", "1"}, c...)
		if rc := run(args, nil, &out, &errOut); rc != 1 || !strings.Contains(errOut.String(), "rochade train: "+c[0]) || strings.Contains(errOut.String(), "nonexistent") {
			t.Errorf("%v: exit %d, stderr %q; want a refusal that names %s before the data is read", c, rc, errOut.String(), c[0])
		}
	}
}

// TestTrainKingBuckets: `rochade train --hidden 512 --king-buckets 4` on a
// few hundred positions of random Chess960 games writes a version 3 net
// of that shape, which the engine loads and evaluates as the trainer's
// reference inference does; a resumed run keeps the shape and refuses
// another; bad values are refused.
func TestTrainKingBuckets(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(17, 18))
	var fens []string
	for len(fens) < 400 {
		p, _ := v.Chess960Position(r.IntN(960))
		for ply := range 120 {
			var ml v.MoveList
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			p.Make(ml.Moves[r.IntN(ml.N)])
			if ply%6 == 5 && !p.InCheck() {
				fens = append(fens, p.ShredderFEN())
			}
		}
	}
	data := writeTrainData(t, dir, fens)
	net, ckpt := filepath.Join(dir, "kb.nnue"), filepath.Join(dir, "ck")
	args := []string{"--data", data, "--val-last", "40", "--epochs", "1", "--finish-epochs", "1", "--batch", "64", "--threads", "2",
		"--out", net, "--checkpoint", ckpt, "--hidden", "512", "--king-buckets", "4", "--mirror"}
	var out, errOut bytes.Buffer
	if err := trainMain(args, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "hidden 512, king buckets 4 (mirror true, factoriser false)") || !strings.Contains(out.String(), "--mirror only repeats") {
		t.Errorf("output:\n%s", out.String())
	}
	q, err := train.LoadNetFile(net)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(q.Manifest, &m); err != nil {
		t.Fatal(err)
	}
	layout := train.KingLayouts["4"]
	if m.Format != "RCHDNNUE v3" || m.Hidden != 512 || m.KingBuckets != 4 || !m.KingMirror || len(m.KingMap) != 32 || m.KingMap[2] != int(layout.Map[2]) || m.EpochsDone != 2 {
		t.Errorf("manifest %s", q.Manifest)
	}
	en, err := eval.LoadNetFile(net)
	if err != nil {
		t.Fatal(err)
	}
	if en.Hidden() != 512 || en.Kings() != layout || en.FileVersion() != 3 || q.Hidden != 512 || q.Kings != layout {
		t.Fatalf("net of width %d, kings %+v", en.Hidden(), en.Kings())
	}
	// The engine's eval command scores the positions as QuantEval does
	// (White's view; the positions are quiet, no bare kings, no scaling
	// with all this material).
	var in strings.Builder
	var want []string
	for _, f := range fens[:60] {
		p := v.MustParseFEN(f)
		if p.Occupied().Count() < 20 {
			continue
		}
		s := q.QuantEval(p)
		if p.Side() == v.Black {
			s = -s
		}
		in.WriteString(f + "\n")
		want = append(want, strconv.Itoa(s))
	}
	out.Reset()
	if rc := run([]string{"eval", "--evalfile", net}, strings.NewReader(in.String()), &out, &errOut); rc != 0 {
		t.Fatalf("eval: exit %d: %s", rc, errOut.String())
	}
	if got := strings.Fields(out.String()); !slices.Equal(got, want) || len(want) < 20 {
		t.Errorf("eval --evalfile: %v\nwant %v", got, want)
	}
	// Resumed, the shape is the checkpoint's; another is refused.
	out.Reset()
	if err := trainMain([]string{"--data", data, "--val-last", "40", "--epochs", "1", "--finish-epochs", "2", "--batch", "64",
		"--out", net, "--resume", ckpt}, &out, &errOut); err != nil {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	if en, err := eval.LoadNetFile(net); err != nil || en.Hidden() != 512 || en.Kings() != layout {
		t.Errorf("resumed net: %v", err)
	}
	for _, bad := range [][]string{{"--hidden", "256"}, {"--king-buckets", "8"}, {"--king-mirror=false"}, {"--factorise"}} {
		err := trainMain(append([]string{"--data", data, "--epochs", "1", "--out", net, "--resume", ckpt}, bad...), &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), "but "+filepath.Join(ckpt, "last.ckpt")) {
			t.Errorf("resume with %v: err = %v", bad, err)
		}
	}
	for _, bad := range [][]string{{"--hidden", "300"}, {"--hidden", "2048"}, {"--king-buckets", "3"}, {"--king-buckets", "0,1"}, {"--factorise"}, {"--bucket-wd", "1"}, {"--bucket-wd", "-1", "--factorise", "--king-buckets", "4"}} {
		if err := trainMain(append([]string{"--data", data}, bad...), &out, &errOut); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%v: err = %v", bad, err)
		}
	}
}
