package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const input = `
# a comment
RfpMargin, int, 80, 30, 160, 6.5, 0.002
LmrBase, int, 75, 0, 200, 10, 0.002
NmpBaseR, int, 3, 1, 6, 0.5, 0.002
Scale, float, 0.5, 0.0, 1.0, 0.05, 0.002
`

func params(t *testing.T) []Param {
	t.Helper()
	ps, err := ParseInput(input)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

var sched = Schedule{Iterations: 100, Pairs: 2, Alpha: 0.602, Gamma: 0.101, ARatio: 0.1}

func TestParseInput(t *testing.T) {
	ps := params(t)
	want := Param{Name: "RfpMargin", Start: 80, Min: 30, Max: 160, CEnd: 6.5, REnd: 0.002, Value: 80}
	if len(ps) != 4 || ps[0] != want || !ps[3].Float || ps[2].Float {
		t.Fatalf("parsed %+v", ps)
	}
	for _, bad := range []string{
		"", "A, int, 1, 0, 2, 0.5", "A, bool, 1, 0, 2, 0.5, 0.002", "A, int, x, 0, 2, 0.5, 0.002",
		"A, int, 3, 0, 2, 0.5, 0.002", "A, int, 1, 0, 2, 0, 0.002", "A B, int, 1, 0, 2, 0.5, 0.002",
		"A, int, 1, 0, 2, 0.5, 0.002\nA, int, 1, 0, 2, 0.5, 0.002",
	} {
		if _, err := ParseInput(bad); err == nil {
			t.Errorf("ParseInput(%q) took it", bad)
		}
	}
}

// OpenBench's schedules: c starts at c_end*N^gamma and reaches c_end at
// the last iteration, r reaches r_end there; an int's c is at least 0.5.
func TestScheduleCR(t *testing.T) {
	ps := params(t)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9*max(1, math.Abs(b)) }
	for _, p := range ps {
		c1, _ := sched.CR(p, 1)
		cN, rN := sched.CR(p, sched.Iterations)
		if !near(c1, p.CEnd*math.Pow(100, 0.101)) || !near(cN, p.CEnd) || !near(rN, p.REnd) {
			t.Errorf("%s: c_1 %v, c_N %v, r_N %v", p.Name, c1, cN, rN)
		}
		// a_k = r_k c_k^2 = a / (A + k)^alpha
		c5, r5 := sched.CR(p, 5)
		a := p.REnd * p.CEnd * p.CEnd * math.Pow(110, 0.602)
		if !near(r5*c5*c5, a/math.Pow(15, 0.602)) {
			t.Errorf("%s: a_5 = %v, want %v", p.Name, r5*c5*c5, a/math.Pow(15, 0.602))
		}
	}
	small := Param{Name: "D", Start: 3, Min: 1, Max: 6, CEnd: 0.25, REnd: 0.002}
	if c, _ := sched.CR(small, 100); c != 0.5 {
		t.Errorf("int c %v, want the floor 0.5", c)
	}
}

