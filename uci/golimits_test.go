package uci

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/search"
)

// The values of go's parameters at and beyond the ends of their ranges.
// A count too large for 64 bits, or beyond its own cap, is clamped and
// the info string says so; a negative time counts as 0; a count of 0 or
// less is ignored. `go nodes 18446744073709551615` (the largest unsigned
// 64-bit count) used to be reported as "not an integer" and ignored.
func TestGoLimitRanges(t *testing.T) {
	const year = 24 * 365 * time.Hour
	huge := "99999999999999999999999"
	cases := []struct {
		args  string
		check func(search.Limits, int) bool
		note  string // in the errors; "" for none
	}{
		{"nodes 18446744073709551615", func(l search.Limits, _ int) bool { return l.Nodes == math.MaxUint64 }, ""},
		{"nodes 18446744073709551616", func(l search.Limits, _ int) bool { return l.Nodes == math.MaxUint64 }, "nodes 18446744073709551616 is out of range; using 18446744073709551615"},
		{"nodes " + huge, func(l search.Limits, _ int) bool { return l.Nodes == math.MaxUint64 }, "out of range"},
		{"nodes 9223372036854775808", func(l search.Limits, _ int) bool { return l.Nodes == 1<<63 }, ""},
		{"nodes +500", func(l search.Limits, _ int) bool { return l.Nodes == 500 }, ""},
		{"nodes -5", func(l search.Limits, _ int) bool { return l.Nodes == 0 && l.Depth == 1 }, "nodes -5 must be positive"},
		{"nodes -" + huge, func(l search.Limits, _ int) bool { return l.Nodes == 0 && l.Depth == 1 }, "must be positive"},
		{"nodes 0", func(l search.Limits, _ int) bool { return l.Nodes == 0 && l.Depth == 1 }, "nodes 0 must be positive"},
		{"nodes 1e6", func(l search.Limits, _ int) bool { return l.Nodes == 0 && l.Depth == 1 }, "not an integer"},
		{"depth 1000", func(l search.Limits, _ int) bool { return l.Depth == search.MaxPly-1 }, "depth 1000 is out of range; using 127"},
		{"depth " + huge, func(l search.Limits, _ int) bool { return l.Depth == search.MaxPly-1 }, "out of range"},
		{"depth 127", func(l search.Limits, _ int) bool { return l.Depth == 127 }, ""},
		{"mate " + huge, func(l search.Limits, _ int) bool { return l.Mate == search.MaxPly/2 }, "out of range"},
		{"mate -1", func(l search.Limits, _ int) bool { return l.Mate == 0 }, "must be positive"},
		{"wtime 1000 btime 1000 movestogo " + huge, func(l search.Limits, _ int) bool { return l.MovesToGo == 1000 }, "out of range; using 1000"},
		{"wtime 1000 btime 1000 movestogo -3", func(l search.Limits, _ int) bool { return l.MovesToGo == 0 && l.TimeGiven }, "must be positive"},
		{"wtime " + huge + " btime 1000", func(l search.Limits, _ int) bool { return l.WTime == year && l.TimeGiven }, "out of range; using 31536000000"},
		{"wtime 9223372036854775807 btime 1000", func(l search.Limits, _ int) bool { return l.WTime == year }, "out of range"},
		{"wtime -" + huge + " btime 1000", func(l search.Limits, _ int) bool { return l.WTime == 0 && l.TimeGiven }, "is negative; using 0"},
		{"wtime 1000 btime -1000", func(l search.Limits, _ int) bool { return l.BTime == 0 && l.WTime == time.Second }, "btime -1000 is negative; using 0"},
		{"wtime 1000 btime 1000 winc -50 binc " + huge, func(l search.Limits, _ int) bool { return l.WInc == 0 && l.BInc == year }, "winc -50 is negative"},
		{"movetime -1", func(l search.Limits, _ int) bool { return l.MoveTime == time.Millisecond }, "movetime -1 is negative; using 1"},
		{"movetime " + huge, func(l search.Limits, _ int) bool { return l.MoveTime == year }, "out of range"},
		{"perft " + huge, func(_ search.Limits, p int) bool { return p == 20 }, "out of range; using 20"},
	}
	s := NewSession(&syncBuffer{}, Config{NewSearcher: func(o search.Options) Searcher { return &optsSearcher{opts: o} }})
	defer s.Close()
	for _, c := range cases {
		lim, perft, errs := s.parseGo(strings.Fields(c.args))
		all := strings.Join(errs, "; ")
		if !c.check(lim, perft) {
			t.Errorf("go %s: limits %+v, perft %d (errors %q)", c.args, lim, perft, all)
		}
		if c.note == "" && len(errs) > 0 {
			t.Errorf("go %s: errors %q, want none", c.args, all)
		}
		if c.note != "" && !strings.Contains(all, c.note) {
			t.Errorf("go %s: errors %q, want %q", c.args, all, c.note)
		}
	}
}
