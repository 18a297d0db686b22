// Command timeuse reads the PGNs of a match and prints how each engine
// spent its clock: by stretches of plies since the book, the mean time and
// depth of a move, the nodes a second, the median clock before a move and
// the share of moves begun below a low-clock mark; and for each engine the
// share of its time it used and the clock it ended long games with.
//
// Usage:
//
//	go run ./scripts/timeuse [-tc 5+0.05] [-stretch 40] [-low 2s] [-long 80] PGN ...
//
// The PGNs (plain, .gz or .bz2) are fastchess's or cutechess's, with a
// comment after every move: `{+0.35/12 0.219s, n=69119}` (score/depth,
// time, nodes; nodes are optional) or `{book}`. The clock is rebuilt from
// the game's TimeControl tag (base+increment in seconds, as fastchess
// writes it), or from -tc when the tag is missing or -tc is given: each
// engine move takes its time off the mover's clock and adds the increment.
// Book moves cost no time. Time losses and the GUI's own delays are not
// in the move times, so the rebuilt clock is a little above the GUI's.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rochade/rochade/datagen"
	"github.com/rochade/rochade/variant960"
)

func main() {
	tc := flag.String("tc", "", "time control base+inc in seconds (default: each game's TimeControl tag)")
	stretch := flag.Int("stretch", 40, "plies per row")
	rows := flag.Int("rows", 5, "rows per engine; the last holds every later ply")
	low := flag.Duration("low", 2*time.Second, "count the moves begun with less than this on the clock")
	long := flag.Int("long", 80, "a game this many engine plies long or more counts for the end clock")
	flag.Parse()
	if flag.NArg() == 0 || *stretch < 1 || *rows < 1 {
		fmt.Fprintln(os.Stderr, "usage: timeuse [-tc B+I] [-stretch N] [-rows N] [-low D] [-long N] PGN ...")
		os.Exit(2)
	}
	var fixed *clockRule
	if *tc != "" {
		c, err := parseTC(*tc)
		if err != nil {
			fmt.Fprintln(os.Stderr, "timeuse:", err)
			os.Exit(2)
		}
		fixed = &c
	}
	a := newAnalysis(*stretch, *rows, low.Seconds(), *long)
	for _, path := range flag.Args() {
		err := datagen.ReadPGNFile(path, func(g *datagen.PGNGame, perr *datagen.PGNError) error {
			if perr != nil {
				return nil // unreadable game: datagen's reader says why; skip it here
			}
			return a.addGame(g, fixed)
		})
		if err != nil {
			fmt.Fprintf(os.Stderr, "timeuse: %s: %v\n", path, err)
			os.Exit(1)
		}
	}
	a.print(os.Stdout)
}

// clockRule is a time control: base seconds and increment a move.
type clockRule struct{ base, inc float64 }

// parseTC reads "B+I" or "B" (seconds), as fastchess's TimeControl tag.
func parseTC(s string) (clockRule, error) {
	b, i, _ := strings.Cut(s, "+")
	base, err := strconv.ParseFloat(b, 64)
	if err != nil || base <= 0 {
		return clockRule{}, fmt.Errorf("time control %q: want base+increment in seconds", s)
	}
	inc := 0.0
	if i != "" {
		if inc, err = strconv.ParseFloat(i, 64); err != nil || inc < 0 {
			return clockRule{}, fmt.Errorf("time control %q: want base+increment in seconds", s)
		}
	}
	return clockRule{base, inc}, nil
}

// moveTime reads a move comment's time ("0.219s") and nodes ("n=69119");
// ok is false without a time.
func moveTime(comment string) (secs float64, nodes int64, ok bool) {
	for _, f := range strings.FieldsFunc(comment, func(r rune) bool { return r == ' ' || r == ',' }) {
		if s, found := strings.CutSuffix(f, "s"); found && !ok {
			if v, err := strconv.ParseFloat(s, 64); err == nil && v >= 0 {
				secs, ok = v, true
			}
		} else if n, found := strings.CutPrefix(f, "n="); found {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil {
				nodes = v
			}
		}
	}
	return secs, nodes, ok
}

// row sums the moves of one engine in one stretch of plies.
type row struct {
	moves, lowMoves  int
	time, depth      float64
	nodes, nodesTime float64 // nodes, and the time of the moves that gave them
	clocks           []float64
}

// engineUse is one engine's figures.
type engineUse struct {
	rows            []row
	games           int
	used, given     float64 // seconds used, and base plus the increments of its moves
	endClocks       []float64
	clockless, lost int // moves without a time; games whose clock ran out
}

