package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// netFlags are the evaluation choices shared by bench and eval.
type netFlags struct {
	hce, nnue bool
	evalFile  string
}

func (nf *netFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&nf.hce, "hce", false, "use the hand-written evaluation")
	fs.BoolVar(&nf.nnue, "nnue", false, "use the embedded net")
	fs.StringVar(&nf.evalFile, "evalfile", "", "use this net file")
}

// net returns the chosen network, nil for the hand-written evaluation.
// Without a flag it is the engine's default evaluation.
func (nf *netFlags) net() (*eval.Net, error) {
	if nf.hce || (!nf.nnue && nf.evalFile == "" && !eval.UseNetByDefault) {
		return nil, nil
	}
	if nf.evalFile != "" {
		n, err := eval.LoadNetFile(nf.evalFile)
		if err != nil {
			return nil, fmt.Errorf("--evalfile %s: %w", nf.evalFile, err)
		}
		return n, nil
	}
	// The embedded net must load: a build that embeds a net it cannot
	// read (make EVALFILE=... with a file of another format) would
	// otherwise bench and play with the hand-written evaluation unseen.
	n, err := eval.DefaultNet()
	if err != nil {
		return nil, fmt.Errorf("the embedded net: %w (--hce uses the hand-written evaluation)", err)
	}
	return n, nil
}

// evalCmd is `rochade eval`: it prints the static evaluation, in
// centipawns from White's view, of each FEN read on stdin (one a line;
// "FEN | score | result" lines from training data are read too, and their
// extra fields ignored).
func evalCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("eval")
	var nf netFlags
	nf.register(fs)
	info := fs.Bool("info", false, "print the net's hash and manifest and exit")
	err := fs.Parse(args)
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err == nil {
		err = evalFENs(stdin, stdout, &nf, *info)
	}
	if err != nil {
		return fail("eval", fs, err, stdout, stderr)
	}
	return 0
}

// evalFENs evaluates the FENs of in, or with info describes the net.
func evalFENs(in io.Reader, out io.Writer, nf *netFlags, info bool) error {
	n, err := nf.net()
	if err != nil {
		return err
	}
	if info {
		if n == nil {
			fmt.Fprintln(out, "hand-written evaluation")
			return nil
		}
		fmt.Fprintf(out, "net %s\n%s\n", n.Hash, n.Manifest)
		return nil
	}
	ev := eval.New()
	ev.SetNet(n)
	w := bufio.NewWriter(out)
	defer w.Flush()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(text, '|'); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if text == "" {
			continue
		}
		p, err := v.ParseFEN(text)
		if err != nil {
			fmt.Fprintf(w, "error line %d: %v\n", line, err)
			continue
		}
		s := ev.Evaluate(p)
		if p.Side() == v.Black {
			s = -s
		}
		fmt.Fprintln(w, s)
	}
	return sc.Err()
}
