package uci

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/internal/splitmix"
	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// genfens is OpenBench's opening generator for its DATAGEN workloads:
//
//	genfens N seed S book <None|path> [extra]
//
// prints N distinct openings as `info string genfens <FEN>` lines. They
// are made as rochade datagen makes its openings: a start position, then
// 8 or 9 random legal plies, kept when a depth-8 search scores it within
// ±500 cp. With `book None` the start is the standard one (OpenBench
// plays `book None` as standard chess); with `book <path>` the starts
// are drawn from that EPD or FEN file; the word `mix` asks for the
// datagen mix (variant960.DatagenMix: random DFRC, Chess960 or standard
// starts). The openings depend on N, the seed, the book and the
// evaluation alone.
//
// The extra words choose the start positions, the book notwithstanding
// (OpenBench plays Chess960 only with a book whose name says so, so a run
// that wants generated Chess960 starts names such a book and `mix`):
// `mix` (the datagen mix), `dfrc`, `chess960` or `standard`; and
// `plies A-B` (or `plies A`) sets the number of random plies.
//
// The FENs are standard FEN where the castling rights are standard ones,
// and Shredder-FEN otherwise.

// genfensHardNodes caps each balance search: rochade datagen's hard limit
// when its default was --nodes 5000 (four times that). Datagen's default
// is now 2,500 soft nodes, so its own balance searches stop at 10,000;
// genfens keeps 20,000 so that the openings OpenBench is given do not
// change.
const genfensHardNodes = 20000

// genfensMaxN bounds N.
const genfensMaxN = 1 << 20

type genfensArgs struct {
	n     int
	seed  uint64
	book  string // "" for none
	mix   v.OpeningMix
	kinds bool // a start kind was given: the book is not used
}

func parseGenfens(args []string) (genfensArgs, error) {
	g := genfensArgs{n: -1, mix: v.DatagenMix}
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", a)
			}
			i++
			return args[i], nil
		}
		switch a {
		case "seed":
			s, err := value()
			if err != nil {
				return g, err
			}
			if g.seed, err = parseSeed(s); err != nil {
				return g, err
			}
		case "book":
			b, err := value()
			if err != nil {
				return g, err
			}
			g.book = b
			if strings.EqualFold(b, "none") {
				g.book = ""
			}
		case "plies":
			p, err := value()
			if err != nil {
				return g, err
			}
			lo, hi, ok := strings.Cut(p, "-")
			if !ok {
				hi = lo
			}
			a, errA := strconv.Atoi(lo)
			b, errB := strconv.Atoi(hi)
			if errA != nil || errB != nil || a < 0 || b < a || b > 100 {
				return g, fmt.Errorf("plies %q: want A or A-B, 0 <= A <= B <= 100", p)
			}
			g.mix.MinPlies, g.mix.MaxPlies = a, b
		case "mix":
			g.mix.PctDFRC, g.mix.PctChess960, g.kinds = v.DatagenMix.PctDFRC, v.DatagenMix.PctChess960, true
		case "dfrc":
			g.mix.PctDFRC, g.mix.PctChess960, g.kinds = 100, 0, true
		case "chess960":
			g.mix.PctDFRC, g.mix.PctChess960, g.kinds = 0, 100, true
		case "standard":
			g.mix.PctDFRC, g.mix.PctChess960, g.kinds = 0, 0, true
		default:
			n, err := strconv.Atoi(a)
			if err != nil || g.n >= 0 {
				return g, fmt.Errorf("unexpected %q (genfens N seed S book <None|path> [mix|dfrc|chess960|standard] [plies A-B])", a)
			}
			if n < 0 || n > genfensMaxN {
				return g, fmt.Errorf("N %d is not in 0..%d", n, genfensMaxN)
			}
			g.n = n
		}
	}
	if g.n < 0 {
		return g, fmt.Errorf("missing N (genfens N seed S book <None|path>)")
	}
	if g.kinds {
		g.book = ""
	} else if g.book == "" {
		// OpenBench plays `book None` as standard chess: without a word
		// that asks for other starts, generate standard ones.
		g.mix.PctDFRC, g.mix.PctChess960 = 0, 0
	}
	return g, nil
}

// parseSeed reads a seed: any 64-bit integer, signed or not.
func parseSeed(s string) (uint64, error) {
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("seed %q is not an integer", s)
	}
	return uint64(n), nil
}

