package uci

import (
	"fmt"
	"sync/atomic"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// perft runs a divide on a goroutine of its own, like a search: isready
// is answered meanwhile, and stop (or quit, or a new go) ends it early,
// with the root moves counted so far and an info string.
func (s *Session) perft(depth int) {
	pos := s.pos.Copy()
	chess960 := s.set.chess960
	done := make(chan struct{})
	s.done = done
	s.sent = nil
	stop := &s.perftStop
	stop.Store(false)
	go func() {
		defer close(done)
		start := time.Now()
		var ml v.MoveList
		pos.GenerateLegal(&ml)
		lines := make([]string, 0, ml.N+3)
		var total uint64
		stopped := false
		for _, m := range ml.Slice() {
			pos.Make(m)
			n, ok := perftStoppable(pos, depth-1, stop)
			pos.Unmake()
			if !ok {
				stopped = true
				break
			}
			lines = append(lines, fmt.Sprintf("%s: %d", pos.MoveToUCI(m, chess960), n))
			total += n
		}
		if depth == 0 {
			total = 1
		}
		if stopped {
			lines = append(lines, fmt.Sprintf("info string perft %d stopped after %d of %d root moves", depth, len(lines), ml.N))
		}
		lines = append(lines, "", fmt.Sprintf("Nodes searched: %d", total))
		s.send(lines...)
		s.logEvent("perft", fmt.Sprintf("depth %d nodes %d time %v stopped %v", depth, total, time.Since(start), stopped))
	}()
}

// perftStoppable is Perft that looks at the stop flag between subtrees
// of depth 3 (a few milliseconds each); ok is false when it was stopped.
func perftStoppable(pos *v.Position, depth int, stop *atomic.Bool) (n uint64, ok bool) {
	if stop.Load() {
		return 0, false
	}
	if depth <= 3 {
		return pos.Perft(depth), true
	}
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		pos.Make(m)
		c, ok := perftStoppable(pos, depth-1, stop)
		pos.Unmake()
		if !ok {
			return 0, false
		}
		n += c
	}
	return n, true
}
