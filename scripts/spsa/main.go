// Command spsa tunes the search parameters of Rochade's tune build by
// SPSA over fastchess games, on one machine, with OpenBench's schedules.
//
// Each iteration flips every parameter by +-c_k at random, plays the
// engine with theta + c_k*flip (dev) against the engine with
// theta - c_k*flip (base) for -pairs game pairs, and moves theta by
// r_k * c_k * (W - L) * flip (W, L: dev's wins and losses). c_k and r_k
// come from each parameter's c_end and r_end as in OpenBench (see
// Schedule.CR). The state (theta, the schedule, the games) is written to
// -state after every iteration; running again with the same -state goes
// on from there.
//
// Usage:
//
//	make tune
//	nice -n 5 go run ./scripts/spsa -engine ./rochade-tune -fastchess /path/to/fastchess \
//	    -iterations 2000 -pairs 4 -nodes 10000
//
// -pgnout FILE appends every game to FILE, whose moves carry fastchess's
// score comments: games between Rochade builds are training data
// (`rochade datagen --import-pgn FILE`).
//
// Without -params the parameters are those that `<engine> spsa` prints;
// -only picks some of them. -stop-after ends this run early (the schedule
// still counts -iterations). docs/openbench.md has the whole story.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("spsa", flag.ContinueOnError)
	fl.SetOutput(stderr)
	engine := fl.String("engine", "./rochade-tune", "the tune build of the engine (make tune)")
	paramsFile := fl.String("params", "", "OpenBench SPSA input file (default: what `<engine> spsa` prints)")
	only := fl.String("only", "", "comma-separated parameter names to tune (default: all)")
	statePath := fl.String("state", "spsa-state.json", "state file, written after every iteration; resumed when it exists")
	iterations := fl.Int("iterations", 1000, "iterations of the whole tune (the schedule's N)")
	pairs := fl.Int("pairs", 2, "game pairs an iteration")
	alpha := fl.Float64("alpha", 0.602, "SPSA alpha (OpenBench's default)")
	gamma := fl.Float64("gamma", 0.101, "SPSA gamma (OpenBench's default)")
	aRatio := fl.Float64("a-ratio", 0.1, "SPSA A as a fraction of -iterations (OpenBench's default)")
	seed := fl.Uint64("seed", 1, "random seed of the flips and roundings")
	stopAfter := fl.Int("stop-after", 0, "stop after this many iterations in this run (0: at -iterations)")
	fastchess := fl.String("fastchess", "fastchess", "fastchess binary (scripts/README.md says how to build one)")
	nodes := fl.Int("nodes", 10000, "nodes a move (0: use -tc)")
	tc := fl.String("tc", "8+0.08", "time control when -nodes is 0")
	book := fl.String("book", "tests/testdata/chess960.epd", "EPD opening book (the default is relative to the repository root)")
	variant := fl.String("variant", "fischerandom", "fastchess -variant")
	concurrency := fl.Int("concurrency", 1, "games at once")
	hash := fl.Int("hash", 16, "Hash (MB) of each engine")
	pgnOut := fl.String("pgnout", "", "append every game to this PGN file (fastchess -pgnout), for `rochade datagen --import-pgn`")
	verbose := fl.Bool("v", false, "show fastchess's output")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	st, err := setup(*statePath, *paramsFile, *engine, *only,
		Schedule{Iterations: *iterations, Pairs: *pairs, Alpha: *alpha, Gamma: *gamma, ARatio: *aRatio}, *seed, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "spsa: %v\n", err)
		return 1
	}
	if _, err := exec.LookPath(*fastchess); err != nil {
		fmt.Fprintf(stderr, "spsa: fastchess: %v (give -fastchess PATH)\n", err)
		return 1
	}
	if _, err := os.Stat(*book); err != nil && *book != "" {
		fmt.Fprintf(stderr, "spsa: book: %v\n", err)
		return 1
	}
	fc := &Fastchess{Bin: *fastchess, Engine: mustAbs(*engine), Pairs: st.Schedule.Pairs, Nodes: *nodes, TC: *tc,
		Book: *book, Variant: *variant, Concurrency: *concurrency, Hash: *hash, Seed: st.Seed}
	if fc.Book != "" {
		fc.Book = mustAbs(fc.Book)
	}
	if *pgnOut != "" {
		fc.PGNOut = mustAbs(*pgnOut)
	}
	for _, p := range st.Params {
		fc.Names = append(fc.Names, p.Name)
		fc.Floats = append(fc.Floats, p.Float)
	}
	if *verbose {
		fc.Log = stderr
	}
	end := st.Schedule.Iterations
	if *stopAfter > 0 {
		end = min(end, st.Done+*stopAfter)
	}
	if err := tune(st, fc.Play, end, *statePath, stdout); err != nil {
		fmt.Fprintf(stderr, "spsa: %v\n", err)
		return 1
	}
	return 0
}