// readBook reads the positions of an EPD or FEN file: one a line, the
// four position fields, then move counters as FEN fields or as the
// opcodes hmvc and fmvn. A UTF-8 byte-order mark, blank lines and lines
// starting with # are skipped; every line is checked. Only a regular
// file of at most maxBookBytes is read: opening a FIFO would wait for a
// writer, and a device (/dev/zero) never ends.
func readBook(path string) ([]string, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > maxBookBytes {
		return nil, fmt.Errorf("%s is %d bytes, more than a book may have (%d)", path, fi.Size(), maxBookBytes)
	}
	var fens []string
	sc := bufio.NewScanner(io.LimitReader(f, maxBookBytes))
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if n == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		line := strings.TrimSpace(text)
		if line == "" || line[0] == '#' {
			continue
		}
		fen, err := bookFEN(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		fens = append(fens, fen)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(fens) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return fens, nil
}

// maxBookBytes bounds a book: all 921,600 DFRC start positions as EPD
// take about 60 MB.
const maxBookBytes = 256 << 20

// bookFEN turns one EPD or FEN line into a checked FEN.
func bookFEN(line string) (string, error) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return "", fmt.Errorf("%q is no EPD or FEN", clip(line))
	}
	hm, fm := "0", "1"
	rest := f[4:]
	if len(rest) >= 2 && isNumber(rest[0]) && isNumber(rest[1]) {
		hm, fm = rest[0], rest[1]
	} else {
		// EPD operations: "hmvc 3; fmvn 12; id ...;".
		for _, op := range strings.Split(strings.Join(rest, " "), ";") {
			k, val, _ := strings.Cut(strings.TrimSpace(op), " ")
			val = strings.TrimSpace(val)
			switch {
			case k == "hmvc" && isNumber(val):
				hm = val
			case k == "fmvn" && isNumber(val):
				fm = val
			}
		}
	}
	fen := strings.Join(f[:4], " ") + " " + hm + " " + fm
	pos, err := v.ParseFEN(fen)
	if err != nil {
		return "", err
	}
	if !pos.HasLegalMove() {
		return "", fmt.Errorf("%q: the game is over", fen)
	}
	return pos.FEN(), nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

// genfensRand is the generator's random source for a seed.
func genfensRand(seed uint64) *rand.Rand {
	a := splitmix.Mix(seed)
	return rand.New(rand.NewPCG(a, splitmix.Mix(a^0x6a09e667f3bcc909)))
}

// cmdGenfens runs genfens. The balance searches run on an engine of
// their own (one thread, 16 MB, cleared before each), with the session's
// evaluation, so that the openings do not depend on Threads or Hash.
//
// It runs like a search, on a goroutine of its own (a million openings
// take hours): isready is answered meanwhile, and stop, quit, a new go or
// the end of input end it, with an info string saying how many openings
// were made. The book is read there too. On the command line
// (RunCommands) it runs to its end before the next argument.
func (s *Session) cmdGenfens(args []string) {
	if s.searching() {
		s.errorf("genfens: a search is running; send stop first")
		return
	}
	g, err := parseGenfens(args)
	if err != nil {
		s.errorf("genfens: %v", err)
		return
	}
	net := s.set.evalNet()
	done := make(chan struct{})
	s.done = done
	s.sent = nil
	// A control of its own, which no search uses: stop and ponderhit
	// must find one.
	s.ctl = search.NewControl()
	stop := &s.perftStop
	stop.Store(false)
	s.genfensStarted = true
	s.logEvent("genfens", strings.Join(args, " "))
	go func() {
		defer close(done)
		var book []string
		if g.book != "" {
			var err error
			if book, err = readBook(g.book); err != nil {
				s.errorf("genfens: book: %v", err)
				return
			}
		}
		fens, err := genfens(g, book, net, stop, func(fen string) { s.send("info string genfens " + fen) })
		switch {
		case err == errGenfensStopped:
			s.errorf("genfens: stopped after %d of %d openings", len(fens), g.n)
		case err != nil:
			s.errorf("genfens: %v after %d of %d openings", err, len(fens), g.n)
		}
	}()
}

var errGenfensStopped = errors.New("stopped")

// genfens makes the openings, handing each to emit as it is found. It
// looks at stop before each try (a balance search takes milliseconds) and
// then returns errGenfensStopped.
func genfens(g genfensArgs, book []string, net *eval.Net, stop *atomic.Bool, emit func(string)) ([]string, error) {
	var fens []string
	if g.n == 0 {
		return fens, nil
	}
	eng := search.NewEngine(search.Options{HashMB: 16, Threads: 1, MultiPV: 1, Net: net})
	defer eng.Close() // its table is outside the Go heap: give it back now
	score := func(pos *v.Position) int {
		eng.Clear()
		return eng.Search(pos, search.Limits{Depth: v.OpeningSearchDepth, Nodes: genfensHardNodes}, search.Callbacks{}).Score
	}
	var start func(r *rand.Rand) (*v.Position, error)
	if book != nil {
		start = func(r *rand.Rand) (*v.Position, error) { return v.ParseFEN(book[r.IntN(len(book))]) }
	}
	// Distinct by the position fields (OpenBench writes the move
	// counters as EPD operations, which a repeat would not tell apart).
	seen := make(map[string]bool, g.n)
	key := func(fen string) string {
		f := strings.Fields(fen)
		return strings.Join(f[:min(4, len(f))], " ")
	}
	// A stop makes the remaining tries of Opening fail at once.
	keep := func(fen string) bool { return !stop.Load() && !seen[key(fen)] }
	r := genfensRand(g.seed)
	var ml v.MoveList
	for len(fens) < g.n {
		if stop.Load() {
			return fens, errGenfensStopped
		}
		_, fen, err := g.mix.Opening(r, &ml, start, (*v.Position).FEN, keep, score)
		if stop.Load() {
			return fens, errGenfensStopped
		}
		if err != nil {
			return fens, err
		}
		seen[key(fen)] = true
		fens = append(fens, fen)
		emit(fen)
	}
	return fens, nil
}
