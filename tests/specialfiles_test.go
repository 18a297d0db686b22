//go:build linux || darwin

package tests

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFilesRefused: an EvalFile or a tablebase file that is a FIFO
// blocked the engine for good (opening a FIFO waits for a writer), and an
// EvalFile that is a huge file was read whole, outside the memory budget.
// Each must be refused with an error, and the engine must go on.
func TestSpecialFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "net.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	huge := filepath.Join(dir, "huge.nnue")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	tb := filepath.Join(dir, "tb")
	if err := os.Mkdir(tb, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(tb, "KQvK.rtbw"), 0o600); err != nil {
		t.Fatal(err)
	}

	e := startEngine(t)
	e.handshake()
	for _, c := range []struct{ cmd, want string }{
		{"setoption name EvalFile value " + fifo, "not a regular file"},
		{"setoption name EvalFile value " + huge, "larger than any net file"},
		{"setoption name SyzygyPath value " + tb, "not a regular file"},
	} {
		start := time.Now()
		e.send(c.cmd)
		got := e.sync()
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: readyok after %v", c.cmd, took)
		}
		if !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("%s: got %q, want an info string saying %q", c.cmd, got, c.want)
		}
	}
	best, _, _ := e.search("go depth 3", 10*time.Second)
	if best == "" || best == "0000" {
		t.Errorf("no move after the refused files: %q", best)
	}
	e.send("quit")
	e.waitExit(5 * time.Second)
}
