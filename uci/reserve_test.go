package uci

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// slowReserver is a searcher whose table is never all resident: Reserve
// runs until its stop says to end.
type slowReserver struct {
	pendingSearcher
	started, stopped atomic.Int32
}

func (f *slowReserver) Reserve(stop func() bool) bool {
	f.started.Add(1)
	for !stop() {
		time.Sleep(time.Millisecond)
	}
	f.stopped.Add(1)
	return false
}

// TestReserveInBackground: a table is made resident on a goroutine of its
// own. setoption returns at once; position and d leave the reservation
// running; isready waits for it readyWait at most; go stops it before the
// search and owes the rest to the next isready; quit stops it. Before,
// setoption made the table resident in the command loop, and a go after
// Hash 999999999 waited 9 s (minutes under load).
func TestReserveInBackground(t *testing.T) {
	saved := readyWait
	readyWait = 200 * time.Millisecond
	defer func() { readyWait = saved }()
	f := &slowReserver{}
	out := &syncBuffer{}
	s := pendingSession(t, out, &f.pendingSearcher, f)
	start := time.Now()
	s.Handle("setoption name Hash value 64")
	if d := time.Since(start); d > time.Second {
		t.Errorf("setoption took %v", d)
	}
	for deadline := time.Now().Add(5 * time.Second); f.started.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("setoption started no reservation")
		}
	}
	s.Handle("position startpos")
	s.Handle("d")
	start = time.Now()
	s.Handle("isready")
	if d := time.Since(start); d < readyWait || d > readyWait+time.Second {
		t.Errorf("isready answered after %v, want %v", d, readyWait)
	}
	if !strings.HasSuffix(out.String(), "readyok\n") {
		t.Errorf("no readyok: %q", out.String())
	}
	if n := f.stopped.Load(); n != 0 {
		t.Fatalf("position, d or isready stopped the reservation (%d stops)", n)
	}
	s.Handle("go infinite")
	if f.stopped.Load() != 1 || !s.searching() {
		t.Fatalf("go: %d stops, searching %v", f.stopped.Load(), s.searching())
	}
	if !s.reserveOwed {
		t.Error("a stopped reservation is not owed")
	}
	s.Handle("stop")
	s.wait(0)
	s.Handle("isready")
	if f.started.Load() != 2 {
		t.Errorf("isready after the search: %d reservations, want 2", f.started.Load())
	}
	start = time.Now()
	if s.Handle("quit") {
		t.Error("quit did not end the session")
	}
	if f.stopped.Load() != 2 || time.Since(start) > time.Second {
		t.Errorf("quit: %d stops after %v", f.stopped.Load(), time.Since(start))
	}
	if got := f.log(); got != "lazy" {
		t.Errorf("the table reached the searcher as %q, want \"lazy\"", got)
	}
}

// TestReserveFinished: a reservation that ran to its end (the table all
// resident, or given up after too many cuts) is not owed again.
func TestReserveFinished(t *testing.T) {
	f := &pendingSearcher{}
	s := pendingSession(t, &bytes.Buffer{}, f, f)
	s.Handle("setoption name Hash value 64")
	s.Handle("isready")
	s.Handle("isready")
	s.Handle("ucinewgame")
	s.Handle("isready")
	if got := f.log(); got != "lazy reserve" {
		t.Errorf("%q, want \"lazy reserve\"", got)
	}
}
