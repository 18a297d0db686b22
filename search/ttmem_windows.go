//go:build windows

package search

import (
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows the table lives outside the Go heap, in memory of its own
// from VirtualAlloc. The Go runtime zeroes every page of a large
// allocation that reuses address space it once returned to the system
// (runtime.needZeroAfterSysUnused is true on Windows, false on Linux),
// so a `setoption Hash`, `Clear Hash` or `ucinewgame` after a search
// wrote zeros over the whole new table: all of it became resident at
// once, and a 4 GB table took 33 s under Wine 8. VirtualAlloc's pages are
// zero and become resident only when first touched, and VirtualFree
// gives them back at once.

// ttMemory is the VirtualAlloc block holding the buckets; addr 0 where
// they are a Go slice (VirtualAlloc failed).
type ttMemory struct {
	addr    uintptr
	cleanup runtime.Cleanup
}

// allocBuckets makes n zeroed buckets: committed by VirtualAlloc, or a Go
// slice where that fails. The block is released when the table is
// collected, if freeBuckets did not release it before.
func (t *TT) allocBuckets(n uint64) {
	size := n * uint64(unsafe.Sizeof(ttBucket{}))
	addr, err := windows.VirtualAlloc(0, uintptr(size), windows.MEM_RESERVE|windows.MEM_COMMIT, windows.PAGE_READWRITE)
	if err != nil || addr == 0 || uint64(uintptr(size)) != size {
		t.buckets = make([]ttBucket, n)
		return
	}
	// addr is memory the Go runtime does not manage or move: reading it
	// as a pointer (not converting the uintptr) keeps go vet content.
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	t.buckets = unsafe.Slice((*ttBucket)(p), n)
	t.mem = ttMemory{addr: addr, cleanup: runtime.AddCleanup(t, releaseBlock, addr)}
}

// freeBuckets drops the table and returns its memory to the system.
func (t *TT) freeBuckets() {
	t.buckets = nil
	if t.mem.addr == 0 {
		debug.FreeOSMemory() // collects the old table and returns its pages
		return
	}
	t.mem.cleanup.Stop()
	releaseBlock(t.mem.addr)
	t.mem = ttMemory{}
}

// releaseBlock frees a block from allocBuckets.
func releaseBlock(addr uintptr) {
	if err := windows.VirtualFree(addr, 0, windows.MEM_RELEASE); err != nil {
		panic("search: VirtualFree of the transposition table: " + err.Error())
	}
}

// shrinkBuckets does not cut the block in place: the caller reallocates.
func (t *TT) shrinkBuckets(n uint64) bool { return false }

// discardFrom does not empty the block without writing it: the caller
// reallocates.
func (t *TT) discardFrom(uint64) bool { return false }

// populate leaves it to the caller to write to every page.
func (t *TT) populate(b []ttBucket) bool { return false }

// TableOutsideHeap: the table is not in the Go runtime's memory.
const TableOutsideHeap = true
