// Package testutil holds the small helpers that the tests of several
// packages share. It imports nothing of the engine, so that any package's
// tests, variant960's included, can use it.
package testutil

import (
	"strings"
	"testing"
)

// Player is a position that plays moves given in UCI notation
// (*variant960.Position).
type Player interface {
	PlayMoves(moves ...string) (int, error)
}

// PlayMoves plays the space-separated moves on p; a move that cannot be
// played ends the test, naming it.
func PlayMoves(tb testing.TB, p Player, moves string) {
	tb.Helper()
	if i, err := p.PlayMoves(strings.Fields(moves)...); err != nil {
		tb.Fatalf("move %d of %q: %v", i+1, moves, err)
	}
}
