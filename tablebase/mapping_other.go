//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package tablebase

import (
	"os"

	"golang.org/x/exp/mmap"
)

// mapping is a mapped table file (golang.org/x/exp/mmap: CreateFileMapping
// on Windows).
type mapping struct {
	r *mmap.ReaderAt
	n int
}

// mapFile maps the regular file at path. Only regular files: opening a
// FIFO would block for good.
func mapFile(path string) (*mapping, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(fi.Mode())
	}
	r, err := mmap.Open(path)
	if err != nil {
		return nil, err
	}
	return &mapping{r: r, n: r.Len()}, nil
}

func (m *mapping) close() {
	if m.r != nil {
		m.r.Close()
		m.r = nil
		m.n = 0
	}
}

// Len is the mapped length.
func (m *mapping) Len() int { return m.n }

// At returns the byte at offset i.
func (m *mapping) At(i int) byte { return m.r.At(i) }

// contains reports whether addr lies inside the mapped file: not known
// here (the failed file is found by its size instead).
func (m *mapping) contains(addr uintptr) bool { return false }
