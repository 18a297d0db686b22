package search

// Progress reports: info lines, currmove and the WDL model.

import (
	"math"
	"slices"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// reportCurrMove sends currmove for each root move after the first second.
func (e *Engine) reportCurrMove(t *thread, m v.Move, n int) {
	if e.cb.OnCurrMove == nil {
		return
	}
	if time.Since(e.start) < time.Second {
		return
	}
	e.cb.OnCurrMove(CurrMove{Depth: t.rootDepth, Move: m, Number: n})
}

// report sends one info line per PV.
func (e *Engine) report(t *thread, depth int, final bool) {
	if e.cb.OnInfo == nil {
		return
	}
	elapsed := time.Since(e.start)
	nodes := e.nodes()
	e.lastReportNodes = nodes
	nps := uint64(0)
	if elapsed > 0 {
		nps = uint64(float64(nodes) / elapsed.Seconds())
	}
	hf := e.tt.HashFull()
	multiPV := min(e.opts.MultiPV, len(t.rootMoves))
	for i := 0; i < multiPV; i++ {
		rm := t.rootMoves[i]
		if final && i == 0 {
			rm = t.final()
		}
		score := rm.score
		d := depth
		bound := rm.bound
		if score == -Infinity {
			score = rm.prevScore
			bound = BoundExact
			if i > t.pvIdx || final {
				d = max(depth, 1)
			}
		}
		if score == -Infinity {
			if i > 0 {
				continue
			}
			score = 0
		}
		if tbs := e.tbScore(rm.move, score); tbs != score {
			score, bound = tbs, BoundExact
		}
		info := Info{
			Depth: max(d, 1), SelDepth: max(rm.selDepth, 1), MultiPV: i + 1,
			Score: score, Bound: bound, Nodes: nodes, NPS: nps, Time: elapsed,
			HashFull: hf, TBHits: e.tbHits(), PV: slices.Clone(rm.pv),
		}
		info.WDL = wdl(score)
		e.cb.OnInfo(info)
	}
}

// wdl turns a score into win/draw/loss permille with a simple logistic
// model (our own, untuned).
func wdl(score int) [3]int {
	if IsMate(score) {
		if score > 0 {
			return [3]int{1000, 0, 0}
		}
		return [3]int{0, 0, 1000}
	}
	w := int(1000 / (1 + math.Exp(float64(200-score)/70)))
	l := int(1000 / (1 + math.Exp(float64(200+score)/70)))
	return [3]int{w, 1000 - w - l, l}
}
