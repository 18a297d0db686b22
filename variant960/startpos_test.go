package variant960_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

func TestStartPositionNumbering(t *testing.T) {
	for _, c := range []struct {
		n    int
		rank string
	}{{0, "BBQNNRKR"}, {518, "RNBQKBNR"}, {959, "RKRNNQBB"}} {
		if r, _ := v.BackRank(c.n); r != c.rank {
			t.Errorf("SP %d = %s, want %s", c.n, r, c.rank)
		}
	}
	rows := readTSV(t, "chess960_startpos.tsv")
	if len(rows) != 960 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, row := range rows {
		n, _ := strconv.Atoi(row["sp"])
		r, err := v.BackRank(n)
		if err != nil || r != row["back_rank"] {
			t.Fatalf("SP %d: got %s %v, want %s", n, r, err, row["back_rank"])
		}
		p, err := v.Chess960Position(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.ShredderFEN(); got != row["fen_shredder"] {
			t.Errorf("SP %d: Shredder-FEN %s, want %s", n, got, row["fen_shredder"])
		}
		if got := p.XFEN(); got != row["fen_xfen"] {
			t.Errorf("SP %d: X-FEN %s, want %s", n, got, row["fen_xfen"])
		}
		// Both directions, from every form.
		for _, s := range []string{row["back_rank"], row["fen_shredder"], row["fen_xfen"], p.FEN()} {
			w, b, err := v.StartPositionNumbers(s)
			if err != nil || w != n || b != n {
				t.Errorf("SP %d: number of %q = %d/%d %v", n, s, w, b, err)
			}
		}
		// FEN round trips: read, write, read again gives the same position.
		for _, s := range []string{row["fen_shredder"], row["fen_xfen"]} {
			q := v.MustParseFEN(s)
			if q.Key() != p.Key() || v.MustParseFEN(q.FEN()).Key() != p.Key() || q.FEN() != p.FEN() {
				t.Errorf("SP %d: FEN round trip of %s", n, s)
			}
		}
	}
	if p, _ := v.Chess960Position(518); p.FEN() != v.StartFEN {
		t.Errorf("SP 518 FEN = %s", p.FEN())
	}
	if _, err := v.BackRank(960); err == nil {
		t.Error("SP 960 accepted")
	}
	if _, err := v.BackRank(-1); err == nil {
		t.Error("SP -1 accepted")
	}
	for _, bad := range []string{"RNBRKBQN", "RNBQKBN", "RKRNNQBB1", "BBQNNRRK", "BNBQRKNR", "RNBQKBNN"} {
		if _, err := v.SPNumber(bad); err == nil {
			t.Errorf("back rank %s accepted", bad)
		}
	}
}

func TestFischer168(t *testing.T) {
	rows := readTSV(t, "fischer168.tsv")
	if len(rows) != v.Fischer168Count {
		t.Fatalf("%d rows", len(rows))
	}
	for _, row := range rows {
		idx, _ := strconv.Atoi(row["index"])
		sp, _ := strconv.Atoi(row["sp"])
		got, err := v.Fischer168SP(idx)
		if err != nil || got != sp {
			t.Errorf("Fischer168 %d = SP %d %v, want %d", idx, got, err, sp)
		}
		if back, ok := v.Fischer168Index(sp); !ok || back != idx {
			t.Errorf("SP %d: Fischer168 index %d %v, want %d", sp, back, ok, idx)
		}
	}
	if _, ok := v.Fischer168Index(0); ok {
		t.Error("SP 0 (BBQNNRKR) is not a Fischer168 position")
	}
	for _, bad := range []int{0, 169} {
		if _, err := v.Fischer168SP(bad); err == nil {
			t.Errorf("index %d accepted", bad)
		}
	}
}

func TestDFRCAndRandom(t *testing.T) {
	p, err := v.DFRCPosition(12, 400)
	if err != nil {
		t.Fatal(err)
	}
	w, b, err := v.StartPositionNumbers(p.FEN())
	if err != nil || w != 12 || b != 400 {
		t.Fatalf("DFRC 12/400 -> %d/%d %v (%s)", w, b, err, p.FEN())
	}
	// With the pawns on their second rank only the knights and pawns
	// move: 16 pawn moves, and 2 for each knight (1 in a corner).
	for _, c := range []struct{ w, b int }{{12, 400}, {518, 518}, {0, 959}, {959, 0}} {
		q, err := v.DFRCPosition(c.w, c.b)
		if err != nil {
			t.Fatal(err)
		}
		for side := 0; side < 2; side++ {
			rank, _ := v.BackRank([2]int{c.w, c.b}[side])
			want := uint64(16)
			for f, ch := range rank {
				if ch == 'N' {
					want += 2
					if f == 0 || f == 7 {
						want--
					}
				}
			}
			if side == 1 {
				q = v.MustParseFEN(strings.Replace(q.FEN(), " w ", " b ", 1))
			}
			if got := q.Perft(1); got != want {
				t.Errorf("DFRC %d/%d, %s to move: perft(1) = %d, want %d", c.w, c.b, [2]string{"White", "Black"}[side], got, want)
			}
		}
	}
	// Round trip through Shredder-FEN keeps each side's own rook files.
	if q := v.MustParseFEN(p.ShredderFEN()); q.ShredderFEN() != p.ShredderFEN() {
		t.Errorf("DFRC Shredder round trip: %s vs %s", q.ShredderFEN(), p.ShredderFEN())
	}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[int]bool{}
	for i := 0; i < 20000; i++ {
		n := v.RandomSP(r)
		if n < 0 || n > 959 {
			t.Fatalf("random SP %d", n)
		}
		seen[n] = true
		k := v.RandomFischer168(r)
		if k < 1 || k > 168 {
			t.Fatalf("random Fischer168 %d", k)
		}
	}
	if len(seen) < 950 {
		t.Errorf("random SP covered only %d of 960 in 20000 draws", len(seen))
	}
}
