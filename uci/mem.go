package uci

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/rochade/rochade/search"
)

// The memory budget. Go cannot recover from running out of memory, and
// on Linux the kernel's OOM killer ends a process that touches more than
// the machine (or its cgroup) can give, so Hash and Threads are held to a
// budget: the table, the per-thread tables (search.ThreadBytes each) and
// baseMB for everything else must fit in budgetShare of the memory the
// process could have. That memory is what it holds now (VmRSS) plus the
// headroom: the smaller of MemAvailable (/proc/meminfo) and, inside a
// cgroup with a limit, the limit less the cgroup's usage (cgroup v2
// memory.max and memory.current, v1 memory.limit_in_bytes and
// memory.usage_in_bytes). Where none of that can be read (other operating
// systems) the process assumes defaultMemoryMB. The environment variable
// ROCHADE_MEMORY_MB overrides the detection (the tests use it).
const (
	// baseMB covers the Go runtime, code and static tables, I/O buffers,
	// the position history and garbage between collections.
	baseMB = 72
	// defaultMemoryMB is assumed where memory cannot be measured.
	defaultMemoryMB = 2048
	// budgetShare (in percent) leaves room for the rest of the machine.
	budgetShare = 75
)

// memBudget is the memory the engine may plan with.
type memBudget struct {
	mb     int    // the budget in MB
	source string // how it was found, for info strings
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
	own := kbField("/proc/self/status", "VmRSS:") >> 10
	headroom, source := -1, ""
	if avail := kbField("/proc/meminfo", "MemAvailable:"); avail >= 0 {
		headroom, source = int(avail>>10), "available memory"
	}
	if free, ok := cgroupHeadroom(); ok && (headroom < 0 || int(free>>20) < headroom) {
		headroom, source = int(max(free, 0)>>20), "cgroup memory limit"
	}
	if headroom < 0 {
		return memBudget{mb: defaultMemoryMB * budgetShare / 100, source: "default (memory not measurable)"}
	}
	return memBudget{mb: (int(max(own, 0)) + headroom) * budgetShare / 100, source: source}
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

// kbField reads a "Name: N kB" line from a /proc file; -1 if absent.
func kbField(file, name string) int64 {
	f, err := os.Open(file)
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == name {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return -1
			}
			return kb << 10
		}
	}
	return -1
}

// cgroupHeadroom returns how many bytes the cgroup limits allow beyond
// the cgroup's current usage (the tightest over the cgroup and its
// ancestors), and whether any limit was found.
func cgroupHeadroom() (int64, bool) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	best, found := int64(0), false
	consider := func(limitFile, usageFile, statFile, inactiveKey string) {
		limit, ok := readBytes(limitFile)
		if !ok || limit >= 1<<60 {
			return // "max" or the v1 "unlimited" value
		}
		// The usage counts page cache; its inactive part can be
		// reclaimed, as the working set reported by container tools.
		usage, _ := readBytes(usageFile)
		usage -= statField(statFile, inactiveKey)
		if free := limit - usage; !found || free < best {
			best, found = free, true
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			// v2: walk from our cgroup up to the root.
			for dir := parts[2]; ; dir = path.Dir(dir) {
				base := path.Join("/sys/fs/cgroup", dir)
				consider(base+"/memory.max", base+"/memory.current", base+"/memory.stat", "inactive_file")
				if dir == "/" || dir == "." {
					break
				}
			}
		case hasController(parts[1], "memory"):
			// v1: the hierarchy is mounted at .../memory; inside a
			// container our own cgroup is often its root.
			for _, base := range []string{path.Join("/sys/fs/cgroup/memory", parts[2]), "/sys/fs/cgroup/memory"} {
				consider(base+"/memory.limit_in_bytes", base+"/memory.usage_in_bytes", base+"/memory.stat", "total_inactive_file")
			}
		}
	}
	return best, found
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readBytes reads a cgroup file holding one number of bytes.
func readBytes(file string) (int64, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil
}

// statField reads "name N" from a cgroup memory.stat file; 0 if absent.
func statField(file, name string) int64 {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}
