package uci

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync/atomic"

	"github.com/rochade/rochade/search"
)

// The memory budget. Go cannot recover from running out of memory, and
// on Linux the kernel's OOM killer ends a process that touches more than
// the machine (or its cgroup) can give, so Hash and Threads are held to a
// budget: the table, the per-thread tables (search.ThreadBytes each) and
// baseMB for everything else must fit in budgetShare of the memory the
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
// process assumes defaultMemoryMB and says so once in an info string.
// The environment variable ROCHADE_MEMORY_MB overrides the measurement
// (tests that need a small machine use it).
const (
	// baseMB covers the Go runtime, code and static tables, I/O buffers,
	// the position history and garbage between collections.
	baseMB = 72
	// defaultMemoryMB is assumed where memory cannot be measured.
	defaultMemoryMB = 2048
	// budgetShare (in percent) leaves room for the rest of the machine.
	budgetShare = 75
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

// memBudget is the memory the engine may plan with.
type memBudget struct {
	mb      int    // the budget in MB
	source  string // how it was found, for info strings
	guessed bool   // nothing could be measured: defaultMemoryMB is assumed
}

// threadMB is the per-thread memory in MB, rounded up.
func threadMB() int { return int((search.ThreadBytes + 1<<20 - 1) >> 20) }

// footprintMB is what a configuration needs in all.
func footprintMB(hash, threads int) int { return hash + threads*threadMB() + baseMB }

// currentBudget measures the budget now.
func currentBudget() memBudget {
	if s := os.Getenv("ROCHADE_MEMORY_MB"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return memBudget{mb: n * budgetShare / 100, source: "ROCHADE_MEMORY_MB"}
		}
	}
	return budgetOf(readSystemMemory())
}

// budgetOf is the budget for what the system says.
func budgetOf(m sysMemory) memBudget {
	bytes, source, ok := couldHave(m)
	if !ok {
		return memBudget{mb: defaultMemoryMB * budgetShare / 100,
			source: fmt.Sprintf("an assumed %d MB: memory could not be measured", defaultMemoryMB), guessed: true}
	}
	return memBudget{mb: int(bytes>>20) * budgetShare / 100, source: source}
}

func (b memBudget) String() string {
	return fmt.Sprintf("%d MB, %d%% of the memory we could have (%s)", b.mb, budgetShare, b.source)
}

// fitHash returns the largest Hash up to want that fits the budget with
// the given threads (at least 1).
func (b memBudget) fitHash(want, threads int) int {
	return max(1, min(want, b.mb-threads*threadMB()-baseMB))
}

// fitThreads returns the most Threads up to want that fit the budget with
// the given Hash (at least 1).
func (b memBudget) fitThreads(want, hash int) int {
	return max(1, min(want, (b.mb-hash-baseMB)/threadMB()))
}

// guessNoted is set once the assumed memory has been reported.
var guessNoted atomic.Bool

// optionBudget is the budget for a Hash or Threads request. The first
// time the memory could not be measured, an info string says so.
func (s *Session) optionBudget() memBudget {
	b := currentBudget()
	if b.guessed && guessNoted.CompareAndSwap(false, true) {
		s.info("memory could not be measured on this system; assuming %d MB (Hash and Threads are held to %d%% of it). Set ROCHADE_MEMORY_MB to the memory in MB to use",
			defaultMemoryMB, budgetShare)
	}
	return b
}

// clampHash holds a Hash request to the budget and says so if it must.
func (s *Session) clampHash(n int) int {
	s.guardHash()
	b := s.optionBudget()
	if fit := b.fitHash(n, s.set.threads); fit < n {
		s.info("Hash %d MB with %d threads does not fit the memory budget of %s; Hash set to %d", n, s.set.threads, b, fit)
		return fit
	}
	return n
}

// hashGuarded is a searcher that can make its tables resident when they
// are set up (*search.Engine).
type hashGuarded interface{ SetHashGuard(search.HashGuard) }

// guardHash has the searcher make every new table resident as it sets it
// up, watching the budget while it does, before a Hash request is
// applied. The budget is measured when Hash is set; a table that filled
// only during the games took memory that other processes measuring then
// counted as available (two engines each given Hash 65536 on a 24 GB
// machine both got about 17.5 GB). A resident table is seen taken. Where
// other processes take memory while the table is being made resident,
// the table is cut to the budget measured then, and an info string says
// so. Not on Windows (reserveTables, mem_windows.go), where the table's
// commit charge already shows it to other processes.
func (s *Session) guardHash() {
	g, ok := s.searcher.(hashGuarded)
	if !ok || !reserveTables {
		return
	}
	var last memBudget // the budget of the last look, for the info string
	g.SetHashGuard(search.HashGuard{
		Fit: func(threads int) int {
			last = currentBudget()
			return last.fitHash(math.MaxInt32, threads)
		},
		Cut: func(asked, got int) {
			s.info("Hash %d MB: other processes took memory while the table was being set up; with %d threads it does not fit the memory budget of %s; Hash set to %d",
				asked, s.set.threads, last, got)
			s.set.hash = got
		},
	})
}

// clampThreads holds a Threads request to the budget and says so if it must.
func (s *Session) clampThreads(n int) int {
	b := s.optionBudget()
	if fit := b.fitThreads(n, s.set.hash); fit < n {
		s.info("Threads %d (%d MB each) with Hash %d MB do not fit the memory budget of %s; Threads set to %d", n, threadMB(), s.set.hash, b, fit)
		return fit
	}
	return n
}

// setMemoryLimit tells the garbage collector to work harder before the
// heap outgrows the budget (with a large table the default goal, twice
// the live heap, could be far beyond it).
// The limit leaves outsideGoMB of the budget to what the resident set
// holds beyond the Go runtime's own memory (the binary's code and data
// pages, C-level thread stacks), so that the resident set, not only the
// runtime's memory, stays within the budget.
func setMemoryLimit(b memBudget, hash, threads int) {
	limit := max(b.mb, footprintMB(hash, threads)) - outsideGoMB
	debug.SetMemoryLimit(int64(limit) << 20)
}

// outsideGoMB is the part of baseMB that the Go memory limit does not see.
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
// threads single-threaded searches, to the memory budget: it returns the
// largest hash up to hashMB that fits (at least 1) and the budget, for
// the message when it is less.
func FitDatagenHash(hashMB, threads int) (int, string) {
	b := currentBudget()
	threads = max(threads, 1)
	return max(1, min(hashMB, (b.mb-baseMB)/threads-threadMB())), b.String()
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
