package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRegularFIFO: a FIFO with no writer is refused at once, from the
// opened file's type, not waited on.
func TestReadRegularFIFO(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
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

func TestReadRegularLimit(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadRegular(name, 5); err != nil || string(data) != "12345" {
		t.Errorf("ReadRegular(5 bytes, 5) = %q, %v", data, err)
	}
	if _, err := ReadRegular(name, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadRegular(5 bytes, 4) = %v; want ErrTooLarge", err)
	}
	if _, err := ReadRegular(dir, 4); err == nil || !strings.Contains(err.Error(), "not a regular file (a directory)") {
		t.Errorf("ReadRegular(dir) = %v; want not a regular file (a directory)", err)
	}
}
