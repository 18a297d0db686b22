//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package tablebase

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// mapping is a table file mapped read-only (MAP_SHARED: the pages are the
// page cache's, shared by every process that maps the file).
type mapping struct {
	data []byte
}

// mapFile maps the regular file at path. It opens the file without
// blocking (O_NONBLOCK: a FIFO named like a table would otherwise wait
// for a writer for good) and checks the type of what it opened, so a file
// swapped for a FIFO or a folder between the folder listing and the open
// is refused too. The mapping is released by release or, once nothing
// refers to it, by the garbage collector.
func mapFile(path string) (*mapping, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(fi.Mode())
	}
	size := fi.Size()
	if size == 0 {
		return &mapping{}, nil
	}
	if int64(int(size)) != size || size < 0 {
		return nil, fmt.Errorf("file too large to map: %d bytes", size)
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var data []byte
	var merr error
	if err := sc.Control(func(fd uintptr) {
		data, merr = syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	}); err != nil {
		return nil, err
	}
	if merr != nil {
		return nil, fmt.Errorf("mmap: %w", merr)
	}
	m := &mapping{data: data}
	runtime.SetFinalizer(m, (*mapping).close)
	return m, nil
}

// close unmaps the file. Reads after it fault (and probes fail).
func (m *mapping) close() {
	if m.data != nil {
		syscall.Munmap(m.data)
		m.data = nil
		runtime.SetFinalizer(m, nil)
	}
}

// Len is the mapped length.
func (m *mapping) Len() int { return len(m.data) }

// At returns the byte at offset i.
func (m *mapping) At(i int) byte { return m.data[i] }

// contains reports whether addr lies inside the mapped file.
func (m *mapping) contains(addr uintptr) bool {
	if len(m.data) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(m.data)))
	return addr >= start && addr-start < uintptr(len(m.data))
}
