package uci

import (
	"strings"
	"testing"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// optsSearcher answers every search at once with the first legal move
// and records the options each search ran with.
type optsSearcher struct {
	opts search.Options
	seen []search.Options
}

func (f *optsSearcher) SetOptions(o search.Options) { f.opts = o }
func (f *optsSearcher) Clear()                      {}
func (f *optsSearcher) HashFull() int               { return 0 }
func (f *optsSearcher) SearchWith(ctl *search.Control, pos *v.Position, lim search.Limits, cb search.Callbacks) search.Result {
	f.seen = append(f.seen, f.opts)
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	return search.Result{Best: ml.Moves[0], Depth: 1}
}

// UCI_LimitStrength and UCI_Elo: advertised as in Stockfish 15.1, off by
// default, parsed case-insensitively, an Elo out of range clamped with an
// info string, a bad value refused, and both handed to the search.
func TestStrengthOptions(t *testing.T) {
	for name, want := range map[string]string{
		"UCI_LimitStrength": "option name UCI_LimitStrength type check default false",
		"UCI_Elo":           "option name UCI_Elo type spin default 2600 min 1320 max 2600",
	} {
		o, ok := findOption(name)
		if !ok || o.String() != want {
			t.Errorf("%s: %v %v, want %q", name, ok, o, want)
		}
	}
	rec := &optsSearcher{}
	out := &syncBuffer{}
	s := NewSession(out, Config{NewSearcher: func(o search.Options) Searcher { rec.opts = o; return rec }})
	defer s.Close()
	last := func() search.Options {
		s.Handle("go depth 1")
		s.wait(0)
		return rec.seen[len(rec.seen)-1]
	}
	if o := last(); o.LimitStrength || o.Elo != search.EloMax {
		t.Errorf("defaults: LimitStrength %v, Elo %d", o.LimitStrength, o.Elo)
	}
	for _, c := range []struct {
		cmds  []string
		limit bool
		elo   int
		note  string
	}{
		{[]string{"setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 1500"}, true, 1500, ""},
		{[]string{"setoption name uci_elo value 1000"}, true, 1320, "info string UCI_Elo 1000 is below the minimum; set to 1320"},
		{[]string{"setoption name UCI_Elo value 4000"}, true, 2600, "info string UCI_Elo 4000 is above the maximum; set to 2600"},
		{[]string{"setoption name UCI_Elo value 99999999999999999999"}, true, 2600, "above the maximum"},
		{[]string{"setoption name UCI_Elo value 2000", "setoption name UCI_Elo value strong"}, true, 2000, "is not an integer"},
		{[]string{"setoption name UCI_LimitStrength value maybe"}, true, 2000, "is not true or false"},
		{[]string{"setoption name uci_limitstrength value FALSE"}, false, 2000, ""},
	} {
		for _, cmd := range c.cmds {
			s.Handle(cmd)
		}
		o := last()
		if o.LimitStrength != c.limit || o.Elo != c.elo {
			t.Errorf("%q: LimitStrength %v, Elo %d; want %v, %d", c.cmds, o.LimitStrength, o.Elo, c.limit, c.elo)
		}
		s.out.Flush()
		if c.note != "" && !strings.Contains(out.String(), c.note) {
			t.Errorf("%q: no %q in the output", c.cmds, c.note)
		}
	}
}
