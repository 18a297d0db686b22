package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// startposCmd is `rochade startpos`: the FEN of a start position chosen
// by number, index or chance, or the numbers of a given one.
func startposCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("startpos")
	f168 := fs.Bool("fischer168", false, "a Fischer168 position (by index, or drawn among them with --random)")
	dfrc := fs.Bool("dfrc", false, "a DFRC position (two SP numbers, or drawn with --random)")
	random := fs.Bool("random", false, "a random start position")
	number := fs.Bool("number", false, "the SP number(s) and Fischer168 index of a FEN or back rank")
	seed := fs.Uint64("seed", 0, "with --random: the seed (0: the clock)")
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
		return fail("startpos", fs, err, stdout, stderr)
	}
	var err error
	if *number {
		err = startposNumber(pos, stdout)
	} else {
		err = startpos(pos, *seed, *random, *f168, *dfrc, stdout)
	}
	if err != nil {
		return fail("startpos", fs, err, stdout, stderr)
	}
	return 0
}

func startpos(pos []string, seed uint64, random, f168, dfrc bool, out io.Writer) error {
	// Each case returns its own error: an err declared inside a case
	// (err :=) once hid DFRCPosition's and Chess960Position's errors
	// behind "no position".
	var p *v.Position
	var err error
	switch {
	case random:
		p, err = randomStartpos(pos, seed, f168, dfrc)
	case dfrc:
		p, err = dfrcStartpos(pos)
	case f168:
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
