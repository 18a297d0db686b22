package uci

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rochade/rochade/internal/membudget"
	"github.com/rochade/rochade/search"
)

// TestGuessSaidOnce: where nothing can be measured, the first Hash or
// Threads request says that 2048 MB is assumed, once; requests are held
// to 75% of it.
func TestGuessSaidOnce(t *testing.T) {
	t.Setenv("ROCHADE_MEMORY_MB", "")
	saved := currentBudget
	currentBudget = membudget.Guess
	guessNoted.Store(false)
	defer func() { currentBudget = saved }()

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
	if want := fmt.Sprintf("Hash set to %d", 1536-membudget.BaseMB-threadMB()); len(lines) < 2 || !strings.HasSuffix(lines[1], want) || !strings.Contains(lines[1], "an assumed 2048 MB") {
		t.Errorf("Hash 4000: %q", lines)
	}
	if s.set.hash != 8 || s.set.threads != 2 {
		t.Errorf("Hash %d, Threads %d", s.set.hash, s.set.threads)
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
	if !membudget.ReserveTables {
		t.Skip("tables are not made resident on " + runtime.GOOS)
	}
	t.Setenv("ROCHADE_MEMORY_MB", "")
	saved := currentBudget
	defer func() { currentBudget = saved }()
	out := &syncBuffer{}
	s := NewSession(out, Config{})
	defer s.Close()
	var looks, last atomic.Int64 // the reservation looks on a goroutine of its own
	currentBudget = func() membudget.Budget {
		available := max(0, 1000-50*int(looks.Add(1))+50) // MB
		b := membudget.Budget{MB: available * membudget.Share / 100, Source: "available memory"}
		last.Store(int64(b.MB))
		return b
	}
	// A budget of 750 MB: Hash 512 fits. Then, after each chunk made
	// resident, budgets 37 MB smaller, until the table fits what is
	// resident.
	s.Handle("setoption name Hash value 512")
	s.awaitReserve(time.Minute) // it runs in the background; isready waits a few seconds at most
	s.Handle("isready")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	t.Logf("%d looks: %q", looks.Load(), lines)
	got := int(last.Load()) - membudget.BaseMB - threadMB()
	want := fmt.Sprintf("Hash set to %d", got)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "info string Hash 512 MB: other processes took memory") ||
		!strings.HasSuffix(lines[0], want) || !strings.Contains(lines[0], fmt.Sprintf("budget of %d MB", last.Load())) || lines[1] != "readyok" {
		t.Errorf("Hash 512 with the memory shrinking: %q, want %q", lines, want)
	}
	if h := s.set.hash; h != got || got >= 512 || got < 128 {
		t.Errorf("Hash %d after the cut, want %d", h, got)
	}
	if h := s.searcher.(*search.Engine).Options().HashMB; h != s.set.hash {
		t.Errorf("the engine's Hash %d, the session's %d", h, s.set.hash)
	}
}
