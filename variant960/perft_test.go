package variant960_test

import (
	"fmt"
	"strconv"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

func checkPerft(t *testing.T, name, fen string, row map[string]string, maxDepth int) {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for d := 1; d <= maxDepth; d++ {
		want, err := strconv.ParseUint(row[fmt.Sprintf("d%d", d)], 10, 64)
		if err != nil {
			t.Fatalf("%s: bad d%d", name, d)
		}
		if got := p.Perft(d); got != want {
			t.Errorf("%s (%s) depth %d: got %d, want %d", name, fen, d, got, want)
			return
		}
	}
	if p.FEN() != v.MustParseFEN(fen).FEN() {
		t.Errorf("%s: perft did not restore the position", name)
	}
}

// All 960 start positions to depth 4 (depth 5 with -long).
func TestPerft960StartPositions(t *testing.T) {
	depth := 4
	if *long {
		depth = 5
	}
	if raceEnabled && !*long {
		depth = 3
	}
	for _, row := range readTSV(t, "perft960.tsv") {
		checkPerft(t, "SP "+row["sp"], row["fen_shredder"], row, depth)
	}
}

// Chess960 middlegame castling cases, to depth 5, from both FEN forms.
func TestPerft960Tricky(t *testing.T) {
	depth := 5
	if raceEnabled {
		depth = 3
	}
	for _, row := range readTSV(t, "perft960_tricky.tsv") {
		checkPerft(t, row["id"], row["fen_shredder"], row, depth)
		checkPerft(t, row["id"]+" (X-FEN)", row["fen_xfen"], row, min(depth, 3))
		// The castling moves and the whole legal move list at depth 1.
		p := v.MustParseFEN(row["fen_shredder"])
		var ml v.MoveList
		p.GenerateLegal(&ml)
		got := map[string]bool{}
		var castles []string
		for _, m := range ml.Slice() {
			got[m.UCI(true)] = true
			if m.IsCastling() {
				castles = append(castles, m.UCI(true))
			}
		}
		for _, want := range splitFields(row["legal_moves_d1"]) {
			if !got[want] {
				t.Errorf("%s: legal move %s missing", row["id"], want)
			}
		}
		if w := splitFields(row["castling_moves_d1"]); len(w) != len(castles) {
			t.Errorf("%s: castling moves %v, want %v", row["id"], castles, w)
		}
	}
}

// The classic standard-chess suite, to depth 5.
func TestPerftStandard(t *testing.T) {
	depth := 5
	if raceEnabled {
		depth = 3
	}
	for _, row := range readTSV(t, "perft_standard.tsv") {
		checkPerft(t, row["id"], row["fen"], row, depth)
		checkPerft(t, row["id"]+" (Shredder)", row["fen_shredder"], row, min(depth, 3))
	}
}
