package tests

import (
	"testing"
	"time"
)

// TestMoveOverheadMax: at its maximum (5000 ms) Move Overhead must not
// make explicit limits meaningless. go movetime 3000 answered in 1 ms, and
// on a 40 s clock the reserve of ten overheads took the whole clock, so
// every move was a depth-1 search in 0 ms.
func TestMoveOverheadMax(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	e.send("setoption name Move Overhead value 5000", "position startpos")
	e.sync()
	start := time.Now()
	e.search("go movetime 3000", 10*time.Second)
	if took := time.Since(start); took < time.Second {
		t.Errorf("go movetime 3000 with Move Overhead 5000: bestmove after %v, want at least 1 s", took)
	}
	start = time.Now()
	e.search("go wtime 40000 btime 40000", 30*time.Second)
	if took := time.Since(start); took < 100*time.Millisecond {
		t.Errorf("go wtime 40000 with Move Overhead 5000: bestmove after %v, want a real think", took)
	}
	e.send("quit")
	e.waitExit(5 * time.Second)
}