// setup loads the state file, or makes a new tune from the parameters.
func setup(statePath, paramsFile, engine, only string, sched Schedule, seed uint64, stdout io.Writer) (*State, error) {
	st, err := Load(statePath)
	if err == nil {
		fmt.Fprintf(stdout, "resuming %s after iteration %d of %d (%d games)\n",
			statePath, st.Done, st.Schedule.Iterations, st.Games)
		return st, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if sched.Iterations <= 0 || sched.Pairs <= 0 {
		return nil, fmt.Errorf("-iterations and -pairs must be positive")
	}
	var text []byte
	if paramsFile != "" {
		text, err = os.ReadFile(paramsFile)
	} else {
		text, err = exec.Command(engine, "spsa").Output()
		if err != nil {
			err = fmt.Errorf("%s spsa: %v (is it the tune build? make tune)", engine, err)
		}
	}
	if err != nil {
		return nil, err
	}
	params, err := ParseInput(string(text))
	if err != nil {
		return nil, err
	}
	if params, err = pick(params, only); err != nil {
		return nil, err
	}
	st = &State{Schedule: sched, Seed: seed, Params: params}
	fmt.Fprintf(stdout, "new tune %s: %d parameters, %d iterations of %d pairs\n",
		statePath, len(params), sched.Iterations, sched.Pairs)
	return st, st.Save(statePath)
}

// pick keeps the parameters named in only (all when it is empty).
func pick(ps []Param, only string) ([]Param, error) {
	if only == "" {
		return ps, nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		want[strings.ToLower(strings.TrimSpace(n))] = true
	}
	var out []Param
	for _, p := range ps {
		if want[strings.ToLower(p.Name)] {
			out = append(out, p)
			delete(want, strings.ToLower(p.Name))
		}
	}
	if len(want) > 0 {
		var miss []string
		for n := range want {
			miss = append(miss, n)
		}
		sort.Strings(miss)
		return nil, fmt.Errorf("-only: no parameter %s", strings.Join(miss, ", "))
	}
	return out, nil
}

// tune runs iterations up to end, saving the state after each and
// printing a line of progress.
func tune(st *State, match MatchFunc, end int, statePath string, stdout io.Writer) error {
	for st.Done < end {
		s, err := st.Iterate(match)
		if err != nil {
			return fmt.Errorf("iteration %d: %v", s.K, err)
		}
		if err := st.Save(statePath); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "iter %d/%d  dev +%d =%d -%d  total %d games (+%d =%d -%d)  %s\n",
			s.K, st.Schedule.Iterations, s.Result.Wins, s.Result.Draws, s.Result.Losses,
			st.Games, st.Wins, st.Draws, st.Losses, moved(st))
	}
	fmt.Fprintln(stdout, "values (OpenBench's name, value):")
	for _, p := range st.Params {
		fmt.Fprintf(stdout, "%s, %s\n", p.Name, p.Rounded())
	}
	return nil
}

// moved lists the parameters whose rounded value is off its start.
func moved(st *State) string {
	var b []string
	for _, p := range st.Params {
		if r := p.Rounded(); r != (Param{Value: p.Start, Float: p.Float}).Rounded() {
			b = append(b, p.Name+"="+r)
		}
	}
	if len(b) == 0 {
		return "(all at start)"
	}
	return strings.Join(b, " ")
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}
