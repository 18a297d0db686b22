package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/rochade/rochade/internal/atomicfile"
)

// Param is one parameter of OpenBench's SPSA input, with its current
// value (theta) as the tune has moved it.
type Param struct {
	Name  string  `json:"name"`
	Start float64 `json:"start"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	CEnd  float64 `json:"c_end"`
	REnd  float64 `json:"r_end"`
	Float bool    `json:"float,omitempty"`
	Value float64 `json:"value"` // theta
}

// ParseInput reads OpenBench's SPSA input: one
// `name, int|float, value, min, max, c_end, r_end` line a parameter.
// Blank lines and lines starting with # are skipped.
func ParseInput(text string) ([]Param, error) {
	var ps []Param
	seen := map[string]bool{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) != 7 {
			return nil, fmt.Errorf("line %d %q: %d fields, want name, type, value, min, max, c_end, r_end", n+1, line, len(f))
		}
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if f[1] != "int" && f[1] != "float" {
			return nil, fmt.Errorf("line %d: type %q is neither int nor float", n+1, f[1])
		}
		var x [5]float64
		for i := range x {
			v, err := strconv.ParseFloat(f[2+i], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			x[i] = v
		}
		p := Param{Name: f[0], Start: x[0], Min: x[1], Max: x[2], CEnd: x[3], REnd: x[4], Float: f[1] == "float", Value: x[0]}
		switch {
		case p.Name == "" || strings.ContainsAny(p.Name, " ="):
			return nil, fmt.Errorf("line %d: bad name %q", n+1, p.Name)
		case seen[p.Name]:
			return nil, fmt.Errorf("line %d: %s given twice", n+1, p.Name)
		case !(p.Min <= p.Start && p.Start <= p.Max):
			return nil, fmt.Errorf("line %d: %s value %v outside [%v, %v]", n+1, p.Name, p.Start, p.Min, p.Max)
		case p.CEnd <= 0 || p.REnd <= 0:
			return nil, fmt.Errorf("line %d: %s needs c_end and r_end above 0", n+1, p.Name)
		}
		seen[p.Name] = true
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("no parameters")
	}
	return ps, nil
}

// Schedule holds OpenBench's SPSA settings: the tune is Iterations
// iterations of Pairs game pairs each.
type Schedule struct {
	Iterations int     `json:"iterations"`
	Pairs      int     `json:"pairs"`
	Alpha      float64 `json:"alpha"`   // 0.602
	Gamma      float64 `json:"gamma"`   // 0.101
	ARatio     float64 `json:"a_ratio"` // 0.1: A = ARatio * Iterations
}

// CR returns the perturbation c and the learning rate r of p at
// iteration k (1-based), as OpenBench computes them: with N iterations
// and A = a_ratio*N,
//
//	c_k = max(c_end * N^gamma / k^gamma, 0.5 for an int)
//	a   = r_end * c_end^2 * (A + N)^alpha
//	r_k = a / (A + k)^alpha / c_k^2
//
// so that c_N = c_end and r_N = r_end. In the classic notation the gain
// is a_k = r_k * c_k^2 = a / (A + k)^alpha.
func (s Schedule) CR(p Param, k int) (c, r float64) {
	n := float64(s.Iterations)
	bigA := s.ARatio * n
	c = p.CEnd * math.Pow(n, s.Gamma) / math.Pow(float64(k), s.Gamma)
	if !p.Float {
		c = max(c, 0.5)
	}
	a := p.REnd * p.CEnd * p.CEnd * math.Pow(bigA+n, s.Alpha)
	r = a / math.Pow(bigA+float64(k), s.Alpha) / (c * c)
	return c, r
}

// Result is the outcome of an iteration's games for the engine with the
// dev values (theta + flip*c) against the one with the base values.
type Result struct{ Wins, Draws, Losses int }

// MatchFunc plays dev against base (values in parameter order) and
// returns dev's result.
type MatchFunc func(k int, dev, base []float64) (Result, error)

// State is the whole tune: written after every iteration, so a stopped
// tune goes on from the last finished iteration.
type State struct {
	Schedule Schedule `json:"schedule"`
	Seed     uint64   `json:"seed"`
	Done     int      `json:"done"` // finished iterations
	Games    int      `json:"games"`
	Wins     int      `json:"wins"`
	Draws    int      `json:"draws"`
	Losses   int      `json:"losses"`
	Params   []Param  `json:"params"`
}

// Step is one iteration's perturbation and result.
type Step struct {
	K         int
	Flip      []float64 // +1 or -1 a parameter
	C, R      []float64
	Dev, Base []float64
	Result    Result
}

// Perturb draws iteration k's flips and the dev and base values. The
// random numbers depend only on the seed and k, so a resumed tune draws
// what an unbroken one would. Integers are rounded at random (the same
// draw for dev and base, as OpenBench does), then held to their range.
func (st *State) Perturb(k int) Step {
	rng := rand.New(rand.NewPCG(st.Seed, uint64(k)))
	n := len(st.Params)
	s := Step{K: k, Flip: make([]float64, n), C: make([]float64, n), R: make([]float64, n),
		Dev: make([]float64, n), Base: make([]float64, n)}
	for i, p := range st.Params {
		s.C[i], s.R[i] = st.Schedule.CR(p, k)
		s.Flip[i] = 1
		if rng.IntN(2) == 0 {
			s.Flip[i] = -1
		}
		dev := p.Value + s.Flip[i]*s.C[i]
		base := p.Value - s.Flip[i]*s.C[i]
		if !p.Float {
			u := rng.Float64()
			dev, base = math.Floor(dev+u), math.Floor(base+u)
		}
		s.Dev[i] = min(max(dev, p.Min), p.Max)
		s.Base[i] = min(max(base, p.Min), p.Max)
	}
	return s
}

// Update moves theta by OpenBench's step, r_k * c_k * (W - L) * flip for
// each parameter (= a_k (W - L) / c_k * flip: the classic
// a_k (W - L) / (2 c_k) * flip with a doubled gain), held to the range.
func (st *State) Update(s Step) {
	res := float64(s.Result.Wins - s.Result.Losses)
	for i := range st.Params {
		p := &st.Params[i]
		p.Value = min(max(p.Value+s.R[i]*s.C[i]*res*s.Flip[i], p.Min), p.Max)
	}
	st.Done = s.K
	st.Games += s.Result.Wins + s.Result.Draws + s.Result.Losses
	st.Wins += s.Result.Wins
	st.Draws += s.Result.Draws
	st.Losses += s.Result.Losses
}

// Iterate plays and applies the next iteration.
func (st *State) Iterate(match MatchFunc) (Step, error) {
	s := st.Perturb(st.Done + 1)
	r, err := match(s.K, s.Dev, s.Base)
	if err != nil {
		return s, err
	}
	s.Result = r
	st.Update(s)
	return s, nil
}

// Rounded is the current value of p as the engine takes it.
func (p Param) Rounded() string {
	if p.Float {
		return strconv.FormatFloat(p.Value, 'f', 4, 64)
	}
	return strconv.Itoa(int(math.Round(p.Value)))
}

// Save writes the state atomically.
func (st *State) Save(path string) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}

// Load reads a state written by Save.
func Load(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(st.Params) == 0 || st.Schedule.Iterations <= 0 || st.Schedule.Pairs <= 0 {
		return nil, fmt.Errorf("%s: not an SPSA state (no parameters or schedule)", path)
	}
	return &st, nil
}
