package search

import (
	"testing"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// TestNetSwitchClearsState: the table's static evaluations and the
// correction histories were made by one evaluation; SetOptions with
// another net (or none: the hand-written evaluation) clears them, so the
// next search is the one a fresh engine with that net makes. Other
// option changes keep them.
func TestNetSwitchClearsState(t *testing.T) {
	net, err := eval.DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	pos := v.MustParseFEN("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8")
	lim := Limits{Depth: 7}
	withNet := Options{HashMB: 16, Threads: 1, MultiPV: 1, Net: net}
	hce := withNet
	hce.Net = nil
	fresh := func(o Options) Result { return NewEngine(o).Search(pos.Copy(), lim, Callbacks{}) }
	used := func(e *Engine) bool {
		_, hit := e.tt.Probe(pos.Key())
		var corr bool
		for _, side := range e.threads[0].hist.corr {
			for _, c := range side {
				corr = corr || c != 0
			}
		}
		return hit && corr
	}

	for _, c := range []struct {
		name     string
		from, to Options
	}{{"net to hand-written", withNet, hce}, {"hand-written to net", hce, withNet}} {
		e := NewEngine(c.from)
		e.Search(pos.Copy(), lim, Callbacks{})
		if !used(e) {
			t.Fatalf("%s: the first search left no table entry or correction", c.name)
		}
		// Another option: the state stays.
		o := c.from
		o.MultiPV = 2
		e.SetOptions(o)
		if !used(e) {
			t.Fatalf("%s: MultiPV cleared the table", c.name)
		}
		e.SetOptions(c.from)
		// Another evaluation: cleared.
		e.SetOptions(c.to)
		if _, hit := e.tt.Probe(pos.Key()); hit {
			t.Errorf("%s: the old evaluation's root entry is still in the table", c.name)
		}
		if used(e) {
			t.Errorf("%s: correction history kept", c.name)
		}
		got, want := e.Search(pos.Copy(), lim, Callbacks{}), fresh(c.to)
		if got != want {
			t.Errorf("%s: after the switch %+v, a fresh engine %+v", c.name, got, want)
		}
	}
}
