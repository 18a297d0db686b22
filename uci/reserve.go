package uci

import (
	"sync/atomic"
	"time"

	"github.com/rochade/rochade/search"
)

// Making a table resident (search.Engine.Reserve: every page written, so
// that the memory is taken when Hash is set and other processes see it
// taken) runs in the background, never in the command loop. A large table
// takes seconds (about 0.35-0.95 s a GB on the 2-core build machine with
// its cores free, 2.5-9 s a GB under load): Hash 999999999, held to the
// budget (about 17 GB on a 24 GB machine), kept a go waiting 9 s on a
// quiet machine and minutes on a loaded one. Now:
//
//   - setoption (a new table or thread count) sets the table up at once,
//     its pages not yet taken, and starts making it resident;
//   - isready waits for that at most readyWait, then answers;
//   - a command that needs the searcher (go, setoption, ucinewgame, quit,
//     genfens, end of input) stops it first, which takes one chunk at
//     most (32 MB); what is not resident yet is taken as the searches
//     write it, and the next isready or ucinewgame goes on from there
//     (ucinewgame writes zeros over the part already resident);
//   - isready, position, d, uci, stop, ponderhit, debug and register leave
//     it running (lightCommands).

// readyWait is how long isready waits for a table being made resident.
// Tables of a few GB are resident by then on a desktop machine with its
// cores free; a larger one goes on in the background after readyok.
var readyWait = 3 * time.Second

// lightCommands never use the searcher's table: a reservation in the
// background goes on while they run.
var lightCommands = map[string]bool{
	"isready": true, "position": true, "d": true, "uci": true, "stop": true,
	"ponderhit": true, "debug": true, "register": true,
}

// lazyTables is a searcher that can set a table up without making it
// resident, and make it resident later (*search.Engine).
type lazyTables interface {
	SetOptionsLazy(search.Options)
	// Reserve makes the table resident, asking stop before each chunk
	// whether to end early, and reports whether it ran to its end
	// (false: the stop ended it).
	Reserve(stop func() bool) bool
}

// reservation is a table being made resident on a goroutine of its own.
type reservation struct {
	done     chan struct{} // closed when Reserve has returned
	stop     atomic.Bool
	finished bool // Reserve's result, written before done closes
}

// applyOptionsLazy gives the searcher the current options (only while no
// search runs) without making a new table resident, and owes that to
// startReserve.
func (s *Session) applyOptionsLazy() {
	l, ok := s.searcher.(lazyTables)
	if !ok {
		s.applyOptions()
		return
	}
	l.SetOptionsLazy(s.set.searchOptions())
	s.takeCut()
	setMemoryLimit(currentBudget(), s.set.hash, s.set.threads)
	s.reserveOwed = true
}

// startReserve starts making the table resident in the background if
// that is owed and no search runs.
func (s *Session) startReserve() {
	if !s.reserveOwed || s.resv != nil || s.searching() {
		return
	}
	s.reserveOwed = false
	l, ok := s.searcher.(lazyTables)
	if !ok {
		return
	}
	r := &reservation{done: make(chan struct{})}
	s.resv = r
	go func() {
		defer close(r.done)
		r.finished = l.Reserve(r.stop.Load)
	}()
}

// endReserve stops a reservation in the background and waits for it to
// end (one chunk at most), so that the searcher is free.
func (s *Session) endReserve() {
	r := s.resv
	if r == nil {
		return
	}
	r.stop.Store(true)
	<-r.done
	s.collectReserve()
}

// awaitReserve waits at most d for a reservation in the background to
// end; it goes on after that.
func (s *Session) awaitReserve(d time.Duration) {
	r := s.resv
	if r == nil {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.done:
		s.collectReserve()
	case <-t.C:
		s.logEvent("hash", "isready: the table is still being made resident; readyok now")
	}
}

// collectReserve takes in a reservation that has ended.
func (s *Session) collectReserve() {
	r := s.resv
	s.resv = nil
	if !r.finished {
		s.reserveOwed = true
		s.logEvent("hash", "the table was not all resident when it was needed; the rest is taken as searches use it")
	}
	s.takeCut()
}

// takeCut applies a cut of the table that the guard made while the table
// was made resident (guardHash) to the Hash setting.
func (s *Session) takeCut() {
	if got := s.hashCut.Swap(0); got > 0 {
		s.set.hash = int(got)
	}
}
