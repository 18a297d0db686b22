package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Tunable is one search parameter open to SPSA tuning: a tuned row of
// paramTable (params.go), bound to the field the search reads. The tune
// build (`make tune`, go build -tags tune) offers each as a UCI spin
// option of the same name; every build can list them (rochade-tune spsa
// prints them in OpenBench's SPSA input format).
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

// tunables are the tuned rows of paramTable, bound to sp, in the table's
// order.
var tunables = tunableParams()

func tunableParams() []Tunable {
	var ts []Tunable
	for _, r := range paramTable {
		if !r.tuned {
			continue
		}
		t := Tunable{Name: optionName(r.name), Min: r.min, Max: r.max, CEnd: r.cEnd, REnd: rEnd, Scale: r.scale}
		if r.f != nil {
			t.f = r.f(&sp)
		} else {
			t.i = r.i(&sp)
		}
		ts = append(ts, t)
	}
	return ts
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
