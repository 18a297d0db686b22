//go:build darwin

package membudget

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// systemMemory reads hw.memsize and the virtual memory statistics: the
// free, purgeable and file-backed pages can be had without swapping, as
// Activity Monitor counts them (vm_stat's "Pages free", "Pages
// purgeable" and "File-backed pages"). What the process holds is the Go
// runtime's mapped memory.
func systemMemory() sysMemory {
	m := unknownMemory()
	if n, ok := sysctlNumber("hw.memsize"); ok {
		m.total = int64(n)
	}
	page, ok := sysctlNumber("vm.pagesize") // the kernel's page, not Rosetta's
	if !ok {
		page, ok = sysctlNumber("hw.pagesize")
	}
	if ok && page > 0 {
		pages, read := uint64(0), false
		for _, name := range []string{"vm.page_free_count", "vm.page_purgeable_count", "vm.page_pageable_external_count"} {
			if n, ok := sysctlNumber(name); ok {
				pages += n
				read = true
			}
		}
		if read {
			m.available = int64(min(pages*page, 1<<62))
		}
	}
	m.own = goMappedBytes()
	return m
}

// sysctlNumber reads a 32- or 64-bit sysctl value.
func sysctlNumber(name string) (uint64, bool) {
	b, err := unix.SysctlRaw(name)
	if err != nil {
		return 0, false
	}
	switch len(b) {
	case 4:
		return uint64(binary.LittleEndian.Uint32(b)), true
	case 8:
		return binary.LittleEndian.Uint64(b), true
	}
	return 0, false
}

// ReserveTables: a new table is made resident when Hash is set
// (uci's guardHash): the free pages that other processes measure do not count
// a table that is not yet touched.
const ReserveTables = true
