// Package membudget is the memory budget: what the machine, its cgroup
// or job object lets the process have, measured on every call, and the
// arithmetic that holds a transposition table and search threads to it.
// It imports no package of the engine: the callers (uci for the Hash and
// Threads options, the datagen command for --hash) give the memory of a
// search thread.
package membudget

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
)

// The memory budget. Go cannot recover from running out of memory, and
// on Linux the kernel's OOM killer ends a process that touches more than
// the machine (or its cgroup) can give, so Hash and Threads are held to a
// budget: the table, the per-thread tables (search.ThreadBytes each) and
// BaseMB for everything else must fit in Share percent of the memory the
// process could have.
//
// That memory is measured on every call (couldHave combines the figures;
// the operating system's files read them, all in bytes):
//   - Linux (mem_linux.go): the resident set (VmRSS) plus MemAvailable,
//     held to MemTotal and, in a cgroup with a limit (v2 memory.max, v1
//     memory.limit_in_bytes, over the cgroup and its ancestors), to the
//     limit and to the resident set plus the limit less the cgroup's usage.
//   - Windows (mem_windows.go): the working set plus GlobalMemoryStatusEx's
//     available physical memory (and commit), held to the physical memory
//     and to a job object's memory limit.
//   - macOS (mem_darwin.go): the Go runtime's mapped memory plus the free,
//     purgeable and file-backed pages, held to hw.memsize.
//
// Where nothing can be read (other systems, or the files are missing) the
// process assumes DefaultMB (and uci says so once in an info string).
// The environment variable ROCHADE_MEMORY_MB overrides the measurement
// (tests that need a small machine use it).
const (
	// BaseMB covers the Go runtime, code and static tables, I/O buffers,
	// the position history and garbage between collections.
	BaseMB = 72
	// DefaultMB is assumed where memory cannot be measured.
	DefaultMB = 2048
	// Share (in percent) leaves room for the rest of the machine.
	Share = 75
)

// sysMemory is what the operating system says about memory, in bytes;
// -1 where it is not known.
type sysMemory struct {
	total     int64  // physical memory
	available int64  // what can be had without swapping, beyond own
	own       int64  // what this process holds now
	limit     int64  // the tightest limit on this process or its group; -1 for none
	limitFree int64  // that group's limit less its usage; -1 if not known
	limitName string // what the limit is, for info strings
}

// unknownMemory is a sysMemory with nothing known.
func unknownMemory() sysMemory {
	return sysMemory{total: -1, available: -1, own: -1, limit: -1, limitFree: -1}
}

// readSystemMemory measures the memory (systemMemory of the operating
// system's file); the tests replace it.
var readSystemMemory = systemMemory

// addressSpaceBytes caps what a 32-bit process can hold, whatever the
// machine has: 2 GB, the user address space of a 32-bit Windows process
// (Linux gives 3-4 GB, of which Go's heap and the binary take a share).
// It is -1 (no cap) on 64-bit builds; tests set it.
var addressSpaceBytes = func() int64 {
	if ^uintptr(0)>>32 == 0 {
		return 2 << 30
	}
	return -1
}()

// couldHave combines the figures into the memory, in bytes, the process
// could have: what it holds plus what is available, held to the limit (and
// to what it holds plus the limit's headroom), to the physical memory and
// to a 32-bit build's address space. ok is false where nothing was known.
func couldHave(m sysMemory) (bytes int64, source string, ok bool) {
	own := max(m.own, 0)
	bytes = -1
	switch {
	case m.available >= 0:
		bytes, source = own+m.available, "available memory"
	case m.total >= 0:
		bytes, source = m.total, "physical memory"
	}
	if m.limit >= 0 {
		lim := m.limit
		if m.limitFree >= 0 {
			lim = min(lim, own+max(m.limitFree, 0))
		}
		if bytes < 0 || lim < bytes {
			bytes, source = lim, m.limitName
		}
	}
	if bytes < 0 {
		return 0, "", false
	}
	if m.total >= 0 && bytes > m.total {
		bytes = m.total
	}
	if addressSpaceBytes >= 0 && bytes > addressSpaceBytes {
		bytes, source = addressSpaceBytes, "the address space of a 32-bit build"
	}
	return bytes, source, true
}

// Budget is the memory the engine may plan with.
type Budget struct {
	MB      int    // the budget in MB
	Source  string // how it was found, for info strings
	Guessed bool   // nothing could be measured: DefaultMB is assumed
}

