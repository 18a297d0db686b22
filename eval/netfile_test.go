package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadNetFileTooLarge: a file past the limit is refused.
func TestLoadNetFileTooLarge(t *testing.T) {
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
}
