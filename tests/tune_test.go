package tests

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// spsaLine is one line of OpenBench's SPSA input.
type spsaLine struct {
	name            string
	value, min, max int
	cEnd, rEnd      float64
}

// parseSPSA reads OpenBench SPSA input the way OpenBench does: each line
// split at commas into name, type, value, min, max, c_end, r_end.
func parseSPSA(t *testing.T, text string) []spsaLine {
	t.Helper()
	var out []spsaLine
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Split(l, ",")
		if len(f) != 7 {
			t.Fatalf("SPSA line %q: %d fields, want 7", l, len(f))
		}
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		var p spsaLine
		var err [6]error
		p.name = f[0]
		p.value, err[0] = strconv.Atoi(f[2])
		p.min, err[1] = strconv.Atoi(f[3])
		p.max, err[2] = strconv.Atoi(f[4])
		p.cEnd, err[3] = strconv.ParseFloat(f[5], 64)
		p.rEnd, err[4] = strconv.ParseFloat(f[6], 64)
		for _, e := range err {
			if e != nil {
				t.Fatalf("SPSA line %q: %v", l, e)
			}
		}
		if f[1] != "int" || p.name == "" || strings.ContainsAny(p.name, " =") || p.min > p.value || p.value > p.max ||
			p.cEnd <= 0 || p.rEnd <= 0 {
			t.Fatalf("SPSA line %q is not a valid int parameter", l)
		}
		out = append(out, p)
	}
	return out
}

var reSpin = regexp.MustCompile(`^option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)$`)

// spinOptions returns the spin options a uci handshake advertises.
func spinOptions(t *testing.T, e *engine) map[string][3]int {
	t.Helper()
	e.send("uci")
	opts := map[string][3]int{}
	for _, l := range e.until("uciok", 10*time.Second) {
		if m := reSpin.FindStringSubmatch(l); m != nil {
			d, _ := strconv.Atoi(m[2])
			lo, _ := strconv.Atoi(m[3])
			hi, _ := strconv.Atoi(m[4])
			opts[m[1]] = [3]int{d, lo, hi}
		}
	}
	return opts
}

// The tune build (-tags tune) offers every parameter that `spsa` prints
// as a spin option with the printed default and range; setoption changes
// the parameter for the next search (the node count of a fixed-depth
// search moves, and comes back with the default) as OpenBench's SPSA
// sends it; and the plain build has none of these options.
func TestTuneBuild(t *testing.T) {
	tuneBin := buildEngine(t, engineBuild{tags: "tune", out: filepath.Join(t.TempDir(), "rochade-tune")})
	out, err := exec.Command(tuneBin, "spsa").Output()
	if err != nil {
		t.Fatalf("rochade-tune spsa: %v", err)
	}
	params := parseSPSA(t, string(out))
	if len(params) < 40 {
		t.Fatalf("rochade-tune spsa printed %d parameters, want at least 40", len(params))
	}

	e := startProcess(t, tuneBin)
	e.rochade = true
	opts := spinOptions(t, e)
	for _, p := range params {
		if got, ok := opts[p.name]; !ok {
			t.Errorf("no spin option %s", p.name)
		} else if got != [3]int{p.value, p.min, p.max} {
			t.Errorf("option %s: default, min, max %v; spsa printed %d, %d, %d", p.name, got, p.value, p.min, p.max)
		}
	}

	// The UCI spsa command prints the current values.
	current := func() map[string]int {
		e.send("spsa")
		vals := map[string]int{}
		var text strings.Builder
		for _, l := range e.sync() {
			if s, ok := strings.CutPrefix(l, "info string spsa "); ok {
				text.WriteString(s + "\n")
			}
		}
		for _, p := range parseSPSA(t, text.String()) {
			vals[p.name] = p.value
		}
		return vals
	}
	nodes := func() string {
		e.send("ucinewgame", "position startpos")
		_, _, lines := e.search("go depth 9", 60*time.Second)
		for i := len(lines) - 1; i >= 0; i-- {
			f := strings.Fields(lines[i])
			for j := 0; j+1 < len(f); j++ {
				if f[j] == "nodes" && strings.HasPrefix(lines[i], "info depth 9 ") {
					return f[j+1]
				}
			}
		}
		t.Fatalf("no depth-9 info line with nodes in %q", lines)
		return ""
	}
	before, def := nodes(), current()
	e.send("setoption name LmrBase value 150", "setoption name RfpMargin value 100")
	if v := current(); v["LmrBase"] != 150 || v["RfpMargin"] != 100 {
		t.Errorf("after setoption: LmrBase %d, RfpMargin %d; want 150, 100", v["LmrBase"], v["RfpMargin"])
	}
	if changed := nodes(); changed == before {
		t.Errorf("depth-9 nodes %s with LmrBase 150, RfpMargin 100: the same as with the defaults", changed)
	}
	e.send(fmt.Sprintf("setoption name LmrBase value %d", def["LmrBase"]),
		fmt.Sprintf("setoption name RfpMargin value %d", def["RfpMargin"]))
	if again := nodes(); again != before {
		t.Errorf("depth-9 nodes %s after restoring the defaults, want %s", again, before)
	}
	e.send("quit")
	e.waitExit(10 * time.Second)

	plain := startProcess(t, plainBin(t))
	plain.rochade = true
	popts := spinOptions(t, plain)
	for _, p := range params {
		if _, ok := popts[p.name]; ok {
			t.Errorf("the plain build offers %s", p.name)
		}
	}
	plain.send("quit")
	plain.waitExit(10 * time.Second)
	if err := exec.Command(plainBin(t), "spsa").Run(); err == nil {
		t.Error("plain rochade spsa succeeded; it has no tuning options")
	}
}
