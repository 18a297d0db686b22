package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Tunable is one search parameter open to SPSA tuning. The tune build
// (`make tune`, go build -tags tune) offers each as a UCI spin option of
// the same name; every build can list them (rochade-tune spsa prints them
// in OpenBench's SPSA input format).
//
// A float parameter is offered as an integer: its value times Scale
// (LmrBase 75 is lmrBase 0.75).
type Tunable struct {
	Name     string  // UCI option and SPSA name: the params field, capitalised
	Min, Max int     // the range the tuner may use (also the option's min and max)
	CEnd     float64 // OpenBench's c_end: the perturbation at the end of a tune
	REnd     float64 // OpenBench's r_end: the learning rate at the end of a tune
	Scale    int     // 1 for an integer; 100 for a float held as value*100

	i *int
	f *float64
}

// rEnd is the r_end of every parameter: OpenBench's usual 0.002.
const rEnd = 0.002

// tunables is the one table of the tunable parameters. Left out of it:
// ttEvalDepth (a marker below every real depth, not a strength setting)
// and mateStableIters/mateExtraDepth (when a search without a depth
// limit stops on a found mate; no game result depends on them).
var tunables = []Tunable{
	ti("ttCutRule50", &sp.ttCutRule50, 50, 100),
	ti("aspiration", &sp.aspiration, 5, 60),
	ti("aspirationAt", &sp.aspirationAt, 1, 8),

	ti("rfpMaxDepth", &sp.rfpMaxDepth, 3, 14),
	ti("rfpMargin", &sp.rfpMargin, 30, 160),

	ti("nmpMinDepth", &sp.nmpMinDepth, 1, 6),
	ti("nmpEvalSlope", &sp.nmpEvalSlope, 0, 60),
	ti("nmpEvalBase", &sp.nmpEvalBase, 0, 400),
	ti("nmpBaseR", &sp.nmpBaseR, 1, 6),
	ti("nmpDepthDiv", &sp.nmpDepthDiv, 2, 8),
	ti("nmpEvalDiv", &sp.nmpEvalDiv, 50, 500),
	ti("nmpEvalMaxR", &sp.nmpEvalMaxR, 0, 6),
	ti("probCutMargin", &sp.probCutMargin, 80, 400),
	ti("probCutImprove", &sp.probCutImprove, 0, 150),
	ti("probCutDepth", &sp.probCutDepth, 3, 10),
	ti("probCutReduce", &sp.probCutReduce, 2, 6),
	ti("probCutTTSlack", &sp.probCutTTSlack, 1, 6),

	ti("iirMinDepth", &sp.iirMinDepth, 2, 10),

	ti("lmpBase", &sp.lmpBase, 0, 10),
	ti("futMaxDepth", &sp.futMaxDepth, 3, 14),
	ti("futBase", &sp.futBase, 0, 300),
	ti("futPerDepth", &sp.futPerDepth, 40, 250),
	ti("histPruneDepth", &sp.histPruneDepth, 1, 8),
	ti("histPruneMargin", &sp.histPruneMargin, 500, 8000),
	ti("seeQuietMargin", &sp.seeQuietMargin, 5, 80),
	ti("seeNoisyDepth", &sp.seeNoisyDepth, 3, 14),
	ti("seeNoisyMargin", &sp.seeNoisyMargin, 20, 200),

	ti("seMinDepth", &sp.seMinDepth, 4, 12),
	ti("seTTSlack", &sp.seTTSlack, 1, 6),
	ti("seBetaPerDepth", &sp.seBetaPerDepth, 1, 6),
	ti("seDoubleMargin", &sp.seDoubleMargin, 0, 60),
	ti("seMaxDoubleExts", &sp.seMaxDoubleExts, 0, 16),
	ti("checkExtDepth", &sp.checkExtDepth, 4, 30),

	tf("lmrBase", &sp.lmrBase, 100, 0, 200),
	tf("lmrDiv", &sp.lmrDiv, 100, 120, 400),
	ti("lmrHistDiv", &sp.lmrHistDiv, 2000, 20000),

	ti("histBonusSlope", &sp.histBonusSlope, 60, 400),
	ti("histBonusBase", &sp.histBonusBase, 0, 300),
	ti("histBonusMax", &sp.histBonusMax, 800, 4000),

	ti("qsDeltaMargin", &sp.qsDeltaMargin, 50, 400),
	ti("qsSEEMargin", &sp.qsSEEMargin, -50, 100),
	ti("qsEvasions", &sp.qsEvasions, 1, 8),
}

// cEnd is the usual rule of thumb for c_end, a twentieth of the range,
// but at least 0.5: OpenBench never perturbs an integer by less (its
// learning rate a = r_end*c_end^2 would only shrink below that).
func cEnd(lo, hi int) float64 { return max(float64(hi-lo)/20, 0.5) }

func ti(field string, p *int, lo, hi int) Tunable {
	return Tunable{Name: optionName(field), Min: lo, Max: hi, CEnd: cEnd(lo, hi), REnd: rEnd, Scale: 1, i: p}
}

func tf(field string, p *float64, scale, lo, hi int) Tunable {
	return Tunable{Name: optionName(field), Min: lo, Max: hi, CEnd: cEnd(lo, hi), REnd: rEnd, Scale: scale, f: p}
}

func optionName(field string) string {
	return string(field[0]-'a'+'A') + field[1:]
}

// TunableParams returns the tunable parameters in their fixed order.
func TunableParams() []Tunable {
	return append([]Tunable(nil), tunables...)
}

// Value is the parameter's current value (times Scale for a float).
func (t Tunable) Value() int {
	if t.f != nil {
		return int(math.Round(*t.f * float64(t.Scale)))
	}
	return *t.i
}

// OpenBenchLine is the parameter as a line of OpenBench's SPSA input,
// `name, int, value, min, max, c_end, r_end`, with the current value.
func (t Tunable) OpenBenchLine() string {
	return fmt.Sprintf("%s, int, %d, %d, %d, %s, %s", t.Name, t.Value(), t.Min, t.Max,
		strconv.FormatFloat(t.CEnd, 'f', -1, 64), strconv.FormatFloat(t.REnd, 'f', -1, 64))
}

// SetTunable sets the parameter called name (case-insensitive) to value,
// held to its range, for the searches that start afterwards. It must not
// be called while a search runs. It reports whether name is a tunable
// parameter.
func SetTunable(name string, value int) bool {
	for _, t := range tunables {
		if !strings.EqualFold(t.Name, name) {
			continue
		}
		value = min(max(value, t.Min), t.Max)
		if t.f != nil {
			*t.f = float64(value) / float64(t.Scale)
			initLMR()
		} else {
			*t.i = value
		}
		return true
	}
	return false
}
