//go:build linux && (amd64 || arm64)

package search

import (
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// mapped reports whether the page at addr is mapped (mincore fails with
// ENOMEM on an address no mapping covers).
func mapped(addr uintptr) bool {
	var vec [1]byte
	_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, addr&^(osPageSize-1), osPageSize, uintptr(unsafe.Pointer(&vec[0])))
	return errno != syscall.ENOMEM
}

// collectedUntil runs the garbage collector until done reports true or
// two seconds pass (cleanups run on a goroutine of their own).
func collectedUntil(done func() bool) bool {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		runtime.GC()
		if done() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return done()
}

// TestDroppedTableUnmapped: the mapping of a table nobody refers to any
// more is given back to the system once the table is collected, and an
// engine that is dropped takes its table with it.
func TestDroppedTableUnmapped(t *testing.T) {
	tt := NewTT(16)
	addr, size := tt.mem.addr, tt.mem.size
	if addr == 0 {
		t.Skip("the table is a Go slice here")
	}
	tt = nil
	if !collectedUntil(func() bool { return !mapped(addr) && !mapped(addr+size-1) }) {
		t.Errorf("the mapping of a dropped table is still there")
	}

	e := NewEngine(Options{HashMB: 16, Threads: 1, MultiPV: 1})
	addr = e.tt.mem.addr
	e = nil
	if !collectedUntil(func() bool { return !mapped(addr) }) {
		t.Errorf("the mapping of a dropped engine's table is still there")
	}
}

// TestShrunkTableCleanup: a table cut in place and then dropped gives
// back only what it still holds: a mapping made meanwhile where its tail
// was stays.
func TestShrunkTableCleanup(t *testing.T) {
	tt := NewTT(16)
	addr, size := tt.mem.addr, tt.mem.size
	if addr == 0 {
		t.Skip("the table is a Go slice here")
	}
	if !tt.shrinkBuckets(uint64(len(tt.buckets) / 2)) {
		t.Fatal("shrinkBuckets failed")
	}
	keep := tt.mem.size
	// A mapping of its own where the tail was.
	const mapFixedNoReplace = 0x100000
	tail, _, errno := syscall.Syscall6(syscall.SYS_MMAP, addr+keep, size-keep,
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|mapFixedNoReplace, ^uintptr(0), 0)
	if errno != 0 || tail != addr+keep {
		t.Skipf("cannot map the freed tail: %v", errno)
	}
	defer munmap(tail, size-keep)
	tt = nil
	if !collectedUntil(func() bool { return !mapped(addr) }) {
		t.Fatalf("the mapping of a dropped table is still there")
	}
	if !mapped(tail) || !mapped(addr+size-1) {
		t.Errorf("the dropped table's cleanup unmapped memory it no longer held")
	}
}

// TestEngineClose: Close gives the table back at once.
func TestEngineClose(t *testing.T) {
	e := NewEngine(Options{HashMB: 16, Threads: 1, MultiPV: 1})
	addr := e.tt.mem.addr
	if addr == 0 {
		t.Skip("the table is a Go slice here")
	}
	e.Close()
	if mapped(addr) {
		t.Errorf("the table is still mapped after Close")
	}
	runtime.KeepAlive(e)
}
