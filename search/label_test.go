package search

import (
	"github.com/rochade/rochade/eval"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// A hard node limit that stops the search inside an aspiration pass,
// before the first root move has a score, used to leave -Infinity
// (-32001) in Result.Score, which datagen stored as a mate. The result
// must be the last completed iteration's move and score.
func TestHardNodeStopScore(t *testing.T) {
	fens := []string{
		"rbbkqrn1/ppp2nQ1/3p3p/4pp1B/1P6/2N5/P1PPPP1P/BRN1K2R b HBfa - 3 8",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
	}
	dn, err := eval.DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, net := range []*eval.Net{nil, dn} {
		e := NewEngine(Options{HashMB: 16, Threads: 1, MultiPV: 1, Net: net})
		bad := 0
		for _, fen := range fens {
			pos := v.MustParseFEN(fen)
			for nodes := uint64(500); nodes < 8000; nodes += 67 {
				e.Clear()
				res := e.Search(pos.Copy(), Limits{Nodes: nodes}, Callbacks{})
				if IsMate(res.Score) || res.Score <= -Infinity || res.Score >= Infinity {
					bad++
					t.Errorf("net %t, %d nodes, %s: score %d (depth %d, move %v)", net != nil, nodes, fen, res.Score, res.Depth, res.Best)
				}
				if res.Best == v.NoMove {
					t.Errorf("net %t, %d nodes, %s: no move", net != nil, nodes, fen)
				}
			}
		}
		if bad > 0 {
			t.Logf("net %t: %d searches answered a mate score", net != nil, bad)
		}
	}
}

// TestFinalInfoKeepsBound: when a stop ends an aspiration pass whose
// first root move failed high or low, the answer's score is a bound, and
// the last info line must say so (it printed such a score as exact).
// The last info line's score must also be the answer's.
func TestFinalInfoKeepsBound(t *testing.T) {
	dn, err := eval.DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	fens := []string{
		"rbbkqrn1/ppp2nQ1/3p3p/4pp1B/1P6/2N5/P1PPPP1P/BRN1K2R b HBfa - 3 8",
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	}
	bounds := 0
	for _, net := range []*eval.Net{nil, dn} {
		e := NewEngine(Options{HashMB: 16, Threads: 1, MultiPV: 1, Net: net})
		for _, fen := range fens {
			pos := v.MustParseFEN(fen)
			for nodes := uint64(2000); nodes < 30000; nodes += 1409 {
				e.Clear()
				var last Info
				res := e.Search(pos.Copy(), Limits{Nodes: nodes}, Callbacks{OnInfo: func(i Info) { last = i }})
				fin := e.threads[0].final()
				if fin.bound != BoundExact {
					bounds++
				}
				if last.Bound != fin.bound || last.Score != res.Score {
					t.Errorf("%s, %d nodes: last info %d bound %v, answer %d bound %v", fen, nodes, last.Score, last.Bound, res.Score, fin.bound)
				}
			}
		}
	}
	if bounds == 0 {
		t.Error("no search ended on a bound; the test shows nothing")
	}
	t.Logf("%d searches ended on a bound", bounds)
}
