//go:build linux || darwin

package tests

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// TestSyzygySpecialFiles: things named like tables that are not regular
// files (a FIFO, a folder, a link to a folder) must not hang the engine,
// and each warning names its file ("not a regular file" used to name
// none). A table renamed over while mapped keeps answering from the file
// that was mapped.
func TestSyzygySpecialFiles(t *testing.T) {
	dir := copyTables(t, "KQvK")
	if err := syscall.Mkfifo(filepath.Join(dir, "KRvK.rtbw"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "KBvK.rtbw"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "KBvK.rtbw"), filepath.Join(dir, "KNvK.rtbw")); err != nil {
		t.Fatal(err)
	}
	e := startEngine(t)
	e.handshake()
	start := time.Now()
	e.send("setoption name SyzygyPath value " + dir)
	got := e.sync()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("readyok after %v", took)
	}
	want := []string{
		"info string tablebase file not used: " + filepath.Join(dir, "KNvK.rtbw") + ": not a regular file: a folder",
		"info string tablebase file not used: " + filepath.Join(dir, "KRvK.rtbw") + ": not a regular file: a FIFO",
		"info string found 2 tablebases",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}

	// Rename another file over the mapped KQvK.rtbw: the mapping keeps the
	// old file, and the win is still found in the tables.
	fen := "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"
	for _, ext := range []string{".rtbw", ".rtbz"} {
		tmp := filepath.Join(dir, "new.tmp")
		if err := os.WriteFile(tmp, []byte("not a table"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "KQvK"+ext)); err != nil {
			t.Fatal(err)
		}
	}
	e.send("position fen " + fen)
	best, _, lines := e.search("go depth 6", 20*time.Second)
	legalIn(t, v.MustParseFEN(fen), best)
	if cp, mate, ok := lastScore(t, lines); !ok || scoreWDL(cp, mate) != 2 {
		t.Errorf("renamed over: score cp %d mate %d", cp, mate)
	}
	if f := tbFailures(lines); len(f) > 0 {
		t.Errorf("renamed over: %q", f)
	}
	e.send("quit")
	e.waitExit(10 * time.Second)
	e.checkProtocol()
}
