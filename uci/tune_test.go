package uci

import (
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// tunedValue is the current value of a tunable parameter.
func tunedValue(t *testing.T, name string) int {
	t.Helper()
	for _, p := range search.TunableParams() {
		if p.Name == name {
			return p.Value()
		}
	}
	t.Fatalf("no tunable %s", name)
	return 0
}

// valueSearcher records RfpMargin as each search sees it and searches
// until stopped.
type valueSearcher struct{ seen []int }

func (f *valueSearcher) SetOptions(search.Options) {}
func (f *valueSearcher) Clear()                    {}
func (f *valueSearcher) HashFull() int             { return 0 }
func (f *valueSearcher) SearchWith(ctl *search.Control, pos *v.Position, lim search.Limits, cb search.Callbacks) search.Result {
	for _, p := range search.TunableParams() {
		if p.Name == "RfpMargin" {
			f.seen = append(f.seen, p.Value())
		}
	}
	for !ctl.Stopped() {
		time.Sleep(time.Millisecond)
	}
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	return search.Result{Best: ml.Moves[0], Depth: 1}
}

// With the tune build's options registered (as tune_on.go does), a
// parameter set between searches applies at once, one set during a
// search waits for its end, and `spsa` prints the current values.
func TestTuneOptionsApply(t *testing.T) {
	saved, savedSPSA := optionList, commands["spsa"]
	optionList = append([]option(nil), optionList...)
	registerTune()
	def := tunedValue(t, "RfpMargin")
	t.Cleanup(func() {
		optionList = saved
		if !savedSPSA {
			delete(commands, "spsa")
		}
		search.SetTunable("RfpMargin", def)
	})

	rec := &valueSearcher{}
	out := &syncBuffer{}
	s := NewSession(out, Config{NewSearcher: func(search.Options) Searcher { return rec }})
	defer s.Close()
	s.Handle("setoption name RfpMargin value 100")
	if got := tunedValue(t, "RfpMargin"); got != 100 {
		t.Fatalf("RfpMargin %d after setoption between searches, want 100", got)
	}
	s.Handle("go infinite")
	s.Handle("setoption name RfpMargin value 120")
	if got := tunedValue(t, "RfpMargin"); got != 100 {
		t.Errorf("RfpMargin %d during the search, want 100 until it ends", got)
	}
	s.Handle("stop")
	s.wait(0)
	s.Handle("go infinite")
	s.Handle("stop")
	s.wait(0)
	if len(rec.seen) != 2 || rec.seen[0] != 100 || rec.seen[1] != 120 {
		t.Errorf("the searches saw RfpMargin %v, want [100 120]", rec.seen)
	}
	s.Handle("spsa")
	s.Handle("isready")
	s.out.Flush()
	if !strings.Contains(out.String(), "info string spsa RfpMargin, int, 120, 30, 160, 6.5, 0.002\n") ||
		!strings.Contains(out.String(), "RfpMargin will be applied when the current search ends") {
		t.Errorf("output:\n%s", out.String())
	}
}
