//go:build linux

package membudget

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// systemMemory reads /proc and the memory cgroups.
func systemMemory() sysMemory { return linuxMemory("/") }

// linuxMemory reads the files under root (the file system's root; the
// tests give a folder of sample files).
func linuxMemory(root string) sysMemory {
	m := unknownMemory()
	if data, err := os.ReadFile(filepath.Join(root, "/proc/meminfo")); err == nil {
		m.total, m.available = parseMeminfo(data)
	}
	if data, err := os.ReadFile(filepath.Join(root, "/proc/self/status")); err == nil {
		m.own = kbField(data, "VmRSS:")
	}
	m.limit, m.limitFree = cgroupLimit(root)
	if m.limit >= 0 {
		m.limitName = "cgroup memory limit"
	}
	return m
}

// parseMeminfo returns MemTotal and the memory available without
// swapping (MemAvailable; before Linux 3.14, MemFree + Buffers + Cached)
// from /proc/meminfo, in bytes; -1 where absent.
func parseMeminfo(data []byte) (total, available int64) {
	total = kbField(data, "MemTotal:")
	available = kbField(data, "MemAvailable:")
	if available < 0 {
		if free := kbField(data, "MemFree:"); free >= 0 {
			available = free + max(kbField(data, "Buffers:"), 0) + max(kbField(data, "Cached:"), 0)
		}
	}
	return total, available
}

// kbField reads a "Name: N kB" line of a /proc file, in bytes; -1 if
// absent or not a number.
func kbField(data []byte, name string) int64 {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || f[0] != name {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || n < 0 {
			return -1
		}
		if len(f) >= 3 && f[2] == "kB" {
			if n > 1<<53 {
				return -1
			}
			n <<= 10
		}
		return n
	}
	return -1
}

// cgroupMount is a mounted cgroup hierarchy: v2, or v1 with the memory
// controller. root is the cgroup shown at point.
type cgroupMount struct {
	v2          bool
	root, point string
}

// parseMountinfo finds the cgroup hierarchies in /proc/self/mountinfo
// that can hold memory limits.
func parseMountinfo(data []byte) []cgroupMount {
	var mounts []cgroupMount
	for _, line := range strings.Split(string(data), "\n") {
		// id parent major:minor root point options [optional...] - type source superoptions
		f := strings.Fields(line)
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+1 >= len(f) {
			continue
		}
		m := cgroupMount{root: unescapeMount(f[3]), point: unescapeMount(f[4])}
		switch f[sep+1] {
		case "cgroup2":
			m.v2 = true
		case "cgroup":
			if sep+3 >= len(f) || !hasItem(f[sep+3], "memory") {
				continue
			}
		default:
			continue
		}
		mounts = append(mounts, m)
	}
	return mounts
}

// unescapeMount undoes the octal escapes (\040 for a space) of mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseProcCgroup returns this process's cgroup in the v2 hierarchy and
// in the v1 memory hierarchy from /proc/self/cgroup; "" where it has none.
func parseProcCgroup(data []byte) (v2, v1memory string) {
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2 = parts[2]
		case hasItem(parts[1], "memory"):
			v1memory = parts[2]
		}
	}
	return v2, v1memory
}

func hasItem(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// noLimit: limits at or above it mean none (v1 writes 2^63 less a page).
const noLimit = 1 << 60

// cgroupLimit returns the tightest memory limit on this process's cgroups
// and their ancestors (v2 memory.max, v1 memory.limit_in_bytes) and the
// least headroom under one of them (the limit less the usage, the
// reclaimable inactive page cache not counted as used), in bytes: -1, -1
// where no limit is set.
func cgroupLimit(root string) (limit, free int64) {
	limit, free = -1, -1
	data, err := os.ReadFile(filepath.Join(root, "/proc/self/cgroup"))
	if err != nil {
		return
	}
	v2, v1 := parseProcCgroup(data)
	var mounts []cgroupMount
	if info, err := os.ReadFile(filepath.Join(root, "/proc/self/mountinfo")); err == nil {
		mounts = parseMountinfo(info)
	} else {
		mounts = []cgroupMount{{v2: true, root: "/", point: "/sys/fs/cgroup"}, {root: "/", point: "/sys/fs/cgroup/memory"}}
	}
	consider := func(dir, limitFile, usageFile, inactiveKey string) {
		l, ok := readCgroupValue(filepath.Join(root, dir, limitFile))
		if !ok || l >= noLimit {
			return
		}
		if limit < 0 || l < limit {
			limit = l
		}
		if usage, ok := readCgroupValue(filepath.Join(root, dir, usageFile)); ok {
			stat, _ := os.ReadFile(filepath.Join(root, dir, "memory.stat"))
			usage -= max(statField(stat, inactiveKey), 0)
			if f := l - max(usage, 0); free < 0 || f < free {
				free = max(f, 0)
			}
		}
	}
	for _, m := range mounts {
		cg := v1
		limitFile, usageFile, inactiveKey := "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"
		if m.v2 {
			cg = v2
			limitFile, usageFile, inactiveKey = "memory.max", "memory.current", "inactive_file"
		}
		if cg == "" {
			continue
		}
		// Our cgroup as seen under the mount point; where it lies
		// outside the mounted part (a container shows its own cgroup
		// as the root), the mount point itself.
		dir := m.point
		if rel, ok := cutPath(cg, m.root); ok {
			dir = filepath.Join(m.point, rel)
		}
		for {
			consider(dir, limitFile, usageFile, inactiveKey)
			if len(dir) <= len(m.point) {
				break
			}
			dir = filepath.Dir(dir)
		}
	}
	return limit, free
}

// cutPath returns p relative to the folder base, if p lies in it.
func cutPath(p, base string) (string, bool) {
	if base == "/" {
		return p, strings.HasPrefix(p, "/")
	}
	if p == base {
		return "/", true
	}
	rest, ok := strings.CutPrefix(p, base+"/")
	return "/" + rest, ok
}

// readCgroupValue reads a cgroup file holding a number of bytes or "max"
// (returned as noLimit).
func readCgroupValue(file string) (int64, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(data))
	if s == "max" {
		return noLimit, true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0
}

// statField reads "name N" from a cgroup memory.stat file; -1 if absent.
func statField(data []byte, name string) int64 {
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return n
			}
		}
	}
	return -1
}

// ReserveTables: a new table is made resident when Hash is set
// (uci's guardHash). MemAvailable, which other processes measure, does not
// count memory that is allocated but untouched, and the OOM killer ends a
// process that touches more than the machine has.
const ReserveTables = true
