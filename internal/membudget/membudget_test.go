package membudget

import (
	"runtime"
	"testing"
)

// TestCouldHave: the rule that combines what the system says, in bytes.
func TestCouldHave(t *testing.T) {
	const mb = int64(1) << 20
	u := unknownMemory()
	with := func(f func(*sysMemory)) sysMemory { m := u; f(&m); return m }
	for _, c := range []struct {
		name   string
		m      sysMemory
		want   int64
		source string
		ok     bool
	}{
		{"nothing known", u, 0, "", false},
		{"own + available", with(func(m *sysMemory) { m.total, m.available, m.own = 8000*mb, 5000*mb, 1000*mb }), 6000 * mb, "available memory", true},
		{"own unknown", with(func(m *sysMemory) { m.total, m.available = 8000*mb, 5000*mb }), 5000 * mb, "available memory", true},
		{"held to the total", with(func(m *sysMemory) { m.total, m.available, m.own = 8000*mb, 7900*mb, 500*mb }), 8000 * mb, "available memory", true},
		{"total only", with(func(m *sysMemory) { m.total = 8000 * mb }), 8000 * mb, "physical memory", true},
		{"limit below available", with(func(m *sysMemory) {
			m.total, m.available, m.own, m.limit, m.limitName = 8000*mb, 5000*mb, 100*mb, 2000*mb, "cgroup memory limit"
		}), 2000 * mb, "cgroup memory limit", true},
		{"headroom under the limit", with(func(m *sysMemory) {
			m.total, m.available, m.own, m.limit, m.limitFree, m.limitName = 8000*mb, 5000*mb, 100*mb, 2000*mb, 300*mb, "cgroup memory limit"
		}), 400 * mb, "cgroup memory limit", true},
		{"limit above available", with(func(m *sysMemory) {
			m.total, m.available, m.own, m.limit, m.limitFree, m.limitName = 8000*mb, 1000*mb, 100*mb, 4000*mb, 3000*mb, "cgroup memory limit"
		}), 1100 * mb, "available memory", true},
		{"over-used limit", with(func(m *sysMemory) {
			m.available, m.own, m.limit, m.limitFree, m.limitName = 5000*mb, 100*mb, 2000*mb, -1, "job object memory limit"
		}), 2000 * mb, "job object memory limit", true},
		{"limit only", with(func(m *sysMemory) { m.limit, m.limitName = 1000*mb, "cgroup memory limit" }), 1000 * mb, "cgroup memory limit", true},
	} {
		got, source, ok := couldHave(c.m)
		if got != c.want || source != c.source || ok != c.ok {
			t.Errorf("%s: %d MB (%q, %v), want %d MB (%q, %v)", c.name, got/mb, source, ok, c.want/mb, c.source, c.ok)
		}
	}
	if b := budgetOf(u); !b.Guessed || b.MB != DefaultMB*Share/100 {
		t.Errorf("nothing known: %+v", b)
	}
	if b := budgetOf(with(func(m *sysMemory) { m.available = 1000 << 20 })); b.Guessed || b.MB != 750 {
		t.Errorf("1000 MB: %+v", b)
	}

	// A 32-bit build holds at most its address space, however much the
	// machine has.
	defer func(old int64) { addressSpaceBytes = old }(addressSpaceBytes)
	addressSpaceBytes = 2 << 30
	big := with(func(m *sysMemory) { m.total, m.available = 24000*mb, 22000*mb })
	if got, source, ok := couldHave(big); got != 2048*mb || source != "the address space of a 32-bit build" || !ok {
		t.Errorf("32-bit build: %d MB (%q, %v)", got/mb, source, ok)
	}
	small := with(func(m *sysMemory) { m.total, m.available = 1500*mb, 1000*mb })
	if got, source, _ := couldHave(small); got != 1000*mb || source != "available memory" {
		t.Errorf("32-bit build, 1000 MB available: %d MB (%q)", got/mb, source)
	}
}

// TestMeasuredBudget: on the systems whose memory is read, the budget is
// measured, not the guess.
func TestMeasuredBudget(t *testing.T) {
	t.Setenv("ROCHADE_MEMORY_MB", "")
	b := Current()
	t.Logf("%s: budget %v", runtime.GOOS, b)
	switch runtime.GOOS {
	case "linux", "windows", "darwin":
		if b.Guessed || b.MB <= 0 {
			t.Errorf("budget %+v: not measured", b)
		}
	}
	t.Setenv("ROCHADE_MEMORY_MB", "1024")
	if b := Current(); b.MB != 768 || b.Source != "ROCHADE_MEMORY_MB" {
		t.Errorf("ROCHADE_MEMORY_MB=1024: %+v", b)
	}
}

// TestWindowsAvailable: commit that is not yet in the working set (a
// fresh table) is not counted as unavailable a second time.
func TestWindowsAvailable(t *testing.T) {
	const gb = 1 << 30
	for _, c := range []struct {
		phys, pageFile, ws, private, want uint64
	}{
		{20 * gb, 30 * gb, 1 * gb, 1 * gb, 20 * gb}, // nothing committed beyond the working set
		{20 * gb, 8 * gb, 1 * gb, 1 * gb, 8 * gb},   // the commit limit is the bound
		{20 * gb, 8 * gb, 1 * gb, 17 * gb, 20 * gb}, // a 16 GB table committed, not touched
		{20 * gb, 3 * gb, 1 * gb, 17 * gb, 19 * gb}, // the same with less commit left
		{20 * gb, 8 * gb, 2 * gb, 1 * gb, 8 * gb},   // shared pages in the working set
	} {
		if got := windowsAvailable(c.phys, c.pageFile, c.ws, c.private); got != c.want {
			t.Errorf("windowsAvailable(%d, %d, %d, %d GB) = %d GB, want %d GB",
				c.phys/gb, c.pageFile/gb, c.ws/gb, c.private/gb, got/gb, c.want/gb)
		}
	}
}
