//go:build linux

package membudget

import (
	"os"
	"path/filepath"
	"testing"
)

const (
	kiB = int64(1) << 10
	miB = int64(1) << 20
	giB = int64(1) << 30
)

// TestLinuxMemorySamples reads sample /proc and cgroup trees
// (testdata/mem): the figures come out in bytes, whatever unit the file
// has, and the budget is 75% of what they allow.
func TestLinuxMemorySamples(t *testing.T) {
	for _, c := range []struct {
		root     string
		want     sysMemory
		budgetMB int
		source   string
	}{
		// A service whose own limit is 4 GiB (1 GiB used, 128 MiB of it
		// inactive page cache) under a slice with only 512 MiB left.
		{"cgroup-v2", sysMemory{total: 16303532 * kiB, available: 12051144 * kiB, own: 40 * miB,
			limit: 4 * giB, limitFree: 512 * miB, limitName: "cgroup memory limit"}, (40 + 512) * 75 / 100, "cgroup memory limit"},
		// A container's v1 memory cgroup mounted as its root: 2 GiB, 1.5 GiB
		// used of which 512 MiB inactive page cache.
		{"cgroup-v1", sysMemory{total: 16303532 * kiB, available: 12051144 * kiB, own: 40 * miB,
			limit: 2 * giB, limitFree: 1 * giB, limitName: "cgroup memory limit"}, (40 + 1024) * 75 / 100, "cgroup memory limit"},
		// The build machine: v1 "unlimited", v2 without the memory
		// controller. MemAvailable and the resident set decide.
		{"hybrid-unlimited", sysMemory{total: 24684084 * kiB, available: 24188392 * kiB, own: 12 * miB,
			limit: -1, limitFree: -1}, int((24188392*kiB+12*miB)>>20) * 75 / 100, "available memory"},
		// No MemAvailable: MemFree + Buffers + Cached.
		{"old-kernel", sysMemory{total: 4046848 * kiB, available: (524288 + 131072 + 1048576) * kiB, own: 8 * miB,
			limit: -1, limitFree: -1}, (1664 + 8) * 75 / 100, "available memory"},
		{"empty", unknownMemory(), DefaultMB * 75 / 100, "an assumed 2048 MB: memory could not be measured"},
	} {
		t.Run(c.root, func(t *testing.T) {
			got := linuxMemory(filepath.Join("testdata", "mem", c.root))
			if got != c.want {
				t.Errorf("read %+v, want %+v", got, c.want)
			}
			b := budgetOf(got)
			if b.MB != c.budgetMB || b.Source != c.source || b.Guessed != (c.root == "empty") {
				t.Errorf("budget %+v, want %d MB from %q", b, c.budgetMB, c.source)
			}
		})
	}
}

func TestParseMeminfo(t *testing.T) {
	for _, c := range []struct {
		in           string
		total, avail int64
	}{
		{"MemTotal:       24684084 kB\nMemFree:        23965596 kB\nMemAvailable:   24188392 kB\n", 24684084 * kiB, 24188392 * kiB},
		{"MemTotal: 100 kB\nMemFree: 10 kB\nBuffers: 1 kB\nCached: 2 kB\n", 100 * kiB, 13 * kiB},
		{"MemTotal: 100 kB\n", 100 * kiB, -1},
		{"MemTotal: lots kB\nMemAvailable: -5 kB\n", -1, -1},
		{"", -1, -1},
	} {
		total, avail := parseMeminfo([]byte(c.in))
		if total != c.total || avail != c.avail {
			t.Errorf("%q: total %d, available %d; want %d, %d", c.in, total, avail, c.total, c.avail)
		}
	}
	if got := kbField([]byte("HugePages_Total:       7\n"), "HugePages_Total:"); got != 7 {
		t.Errorf("a field without a unit: %d", got)
	}
}

func TestParseMountinfo(t *testing.T) {
	in := `22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw
31 28 0:27 / /sys/fs/cgroup rw,nosuid shared:9 master:3 - cgroup2 cgroup2 rw,nsdelegate
33 30 0:28 /docker/ab /sys/fs/cgroup/mem\040ory rw - cgroup cgroup rw,memory
34 30 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct
35 30 0:29 / /broken rw -
`
	got := parseMountinfo([]byte(in))
	want := []cgroupMount{{v2: true, root: "/", point: "/sys/fs/cgroup"}, {root: "/docker/ab", point: "/sys/fs/cgroup/mem ory"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestParseProcCgroup(t *testing.T) {
	v2, v1 := parseProcCgroup([]byte("12:pids:/a\n9:memory:/docker/x\n1:name=systemd:/\n0::/user.slice\n"))
	if v2 != "/user.slice" || v1 != "/docker/x" {
		t.Errorf("v2 %q, v1 %q", v2, v1)
	}
	v2, v1 = parseProcCgroup([]byte("0::/\n"))
	if v2 != "/" || v1 != "" {
		t.Errorf("v2 only: v2 %q, v1 %q", v2, v1)
	}
	for _, c := range []struct {
		p, base, rel string
		ok           bool
	}{
		{"/a/b", "/", "/a/b", true}, {"/docker/x", "/docker/x", "/", true}, {"/docker/x/y", "/docker/x", "/y", true},
		{"/docker/xy", "/docker/x", "", false}, {"/other", "/docker/x", "", false},
	} {
		if rel, ok := cutPath(c.p, c.base); rel != c.rel && c.ok || ok != c.ok {
			t.Errorf("cutPath(%q, %q) = %q, %v", c.p, c.base, rel, ok)
		}
	}
}

func TestReadCgroupValue(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{{"max\n", noLimit, true}, {"4294967296\n", 4 * giB, true}, {"9223372036854771712\n", 9223372036854771712, true}, {"", 0, false}, {"-1", -1, false}} {
		f := filepath.Join(dir, "memory.max")
		os.WriteFile(f, []byte(c.in), 0o644)
		if n, ok := readCgroupValue(f); ok != c.ok || ok && n != c.want {
			t.Errorf("%q: %d, %v", c.in, n, ok)
		}
	}
}

// TestMeasuredBudgetLinux: on this machine, without ROCHADE_MEMORY_MB, the
// budget is measured (not the 2048 MB guess) and at most 75% of the
// MemTotal the test reads itself. The budget was 1024 times too large
// when kilobytes were added as megabytes.
func TestMeasuredBudgetLinux(t *testing.T) {
	t.Setenv("ROCHADE_MEMORY_MB", "")
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Skip("no /proc/meminfo")
	}
	total := kbField(data, "MemTotal:")
	b := Current()
	t.Logf("MemTotal %d MB; budget %v", total>>20, b)
	if b.Guessed || b.MB <= 0 {
		t.Errorf("budget %+v: not measured", b)
	}
	if limit := int(total>>20) * Share / 100; b.MB > limit {
		t.Errorf("budget %d MB is more than 75%% of MemTotal (%d MB)", b.MB, limit)
	}
}
