// Command rochade is the Rochade chess engine. With no arguments it
// speaks UCI on stdin/stdout; subcommands run benchmarks and tools.
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rochade/rochade/search"
	"github.com/rochade/rochade/uci"
	v "github.com/rochade/rochade/variant960"
)

const usage = `Rochade %s - a UCI chess engine for Chess960, DFRC and standard chess

Usage:
  rochade [--log FILE]                 speak UCI on stdin/stdout
  rochade bench [depth] [--hce|--nnue|--evalfile F]
                                       fixed-depth search of the bench positions;
                                       the last line is "<N> nodes <M> nps"
  rochade eval [--hce|--nnue|--evalfile F] [--info]
                                       static eval (cp, White's view) of each FEN on stdin
  rochade perft <depth> [fen]          perft divide (standard start position by default)
  rochade startpos <n>                 FEN of Chess960 start position n (0..959, 518 = standard)
  rochade startpos --fischer168 <i>    FEN of Fischer168 position i (1..168)
  rochade startpos --dfrc <w> <b>      FEN of the DFRC position with White SP w and Black SP b
  rochade startpos --random [--fischer168] [--dfrc] [--seed S]
                                       FEN of a random start position
  rochade startpos --number <fen|back rank>
                                       SP number(s) and Fischer168 index of a start position
  rochade datagen --out DIR ...        self-play training data (rochade datagen --help)
  rochade datagen convert|stats FILE   training data as text lines, or its statistics
  rochade train --data FILES ...       train an evaluation net (rochade train --help)
  rochade spsa                         the search parameters as OpenBench SPSA input
                                       (tune build only: make tune, docs/openbench.md)
  rochade version                      print the version
  rochade help                         this text
  rochade "CMD" ["CMD" ...]            run UCI commands, one an argument, then exit; stdin is
                                       not read, a search with a limit runs to it and one without
                                       (go, go infinite, go ponder) is stopped at the end
                                       (OpenBench: rochade "genfens 64 seed 1 book None" quit)

Global flags (before the subcommand):
  --log FILE    write the debug log to FILE ("-" for stderr): a regular file or a terminal,
                never stdout; a log that cannot keep up loses lines, never answers
  --help        this text
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rochade", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logFile := fs.String("log", "", "debug log file (\"-\" for stderr)")
	// The usage goes to stdout when asked for (--help) and to stderr
	// after a bad flag, once either way.
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintf(stdout, usage, uci.Version)
			return 0
		}
		fmt.Fprintf(stderr, usage, uci.Version)
		return 2
	}
	rest := fs.Args()
	if len(rest) == 0 {
		uci.Run(stdin, stdout, uci.Config{LogFile: *logFile})
		return 0
	}
	var err error
	switch rest[0] {
	case "uci":
		if len(rest) > 1 {
			return uciCommands(rest, stdout, *logFile)
		}
		// `rochade uci` is the UCI loop too, with the `uci` command already given.
		s := uci.NewSession(stdout, uci.Config{LogFile: *logFile})
		if s.Handle("uci") {
			s.Run(stdin)
		}
		s.Close()
	case "bench":
		err = bench(rest[1:], stdout)
	case "eval":
		err = evalCmd(rest[1:], stdin, stdout, stderr)
	case "perft":
		err = perft(rest[1:], stdout)
	case "startpos":
		err = startpos(rest[1:], stdout)
	case "datagen":
		return runDatagen(rest[1:], stdout, stderr)
	case "train":
		return runTrain(rest[1:], stdout, stderr)
	case "spsa":
		if !uci.TuneBuild {
			fmt.Fprintln(stderr, "rochade spsa: this build has no tuning options; build rochade-tune with `make tune` (go build -tags tune)")
			return 1
		}
		fmt.Fprint(stdout, uci.SPSAInput())
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "%s %s\n", uci.Name, uci.Version)
	case "help":
		fmt.Fprintf(stdout, usage, uci.Version)
	default:
		// Arguments that are UCI commands run as such, one an argument,
		// as Stockfish runs them (OpenBench's genfens calls work so).
		if f := strings.Fields(rest[0]); len(f) > 0 && uci.IsCommand(f[0]) {
			return uciCommands(rest, stdout, *logFile)
		}
		fmt.Fprintf(stderr, "rochade: unknown command %q (try rochade --help)\n", rest[0])
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "rochade %s: %v\n", rest[0], err)
		return 1
	}
	return 0
}

// uciCommands runs each argument as one UCI input line, in order, and
// returns when quit comes or the last command (a search, say) is done.
func uciCommands(lines []string, stdout io.Writer, logFile string) int {
	s := uci.NewSession(stdout, uci.Config{LogFile: logFile})
	s.RunCommands(lines)
	s.Close()
	return 0
}

func bench(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var nf netFlags
	nf.register(fs)
	// Flags may come before or after the depth.
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return err
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	args = pos
	net, err := nf.net()
	if err != nil {
		return err
	}
	depth := 0
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 {
			return fmt.Errorf("depth %q is not a non-negative integer", args[0])
		}
		depth = n
	}
	if len(args) > 1 {
		return fmt.Errorf("unexpected argument %q", args[1])
	}
	nodes, elapsed := search.Bench(depth, net)
	ms := max(elapsed.Milliseconds(), 1)
	nps := uint64(float64(nodes) / max(elapsed.Seconds(), 1e-3))
	fmt.Fprintf(out, "positions %d, time %d ms\n", len(search.BenchPositions), ms)
	fmt.Fprintf(out, "%d nodes %d nps\n", nodes, nps)
	return nil
}

func perft(args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("missing depth")
	}
	depth, err := strconv.Atoi(args[0])
	if err != nil || depth < 0 || depth > 20 {
		return fmt.Errorf("depth %q is not an integer from 0 to 20", args[0])
	}
	pos := v.NewStartPosition()
	if len(args) > 1 {
		fen := strings.Join(args[1:], " ")
		if pos, err = v.ParseFEN(fen); err != nil {
			return err
		}
	}
	start := time.Now()
	var total uint64
	var sb strings.Builder
	for _, e := range pos.Divide(depth) {
		fmt.Fprintf(&sb, "%s: %d\n", pos.MoveToUCI(e.Move, true), e.Nodes)
		total += e.Nodes
	}
	if depth == 0 {
		total = 1
	}
	elapsed := time.Since(start)
	fmt.Fprintf(&sb, "\nNodes searched: %d\n", total)
	fmt.Fprintf(&sb, "Time: %d ms, %d nps\n", elapsed.Milliseconds(), uint64(float64(total)/max(elapsed.Seconds(), 1e-6)))
	_, err = io.WriteString(out, sb.String())
	return err
}

func startpos(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("startpos", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f168 := fs.Bool("fischer168", false, "")
	dfrc := fs.Bool("dfrc", false, "")
	random := fs.Bool("random", false, "")
	number := fs.Bool("number", false, "")
	seed := fs.Uint64("seed", 0, "")
	// Accept the flags anywhere (e.g. `--random --fischer168` or `17 --fischer168`).
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 && !isInt(a) {
			flags = append(flags, a)
			if strings.TrimLeft(a, "-") == "seed" && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
			continue
		}
		pos = append(pos, a)
	}
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if *number {
		return startposNumber(pos, out)
	}
	// Each case returns its own error: an err declared inside a case
	// (err :=) once hid DFRCPosition's and Chess960Position's errors
	// behind "no position".
	var p *v.Position
	var err error
	switch {
	case *random:
		p, err = randomStartpos(pos, *seed, *f168, *dfrc)
	case *dfrc:
		p, err = dfrcStartpos(pos)
	case *f168:
		p, err = fischer168Startpos(pos)
	default:
		if len(pos) != 1 {
			return fmt.Errorf("need one SP number (0..959), or a flag: see rochade --help")
		}
		var n int
		if n, err = atoi(pos[0]); err == nil {
			p, err = v.Chess960Position(n)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(out, p.FEN())
	return nil
}

func atoi(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return n, nil
}

// startposNumber prints the SP number(s), and the Fischer168 index, of a
// FEN or back rank.
func startposNumber(pos []string, out io.Writer) error {
	if len(pos) == 0 {
		return fmt.Errorf("--number needs a FEN or a back rank")
	}
	w, b, err := v.StartPositionNumbers(strings.Join(pos, " "))
	if err != nil {
		return err
	}
	if w != b {
		fmt.Fprintf(out, "DFRC: White SP %d, Black SP %d\n", w, b)
		return nil
	}
	fmt.Fprintf(out, "SP: %d\n", w)
	if i, ok := v.Fischer168Index(w); ok {
		fmt.Fprintf(out, "Fischer168: %d\n", i)
	}
	return nil
}

func randomStartpos(pos []string, seed uint64, f168, dfrc bool) (*v.Position, error) {
	if len(pos) > 0 {
		return nil, fmt.Errorf("unexpected argument %q", pos[0])
	}
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	draw := func() (int, error) {
		if f168 {
			return v.Fischer168SP(v.RandomFischer168(r))
		}
		return v.RandomSP(r), nil
	}
	w, err := draw()
	if err != nil {
		return nil, err
	}
	b := w
	if dfrc {
		if b, err = draw(); err != nil {
			return nil, err
		}
	}
	return v.DFRCPosition(w, b)
}

func dfrcStartpos(pos []string) (*v.Position, error) {
	if len(pos) != 2 {
		return nil, fmt.Errorf("--dfrc needs two SP numbers")
	}
	w, err := atoi(pos[0])
	if err != nil {
		return nil, err
	}
	b, err := atoi(pos[1])
	if err != nil {
		return nil, err
	}
	return v.DFRCPosition(w, b)
}

func fischer168Startpos(pos []string) (*v.Position, error) {
	if len(pos) != 1 {
		return nil, fmt.Errorf("--fischer168 needs one index (1..168)")
	}
	i, err := atoi(pos[0])
	if err != nil {
		return nil, err
	}
	sp, err := v.Fischer168SP(i)
	if err != nil {
		return nil, err
	}
	return v.Chess960Position(sp)
}

func isInt(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
