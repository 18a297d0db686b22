package eval

import (
	"math/rand/v2"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// flipFEN mirrors a Shredder-FEN vertically and swaps the colours: the
// result is the same position seen from the other side.
func flipFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	place := swapCase(strings.Join(ranks, "/"))
	side := "w"
	if f[1] == "w" {
		side = "b"
	}
	castling := f[2]
	if castling != "-" {
		castling = swapCase(castling)
	}
	ep := f[3]
	if ep != "-" {
		ep = string(ep[0]) + string('1'+('8'-ep[1]))
	}
	out := []string{place, side, castling, ep}
	return strings.Join(append(out, f[4:]...), " ")
}

func swapCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		case c >= 'A' && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
}

var middlegames = []string{
	"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
	"r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/2KR3R w - - 2 12",
	"2kr3r/ppp2ppp/2n1bn2/2bqp3/8/2NP1NP1/PPP1PPBP/R1BQ1RK1 b - - 3 10",
	"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1",
	"b1nnrkrb/pp1ppppp/1q6/2p5/4P3/1P4P1/P1PP1P1P/BQNNRKRB w GEge - 1 4",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"3r1rk1/p4ppp/1pq1p3/2p1Pn2/2P5/1PQ1BP2/P5PP/3RR1K1 b - - 0 20",
	"6k1/5ppp/8/3P4/8/8/5PPP/6K1 w - - 0 40",
}

var endgames = []string{
	"8/5pk1/6p1/3B4/1b6/6P1/5PK1/8 w - - 0 50",
	"8/8/4k3/8/2R5/4K3/4P3/6r1 b - - 0 60",
	"8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
	"8/2p5/8/1P2k3/8/4K3/8/8 w - - 0 45",
	"8/8/8/3k4/8/3K4/3P4/8 b - - 0 1",
	"6k1/8/8/8/8/8/8/R3K3 w - - 0 1",
	"8/1p4kp/p5p1/8/8/P5P1/1P4KP/8 w - - 0 40",
}

