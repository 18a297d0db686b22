package variant960

import (
	"testing"

	"github.com/rochade/rochade/internal/testutil"
)

// TestRepetitionInSearch checks the search's repetition rule: a repeat of a
// position seen after the root is a draw at once, a repeat of one from
// before the root (or of the root) only at the third occurrence.
func TestRepetitionInSearch(t *testing.T) {
	shuffle := "g1f3 g8f6 f3g1 f6g8 "
	cases := []struct {
		moves string
		ply   int // distance of the current position from the search root
		want  bool
	}{
		{shuffle, 4, false},          // back at the root: twofold only
		{shuffle + "g1f3", 5, true},  // Nf3 position first seen inside the tree
		{shuffle + "g1f3", 1, false}, // first seen before the root: twofold
		{shuffle + "g1f3", 4, false}, // first seen at the root itself
		{shuffle + shuffle + "g1f3", 1, true},
		{shuffle + shuffle, 1, true}, // start position for the third time
		{"g1f3 g8f6 f3g1", 3, false}, // nothing repeated
	}
	for _, c := range cases {
		p := NewStartPosition()
		testutil.PlayMoves(t, p, c.moves)
		if got := p.IsRepetitionInSearch(c.ply); got != c.want {
			t.Errorf("%q at ply %d: repetition %v, want %v", c.moves, c.ply, got, c.want)
		}
		if got := p.IsDrawInSearch(c.ply); got != c.want {
			t.Errorf("%q at ply %d: draw %v, want %v", c.moves, c.ply, got, c.want)
		}
	}
}

// TestCopyTo: CopyTo gives the same position and history as Copy, over
// a used position, and the copy is independent of the original.
func TestCopyTo(t *testing.T) {
	p, err := ParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	testutil.PlayMoves(t, p, "g1f3 g8f6 f3g1 f6g8 g1f3")
	q, _ := ParseFEN("8/8/8/4k3/8/8/8/4K2R w K - 0 1")
	p.CopyTo(q)
	if q.FEN() != p.FEN() || q.Key() != p.Key() || q.RepetitionCount() != p.RepetitionCount() {
		t.Fatalf("CopyTo: %s (repetitions %d), want %s (%d)", q.FEN(), q.RepetitionCount(), p.FEN(), p.RepetitionCount())
	}
	q.Unmake()
	if q.FEN() == p.FEN() || p.RepetitionCount() != 1 {
		t.Fatal("the copy shares state with the original")
	}
}
