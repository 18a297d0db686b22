package search

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rochade/rochade/eval"
)

// notTuned are the params fields that paramTable declares as fixed, left
// out of tuning on purpose (params.go says why).
var notTuned = map[string]bool{"ttEvalDepth": true, "mateStableIters": true, "mateExtraDepth": true,
	"tmEffortPivot": true, "tmEffortWeight": true, "tmTrendWeight": true, "tmLowIncSlope": true}

// Every field of params is in the table once (or named in notTuned),
// under its capitalised name, with its current value inside its range
// and an OpenBench line that reads back as the same figures.
func TestTunableParamsCoverParams(t *testing.T) {
	byName := map[string]Tunable{}
	for _, p := range TunableParams() {
		if _, dup := byName[p.Name]; dup {
			t.Errorf("%s is in the table twice", p.Name)
		}
		byName[p.Name] = p
	}
	rt := reflect.TypeOf(sp)
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		p, ok := byName[optionName(f.Name)]
		if notTuned[f.Name] {
			if ok {
				t.Errorf("%s is both tuned and listed as not tuned", f.Name)
			}
			continue
		}
		if !ok {
			t.Errorf("params.%s is not in the tunable table", f.Name)
			continue
		}
		delete(byName, p.Name)
		want := reflect.ValueOf(sp).Field(i)
		var def int
		if f.Type.Kind() == reflect.Float64 {
			if p.Scale != 100 {
				t.Errorf("%s: float with scale %d, want 100", p.Name, p.Scale)
			}
			def = int(want.Float()*100 + 0.5)
		} else {
			def = int(want.Int())
		}
		if p.Value() != def {
			t.Errorf("%s: value %d, want %d", p.Name, p.Value(), def)
		}
		if p.Min >= p.Max || def < p.Min || def > p.Max {
			t.Errorf("%s: default %d outside [%d, %d]", p.Name, def, p.Min, p.Max)
		}
		if p.CEnd < 0.5 || p.REnd <= 0 {
			t.Errorf("%s: c_end %v, r_end %v", p.Name, p.CEnd, p.REnd)
		}
		fields := strings.Split(p.OpenBenchLine(), ", ")
		if len(fields) != 7 || fields[0] != p.Name || fields[1] != "int" ||
			fields[2] != strconv.Itoa(def) || fields[3] != strconv.Itoa(p.Min) || fields[4] != strconv.Itoa(p.Max) ||
			fields[5] != strconv.FormatFloat(p.CEnd, 'f', -1, 64) || fields[6] != "0.002" {
			t.Errorf("OpenBench line %q", p.OpenBenchLine())
		}
	}
	for name := range byName {
		t.Errorf("%s is in the table but not a params field", name)
	}
}

// paramTable declares every params field once, under the field's own
// name, with an accessor that points at that field; sp starts at the
// declared defaults; the fixed rows are exactly notTuned, and a tuned
// row's range holds its (scaled) default.
func TestParamTable(t *testing.T) {
	if defaultParams() != sp {
		t.Errorf("sp %+v, want the table's defaults %+v", sp, defaultParams())
	}
	var probe params
	pv := reflect.ValueOf(&probe).Elem()
	seen := map[string]bool{}
	for _, r := range paramTable {
		if seen[r.name] {
			t.Errorf("%s is declared twice", r.name)
		}
		seen[r.name] = true
		f := pv.FieldByName(r.name)
		if !f.IsValid() {
			t.Errorf("%s is not a params field", r.name)
			continue
		}
		var addr uintptr
		var def int
		if r.f != nil {
			addr = reflect.ValueOf(r.f(&probe)).Pointer()
			def = int(math.Round(r.defF * float64(r.scale)))
		} else {
			addr = reflect.ValueOf(r.i(&probe)).Pointer()
			def = r.defI
		}
		if addr != f.Addr().Pointer() {
			t.Errorf("the %s row does not point at params.%s", r.name, r.name)
		}
		if r.tuned == notTuned[r.name] {
			t.Errorf("%s: tuned %v, but notTuned says %v", r.name, r.tuned, notTuned[r.name])
		}
		if r.tuned && (r.min >= r.max || def < r.min || def > r.max || r.cEnd < 0.5) {
			t.Errorf("%s: default %d, range [%d, %d], c_end %v", r.name, def, r.min, r.max, r.cEnd)
		}
	}
	for i := range pv.NumField() {
		if name := pv.Type().Field(i).Name; !seen[name] {
			t.Errorf("params.%s is not in paramTable", name)
		}
	}
}

// SetTunable sets the field (any case of the name), holds the value to
// the range, scales floats and rebuilds the LMR table; the next search
// sees it, and restoring the defaults restores the search.
func TestSetTunable(t *testing.T) {
	saved, savedLMR := sp, lmrTable
	t.Cleanup(func() { sp, lmrTable = saved, savedLMR })

	if SetTunable("NoSuchParam", 1) {
		t.Error("SetTunable of an unknown name reported true")
	}
	if !SetTunable("rfpmargin", 95) || sp.rfpMargin != 95 {
		t.Errorf("rfpMargin %d after SetTunable(rfpmargin, 95)", sp.rfpMargin)
	}
	SetTunable("RfpMargin", 100000)
	if sp.rfpMargin != 160 {
		t.Errorf("rfpMargin %d after a value above the maximum, want 160", sp.rfpMargin)
	}
	SetTunable("RfpMargin", saved.rfpMargin)

	net, _ := eval.DefaultNet()
	before, _ := Bench(5, net)
	SetTunable("LmrBase", 150)
	if sp.lmrBase != 1.5 {
		t.Errorf("lmrBase %v after LmrBase 150, want 1.5", sp.lmrBase)
	}
	if lmrTable == savedLMR {
		t.Error("the LMR table was not rebuilt")
	}
	changed, _ := Bench(5, net)
	if changed == before {
		t.Errorf("bench %d with LmrBase 150, the same as with the default", changed)
	}
	SetTunable("LmrBase", int(math.Round(saved.lmrBase*100)))
	if lmrTable != savedLMR {
		t.Error("the LMR table differs after restoring LmrBase")
	}
	if again, _ := Bench(5, net); again != before {
		t.Errorf("bench %d after restoring LmrBase, want %d", again, before)
	}
}