// testPositions returns start positions, middlegames, endgames and
// positions reached from them by random legal moves.
func testPositions(tb testing.TB) []*v.Position {
	var out []*v.Position
	var roots []*v.Position
	for _, n := range []int{0, 1, 100, 215, 345, 518, 600, 777, 959} {
		p, err := v.Chess960Position(n)
		if err != nil {
			tb.Fatal(err)
		}
		roots = append(roots, p)
	}
	for _, pair := range [][2]int{{0, 959}, {100, 518}, {345, 777}} {
		p, err := v.DFRCPosition(pair[0], pair[1])
		if err != nil {
			tb.Fatal(err)
		}
		roots = append(roots, p)
	}
	for _, f := range append(append([]string{}, middlegames...), endgames...) {
		roots = append(roots, v.MustParseFEN(f))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range roots {
		out = append(out, r)
		for walk := 0; walk < 12; walk++ {
			p := r.Copy()
			plies := 1 + rng.IntN(60)
			for i := 0; i < plies; i++ {
				var ml v.MoveList
				p.GenerateLegal(&ml)
				if ml.N == 0 {
					break
				}
				p.Make(ml.Moves[rng.IntN(ml.N)])
				out = append(out, v.MustParseFEN(p.ShredderFEN()))
			}
		}
	}
	return out
}

func TestSymmetry(t *testing.T) {
	e := New()
	ps := testPositions(t)
	for _, p := range ps {
		fen := p.ShredderFEN()
		q, err := v.ParseFEN(flipFEN(fen))
		if err != nil {
			t.Fatalf("flip of %s: %v", fen, err)
		}
		a, b := e.Evaluate(p), e.Evaluate(q)
		if a != b {
			t.Errorf("asymmetric: %d for %s, %d for %s", a, fen, b, q.ShredderFEN())
		}
		if a >= 20000 || a <= -20000 {
			t.Errorf("out of range %d for %s", a, fen)
		}
	}
	if len(ps) < 1000 {
		t.Errorf("only %d positions", len(ps))
	}
}

// TestCacheConsistency evaluates positions with a warm and a cold pawn
// cache and expects the same result.
func TestCacheConsistency(t *testing.T) {
	warm, cold := New(), New()
	for _, p := range testPositions(t) {
		a := warm.Evaluate(p)
		cold.pawns[p.PawnKey()&(pawnTableSize-1)].used = false
		b := cold.Evaluate(p)
		if a != b {
			t.Errorf("cache changes result: %d vs %d for %s", a, b, p.ShredderFEN())
		}
	}
}

func eval(t *testing.T, fen string) int {
	t.Helper()
	return New().Evaluate(v.MustParseFEN(fen))
}

// whiteEval returns the score from White's point of view.
func whiteEval(t *testing.T, fen string) int {
	t.Helper()
	p := v.MustParseFEN(fen)
	s := New().Evaluate(p)
	if p.Side() == v.Black {
		s = -s
	}
	return s
}

func TestStartPositions(t *testing.T) {
	tempo := (Default.Tempo.MG())
	for _, n := range []int{0, 100, 518, 700, 959} {
		p, _ := v.Chess960Position(n)
		if s := New().Evaluate(p); s < tempo-50 || s > tempo+50 {
			t.Errorf("SP %d scores %d", n, s)
		}
	}
}

func TestSanity(t *testing.T) {
	if s := eval(t, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); s <= 700 {
		t.Errorf("queen up: %d", s)
	}
	if s := eval(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1"); s <= 700 {
		t.Errorf("queen up (black): %d", s)
	}
	if s := whiteEval(t, "8/8/8/4k3/8/8/8/KBN5 b - - 0 1"); s < 500 {
		t.Errorf("KBNK: %d", s)
	}
	for _, f := range []string{
		"8/8/8/4k3/8/8/8/KN6 w - - 0 1",
		"8/8/8/4k3/8/8/8/KB6 w - - 0 1",
		"8/8/2n5/4k3/8/8/8/K7 b - - 0 1",
		"8/8/8/4k3/8/8/3b4/K7 w - - 0 1",
		"8/8/8/4k3/8/8/2n5/KB6 w - - 0 1",
	} {
		if s := eval(t, f); s < -40 || s > 40 {
			t.Errorf("drawn pawnless %s: %d", f, s)
		}
	}
	// At most a minor piece more without pawns: scaled well down.
	for _, f := range []string{
		"8/8/8/4k3/8/2b5/2N5/KB6 w - - 0 1",
		"8/8/8/4k3/8/8/3n4/KR6 w - - 0 1",
	} {
		if s := eval(t, f); s < -100 || s > 100 {
			t.Errorf("drawish pawnless %s: %d", f, s)
		}
	}
	// K+minor against pawns: the minor side cannot win.
	if s := whiteEval(t, "8/8/8/4k3/8/5p2/8/KB6 w - - 0 1"); s > 40 {
		t.Errorf("KB v KP: %d", s)
	}
}

func TestMopUp(t *testing.T) {
	// The lone king is worse off in the corner and with the kings close.
	centre := whiteEval(t, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
	corner := whiteEval(t, "7k/8/8/8/8/8/8/KQ6 w - - 0 1")
	if corner <= centre || centre < 900 {
		t.Errorf("KQK: centre %d, corner %d", centre, corner)
	}
	// KBNK with a light-squared bishop: h1/a8 are the right corners.
	right := whiteEval(t, "k7/8/8/8/8/8/8/1B2K1N1 w - - 0 1")
	wrong := whiteEval(t, "7k/8/8/8/8/8/8/1B2K1N1 w - - 0 1")
	if right <= wrong {
		t.Errorf("KBNK: right corner %d, wrong corner %d", right, wrong)
	}
	// KRK: closer kings are better.
	far := whiteEval(t, "7k/8/8/8/8/8/8/K5R1 w - - 0 1")
	near := whiteEval(t, "7k/8/6K1/8/8/8/8/6R1 w - - 0 1")
	if near <= far {
		t.Errorf("KRK: near %d, far %d", near, far)
	}
}

func TestOppositeBishops(t *testing.T) {
	// White is a pawn up; in the first position the bishops are on
	// opposite colours, in the second on the same colour.
	ocb := whiteEval(t, "8/5pk1/6p1/8/1b6/3B2P1/5PKP/8 w - - 0 40")
	scb := whiteEval(t, "8/5pk1/6p1/8/1b6/4B1P1/5PKP/8 w - - 0 40")
	if ocb >= scb || ocb > 60 {
		t.Errorf("OCB %d should be well below same-colour %d", ocb, scb)
	}
}

func TestKPK(t *testing.T) {
	cases := []struct {
		fen string
		win bool
	}{
		{"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", true},
		{"4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", true},
		{"4k3/8/8/4K3/4P3/8/8/8 w - - 0 1", true}, // the king reaches a key square
		{"4k3/8/4P3/4K3/8/8/8/8 b - - 0 1", false},
		{"8/8/4k3/8/4P3/8/8/4K3 w - - 0 1", false},
		{"k7/8/1K6/8/8/8/P7/8 w - - 0 1", false},
		{"8/8/3k4/8/8/3K4/3P4/8 w - - 0 1", true},
		{"7k/8/8/8/8/8/P7/K7 w - - 0 1", true}, // square rule: black king too far
		{"3k4/8/3K4/3P4/8/8/8/8 b - - 0 1", true},
		{"3k4/8/3K4/3P4/8/8/8/8 w - - 0 1", true},  // king on the 6th in front of its pawn
		{"3k4/8/8/3K4/3P4/8/8/8 b - - 0 1", false}, // Black keeps the opposition
		{"3k4/8/8/3K4/3P4/8/8/8 w - - 0 1", true},
		{"3k4/8/3P4/3K4/8/8/8/8 w - - 0 1", false}, // Ke6 Ke8 d7+ Kd8 Kd6 stalemate
		{"3k4/3P4/3K4/8/8/8/8/8 b - - 0 1", false}, // stalemate
		{"3k4/8/8/3P4/3K4/8/8/8 w - - 0 1", false},
		{"8/8/8/8/8/4k3/4p3/4K3 w - - 0 1", false}, // black pawn, stalemate
		{"8/8/8/8/8/4k3/4p3/3K4 w - - 0 1", true},  // Black wins (decisive)
		{"8/8/8/8/8/4k3/4p3/4K3 b - - 0 1", true},  // ...Kd3 Kf2 Kd2: Black wins
	}
	for _, c := range cases {
		s := whiteEval(t, c.fen)
		if c.win && (s < 300 && s > -300) {
			t.Errorf("%s should be a win, got %d", c.fen, s)
		}
		if !c.win && s != 0 {
			t.Errorf("%s should be a draw, got %d", c.fen, s)
		}
	}
}

func TestPassedAndThreats(t *testing.T) {
	// A passed pawn is worth more further up the board.
	far := whiteEval(t, "6k1/8/3P4/8/8/8/8/6K1 w - - 0 1")
	near := whiteEval(t, "6k1/8/8/8/8/3P4/8/6K1 w - - 0 1")
	if far <= near {
		t.Errorf("passed pawn: d6 %d, d3 %d", far, near)
	}
	// An unstoppable pawn (rule of the square) is worth far more.
	run := whiteEval(t, "8/7k/8/1P6/8/8/8/6K1 w - - 0 1")
	caught := whiteEval(t, "8/2k5/8/1P6/8/8/8/6K1 w - - 0 1")
	if run < caught+300 {
		t.Errorf("unstoppable pawn %d vs caught %d", run, caught)
	}
	// A knight attacked by a pawn.
	attacked := whiteEval(t, "4k3/pp6/8/4n3/3P4/8/PP6/4K3 w - - 0 1")
	quiet := whiteEval(t, "4k3/pp6/8/4n3/8/3P4/PP6/4K3 w - - 0 1")
	if attacked <= quiet+20 {
		t.Errorf("pawn threat: attacked %d, quiet %d", attacked, quiet)
	}
}

func TestCorneredBishop(t *testing.T) {
	// Bishop on a1 behind its own pawn on b2 versus the pawn on b3.
	blocked := whiteEval(t, "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1")
	freed := whiteEval(t, "bqnnrkrb/pppppppp/8/8/8/1P6/P1PPPPPP/BQNNRKRB w GEge - 0 1")
	if blocked >= freed {
		t.Errorf("cornered bishop: b2 %d, b3 %d", blocked, freed)
	}
	// The penalty grows when the b2 pawn cannot advance.
	stuck := whiteEval(t, "bqnnrkrb/pppppppp/8/8/8/1N6/PPPPPPPP/BQ1NRKRB w GEge - 0 1")
	free := whiteEval(t, "bqnnrkrb/pppppppp/8/8/8/N7/PPPPPPPP/BQ1NRKRB w GEge - 0 1")
	if stuck >= free {
		t.Errorf("blocked cornered bishop: %d, unblocked %d", stuck, free)
	}
}

func TestKingShelterAnyFile(t *testing.T) {
	// A king on b1 with its pawns intact is safer than with them gone,
	// without assuming castling to c1/g1.
	intact := whiteEval(t, "1k6/ppp5/8/8/8/8/PPP5/1K6 w - - 0 1")
	gone := whiteEval(t, "1k6/ppp5/8/8/8/PPP5/8/1K6 w - - 0 1")
	p := v.MustParseFEN("1k6/ppp5/8/8/8/8/PPP5/1K6 w - - 0 1")
	q := v.MustParseFEN("1k6/ppp5/8/8/8/PPP5/8/1K6 w - - 0 1")
	if shelter(p, v.White, p.KingSquare(v.White)) <= shelter(q, v.White, q.KingSquare(v.White)) {
		t.Errorf("shelter b1: intact %d vs advanced %d", intact, gone)
	}
}

// TestScoreRange: the most material a position may hold (15 queens and
// a king against a bare king, whose side is to move, or against 15
// queens) stays within MaxEval with the hand-written evaluation and the
// default net, and the side with the queens is far ahead. A FEN that
// does not parse fails the test.
func TestScoreRange(t *testing.T) {
	net, err := DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fen  string
		sign int // -1: the side to move is far behind, 0: either
	}{
		{"qqqqqqqk/qqqqqqqq/8/8/8/8/8/K7 w - - 0 1", -1},
		{"k7/8/8/8/8/8/QQQQQQQQ/QQQQQQQK b - - 0 1", -1},
		{"qqqqqqqk/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQQQQK w - - 0 1", 0},
		{"qqqqqqqk/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQQQQK b - - 0 1", 0},
	} {
		p, err := v.ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		for _, n := range []*Net{nil, net} {
			e := New()
			e.SetNet(n)
			s := e.Evaluate(p)
			if s > MaxEval || s < -MaxEval || c.sign*s < 0 || c.sign != 0 && c.sign*s < 1000 {
				t.Errorf("%s, net %t: %d", c.fen, n != nil, s)
			}
		}
	}
}

func TestScorePacking(t *testing.T) {
	for _, mg := range []int{-3000, -1, 0, 1, 2999} {
		for _, eg := range []int{-3000, -1, 0, 1, 2999} {
			s := S(mg, eg)
			if s.MG() != mg || s.EG() != eg {
				t.Fatalf("S(%d,%d) -> %d,%d", mg, eg, s.MG(), s.EG())
			}
			if d := s * 3; d.MG() != 3*mg || d.EG() != 3*eg {
				t.Fatalf("3*S(%d,%d) -> %d,%d", mg, eg, d.MG(), d.EG())
			}
		}
	}
}

func TestNoAllocs(t *testing.T) {
	e := New()
	ps := testPositions(t)[:200]
	allocs := testing.AllocsPerRun(10, func() {
		for _, p := range ps {
			e.Evaluate(p)
		}
	})
	if allocs != 0 {
		t.Errorf("Evaluate allocates: %v", allocs)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	var ps []*v.Position
	for _, f := range middlegames {
		ps = append(ps, v.MustParseFEN(f))
	}
	for _, n := range []int{0, 345, 518, 959} {
		p, _ := v.Chess960Position(n)
		ps = append(ps, p)
	}
	e := New()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e.Evaluate(ps[i%len(ps)])
	}
}
