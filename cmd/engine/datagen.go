package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rochade/rochade/datagen"
	"github.com/rochade/rochade/internal/membudget"
	"github.com/rochade/rochade/search"
	"github.com/rochade/rochade/uci"
	"github.com/rochade/rochade/variant960"
)

const datagenUsage = `Usage:
  rochade datagen --out DIR (--games G | --positions P) [options]
      self-play training data: zstd chunks and DIR/manifest.tsv; a rerun
      with the same DIR and --seed resumes after the last chunk
  rochade datagen --import-pgn FILE[,FILE...] --out DIR [--chunk C] [--engine NAME]
      convert PGN games written by fastchess (OpenBench DATAGEN) into
      chunks and DIR/manifest.tsv (DIR must not hold chunks yet); all or
      nothing: on an error nothing is written
  rochade datagen convert [--filter] FILE...
      print the positions of chunk files as "<FEN> | <cp, White's view> | <1.0|0.5|0.0>"
  rochade datagen stats FILE...
      games, positions, bytes/position, results and how the games ended

Options:
`

// parseMix reads --mix: three percentages, DFRC, Chess960 and standard,
// summing to 100. The random plies stay the default's.
func parseMix(s string) (variant960.OpeningMix, error) {
	f := strings.Split(s, ",")
	if len(f) != 3 {
		return variant960.OpeningMix{}, fmt.Errorf("%q: want three percentages DFRC,Chess960,standard", s)
	}
	var pct [3]int
	for i, x := range f {
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil || n < 0 || n > 100 {
			return variant960.OpeningMix{}, fmt.Errorf("%q: %q is not a percentage 0..100", s, x)
		}
		pct[i] = n
	}
	if pct[0]+pct[1]+pct[2] != 100 {
		return variant960.OpeningMix{}, fmt.Errorf("%q: the percentages sum to %d, want 100", s, pct[0]+pct[1]+pct[2])
	}
	m := variant960.DatagenMix
	m.PctDFRC, m.PctChess960 = pct[0], pct[1]
	return m, nil
}