type analysis struct {
	stretch, nRows, long int
	low                  float64
	engines              map[string]*engineUse
	order                []string
	skipped              int // games without a time control
}

func newAnalysis(stretch, rows int, low float64, long int) *analysis {
	return &analysis{stretch: stretch, nRows: rows, low: low, long: long, engines: map[string]*engineUse{}}
}

func (a *analysis) engine(name string) *engineUse {
	e := a.engines[name]
	if e == nil {
		e = &engineUse{rows: make([]row, a.nRows)}
		a.engines[name] = e
		a.order = append(a.order, name)
	}
	return e
}

var errNoTC = errors.New("no time control")

// addGame adds one game's engine moves; a game without a usable time
// control (no -tc and no TimeControl tag) is counted as skipped.
func (a *analysis) addGame(g *datagen.PGNGame, fixed *clockRule) error {
	rule, err := gameRule(g, fixed)
	if err != nil {
		a.skipped++
		return nil
	}
	names := [2]string{g.Tag("White"), g.Tag("Black")}
	side := 0
	if g.Start.Side() == variant960.Black {
		side = 1
	}
	clock := [2]float64{rule.base, rule.base}
	var eng [2]*engineUse
	for i := range eng {
		eng[i] = a.engine(names[i])
		eng[i].games++
		eng[i].given += rule.base
	}
	ply, timed := 0, 0 // engine plies, and those with a time
	for _, m := range g.Moves {
		if m.Book {
			side ^= 1
			continue
		}
		e := eng[side]
		secs, nodes, ok := moveTime(m.Comment)
		if !ok {
			e.clockless++
			side ^= 1
			ply++
			continue
		}
		r := &e.rows[min(ply/a.stretch, a.nRows-1)]
		r.moves++
		r.time += secs
		r.depth += float64(m.Depth)
		if nodes > 0 {
			r.nodes += float64(nodes)
			r.nodesTime += secs
		}
		r.clocks = append(r.clocks, clock[side])
		if clock[side] < a.low {
			r.lowMoves++
		}
		clock[side] += rule.inc - secs
		e.used += secs
		e.given += rule.inc
		timed++
		side ^= 1
		ply++
	}
	for i := range eng {
		if clock[i] < 0 {
			eng[i].lost++
		}
		if timed >= a.long {
			eng[i].endClocks = append(eng[i].endClocks, clock[i])
		}
	}
	return nil
}

func gameRule(g *datagen.PGNGame, fixed *clockRule) (clockRule, error) {
	if fixed != nil {
		return *fixed, nil
	}
	tag := g.Tag("TimeControl")
	if tag == "" || tag == "-" {
		return clockRule{}, errNoTC
	}
	return parseTC(tag)
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (a *analysis) print(w io.Writer) {
	for _, name := range a.order {
		e := a.engines[name]
		fmt.Fprintf(w, "%s: %d games, used %.1f%% of its time", name, e.games, 100*e.used/max(e.given, 1e-9))
		if len(e.endClocks) > 0 {
			fmt.Fprintf(w, ", clock at the end of %d games of %d plies or more: median %.2f s", len(e.endClocks), a.long, median(e.endClocks))
		}
		if e.lost > 0 {
			fmt.Fprintf(w, ", clock below zero in %d games", e.lost)
		}
		if e.clockless > 0 {
			fmt.Fprintf(w, ", %d moves without a time", e.clockless)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  %-9s %6s %8s %6s %8s %8s %6s\n", "plies", "moves", "time", "depth", "knps", "clock", "low")
		for i, r := range e.rows {
			if r.moves == 0 {
				continue
			}
			span := fmt.Sprintf("%d-%d", i*a.stretch, (i+1)*a.stretch-1)
			if i == a.nRows-1 {
				span = fmt.Sprintf("%d on", i*a.stretch)
			}
			knps := "-"
			if r.nodesTime > 0 {
				knps = fmt.Sprintf("%.0f", r.nodes/r.nodesTime/1000)
			}
			fmt.Fprintf(w, "  %-9s %6d %7.3fs %6.2f %8s %7.2fs %5.0f%%\n", span, r.moves, r.time/float64(r.moves),
				r.depth/float64(r.moves), knps, median(r.clocks), 100*float64(r.lowMoves)/float64(r.moves))
		}
	}
	if a.skipped > 0 {
		fmt.Fprintf(w, "%d games without a time control skipped (give -tc)\n", a.skipped)
	}
}