// RoundUpMB is bytes in MB, rounded up (the callers' per-thread memory,
// threadMB, is search.ThreadBytes so rounded).
func RoundUpMB(bytes int64) int { return int((bytes + 1<<20 - 1) >> 20) }

// FootprintMB is what a configuration needs in all, with threadMB per
// search thread.
func FootprintMB(hash, threads, threadMB int) int { return hash + threads*threadMB + BaseMB }

// Current measures the budget now.
func Current() Budget {
	if s := os.Getenv("ROCHADE_MEMORY_MB"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return Budget{MB: n * Share / 100, Source: "ROCHADE_MEMORY_MB"}
		}
	}
	return budgetOf(readSystemMemory())
}

// Guess is the budget where nothing can be measured.
func Guess() Budget { return budgetOf(unknownMemory()) }

// budgetOf is the budget for what the system says.
func budgetOf(m sysMemory) Budget {
	bytes, source, ok := couldHave(m)
	if !ok {
		return Budget{MB: DefaultMB * Share / 100,
			Source: fmt.Sprintf("an assumed %d MB: memory could not be measured", DefaultMB), Guessed: true}
	}
	return Budget{MB: int(bytes>>20) * Share / 100, Source: source}
}

func (b Budget) String() string {
	return fmt.Sprintf("%d MB, %d%% of the memory we could have (%s)", b.MB, Share, b.Source)
}

// FitHash returns the largest Hash up to want that fits the budget with
// the given threads of threadMB each (at least 1).
func (b Budget) FitHash(want, threads, threadMB int) int {
	return max(1, min(want, b.MB-threads*threadMB-BaseMB))
}

// FitThreads returns the most Threads of threadMB each, up to want, that
// fit the budget with the given Hash (at least 1).
func (b Budget) FitThreads(want, hash, threadMB int) int {
	return max(1, min(want, (b.MB-hash-BaseMB)/threadMB))
}

// SetGoMemoryLimit tells the garbage collector to work harder before the
// heap outgrows the budget (with a large table the default goal, twice
// the live heap, could be far beyond it).
// The limit leaves outsideGoMB of the budget to what the resident set
// holds beyond the Go runtime's own memory (the binary's code and data
// pages, C-level thread stacks), and the table too where tableOutside
// says it lives outside the Go heap (mapped by itself: 64-bit Linux,
// Windows), so that the resident set, not only the runtime's memory,
// stays within the budget.
func SetGoMemoryLimit(b Budget, hash, threads, threadMB int, tableOutside bool) {
	limit := max(b.MB, FootprintMB(hash, threads, threadMB)) - outsideGoMB
	if tableOutside {
		limit -= hash
	}
	debug.SetMemoryLimit(int64(limit) << 20)
}

// outsideGoMB is the part of BaseMB that the Go memory limit does not see.
const outsideGoMB = 16

// goMappedBytes is the memory the Go runtime holds from the operating
// system and has not given back: an upper bound of its part of the
// resident set, for systems where that cannot be read. -1 if unknown.
func goMappedBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return -1
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// FitDatagenHash holds rochade datagen's hash, hashMB for each of its
// threads single-threaded searches (threadMB each besides the hash), to
// the memory budget: it returns the largest hash up to hashMB that fits
// (at least 1) and the budget, for the message when it is less.
func FitDatagenHash(hashMB, threads, threadMB int) (int, string) {
	b := Current()
	threads = max(threads, 1)
	return max(1, min(hashMB, (b.MB-BaseMB)/threads-threadMB)), b.String()
}

// windowsAvailable is the memory a Windows process could have beyond its
// working set: the available physical memory, held to the available
// commit (GlobalMemoryStatusEx's availPageFile) plus what the process has
// committed (its private bytes, PagefileUsage) beyond its working set.
// Committed memory counts against the commit limit from the start, but
// enters the working set only when touched: the transposition table is
// committed whole (search/ttmem_windows.go) and mostly untouched, and
// without that term a Threads or Hash request after a large Hash would
// count the table twice, once as Hash and once as commit not available.
func windowsAvailable(availPhys, availPageFile, workingSet, private uint64) uint64 {
	if private > workingSet {
		availPageFile += private - workingSet
	}
	return min(availPhys, availPageFile)
}