// One iteration: dev and base straddle theta by c (rounded together for
// ints, held to the range), and theta moves by r*c*(W-L)*flip.
func TestIterateUpdate(t *testing.T) {
	st := &State{Schedule: sched, Seed: 7, Params: params(t)}
	before := append([]Param(nil), st.Params...)
	var gotDev, gotBase []float64
	s, err := st.Iterate(func(k int, dev, base []float64) (Result, error) {
		gotDev, gotBase = dev, base
		return Result{Wins: 3, Draws: 0, Losses: 1}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.K != 1 || st.Done != 1 || st.Games != 4 || st.Wins != 3 || st.Losses != 1 {
		t.Fatalf("step %d, state %+v", s.K, st)
	}
	for i, p := range before {
		c, r := sched.CR(p, 1)
		if s.C[i] != c || s.R[i] != r || math.Abs(s.Flip[i]) != 1 {
			t.Errorf("%s: c %v r %v flip %v", p.Name, s.C[i], s.R[i], s.Flip[i])
		}
		if gotDev[i] != s.Dev[i] || gotBase[i] != s.Base[i] {
			t.Errorf("%s: the match got other values than the step", p.Name)
		}
		d, b := s.Dev[i], s.Base[i]
		if p.Float {
			if math.Abs(d-(p.Start+s.Flip[i]*c)) > 1e-12 || math.Abs(b-(p.Start-s.Flip[i]*c)) > 1e-12 {
				t.Errorf("%s: dev %v base %v", p.Name, d, b)
			}
		} else {
			if d != math.Floor(d) || b != math.Floor(b) || math.Abs((d-b)-2*s.Flip[i]*c) > 1 {
				t.Errorf("%s: dev %v base %v, c %v flip %v", p.Name, d, b, c, s.Flip[i])
			}
			if math.Abs((d+b)/2-p.Start) > 0.5+1e-12 {
				t.Errorf("%s: dev %v base %v not around %v", p.Name, d, b, p.Start)
			}
		}
		want := p.Start + r*c*2*s.Flip[i]
		if math.Abs(st.Params[i].Value-want) > 1e-12 {
			t.Errorf("%s: theta %v, want %v", p.Name, st.Params[i].Value, want)
		}
	}
	// A draw-only result leaves theta alone; values stay in range.
	st2 := &State{Schedule: sched, Seed: 7, Params: params(t)}
	st2.Params[1].Value = 200 // at its maximum: dev or base is clipped
	s2, _ := st2.Iterate(func(int, []float64, []float64) (Result, error) { return Result{Draws: 4}, nil })
	if st2.Params[0].Value != 80 || s2.Dev[1] > 200 || s2.Base[1] > 200 {
		t.Errorf("after draws: theta %v, dev %v, base %v", st2.Params[0].Value, s2.Dev[1], s2.Base[1])
	}
}

// quadratic is a deterministic stand-in for a match: dev wins a pair
// when its values are nearer the optimum than base's, loses it when they
// are farther, and draws on a tie.
func quadratic(opt []float64) MatchFunc {
	return func(k int, dev, base []float64) (Result, error) {
		var fd, fb float64
		for i := range opt {
			fd += (dev[i] - opt[i]) * (dev[i] - opt[i]) / (opt[i]*opt[i] + 1)
			fb += (base[i] - opt[i]) * (base[i] - opt[i]) / (opt[i]*opt[i] + 1)
		}
		switch {
		case fd < fb:
			return Result{Wins: 2}, nil
		case fd > fb:
			return Result{Losses: 2}, nil
		}
		return Result{Draws: 2}, nil
	}
}

// SPSA with the stand-in match walks every parameter toward its optimum.
func TestTuneConverges(t *testing.T) {
	ps := []Param{
		{Name: "A", Start: 80, Min: 0, Max: 200, CEnd: 10, REnd: 0.002, Value: 80},
		{Name: "B", Start: 2000, Min: 500, Max: 8000, CEnd: 375, REnd: 0.002, Value: 2000},
		{Name: "C", Start: 1.0, Min: 0, Max: 4, CEnd: 0.2, REnd: 0.002, Float: true, Value: 1.0},
	}
	opt := []float64{120, 3000, 2.0}
	st := &State{Schedule: Schedule{Iterations: 2000, Pairs: 1, Alpha: 0.602, Gamma: 0.101, ARatio: 0.1}, Seed: 3, Params: ps}
	for st.Done < st.Schedule.Iterations {
		if _, err := st.Iterate(quadratic(opt)); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range st.Params {
		if math.Abs(p.Value-opt[i]) > math.Abs(p.Start-opt[i])/3 {
			t.Errorf("%s: %v after the tune, start %v, optimum %v", p.Name, p.Value, p.Start, opt[i])
		}
	}
}

// A tune stopped and resumed from its state file ends where an unbroken
// one does, and the file holds the values after every iteration.
func TestResume(t *testing.T) {
	dir := t.TempDir()
	opt := []float64{100, 90, 4, 0.7}
	whole := &State{Schedule: sched, Seed: 11, Params: params(t)}
	if err := tune(whole, quadratic(opt), 6, filepath.Join(dir, "whole.json"), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "part.json")
	var out bytes.Buffer
	st, err := setup(path, writeInput(t, dir), "", "", sched, 11, &out)
	if err != nil {
		t.Fatal(err)
	}
	if err := tune(st, quadratic(opt), 3, path, &out); err != nil {
		t.Fatal(err)
	}
	saved, err := Load(path)
	if err != nil || saved.Done != 3 || !reflect.DeepEqual(saved.Params, st.Params) {
		t.Fatalf("state after 3 iterations: %+v, %v", saved, err)
	}
	st, err = setup(path, "", "", "", Schedule{}, 0, &out) // flags ignored on resume
	if err != nil || !strings.Contains(out.String(), "resuming") {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	if err := tune(st, quadratic(opt), 6, path, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(st.Params, whole.Params) || st.Games != whole.Games || st.Wins != whole.Wins {
		t.Errorf("resumed tune %+v\nunbroken tune %+v", st, whole)
	}
	if !strings.Contains(out.String(), "iter 6/100") || !strings.Contains(out.String(), "RfpMargin, ") {
		t.Errorf("progress output:\n%s", out.String())
	}
}

func writeInput(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "input.txt")
	if err := os.WriteFile(p, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPick(t *testing.T) {
	ps := params(t)
	got, err := pick(ps, "lmrbase, RfpMargin")
	if err != nil || len(got) != 2 || got[0].Name != "RfpMargin" || got[1].Name != "LmrBase" {
		t.Errorf("pick: %+v, %v", got, err)
	}
	if _, err := pick(ps, "RfpMargin,Nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("pick of an unknown name: %v", err)
	}
}

func TestFastchessArgs(t *testing.T) {
	f := &Fastchess{Bin: "fastchess", Engine: "/e/rochade-tune", Names: []string{"RfpMargin", "Scale"},
		Floats: []bool{false, true}, Pairs: 3, Nodes: 2000, Book: "/b/chess960.epd", Variant: "fischerandom",
		Concurrency: 2, Hash: 16, Seed: 1}
	got := strings.Join(f.Args(4, []float64{86, 0.55}, []float64{74, 0.45}), " ")
	for _, want := range []string{
		"-engine cmd=/e/rochade-tune name=dev option.RfpMargin=86 option.Scale=0.55 -engine cmd=/e/rochade-tune name=base option.RfpMargin=74 option.Scale=0.45",
		"-each proto=uci nodes=2000 option.Threads=1 option.Hash=16", "-variant fischerandom",
		"-openings file=/b/chess960.epd format=epd order=random", "-games 2 -rounds 3 -repeat -concurrency 2",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("fastchess args lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "-pgnout") {
		t.Errorf("a PGN without -pgnout: %s", got)
	}
	f.Nodes, f.TC = 0, "8+0.08"
	if got := strings.Join(f.Args(1, []float64{1, 1}, []float64{1, 1}), " "); !strings.Contains(got, "tc=8+0.08") {
		t.Errorf("no tc in %s", got)
	}
	f.PGNOut = "/w/spsa games.pgn"
	args := f.Args(1, []float64{1, 1}, []float64{1, 1})
	if i := slices.Index(args, "-pgnout"); i < 0 || i+1 >= len(args) || args[i+1] != "file=/w/spsa games.pgn" {
		t.Errorf("no -pgnout file=/w/spsa games.pgn as one argument in %q", args)
	}
}

func TestParseFastchess(t *testing.T) {
	out, err := os.ReadFile("testdata/fastchess-out.txt")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseFastchess(string(out))
	if err != nil || r != (Result{Wins: 1, Draws: 1, Losses: 0}) {
		t.Errorf("ParseFastchess: %+v, %v", r, err)
	}
	if _, err := ParseFastchess("Finished game 1"); err == nil {
		t.Error("ParseFastchess took output without a result")
	}
	if _, err := ParseFastchess("Games: 3, Wins: 1, Losses: 0, Draws: 1, Points"); err == nil {
		t.Error("ParseFastchess took a result that does not add up")
	}
}
