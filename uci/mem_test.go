package uci

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/rochade/rochade/search"
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
	if b := budgetOf(u); !b.guessed || b.mb != defaultMemoryMB*budgetShare/100 {
		t.Errorf("nothing known: %+v", b)
	}
	if b := budgetOf(with(func(m *sysMemory) { m.available = 1000 << 20 })); b.guessed || b.mb != 750 {
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
	b := currentBudget()
	t.Logf("%s: budget %v", runtime.GOOS, b)
	switch runtime.GOOS {
	case "linux", "windows", "darwin":
		if b.guessed || b.mb <= 0 {
			t.Errorf("budget %+v: not measured", b)
		}
	}
	t.Setenv("ROCHADE_MEMORY_MB", "1024")
	if b := currentBudget(); b.mb != 768 || b.source != "ROCHADE_MEMORY_MB" {
		t.Errorf("ROCHADE_MEMORY_MB=1024: %+v", b)
	}
}

// TestGuessSaidOnce: where nothing can be measured, the first Hash or
// Threads request says that 2048 MB is assumed, once; requests are held
// to 75% of it.
func TestGuessSaidOnce(t *testing.T) {
	t.Setenv("ROCHADE_MEMORY_MB", "")
	saved := readSystemMemory
	readSystemMemory = unknownMemory
	guessNoted.Store(false)
	defer func() { readSystemMemory = saved }()

	out := &syncBuffer{}
	// Not made resident: the 1.4 GB table would only make the test slow.
	s := NewSession(out, Config{NewSearcher: func(o search.Options) Searcher { return lazySearcher{search.NewEngine(o)} }})
	defer s.Close()
	for _, l := range []string{"setoption name Hash value 4000", "setoption name Hash value 8", "setoption name Threads value 2", "isready"} {
		s.Handle(l)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	said := 0
	for _, l := range lines {
		if strings.Contains(l, "could not be measured on this system; assuming 2048 MB") {
			said++
		}
	}
	if said != 1 || !strings.Contains(lines[0], "assuming 2048 MB") {
		t.Errorf("the guess said %d times: %q", said, lines)
	}
	// 1536 MB less 72 MB and one thread.
	if want := fmt.Sprintf("Hash set to %d", 1536-baseMB-threadMB()); len(lines) < 2 || !strings.HasSuffix(lines[1], want) || !strings.Contains(lines[1], "an assumed 2048 MB") {
		t.Errorf("Hash 4000: %q", lines)
	}
	if s.set.hash != 8 || s.set.threads != 2 {
		t.Errorf("Hash %d, Threads %d", s.set.hash, s.set.threads)
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

// lazySearcher is the engine without SetHashGuard: its tables fill as
// searches use them.
type lazySearcher struct{ Searcher }

// TestHashCutWhileReserving: the table is made resident when Hash is set,
// and the budget is measured again as it is; where another process takes
// memory meanwhile (here the available memory falls by 200 MB at every
// look), the table is cut to the budget measured then, and an info string
// says so. Two engines each given Hash 65536 on a 24 GB machine both got
// about 17.5 GB: each measured while the other's table was still empty.
func TestHashCutWhileReserving(t *testing.T) {
	if !reserveTables {
		t.Skip("tables are not made resident on " + runtime.GOOS)
	}
	t.Setenv("ROCHADE_MEMORY_MB", "")
	saved := readSystemMemory
	defer func() { readSystemMemory = saved }()
	out := &syncBuffer{}
	s := NewSession(out, Config{})
	defer s.Close()
	looks := 0
	readSystemMemory = func() sysMemory {
		m := unknownMemory()
		m.available = int64(max(0, 1000-200*looks)) << 20
		looks++
		return m
	}
	// A budget of 750 MB: Hash 512 fits. Then, after each 128 MB made
	// resident, budgets of 600 MB (Hash up to 521), 450 MB (371) and
	// 300 MB (221).
	s.Handle("setoption name Hash value 512")
	s.Handle("isready")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	t.Logf("%d looks: %q", looks, lines)
	want := fmt.Sprintf("Hash set to %d", 300-baseMB-threadMB())
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "info string Hash 512 MB: other processes took memory") ||
		!strings.HasSuffix(lines[0], want) || !strings.Contains(lines[0], "budget of 300 MB") || lines[1] != "readyok" {
		t.Errorf("Hash 512 with the memory shrinking: %q, want %q", lines, want)
	}
	if h := s.set.hash; h != 300-baseMB-threadMB() {
		t.Errorf("Hash %d after the cut", h)
	}
	if h := s.searcher.(*search.Engine).Options().HashMB; h != s.set.hash {
		t.Errorf("the engine's Hash %d, the session's %d", h, s.set.hash)
	}
}
