package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// Fastchess plays one iteration's games with fastchess: the engine with
// the dev values against the same engine with the base values, each
// opening with both colours.
type Fastchess struct {
	Bin         string   // fastchess binary
	Engine      string   // the tune build of the engine
	Names       []string // the parameters, in the order of the values
	Floats      []bool   // which parameters are floats
	Pairs       int      // game pairs an iteration
	Nodes       int      // nodes a move (if > 0), else TC
	TC          string   // fastchess time control, e.g. 10+0.1
	Book        string   // EPD opening book
	Variant     string   // fastchess -variant (fischerandom, standard)
	Concurrency int
	Hash        int
	Seed        uint64
	PGNOut      string    // if set, every game is appended to this PGN file (training data)
	Log         io.Writer // fastchess's output goes here too (nil: nowhere)
}

// Args is fastchess's command line for iteration k.
func (f *Fastchess) Args(k int, dev, base []float64) []string {
	limit := "tc=" + f.TC
	if f.Nodes > 0 {
		limit = "nodes=" + strconv.Itoa(f.Nodes)
	}
	engine := func(name string, vals []float64) []string {
		a := []string{"-engine", "cmd=" + f.Engine, "name=" + name}
		for i, n := range f.Names {
			v := strconv.FormatFloat(vals[i], 'f', -1, 64)
			if !f.Floats[i] {
				v = strconv.FormatInt(int64(vals[i]), 10)
			}
			a = append(a, "option."+n+"="+v)
		}
		return a
	}
	args := engine("dev", dev)
	args = append(args, engine("base", base)...)
	args = append(args, "-each", "proto=uci", limit, "option.Threads=1", "option.Hash="+strconv.Itoa(f.Hash))
	if f.Variant != "" && f.Variant != "standard" {
		args = append(args, "-variant", f.Variant)
	}
	if f.Book != "" {
		args = append(args, "-openings", "file="+f.Book, "format=epd", "order=random")
	}
	if f.PGNOut != "" {
		args = append(args, "-pgnout", "file="+f.PGNOut)
	}
	return append(args,
		"-srand", strconv.FormatUint(f.Seed*1_000_003+uint64(k), 10),
		"-games", "2", "-rounds", strconv.Itoa(f.Pairs), "-repeat",
		"-concurrency", strconv.Itoa(max(f.Concurrency, 1)))
}

// Play runs fastchess for iteration k, in a scratch directory (fastchess
// saves a config.json where it runs), and returns dev's result.
func (f *Fastchess) Play(k int, dev, base []float64) (Result, error) {
	dir, err := os.MkdirTemp("", "spsa-fastchess-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(f.Bin, f.Args(k, dev, base)...)
	cmd.Dir = dir
	var out bytes.Buffer
	w := io.Writer(&out)
	if f.Log != nil {
		w = io.MultiWriter(&out, f.Log)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return Result{}, fmt.Errorf("fastchess: %v\n%s", err, tail(out.String(), 2000))
	}
	r, err := ParseFastchess(out.String())
	if err != nil {
		return r, err
	}
	if g := r.Wins + r.Draws + r.Losses; g != 2*f.Pairs {
		return r, fmt.Errorf("fastchess played %d games, want %d", g, 2*f.Pairs)
	}
	return r, nil
}

var reResult = regexp.MustCompile(`Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)`)

// ParseFastchess reads the first engine's result from fastchess's last
// `Games: N, Wins: W, Losses: L, Draws: D` line.
func ParseFastchess(out string) (Result, error) {
	m := reResult.FindAllStringSubmatch(out, -1)
	if m == nil {
		return Result{}, fmt.Errorf("no result line in fastchess's output:\n%s", tail(out, 2000))
	}
	last := m[len(m)-1]
	n := make([]int, 4)
	for i := range n {
		n[i], _ = strconv.Atoi(last[i+1])
	}
	r := Result{Wins: n[1], Losses: n[2], Draws: n[3]}
	if n[0] != r.Wins+r.Losses+r.Draws {
		return r, fmt.Errorf("fastchess result %q does not add up", last[0])
	}
	return r, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return strings.TrimRight(s, "\n")
}
