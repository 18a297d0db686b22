package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
	stdout, stderr = runCLI(t, false, "train", "--data", chunk, "--epochs", "1", "--finish-epochs", "0", "--batch", "64", "--threads", "1", "--out", net)
	m := regexp.MustCompile(`loaded \S+: (\d+) read, (\d+) kept`).FindStringSubmatch(stdout + stderr)
	if m == nil || m[1] != fmt.Sprint(want) || m[2] == "0" {
		t.Errorf("train did not read the %d positions:\n%s%s", want, stdout, stderr)
	}
	if fi, err := os.Stat(net); err != nil || fi.Size() == 0 {
		t.Errorf("no net written: %v", err)
	}
	// A second import into the same directory is refused.
	runCLI(t, true, "datagen", "--import-pgn", files[0], "--out", out)
}
