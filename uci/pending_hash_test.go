package uci

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/rochade/rochade/search"
)

// pendingSearcher records how the table sizes reach it: SetOptions makes a
// new table resident (a guard is set), SetOptionsLazy does not, Reserve
// makes it resident later.
type pendingSearcher struct {
	countingSearcher
	mu     sync.Mutex
	calls  []string
	hashMB int
}

func (f *pendingSearcher) record(call string, o search.Options) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if o.HashMB != f.hashMB {
		f.calls = append(f.calls, call)
		f.hashMB = o.HashMB
	}
}
func (f *pendingSearcher) SetOptions(o search.Options)     { f.record("resident", o) }
func (f *pendingSearcher) SetOptionsLazy(o search.Options) { f.record("lazy", o) }
func (f *pendingSearcher) SetHashGuard(search.HashGuard)   {}
func (f *pendingSearcher) Reserve(func() bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "reserve")
	return true
}

// pendingSession starts a session (memory budget 4096 MB) whose searcher
// is s, which records the table sizes in f (s itself, or a searcher that
// embeds it). The session is closed when the test ends.
func pendingSession(t *testing.T, out io.Writer, f *pendingSearcher, s Searcher) *Session {
	t.Setenv("ROCHADE_MEMORY_MB", "4096")
	ses := NewSession(out, Config{NewSearcher: func(o search.Options) Searcher { f.hashMB = o.HashMB; return s }})
	t.Cleanup(ses.Close)
	return ses
}

func (f *pendingSearcher) log() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.calls, " ")
}

// TestPendingHashNotResidentAtGo: a Hash set during a search is applied
// after it without making the table resident, so that the position and
// go that follow the bestmove are not held up by it; the next isready
// makes it resident.
func TestPendingHashNotResidentAtGo(t *testing.T) {
	f := &pendingSearcher{}
	s := pendingSession(t, &bytes.Buffer{}, f, f)
	s.Handle("position startpos")
	s.Handle("go infinite")
	s.Handle("setoption name Hash value 64")
	s.Handle("stop")
	s.wait(0)
	s.Handle("position startpos moves e2e4")
	s.Handle("go infinite")
	s.Handle("stop")
	s.wait(0)
	if got := f.log(); got != "lazy" {
		t.Fatalf("Hash set during a search reached the searcher as %q by the next go, want \"lazy\"", got)
	}
	s.Handle("isready")
	if got := f.log(); got != "lazy reserve" {
		t.Errorf("after isready: %q, want \"lazy reserve\"", got)
	}
	s.Handle("isready")
	if got := f.log(); got != "lazy reserve" {
		t.Errorf("after a second isready: %q, want \"lazy reserve\"", got)
	}
}
