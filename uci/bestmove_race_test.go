package uci

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestCommandAfterBestmove: what the GUI sends once it has read a
// bestmove is handled as a command between searches, even when the
// search's goroutine has not yet counted as ended (held up by the
// scheduler between writing the bestmove and closing its channel). A
// Hash set then was taken for one set during the search and deferred, so
// that the isready after it answered with the old table still resident
// (tests/TestHashResident failed so under load). Between searches, the
// new table is set up at once and made resident in the background.
func TestCommandAfterBestmove(t *testing.T) {
	afterBestmove = func() { time.Sleep(300 * time.Millisecond) }
	defer func() { afterBestmove = nil }()
	f := &pendingSearcher{}
	var out bytes.Buffer
	s := pendingSession(t, &out, f, f)
	s.Handle("position startpos")
	s.Handle("go infinite")
	s.Handle("stop")
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.outMu.Lock()
		got := out.String()
		s.outMu.Unlock()
		if strings.Contains(got, "bestmove") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no bestmove")
		}
		time.Sleep(time.Millisecond)
	}
	s.Handle("setoption name Hash value 64")
	if got := f.log(); got != "lazy" && got != "lazy reserve" {
		t.Errorf("Hash set after the bestmove reached the searcher as %q, want \"lazy\" at once (a reservation following)", got)
	}
	s.wait(0)
	s.endReserve()
	if got := f.log(); got != "lazy reserve" {
		t.Errorf("after the setoption: %q, want \"lazy reserve\"", got)
	}
}
