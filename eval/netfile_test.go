package eval

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadNetFileSpecialFiles: a FIFO is refused at once (its type is
// taken from the opened file) and a file past the limit is refused.
func TestLoadNetFileSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.nnue")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxNetFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := LoadNetFile(huge); err == nil || !strings.Contains(err.Error(), "larger than any net file") {
		t.Errorf("LoadNetFile(huge) = %v; want larger than any net file", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	fifo := filepath.Join(dir, "fifo.nnue")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := LoadNetFile(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("LoadNetFile(fifo) = %v; want not a regular file", err)
		}
	case <-time.After(2 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("LoadNetFile(fifo) waited for a writer")
	}
}
