package tests

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDatagenImportPGN: `rochade datagen --import-pgn` turns the
// fastchess PGNs of datagen/testdata (standard, Chess960, with book
// moves) into chunks that `rochade datagen stats` and `rochade train`
// read: every move with a score becomes one position.
func TestDatagenImportPGN(t *testing.T) {
	var files []string
	want := 0
	for _, name := range []string{"fastchess_standard.pgn", "fastchess_chess960.pgn", "fastchess_book.pgn"} {
		path := filepath.Join("..", "datagen", "testdata", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// fastchess writes one comment per move: a score or {book}.
		want += strings.Count(string(data), "{") - strings.Count(string(data), "{book}")
		files = append(files, path)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "data")
	_, stderr := runCLI(t, false, "datagen", "--import-pgn", strings.Join(files, ","), "--out", out)
	if line := fmt.Sprintf("games read 14, imported 14 (white wins 6, draws 3, black wins 5), positions %d", want); !strings.Contains(stderr, line) {
		t.Errorf("import: %q, want %q", stderr, line)
	}
	chunk := filepath.Join(out, "chunk-000000.rdg.zst")
	stdout, _ := runCLI(t, false, "datagen", "stats", chunk)
	if !strings.Contains(stdout, fmt.Sprintf("games 14, positions %d,", want)) || !strings.Contains(stdout, "0 fake") {
		t.Errorf("stats:\n%s", stdout)
	}
	manifest, err := os.ReadFile(filepath.Join(out, "manifest.tsv"))
	if err != nil || !strings.Contains(string(manifest), "chunk-000000.rdg.zst\tpgn\tpgn\t0\t0\t0\t0\t14\t14\t") {
		t.Errorf("manifest: %v\n%s", err, manifest)
	}
	net := filepath.Join(dir, "n.nnue")
	stdout, stderr = runCLI(t, false, "train", "--data", chunk+","+chunk, "--dedup", "--epochs", "1", "--finish-epochs", "0", "--batch", "64", "--threads", "1", "--out", net)
	m := regexp.MustCompile(`loaded \S+: (\d+) read, (\d+) kept`).FindStringSubmatch(stdout + stderr)
	if m == nil || m[1] != fmt.Sprint(want) || m[2] == "0" {
		t.Errorf("train did not read the %d positions:\n%s%s", want, stdout, stderr)
	}
	// The chunk twice: --dedup drops the second copy of each position the
	// filter kept, less the last 2% held out for validation (whose first
	// copies it drops as validation positions).
	if m != nil {
		kept, _ := strconv.Atoi(m[2])
		d := regexp.MustCompile(`dedup: dropped (\d+) repeated training positions and (\d+) found in the validation set`).FindStringSubmatch(stdout + stderr)
		if d == nil {
			t.Errorf("no dedup line:\n%s%s", stdout, stderr)
		} else if r, _ := strconv.Atoi(d[1]); r < kept*9/10 || r >= 2*kept {
			t.Errorf("dedup dropped %s repeats of %d kept positions read twice", d[1], kept)
		}
	}
	if fi, err := os.Stat(net); err != nil || fi.Size() == 0 {
		t.Errorf("no net written: %v", err)
	}
	// A second import into the same directory is refused.
	runCLI(t, true, "datagen", "--import-pgn", files[0], "--out", out)
}

// TestDatagenImportFailure: an import that meets a read error (here a
// truncated .gz after a good file) fails, writes nothing and says so: no
// counts of positions that never reached a chunk, no chunks left behind
// to block a rerun into the same directory. The rerun skips a game cut
// off before its result and counts it.
func TestDatagenImportFailure(t *testing.T) {
	testdata := filepath.Join("..", "datagen", "testdata")
	book := filepath.Join(testdata, "fastchess_book.pgn")
	data, err := os.ReadFile(filepath.Join(testdata, "fastchess_standard.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	truncated := filepath.Join(dir, "standard.pgn.gz")
	if err := os.WriteFile(truncated, buf.Bytes()[:buf.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "data")
	_, stderr := runCLI(t, true, "datagen", "--import-pgn", book+","+truncated, "--out", out, "--chunk", "1")
	if !strings.Contains(stderr, "nothing written") || strings.Contains(stderr, "imported") || !strings.Contains(stderr, "unexpected EOF") {
		t.Errorf("failed import says:\n%s", stderr)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("failed import left %s: %v", out, err)
	}

	// A game cut off in its movetext, then the next game's tags.
	s := string(data)
	second := strings.Index(s[1:], "[Event ") + 1
	cut := s[:strings.Index(s, "10. ")] + "\n\n" + s[second:strings.Index(s[second+1:], "[Event ")+second+1]
	cutPath := filepath.Join(dir, "cut.pgn")
	if err := os.WriteFile(cutPath, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr = runCLI(t, false, "datagen", "--import-pgn", book+","+cutPath, "--out", out)
	if !strings.Contains(stderr, "games read 4, imported 3 ") || !strings.Contains(stderr, "skipped 1: cut off (no result token)") {
		t.Errorf("rerun says:\n%s", stderr)
	}
	manifest, err := os.ReadFile(filepath.Join(out, "manifest.tsv"))
	if err != nil || !strings.Contains(string(manifest), "\t0\t4\t3\t") {
		t.Errorf("manifest: %v\n%s", err, manifest)
	}
}

// TestDatagenMix: `rochade datagen --mix` says what it draws, records a
// mix other than the default in the manifest's twelfth column, refuses to
// resume that run with another mix, and refuses a bad mix with one clear
// line.
func TestDatagenMix(t *testing.T) {
	out := filepath.Join(t.TempDir(), "data")
	args := []string{"datagen", "--out", out, "--games", "2", "--chunk", "1", "--nodes", "300", "--max-plies", "16", "--hash", "1"}
	_, stderr := runCLI(t, false, append(args, "--mix", "0,20,80")...)
	if !strings.Contains(stderr, "starts 0% DFRC 20% Chess960 80% standard") {
		t.Errorf("no mix in the start line:\n%s", stderr)
	}
	manifest, err := os.ReadFile(filepath.Join(out, "manifest.tsv"))
	lines := strings.Split(strings.TrimSpace(string(manifest)), "\n")
	if err != nil || len(lines) != 3 || !strings.HasSuffix(lines[0], "\tsha256\tmix") {
		t.Fatalf("manifest: %v\n%s", err, manifest)
	}
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l, "\t0/20/80") {
			t.Errorf("manifest line without the mix: %q", l)
		}
	}
	_, stderr = runCLI(t, true, append(args, "--games", "3")...)
	if !strings.Contains(stderr, "mix 0/20/80; this run has") || !strings.Contains(stderr, "mix default (60/30/10)") {
		t.Errorf("resume with the default mix:\n%s", stderr)
	}
	_, stderr = runCLI(t, true, append(args, "--games", "3", "--mix", "0,30,80")...)
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, "sum to 110, want 100") {
		t.Errorf("bad mix:\n%s", stderr)
	}
	// The run is as it was.
	if again, _ := os.ReadFile(filepath.Join(out, "manifest.tsv")); !bytes.Equal(again, manifest) {
		t.Errorf("manifest changed by the refused runs:\n%s", again)
	}
}
