package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDatagenCLI(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if rc := run([]string{"datagen", "--out", dir, "--games", "1", "--nodes", "300", "--max-plies", "20", "--hash", "1"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("datagen: rc %d: %s", rc, errb.String())
	}
	if !strings.Contains(errb.String(), "done: games 1") {
		t.Errorf("progress: %q", errb.String())
	}
	chunks, _ := filepath.Glob(filepath.Join(dir, "chunk-*.rdg.zst"))
	if len(chunks) != 1 {
		t.Fatalf("chunks %q", chunks)
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.tsv")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if rc := run([]string{"datagen", "convert", chunks[0]}, nil, &out, &errb); rc != 0 {
		t.Fatalf("convert: rc %d: %s", rc, errb.String())
	}
	if n := strings.Count(out.String(), "\n"); n == 0 || n > 20 {
		t.Errorf("convert: %d lines", n)
	}
	out.Reset()
	if rc := run([]string{"datagen", "stats", chunks[0]}, nil, &out, &errb); rc != 0 || !strings.Contains(out.String(), "games 1,") {
		t.Errorf("stats: rc %d: %q", rc, out.String())
	}
	for _, args := range [][]string{
		{"datagen"},
		{"datagen", "--out", dir},
		{"datagen", "--games", "1"},
		{"datagen", "--out", dir, "--games", "1", "--nodes", "0"},
		{"datagen", "--out", dir, "--games", "1", "extra"},
		{"datagen", "convert"},
		{"datagen", "stats"},
		{"datagen", "--import-pgn", "a.pgn"},
		{"datagen", "--import-pgn", ",", "--out", dir},
		{"datagen", "--out", dir, "--games", "1", "--mix", "50,50"},
		{"datagen", "--out", dir, "--games", "1", "--mix", "50,40,20"},
		{"datagen", "--out", dir, "--games", "1", "--mix", "50,-10,60"},
		{"datagen", "--out", dir, "--games", "1", "--mix", "x,50,50"},
	} {
		errb.Reset()
		if rc := run(args, nil, &out, &errb); rc != 2 {
			t.Errorf("%q: rc %d, want 2", args, rc)
		}
	}
	if rc := run([]string{"datagen", "convert", filepath.Join(dir, "manifest.tsv")}, nil, &out, &errb); rc != 1 {
		t.Errorf("convert of a non-chunk: rc %d, want 1", rc)
	}
	// Help goes to stdout with exit status 0, as for the other
	// subcommands (it went to stderr, and stats took --help for a file).
	for _, args := range [][]string{{"datagen", "--help"}, {"datagen", "-h"}, {"datagen", "convert", "--help"}, {"datagen", "stats", "--help"}} {
		var hout, herr bytes.Buffer
		if rc := run(args, nil, &hout, &herr); rc != 0 || !strings.Contains(hout.String(), "rochade datagen stats FILE") || herr.Len() != 0 {
			t.Errorf("%q: rc %d, stdout %d bytes, stderr %q", args, rc, hout.Len(), herr.String())
		}
	}
	// A folder is named as one; it was "bad training data: truncated
	// header", as if the data were at fault.
	for _, sub := range []string{"stats", "convert"} {
		errb.Reset()
		if rc := run([]string{"datagen", sub, dir}, nil, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "is a directory") || strings.Contains(errb.String(), "truncated") {
			t.Errorf("datagen %s of a folder: rc %d, stderr %q", sub, rc, errb.String())
		}
	}
}

// TestDatagenDefaultNodes: without --nodes a run plays at 2,500 soft nodes
// (10,000 hard), the setting that won the nodes-per-move experiment, and its
// manifest says so.
func TestDatagenDefaultNodes(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if rc := run([]string{"datagen", "--out", dir, "--games", "1", "--max-plies", "4", "--hash", "1"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("datagen: rc %d: %s", rc, errb.String())
	}
	if !strings.Contains(errb.String(), "nodes 2500,") {
		t.Errorf("banner does not give 2500 nodes: %q", errb.String())
	}
	m, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(m)), "\n")
	if f := strings.Split(lines[len(lines)-1], "\t"); len(f) < 5 || f[3] != "2500" || f[4] != "10000" {
		t.Errorf("manifest nodes: %q, want 2500 and 10000", lines[len(lines)-1])
	}
}
