//go:build windows

package membudget

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	kernel32                 = windows.NewLazySystemDLL("kernel32.dll")
	procGlobalMemoryStatusEx = kernel32.NewProc("GlobalMemoryStatusEx")
	procGetProcessMemoryInfo = windows.NewLazySystemDLL("psapi.dll").NewProc("GetProcessMemoryInfo")
)

// memoryStatusEx is MEMORYSTATUSEX.
type memoryStatusEx struct {
	length               uint32
	memoryLoad           uint32
	totalPhys            uint64
	availPhys            uint64
	totalPageFile        uint64
	availPageFile        uint64
	totalVirtual         uint64
	availVirtual         uint64
	availExtendedVirtual uint64
}

// processMemoryCounters is PROCESS_MEMORY_COUNTERS.
type processMemoryCounters struct {
	cb                         uint32
	pageFaultCount             uint32
	peakWorkingSetSize         uintptr
	workingSetSize             uintptr
	quotaPeakPagedPoolUsage    uintptr
	quotaPagedPoolUsage        uintptr
	quotaPeakNonPagedPoolUsage uintptr
	quotaNonPagedPoolUsage     uintptr
	pagefileUsage              uintptr
	peakPagefileUsage          uintptr
}

// systemMemory asks GlobalMemoryStatusEx for the physical memory and what
// is available of it (and of the commit limit, which Go's memory counts
// against), GetProcessMemoryInfo for the working set, and the job object
// the process may run in for its memory limit.
func systemMemory() sysMemory {
	m := unknownMemory()
	var workingSet, private uint64
	if procGetProcessMemoryInfo.Find() == nil {
		pc := processMemoryCounters{cb: uint32(unsafe.Sizeof(processMemoryCounters{}))}
		if r, _, _ := procGetProcessMemoryInfo.Call(uintptr(windows.CurrentProcess()), uintptr(unsafe.Pointer(&pc)), uintptr(pc.cb)); r != 0 {
			m.own = int64(pc.workingSetSize)
			workingSet, private = uint64(pc.workingSetSize), uint64(pc.pagefileUsage)
		}
	}
	if procGlobalMemoryStatusEx.Find() == nil {
		st := memoryStatusEx{length: uint32(unsafe.Sizeof(memoryStatusEx{}))}
		if r, _, _ := procGlobalMemoryStatusEx.Call(uintptr(unsafe.Pointer(&st))); r != 0 {
			m.total = clampInt64(st.totalPhys)
			m.available = clampInt64(windowsAvailable(st.availPhys, st.availPageFile, workingSet, private))
		}
	}
	if m.own < 0 {
		m.own = goMappedBytes()
	}
	var job windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if windows.QueryInformationJobObject(0, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&job)), uint32(unsafe.Sizeof(job)), nil) == nil {
		flags := job.BasicLimitInformation.LimitFlags
		if flags&windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY != 0 {
			m.limit = int64(job.ProcessMemoryLimit)
		}
		if flags&windows.JOB_OBJECT_LIMIT_JOB_MEMORY != 0 && (m.limit < 0 || int64(job.JobMemoryLimit) < m.limit) {
			m.limit = int64(job.JobMemoryLimit)
		}
		if m.limit >= 0 {
			m.limitName = "job object memory limit"
		}
	}
	return m
}

func clampInt64(n uint64) int64 { return int64(min(n, 1<<62)) }

// ReserveTables is false: Windows charges the whole table to the commit
// limit when it is allocated (search/ttmem_windows.go), and the budget of
// another process (windowsAvailable) counts it from then on, touched or
// not. Making it resident would only cost the time.
const ReserveTables = false
