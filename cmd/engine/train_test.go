package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/train"
)

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
	var sb strings.Builder
	for i := range 400 {
		fmt.Fprintf(&sb, "%s | %d | %s\n", fens[i%4], (i%7)*40-120, []string{"1.0", "0.5", "0.0"}[i%3])
	}
	data := filepath.Join(dir, "d.txt")
	if err := os.WriteFile(data, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
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
