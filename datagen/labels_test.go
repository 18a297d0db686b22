package datagen

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rochade/rochade/search"
	"github.com/rochade/rochade/variant960"
)

const m = MateScore

// TestMarkFakeMates runs the rule on synthetic games: scores are White's
// view, plies alternate from the first side to move.
func TestMarkFakeMates(t *testing.T) {
	for _, c := range []struct {
		name       string
		scores     []int
		whiteFirst bool
		result     int
		fake       []int // plies with a fake label
	}{
		{"empty game", nil, true, ResultDraw, nil},
		{"no mate", []int{20, -30, 3500, -3500}, true, ResultDraw, nil},
		// White to move at ply 2 is "mated" among ordinary scores.
		{"isolated, drawn game", []int{20, 30, -m, 25, 10}, true, ResultDraw, []int{2}},
		// The label names Black the winner; White won.
		{"sign disagrees with the result", []int{20, 30, -m, 40, 200, 1300, 1300, 1300, 1300}, true, ResultWin, []int{2}},
		// Black to move at ply 3 is "mated", White wins in the end, but
		// the next search says 50.
		{"ordinary score after it", []int{20, 30, 40, m, 50, 60, 1300, 1300, 1300, 1300}, true, ResultWin, []int{3}},
		{"ordinary score later", []int{20, 30, 40, m, 1300, 60, 1300, 1300, 1300, 1300}, true, ResultWin, []int{3}},
		{"two in a row, both sides", []int{10, m, -m, 15}, true, ResultDraw, []int{1, 2}},
		{"at the last ply of a drawn game", []int{10, 5, -m}, true, ResultDraw, []int{2}},
		// White finds the mate at ply 2; Black sees it at ply 3, and so on
		// to the checkmate.
		{"real mate", []int{100, 900, 1500, m, m, m}, true, ResultWin, nil},
		{"real mate, Black first", []int{-100, -1400, -m, -m}, false, ResultLoss, nil},
		{"real mate, adjudicated", []int{-100, -300, -1300, -m, -1800, -2000}, false, ResultLoss, nil},
		// A mate for the side to move is never a stopped search's label,
		// whatever follows.
		{"side to move mates", []int{m, 10, 5}, true, ResultDraw, nil},
		{"side to move mates, Black", []int{10, -m, 5}, true, ResultDraw, nil},
		// Inside the final run of a won game, a stopped search in the
		// lost position cannot be told from a mate: kept.
		{"lost anyway", []int{-1300, -1400, -m, -1500}, true, ResultLoss, nil},
		// The same with Black to move first: ply 2 is Black to move.
		{"Black first, isolated", []int{5, 10, m, 0}, false, ResultDraw, []int{2}},
	} {
		got := markFakeMates(nil, c.scores, c.whiteFirst, c.result)
		var plies []int
		for i, f := range got {
			if f {
				plies = append(plies, i)
			}
		}
		if len(got) != len(c.scores) || !slices.Equal(plies, c.fake) {
			t.Errorf("%s: fake at %v, want %v", c.name, plies, c.fake)
		}
	}
	// The mask is reused without allocating once it is large enough.
	fake := make([]bool, 0, 16)
	scores := []int{20, 30, -m, 25, 10}
	if n := testing.AllocsPerRun(10, func() { fake = markFakeMates(fake, scores, true, ResultDraw) }); n != 0 {
		t.Errorf("markFakeMates allocates %v times", n)
	}
}

