package uci

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rochade/rochade/search"
)

// afterBestmove, when set (by tests), runs on the search's goroutine
// after it has written its bestmove and before it counts as ended: a
// goroutine held up there by the scheduler.
var afterBestmove func()

// maxGoErrors is how many errors one go command reports one by one.
const maxGoErrors = 5

var goKeywords = map[string]bool{
	"wtime": true, "btime": true, "winc": true, "binc": true, "movestogo": true, "movetime": true,
	"depth": true, "nodes": true, "mate": true, "infinite": true, "ponder": true, "searchmoves": true,
	"perft": true,
}

// maxGoMillis caps the times of go at a year.
const maxGoMillis = uint64(24 * 365 * time.Hour / time.Millisecond)

// goCaps are the largest values the counts of go take; a larger one
// (up to any length of digits) is clamped, with a note.
var goCaps = map[string]uint64{
	"movestogo": 1000, "depth": search.MaxPly - 1, "nodes": math.MaxUint64, "mate": search.MaxPly / 2, "perft": 20,
}

// parseCount reads a decimal integer of any length, as its sign and its
// magnitude; a magnitude beyond 64 bits is clamped to the largest (over).
func parseCount(str string) (neg bool, mag uint64, over, ok bool) {
	digits := str
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		neg = digits[0] == '-'
		digits = digits[1:]
	}
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return false, 0, false, false
	}
	mag, err := strconv.ParseUint(digits, 10, 64)
	if err != nil { // only a range error is left
		mag, over = math.MaxUint64, true
	}
	return neg, mag, over, true
}

// The perft result of parseGo where go asks for no perft, and where it
// asks for one with a depth that was refused (then nothing runs: a go
// perft prints no bestmove, and a search in its place was not asked for).
const (
	noPerft      = -1
	refusedPerft = -2
)

// parseGo reads the parameters of `go`. Bad values are reported and
// ignored; negative times count as 0; counts of 0 or less are ignored;
// values beyond a limit's range (a year for times, the caps of goCaps,
// 2^64-1 for nodes) are clamped and reported.
func (s *Session) parseGo(args []string) (lim search.Limits, perft int, errs []string) {
	perft = noPerft
	valid := 0
	// num reads the value after args[*i] and steps *i past it (a missing
	// value, i.e. the next keyword, is not consumed).
	// The value is its sign, its magnitude and whether that overflowed.
	num := func(key string, i *int) (raw string, neg bool, n uint64, over, ok bool) {
		if *i+1 >= len(args) || goKeywords[args[*i+1]] {
			errs = append(errs, fmt.Sprintf("go: %s needs a value", key))
			return "", false, 0, false, false
		}
		*i++
		raw = args[*i]
		neg, n, over, ok = parseCount(raw)
		if !ok {
			errs = append(errs, fmt.Sprintf("go: %s %q is not an integer; ignored", key, raw))
		}
		return raw, neg, n, over, ok
	}
	ms := func(key, raw string, neg bool, n uint64) time.Duration {
		switch {
		case neg && n > 0:
			lo := uint64(0)
			if key == "movetime" {
				lo = 1 // a movetime of 0 searches for 1 ms, below
			}
			errs = append(errs, fmt.Sprintf("go: %s %s is negative; using %d", key, raw, lo))
			n = lo
		case n > maxGoMillis:
			errs = append(errs, fmt.Sprintf("go: %s %s is out of range; using %d", key, raw, maxGoMillis))
			n = maxGoMillis
		}
		return time.Duration(n) * time.Millisecond
	}
	for i := 0; i < len(args); i++ {
		key := args[i]
		switch key {
		case "infinite":
			lim.Infinite = true
			valid++
		case "ponder":
			lim.Ponder = true
		case "searchmoves":
			for i+1 < len(args) && !goKeywords[args[i+1]] {
				i++
				m, err := s.pos.ParseMove(args[i])
				if err != nil {
					errs = append(errs, fmt.Sprintf("go: searchmoves %q: %v; ignored", args[i], err))
					continue
				}
				lim.SearchMoves = append(lim.SearchMoves, m)
			}
		case "wtime", "btime", "winc", "binc", "movetime":
			raw, neg, n, _, ok := num(key, &i)
			if !ok {
				continue
			}
			d := ms(key, raw, neg, n)
			switch key {
			case "wtime":
				lim.WTime, lim.TimeGiven = d, true
			case "btime":
				lim.BTime, lim.TimeGiven = d, true
			case "winc":
				lim.WInc = d
			case "binc":
				lim.BInc = d
			case "movetime":
				lim.MoveTime = d
				if d == 0 {
					d = time.Millisecond
					lim.MoveTime = d
				}
			}
			if key != "winc" && key != "binc" {
				valid++
			}
		case "movestogo", "depth", "nodes", "mate", "perft":
			if key == "perft" && perft == noPerft {
				perft = refusedPerft // until its depth is read
			}
			raw, neg, n, over, ok := num(key, &i)
			if !ok {
				continue
			}
			if neg || n == 0 {
				errs = append(errs, fmt.Sprintf("go: %s %s must be positive; ignored", key, raw))
				continue
			}
			if c := goCaps[key]; over || n > c {
				n = c
				errs = append(errs, fmt.Sprintf("go: %s %s is out of range; using %d", key, raw, n))
			}
			switch key {
			case "movestogo":
				lim.MovesToGo = int(n)
			case "depth":
				lim.Depth = int(n)
				valid++
			case "nodes":
				lim.Nodes = n
				valid++
			case "mate":
				lim.Mate = int(n)
				valid++
			case "perft":
				perft = int(n)
			}
		default:
			errs = append(errs, fmt.Sprintf("go: unknown parameter %q; ignored", key))
		}
	}
	if valid == 0 && !lim.Ponder {
		if len(errs) > 0 {
			// Every limit was rejected: answer quickly rather than
			// search until a stop that may never come.
			lim.Depth = 1
		} else {
			lim.Infinite = true // a bare `go`, as in other engines
		}
	}
	return lim, perft, errs
}

