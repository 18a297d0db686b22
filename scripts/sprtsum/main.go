// Command sprtsum adds up the game pairs of several runs of one SPRT and
// prints the result of them all together: games, W/D/L, the pentanomial
// counts, Elo and normalized Elo with their 95% errors, and the LLR for the
// bounds, in fastchess's normalized model.
//
// A run that stopped can be resumed from fastchess's saved state
// (`fastchess -config file=config.json`), or the same two engines run again
// with a different -srand; add the runs up here. Each run's pairs are
// independent samples of the same test, and an SPRT that looks at its LLR
// only at the end of each run is still valid (looking less often only makes
// it a little more cautious).
//
// Usage:
//
//	go run ./scripts/sprtsum -engine NEW [-elo0 0 -elo1 3] [-ptnml a,b,c,d,e ...] [PGN ...]
//
// Each PGN (plain, .gz or .bz2) is a fastchess PGN of games between NEW and one other engine,
// played with -repeat: the two games of an opening share a Round tag.
// A pair with only one finished game (a run stopped between its games)
// is left out. A round with three games is a pair that was stopped after
// its first game and played again whole when fastchess resumed from its
// saved state: the first game is left out.
//
// -ptnml adds pentanomial counts from NEW's point of view (LL, LD, DD+WL,
// WD, WW: pairs scoring 0, ½, 1, 1½, 2), as fastchess prints them and
// docs/search-tests.md logs them, and may be given more than once.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/rochade/rochade/datagen"
)

type ptnmlList [][5]int

func (p *ptnmlList) String() string { return fmt.Sprint(*p) }

func (p *ptnmlList) Set(s string) error {
	c, err := parsePtnml(s)
	if err != nil {
		return err
	}
	*p = append(*p, c)
	return nil
}

func main() {
	engine := flag.String("engine", "", "the name of the engine under test (NEW) in the PGNs")
	elo0 := flag.Float64("elo0", 0, "lower bound, normalized Elo")
	elo1 := flag.Float64("elo1", 3, "upper bound, normalized Elo")
	alpha := flag.Float64("alpha", 0.05, "false positive rate")
	beta := flag.Float64("beta", 0.05, "false negative rate")
	var extra ptnmlList
	flag.Var(&extra, "ptnml", "pentanomial counts LL,LD,DD+WL,WD,WW to add (repeatable)")
	flag.Parse()
	if flag.NArg() > 0 && *engine == "" {
		fmt.Fprintln(os.Stderr, "sprtsum: -engine is needed to read PGNs")
		os.Exit(2)
	}
	var total tally
	for _, c := range extra {
		total.addPtnml(c)
	}
	for _, path := range flag.Args() {
		t, err := readPGN(path, *engine)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sprtsum:", err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d pairs, W/D/L %d/%d/%d, ptnml %v\n", path, t.pairs(), t.w, t.d, t.l, t.p)
		total.add(t)
	}
	if total.pairs() == 0 {
		fmt.Fprintln(os.Stderr, "sprtsum: no game pairs")
		os.Exit(1)
	}
	fmt.Print(report(total, *elo0, *elo1, *alpha, *beta))
}

// tally holds W/D/L (of single games, where known) and the pentanomial
// counts of the pairs.
type tally struct {
	w, d, l int
	p       [5]int
}

func (t *tally) pairs() int {
	n := 0
	for _, c := range t.p {
		n += c
	}
	return n
}

func (t *tally) add(o tally) {
	t.w += o.w
	t.d += o.d
	t.l += o.l
	t.addPtnml(o.p)
}

func (t *tally) addPtnml(c [5]int) {
	for i := range c {
		t.p[i] += c[i]
	}
}

func parsePtnml(s string) ([5]int, error) {
	var c [5]int
	s = strings.Trim(strings.TrimSpace(s), "[]")
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(f) != 5 {
		return c, fmt.Errorf("pentanomial %q: want five counts", s)
	}
	for i, x := range f {
		n, err := strconv.Atoi(x)
		if err != nil || n < 0 {
			return c, fmt.Errorf("pentanomial %q: %q is not a count", s, x)
		}
		c[i] = n
	}
	return c, nil
}