// TestReadFakeMates: the reader marks a fake label, the converter's
// filter drops it, the statistics count it, and a real mate stays.
func TestReadFakeMates(t *testing.T) {
	// Game 1: 10 plies from the start position, a drawn game, with a fake
	// label at ply 4 (White to move, "mated"). Game 2: the same moves,
	// White wins and the last four labels are a mate that Black sees.
	pos := variant960.NewStartPosition()
	var moves []variant960.Move
	var ml variant960.MoveList
	for range 10 {
		pos.GenerateLegal(&ml)
		mv := ml.Moves[0]
		moves = append(moves, mv)
		pos.Make(mv)
	}
	drawn := []int{10, 20, 15, 5, -m, 10, 0, 5, 10, 20}
	won := []int{10, 20, 15, 5, 30, 900, 1500, m, m, m}
	var cw chunkWriter
	cw.reset()
	for _, g := range []struct {
		scores []int
		result int
	}{{drawn, ResultDraw}, {won, ResultWin}} {
		var enc gameEncoder
		for i, mv := range moves {
			enc.add(mv, g.scores[i])
		}
		cw.addGame(enc.appendTo(nil, variant960.StartFEN, g.result, TermAdjudDraw), enc.positions())
	}
	data := cw.finish()

	var fakes []string
	n := 0
	err := Read(bytes.NewReader(data), func(s *Sample) error {
		want := n == 4
		if s.FakeMate != want {
			t.Errorf("sample %d (score %d): FakeMate %t", n, s.Score, s.FakeMate)
		}
		if s.FakeMate {
			fakes = append(fakes, s.Pos.FEN())
			if !Skip(s) {
				t.Error("Skip keeps a fake mate label")
			}
		}
		n++
		return nil
	})
	if err != nil || n != 20 || len(fakes) != 1 {
		t.Fatalf("read %d samples, %d fake: %v", n, len(fakes), err)
	}
	if fs := strings.Fields(fakes[0]); fs[1] != "w" {
		t.Errorf("fake label in %s, want White to move", fakes[0])
	}

	dir := t.TempDir()
	path := dir + "/c.rdg"
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := ReadStats([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if st.Mates.Fake != 1 || st.Mates.Genuine != 3 {
		t.Errorf("stats: %+v, want 1 fake and 3 genuine", st.Mates)
	}
	var sb strings.Builder
	st.Write(&sb)
	if !strings.Contains(sb.String(), "mate labels: 3 genuine, 1 fake") {
		t.Errorf("stats text: %q", sb.String())
	}
	// Unfiltered, the converter keeps every stored label; filtered, the
	// fake one is gone.
	for _, filter := range []bool{false, true} {
		var out bytes.Buffer
		if err := Convert(&out, []string{path}, filter); err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(out.String(), fakes[0]+" | -32000 |")
		if has == filter {
			t.Errorf("filter %t: fake label in the output %t", filter, has)
		}
	}
}

// TestFakeMatesRealChunk reads a chunk made before the search fix (build
// 410e5a7, hand-written evaluation, 5000/20000 nodes): the counts are
// pinned, and the first fake labels, searched again now, are no mates
// against the side to move.
func TestFakeMatesRealChunk(t *testing.T) {
	const path = "../data/hce-n5000-s1/chunk-000000.rdg.zst"
	var fakes []string
	positions, mates := 0, 0
	err := ReadFile(path, func(s *Sample) error {
		positions++
		if s.Score == MateScore || s.Score == -MateScore {
			mates++
		}
		if s.FakeMate {
			if s.Score != MateScore && s.Score != -MateScore {
				t.Errorf("fake mate with score %d", s.Score)
			}
			fakes = append(fakes, s.Pos.ShredderFEN())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if positions != 22865 || len(fakes) != 1100 || mates-len(fakes) != 42 {
		t.Fatalf("%d positions, %d mate labels, %d fake; want 22865, 1142, 1100", positions, mates, len(fakes))
	}
	eng := search.NewEngine(search.Options{HashMB: 16, Threads: 1, MultiPV: 1})
	for _, fen := range fakes[:30] {
		eng.Clear()
		res := eng.Search(variant960.MustParseFEN(fen), search.Limits{SoftNodes: 5000, Nodes: 20000}, search.Callbacks{})
		if search.IsMate(res.Score) && res.Score < 0 {
			t.Errorf("%s: labelled fake, the search says %d", fen, res.Score)
		}
	}
}