func (s *Session) cmdGo(args []string) {
	if s.searching() {
		// A go during a search: finish that one first, so that every go
		// gets its own bestmove.
		s.stop()
		s.wait(0)
		s.applyPending()
	}
	lim, perft, errs := s.parseGo(args)
	for i, e := range errs {
		if i == maxGoErrors {
			s.errorf("go: %d more errors not shown", len(errs)-i)
			break
		}
		s.errorf("%s", e)
	}
	if perft >= 0 {
		s.perft(perft)
		return
	}
	if perft == refusedPerft {
		return
	}
	// The lag estimate takes in the previous move first, so that it
	// acts on this one.
	elapsed := s.clock.startMove(s.pos, lim)
	s.useLag(lim)
	root := s.pos.Copy()
	chess960, showWDL := s.set.chess960, s.set.showWDL
	done := make(chan struct{})
	s.done = done
	sent := new(atomic.Bool)
	s.sent = sent
	ctl := search.NewControl()
	s.ctl = ctl
	searcher := s.searcher
	s.logEvent("go", strings.Join(args, " "))
	go func() {
		defer close(done)
		start := time.Now()
		cb := search.Callbacks{
			OnInfo: func(in search.Info) {
				s.send(formatInfo(root, in, chess960, showWDL))
			},
			OnCurrMove: func(c search.CurrMove) {
				s.send(fmt.Sprintf("info depth %d currmove %s currmovenumber %d",
					c.Depth, moveString(root, c.Move, chess960), c.Number))
			},
		}
		res := searcher.SearchWith(ctl, root, lim, cb)
		line := formatBestMove(root, res, chess960)
		s.outMu.Lock()
		s.log.summary(res, line, time.Since(start))
		s.outMu.Unlock()
		sent.Store(true)
		s.send(line)
		*elapsed = time.Since(start)
		if afterBestmove != nil {
			afterBestmove()
		}
	}()
}
