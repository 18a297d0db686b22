//go:build linux && (amd64 || arm64)

package search

import (
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
	"unsafe"
)

// On 64-bit Linux (amd64, arm64) the table lives outside the Go heap, in
// an anonymous mapping of its own, so that it can be made resident a
// chunk at a time (MADV_POPULATE_WRITE), cut short in place (munmap of
// its tail) and emptied without being written (MADV_DONTNEED), and so
// that the garbage collector neither scans nor counts it. (Other Linux
// architectures keep a Go slice, ttmem_other.go: on some of them mmap
// takes its arguments differently.)
//
// Huge pages. With hugePages set, a table of 2 MB or more is mapped with
// 2 MB to spare, trimmed to start on a 2 MB boundary and advised
// MADV_HUGEPAGE, where the kernel's base pages are 4 KB: a probe then
// seldom misses the TLB (on the 2-core AMD EPYC build machine, with 512 KB
// of L2 a core, bench ran about 10% faster at 16 MB, more with larger
// tables). The price is set-up time: the kernel compacts memory for each
// 2 MB page, and making 1 GB resident took 3-6 s instead of 2-3 s on the
// build machine under load (2026-11-25). Where the kernel gives no huge
// pages (transparent_hugepage "never") the advice changes nothing. It is
// off until its SPRT at a time control decides (docs/search-tests.md).

// hugePages: map tables of hugePageSize or more on huge pages.
var hugePages = false

const hugePageSize = 2 << 20

// ttMemory is the mapping holding the buckets; addr 0 where they are a
// Go slice (the mapping failed). cleanup unmaps it when the table is
// collected without freeBuckets having run (an Engine dropped unclosed).
type ttMemory struct {
	addr, size uintptr
	cleanup    runtime.Cleanup
}

// mapping is what a cleanup unmaps: the table's mapping as it stood when
// the cleanup was registered (shrinkBuckets registers a new one).
type mapping struct{ addr, size uintptr }

func unmapMapping(m mapping) { munmap(m.addr, m.size) }

const (
	madvPopulateWrite = 23 // MADV_POPULATE_WRITE, Linux 5.14
	osPageSize        = 4096
)

// allocBuckets makes n zeroed buckets: an anonymous mapping, or a Go
// slice where mmap fails.
func (t *TT) allocBuckets(n uint64) {
	size := n * uint64(unsafe.Sizeof(ttBucket{}))
	size = (size + osPageSize - 1) &^ (osPageSize - 1)
	huge := hugePages && size >= hugePageSize && os.Getpagesize() == osPageSize
	span := size
	if huge {
		span += hugePageSize
	}
	addr, _, errno := syscall.Syscall6(syscall.SYS_MMAP, 0, uintptr(span),
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS, ^uintptr(0), 0)
	if errno != 0 || addr == 0 || uint64(uintptr(span)) != span {
		t.buckets = make([]ttBucket, n)
		return
	}
	if huge {
		// Keep the size bytes from the first 2 MB boundary on and give
		// back the head before it and the tail after them.
		start := (addr + hugePageSize - 1) &^ (hugePageSize - 1)
		if start > addr {
			munmap(addr, start-addr)
		}
		if end := addr + uintptr(span); start+uintptr(size) < end {
			munmap(start+uintptr(size), end-start-uintptr(size))
		}
		addr = start
		// Only advice: where it fails the table works on small pages.
		_ = madvise(addr, uintptr(size), syscall.MADV_HUGEPAGE)
	}
	// addr is memory the Go runtime does not manage or move: reading it
	// as a pointer (not converting the uintptr) keeps go vet content.
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	t.buckets = unsafe.Slice((*ttBucket)(p), n)
	t.mem = ttMemory{addr: addr, size: uintptr(size)}
	t.mem.cleanup = runtime.AddCleanup(t, unmapMapping, mapping{addr, uintptr(size)})
}

// freeBuckets drops the table and returns its memory to the system.
func (t *TT) freeBuckets() {
	t.buckets = nil
	if t.mem.addr == 0 {
		debug.FreeOSMemory() // collects the old table and returns its pages
		return
	}
	t.mem.cleanup.Stop()
	munmap(t.mem.addr, t.mem.size)
	t.mem = ttMemory{}
}

// shrinkBuckets cuts the table to its first n buckets in place, giving
// the rest back to the system, and reports whether it could (the pages
// of the first n stay as they are).
func (t *TT) shrinkBuckets(n uint64) bool {
	if t.mem.addr == 0 {
		return false
	}
	keep := (uintptr(n)*unsafe.Sizeof(ttBucket{}) + osPageSize - 1) &^ (osPageSize - 1)
	if keep < t.mem.size {
		// The old cleanup would unmap the tail too, which a later
		// mapping may then hold: it goes before the tail does.
		t.mem.cleanup.Stop()
		munmap(t.mem.addr+keep, t.mem.size-keep)
		t.mem.size = keep
		t.mem.cleanup = runtime.AddCleanup(t, unmapMapping, mapping{t.mem.addr, keep})
	}
	t.buckets = t.buckets[:n:n]
	return true
}

// discardFrom empties buckets [lo, len) by handing their pages back: they
// read as zeros and are resident again only where written. lo is on a
// page boundary of the table. It reports whether it could.
func (t *TT) discardFrom(lo uint64) bool {
	off := uintptr(lo) * unsafe.Sizeof(ttBucket{})
	if t.mem.addr == 0 || off%osPageSize != 0 {
		return false
	}
	return off >= t.mem.size || madvise(t.mem.addr+off, t.mem.size-off, syscall.MADV_DONTNEED) == nil
}

// populate makes the pages of b resident (b starts on a page boundary
// of the mapping) and reports whether it could; where it could not, the
// caller writes to every page itself.
func (t *TT) populate(b []ttBucket) bool {
	if t.mem.addr == 0 || len(b) == 0 {
		return false
	}
	addr := uintptr(unsafe.Pointer(&b[0]))
	return addr%osPageSize == 0 && madvise(addr, uintptr(len(b))*unsafe.Sizeof(ttBucket{}), madvPopulateWrite) == nil
}

func madvise(addr, size uintptr, advice int) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, addr, size, uintptr(advice)); errno != 0 {
		return errno
	}
	return nil
}

func munmap(addr, size uintptr) {
	if _, _, errno := syscall.Syscall(syscall.SYS_MUNMAP, addr, size, 0); errno != 0 {
		panic("search: munmap of the transposition table: " + errno.Error())
	}
}

// TableOutsideHeap: the table is not in the Go runtime's memory.
const TableOutsideHeap = true
