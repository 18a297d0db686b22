package tests

import (
	"strings"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// TestFENHugeCounters: move counters too large for any integer are read
// as the largest ones kept (65536 half-moves, 2^24 full moves), as
// docs/reliability.md says, and the engine plays from that position.
func TestFENHugeCounters(t *testing.T) {
	e := startEngine(t)
	e.handshake()
	for _, c := range []struct{ in, want string }{
		{"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 99999999999999999999 1",
			"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 65536 1"},
		{"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 99999999999999999999",
			"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 16777216"},
	} {
		e.send("position fen " + c.in)
		for _, l := range e.sync() {
			if strings.Contains(l, "error") {
				t.Errorf("%s: %q", c.in, l)
			}
		}
		if got := e.fen(); got != c.want {
			t.Errorf("d after %s: %q, want %q", c.in, got, c.want)
		}
		best, _, _ := e.search("go depth 1", 10*time.Second)
		legalIn(t, v.MustParseFEN(c.want), best)
	}
	e.closeAndWait(10 * time.Second)
}
