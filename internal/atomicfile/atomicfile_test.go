package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The target gets the new contents whole, nothing else is left in the
// directory, and a failed write leaves the old contents and no
// temporary file.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.bin")
	if err := Write(path, []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("second, longer"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "second, longer" {
		t.Fatalf("contents %q, %v", got, err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm()&0o077 != 0 {
		t.Errorf("mode %v, %v", st.Mode(), err)
	}
	boom := errors.New("disk full")
	err := WriteFunc(path, 0o600, func(w io.Writer) error {
		if _, err := w.Write(make([]byte, 3<<20)); err != nil { // past the buffer: the temporary file grows
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failed write: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "second, longer" {
		t.Errorf("a failed write changed the file to %d bytes", len(got))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %v", entries)
	}
	// A stale temporary file from a crash is replaced, not appended to.
	os.WriteFile(path+TempSuffix, []byte("stale stale stale stale"), 0o600)
	if err := Write(path, []byte("third"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "third" {
		t.Errorf("contents %q", got)
	}
	if _, err := os.Stat(path + TempSuffix); !os.IsNotExist(err) {
		t.Errorf("temporary file left: %v", err)
	}
	// A directory that does not exist is an error.
	if err := Write(filepath.Join(dir, "no", "such"), []byte("x"), 0o600); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}
