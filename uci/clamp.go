package uci

import (
	"math"
	"sync/atomic"

	"github.com/rochade/rochade/internal/membudget"
	"github.com/rochade/rochade/search"
)

// Hash and Threads are held to the memory budget (internal/membudget):
// the table, search.ThreadBytes per thread and membudget.BaseMB for
// everything else must fit in membudget.Share percent of the memory the
// process could have, measured on every request.

// currentBudget measures the budget now; the tests replace it.
var currentBudget = membudget.Current

// threadMB is the per-thread memory in MB, rounded up.
func threadMB() int { return membudget.RoundUpMB(search.ThreadBytes) }

// setMemoryLimit gives the garbage collector the budget, less the table
// where it is outside the Go heap (membudget.SetGoMemoryLimit).
func setMemoryLimit(b membudget.Budget, hash, threads int) {
	membudget.SetGoMemoryLimit(b, hash, threads, threadMB(), search.TableOutsideHeap)
}

// guessNoted is set once the assumed memory has been reported.
var guessNoted atomic.Bool

// optionBudget is the budget for a Hash or Threads request. The first
// time the memory could not be measured, an info string says so.
func (s *Session) optionBudget() membudget.Budget {
	b := currentBudget()
	if b.Guessed && guessNoted.CompareAndSwap(false, true) {
		s.info("memory could not be measured on this system; assuming %d MB (Hash and Threads are held to %d%% of it). Set ROCHADE_MEMORY_MB to the memory in MB to use",
			membudget.DefaultMB, membudget.Share)
	}
	return b
}

// clampHash holds a Hash request to the budget and says so if it must.
func (s *Session) clampHash(n int) int {
	s.guardHash()
	b := s.optionBudget()
	if fit := b.FitHash(n, s.set.threads, threadMB()); fit < n {
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
// so. Not on Windows (membudget.ReserveTables,
// internal/membudget/mem_windows.go), where the table's commit charge
// already shows it to other processes.
func (s *Session) guardHash() {
	g, ok := s.searcher.(hashGuarded)
	if !ok || !membudget.ReserveTables {
		return
	}
	var last membudget.Budget // the budget of the last look, for the info string
	var lastThreads int
	// Fit and Cut run where the table is made resident: on the goroutine
	// of a reservation in the background (reserve.go), or in SetOptions.
	// The cut reaches the Hash setting through hashCut (takeCut).
	g.SetHashGuard(search.HashGuard{
		Fit: func(threads int) int {
			last, lastThreads = currentBudget(), threads
			return last.FitHash(math.MaxInt32, threads, threadMB())
		},
		Cut: func(asked, got int) {
			s.info("Hash %d MB: other processes took memory while the table was being set up; with %d threads it does not fit the memory budget of %s; Hash set to %d",
				asked, lastThreads, last, got)
			s.hashCut.Store(int64(got))
		},
	})
}

// clampThreads holds a Threads request to the budget and says so if it must.
func (s *Session) clampThreads(n int) int {
	b := s.optionBudget()
	if fit := b.FitThreads(n, s.set.hash, threadMB()); fit < n {
		s.info("Threads %d (%d MB each) with Hash %d MB do not fit the memory budget of %s; Threads set to %d", n, threadMB(), s.set.hash, b, fit)
		return fit
	}
	return n
}
