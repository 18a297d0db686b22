//go:build unix

package regfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRegularFIFO: a FIFO with no writer is refused at once, from the
// opened file's type, not waited on.
func TestReadRegularFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadRegular(fifo, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
			t.Fatalf("ReadRegular(fifo) = %v; want not a regular file (a FIFO)", err)
		}
	case <-time.After(2 * time.Second):
		// Unblock the reader so that the test ends.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("ReadRegular(fifo) waited for a writer")
	}
}