// runDatagen is the datagen subcommand; it returns the exit status.
func runDatagen(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "convert" {
		return runConvert(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "stats" {
		if isHelp(args[1:]) {
			fmt.Fprint(stdout, datagenUsage)
			return 0
		}
		if len(args) == 1 {
			fmt.Fprintln(stderr, "rochade datagen stats: need chunk files")
			return 2
		}
		st, err := datagen.ReadStats(args[1:])
		if err != nil {
			fmt.Fprintf(stderr, "rochade datagen stats: %v\n", err)
			return 1
		}
		st.Write(stdout)
		return 0
	}
	fs := flag.NewFlagSet("datagen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "output directory")
	threads := fs.Int("threads", 1, "worker threads (one single-threaded search each)")
	nodes := fs.Uint64("nodes", datagen.DefaultNodes, "soft node limit per move")
	hard := fs.Uint64("hard-nodes", 0, "hard node limit per move (default 4 × --nodes)")
	games := fs.Uint64("games", 0, "stop after this many games (counted from game 0, resumed runs included)")
	positions := fs.Uint64("positions", 0, "stop once this many positions are written (resumed runs included)")
	seed := fs.Uint64("seed", 1, "run seed: game i depends only on (seed, i)")
	chunk := fs.Int("chunk", 250, "games per chunk file")
	maxPlies := fs.Int("max-plies", 400, "recorded plies before a game is scored a draw")
	hash := fs.Int("hash", 16, "hash table per thread, MB")
	every := fs.Duration("progress", 10*time.Second, "progress report interval")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	importPGN := fs.String("import-pgn", "", "import these PGN files (comma-separated) instead of playing games")
	engine := fs.String("engine", "pgn", "with --import-pgn: the engine column of the manifest")
	defMix := strings.ReplaceAll(variant960.DatagenMix.Percents(), "/", ",")
	mixFlag := fs.String("mix", defMix, "start positions in percent: DFRC,Chess960,standard (summing to 100); a run other than the default records it in the manifest")
	var nf netFlags
	nf.register(fs)
	if rc, ok := parseDatagenFlags(fs, args, stdout, stderr); !ok {
		return rc
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rochade datagen: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *importPGN != "" {
		return runImportPGN(*importPGN, *out, *chunk, *engine, stderr)
	}
	if *out == "" || (*games == 0 && *positions == 0) {
		fmt.Fprintln(stderr, "rochade datagen: need --out and --games or --positions")
		return 2
	}
	mix, err := parseMix(*mixFlag)
	if err != nil {
		fmt.Fprintf(stderr, "rochade datagen: --mix: %v\n", err)
		return 2
	}
	if *nodes == 0 || *threads < 1 || *chunk < 1 || *maxPlies < 1 || *hash < 1 {
		fmt.Fprintln(stderr, "rochade datagen: --nodes, --threads, --chunk, --max-plies and --hash must be positive")
		return 2
	}
	if fit, budget := membudget.FitDatagenHash(*hash, *threads, membudget.RoundUpMB(search.ThreadBytes)); fit < *hash {
		fmt.Fprintf(stderr, "rochade datagen: --hash %d MB for each of %d threads does not fit the memory budget of %s; --hash set to %d\n", *hash, *threads, budget, fit)
		*hash = fit
	}
	net, err := nf.net()
	if err != nil {
		fmt.Fprintf(stderr, "rochade datagen: %v\n", err)
		return 2
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "rochade datagen: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "rochade datagen: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opt := datagen.Options{
		Out: *out, Seed: *seed, Threads: *threads, Games: *games, Positions: *positions, ChunkGames: *chunk,
		Play:     datagen.PlayConfig{Nodes: *nodes, HardNodes: *hard, MaxPlies: *maxPlies, HashMB: *hash, Net: net, Mix: mix},
		Engine:   uci.Version,
		Progress: stderr, ProgressEvery: *every,
	}
	fmt.Fprintf(stderr, "datagen: engine %s, eval %s, seed %d, nodes %d, threads %d, starts %d%% DFRC %d%% Chess960 %d%% standard, out %s\n",
		uci.Version, datagen.EvalID(net), *seed, *nodes, *threads, mix.PctDFRC, mix.PctChess960, 100-mix.PctDFRC-mix.PctChess960, *out)
	if err := datagen.Run(ctx, opt); err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "rochade datagen: interrupted; the chunk in progress is lost, rerun to resume")
			return 130
		}
		fmt.Fprintf(stderr, "rochade datagen: %v\n", err)
		return 1
	}
	return 0
}

// parseDatagenFlags parses args with fs, whose output is stderr, and
// tells whether to go on; if not, rc is the exit status. A request for
// help gets the usage and the flags on stdout with status 0, as the other
// subcommands' does; a bad flag is named (by the flag package) and
// followed by the usage on stderr, status 2.
func parseDatagenFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (rc int, ok bool) {
	fs.Usage = func() {}
	err := fs.Parse(args)
	if err == nil {
		return 0, true
	}
	w, rc := stderr, 2
	if err == flag.ErrHelp {
		w, rc = stdout, 0
	}
	fmt.Fprint(w, datagenUsage)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(stderr)
	return rc, false
}

func runConvert(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("datagen convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	filter := fs.Bool("filter", false, "skip positions in check, with a noisy move, before ply 8 or with |score| > 3000")
	if rc, ok := parseDatagenFlags(fs, args, stdout, stderr); !ok {
		return rc
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "rochade datagen convert: need chunk files")
		return 2
	}
	if err := datagen.Convert(stdout, fs.Args(), *filter); err != nil {
		fmt.Fprintf(stderr, "rochade datagen convert: %v\n", err)
		return 1
	}
	return 0
}

// runImportPGN is `rochade datagen --import-pgn`.
func runImportPGN(files, out string, chunk int, engine string, stderr io.Writer) int {
	var paths []string
	for _, f := range strings.Split(files, ",") {
		if f = strings.TrimSpace(f); f != "" {
			paths = append(paths, f)
		}
	}
	if out == "" || len(paths) == 0 || chunk < 1 {
		fmt.Fprintln(stderr, "rochade datagen --import-pgn: need PGN files, --out and a positive --chunk")
		return 2
	}
	st, err := datagen.ImportPGN(datagen.ImportOptions{Out: out, Files: paths, ChunkGames: chunk, Engine: engine})
	if st != nil {
		st.Write(stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rochade datagen --import-pgn: %v\n", err)
		return 1
	}
	return 0
}
