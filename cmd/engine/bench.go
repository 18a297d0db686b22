package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// benchCmd is `rochade bench`: a fixed-depth search of the bench
// positions, whose node count identifies the build's search.
func benchCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench")
	var nf netFlags
	nf.register(fs)
	// Flags may come before or after the depth.
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return fail("bench", fs, err, stdout, stderr)
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	if err := bench(pos, &nf, stdout); err != nil {
		return fail("bench", fs, err, stdout, stderr)
	}
	return 0
}

func bench(args []string, nf *netFlags, out io.Writer) error {
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

// perftCmd is `rochade perft`: the leaf counts below each move.
func perftCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if isHelp(args) {
		commandUsage(stdout, "perft", nil)
		return 0
	}
	if err := perft(args, stdout); err != nil {
		return fail("perft", nil, err, stdout, stderr)
	}
	return 0
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
	// Castling as king takes rook wherever it is not standard chess's; a
	// standard position's is written e1g1, as with UCI_Chess960 off and as
	// Stockfish's go perft writes it.
	chess960 := !pos.StandardCastling()
	for _, e := range pos.Divide(depth) {
		fmt.Fprintf(&sb, "%s: %d\n", pos.MoveToUCI(e.Move, chess960), e.Nodes)
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
