//go:build linux && (amd64 || arm64)

package search

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	v "github.com/rochade/rochade/variant960"
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

// smapsOf returns the lines of /proc/self/smaps for the mapping that
// holds addr, its header line first (nil where none does).
func smapsOf(t *testing.T, addr uintptr) []string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	var block []string
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			if in {
				return block
			}
			var lo, hi uintptr
			if _, err := fmt.Sscanf(f[0], "%x-%x", &lo, &hi); err == nil && lo <= addr && addr < hi {
				in = true
			}
		}
		if in {
			block = append(block, line)
		}
	}
	return block
}

// vmFlag reports whether the smaps block has flag in its VmFlags line.
func vmFlag(block []string, flag string) bool {
	for _, line := range block {
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			return slices.Contains(strings.Fields(rest), flag)
		}
	}
	return false
}

// anonHugeKB is the AnonHugePages figure of the smaps block.
func anonHugeKB(block []string) int {
	for _, line := range block {
		if rest, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(rest)[0])
			return kb
		}
	}
	return 0
}

// TestTableOnHugePages: with hugePages set, a table of 2 MB or more
// starts on a 2 MB boundary and is advised MADV_HUGEPAGE (the hg flag),
// and where the kernel gives huge pages on advice, the resident table
// is on them; a 1 MB table and any table with hugePages off are left
// on small pages. A table on huge pages is cut in place, emptied and
// searched as one on small pages is.
func TestTableOnHugePages(t *testing.T) {
	if os.Getpagesize() != osPageSize {
		t.Skip("base pages are not 4 KB here")
	}
	defer func(h bool) { hugePages = h }(hugePages)
	for _, on := range []bool{false, true} {
		hugePages = on
		tt := NewTT(64)
		if tt.mem.addr == 0 {
			t.Skip("the table is a Go slice here")
		}
		tt.Reserve(func() uint64 { return uint64(len(tt.buckets)) }, nil, nil)
		block := smapsOf(t, tt.mem.addr)
		if block == nil {
			t.Fatalf("hugePages %v: no mapping holds the table", on)
		}
		if got := vmFlag(block, "hg"); got != on {
			t.Errorf("hugePages %v: hg flag %v, want %v (%s)", on, got, on, block[0])
		}
		if on && tt.mem.addr%hugePageSize != 0 {
			t.Errorf("the table starts at %#x, not on a 2 MB boundary", tt.mem.addr)
		}
		mode, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
		huge := anonHugeKB(block)
		switch {
		case !on && huge != 0:
			t.Errorf("hugePages off: %d kB of the table on huge pages", huge)
		case on && !strings.Contains(string(mode), "[never]") && huge == 0:
			// The kernel may lack free 2 MB blocks: not an error of ours.
			t.Logf("hugePages on, THP %q: no huge page was given", strings.TrimSpace(string(mode)))
		}
		if on {
			t.Logf("THP %q: %d kB of 65,536 on huge pages", strings.TrimSpace(string(mode)), huge)
		}
		tt.freeBuckets()
	}

	hugePages = true
	small := NewTT(1)
	if small.mem.addr != 0 && vmFlag(smapsOf(t, small.mem.addr), "hg") {
		t.Errorf("a 1 MB table is advised MADV_HUGEPAGE")
	}
	small.freeBuckets()

	// Cut, cleared and searched on huge pages: the same tree as on small.
	pos, err := v.ParseFEN(BenchPositions[3])
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[bool]uint64{}
	for _, on := range []bool{false, true} {
		hugePages = on
		e := NewEngine(Options{HashMB: 8, Threads: 1, MultiPV: 1})
		if !e.tt.shrinkBuckets(uint64(len(e.tt.buckets)) * 3 / 4) {
			t.Fatal("shrinkBuckets failed")
		}
		e.Clear()
		nodes[on] = e.Search(pos, Limits{Depth: 11}, Callbacks{}).Nodes
		e.Close()
	}
	if nodes[true] != nodes[false] {
		t.Errorf("depth 11 on a cut 8 MB table: %d nodes on huge pages, %d on small", nodes[true], nodes[false])
	}
}
