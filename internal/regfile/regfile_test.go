package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
