//go:build unix

package tablebase

import (
	"os"
	"syscall"
)

// loadFile maps a table file read-only. If mapping fails the file is read
// into memory instead. unmap releases what loadFile returned.
func loadFile(path string) (data []byte, mapped bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	size := fi.Size()
	if size == 0 {
		return nil, false, errEmpty
	}
	if size < 0 || size != int64(int(size)) {
		return nil, false, errTruncated
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err == nil {
		return data, true, nil
	}
	data, err = os.ReadFile(path)
	return data, false, err
}

func unmap(data []byte) { _ = syscall.Munmap(data) }