// readPGN reads a fastchess PGN file (plain, .gz or .bz2) with datagen's
// reader and pairs the games by their Round tag. Each game's points are
// NEW's: 2 for a win, 1 for a draw, 0 for a loss; a pair's sum indexes the
// pentanomial counts. Only the tags are used: a game whose moves could
// not be read still counts by its Result tag.
func readPGN(path, engine string) (tally, error) {
	var t tally
	pairs := map[string][]int{} // each round's games: NEW's points, in the file's order
	var order []string
	err := datagen.ReadPGNFile(path, func(g *datagen.PGNGame, _ *datagen.PGNError) error {
		if g == nil {
			return nil
		}
		res, white, black, round := g.Tag("Result"), g.Tag("White"), g.Tag("Black"), g.Tag("Round")
		if res == "*" || res == "" {
			return nil // unfinished
		}
		if res != "1-0" && res != "0-1" && res != "1/2-1/2" {
			return fmt.Errorf("round %s: result %q", round, res)
		}
		if white != engine && black != engine {
			return fmt.Errorf("round %s: neither %q nor %q is %q", round, white, black, engine)
		}
		pts := 0
		switch {
		case res == "1/2-1/2":
			pts = 1
		case (res == "1-0") == (white == engine):
			pts = 2
		}
		if _, ok := pairs[round]; !ok {
			order = append(order, round)
		}
		pairs[round] = append(pairs[round], pts)
		return nil
	})
	if err != nil {
		return t, fmt.Errorf("%s: %w", path, err)
	}
	for _, k := range order {
		games := pairs[k]
		switch len(games) {
		case 1:
			// a lone game: its partner never finished. It is left out of
			// W/D/L too, so that the counts describe the same games.
			continue
		case 2:
		case 3:
			// the first game of a pair stopped halfway, then played again
			// whole on resuming
			games = games[1:]
		default:
			return t, fmt.Errorf("round %s has %d games; expected pairs (-repeat)", k, len(games))
		}
		for _, pts := range games {
			switch pts {
			case 2:
				t.w++
			case 1:
				t.d++
			default:
				t.l++
			}
		}
		t.p[games[0]+games[1]]++
	}
	return t, nil
}

// stats returns the mean and variance of a pair's score (0 to 1) and the
// number of pairs.
func stats(p [5]int) (mean, variance float64, n int) {
	for i, c := range p {
		x := float64(i) / 4
		mean += x * float64(c)
		n += c
	}
	if n == 0 {
		return 0, 0, 0
	}
	mean /= float64(n)
	for i, c := range p {
		x := float64(i)/4 - mean
		variance += x * x * float64(c)
	}
	return mean, variance / float64(n), n
}

// nEloScale turns (mean−½)/σ of a pair into normalized Elo.
var nEloScale = 800 / math.Ln10 / math.Sqrt2

func logisticElo(score float64) float64 {
	return -400 * math.Log10(1/score-1)
}

// llr is the generalized SPRT's log-likelihood ratio for normalized Elo
// bounds, in the normal approximation: the pair scores' mean is compared
// with the means that nelo0 and nelo1 imply at the measured spread.
// fastchess solves the exact likelihoods; this agrees with it to about 0.01.
func llr(p [5]int, nelo0, nelo1 float64) (float64, error) {
	mean, variance, n := stats(p)
	if n == 0 || variance <= 0 {
		return 0, errors.New("no spread in the results")
	}
	sigma := math.Sqrt(variance)
	mu0 := 0.5 + nelo0/nEloScale*sigma
	mu1 := 0.5 + nelo1/nEloScale*sigma
	return float64(n) * ((mean-mu0)*(mean-mu0) - (mean-mu1)*(mean-mu1)) / (2 * variance), nil
}

func report(t tally, elo0, elo1, alpha, beta float64) string {
	var b strings.Builder
	mean, variance, n := stats(t.p)
	sigma := math.Sqrt(variance)
	se := sigma / math.Sqrt(float64(n))
	const z = 1.959963984540054
	games := 2 * n
	fmt.Fprintf(&b, "pairs %d, games %d", n, games)
	if t.w+t.d+t.l == games {
		fmt.Fprintf(&b, ", W/D/L %d/%d/%d", t.w, t.d, t.l)
	}
	fmt.Fprintf(&b, ", ptnml %v\n", t.p)
	if mean <= 0 || mean >= 1 || sigma == 0 {
		fmt.Fprintf(&b, "score %.2f%%: no Elo\n", 100*mean)
		return b.String()
	}
	lo, hi := math.Max(mean-z*se, 1e-9), math.Min(mean+z*se, 1-1e-9)
	fmt.Fprintf(&b, "score %.2f%%, Elo %.2f +/- %.2f, nElo %.2f +/- %.2f\n", 100*mean,
		logisticElo(mean), (logisticElo(hi)-logisticElo(lo))/2,
		(mean-0.5)/sigma*nEloScale, z*nEloScale/math.Sqrt(float64(n)))
	l, err := llr(t.p, elo0, elo1)
	if err != nil {
		fmt.Fprintf(&b, "LLR: %v\n", err)
		return b.String()
	}
	lower, upper := math.Log(beta/(1-alpha)), math.Log((1-beta)/alpha)
	verdict := "continue"
	switch {
	case l >= upper:
		verdict = "H1 accepted"
	case l <= lower:
		verdict = "H0 accepted"
	}
	fmt.Fprintf(&b, "LLR %.2f (%.2f, %.2f) [%.2f, %.2f]: %s\n", l, lower, upper, elo0, elo1, verdict)
	return b.String()
}
