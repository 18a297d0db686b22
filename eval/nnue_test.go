package eval

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// randomNet has weights in the ranges a trained net uses.
func randomNet(seed uint64) *Net {
	r := rand.New(rand.NewPCG(seed, 7))
	n := &Net{}
	for i := range n.W {
		n.W[i] = int16(r.IntN(161) - 80)
	}
	for i := range n.B {
		n.B[i] = int16(r.IntN(401) - 100)
	}
	for i := range n.O {
		n.O[i] = int16(r.IntN(255) - 127)
	}
	n.OB = int32(r.IntN(20001) - 10000)
	return n
}

func TestNetFileRoundTrip(t *testing.T) {
	n := randomNet(1)
	var buf bytes.Buffer
	if err := WriteNet(&buf, n, `{"test":true}`); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	m, err := LoadNet(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.W != n.W || m.B != n.B || m.O != n.O || m.OB != n.OB || m.Manifest != `{"test":true}` || len(m.Hash) != 16 {
		t.Fatal("net differs after a round trip")
	}
	// Every truncation and a flipped byte anywhere are errors, not panics.
	for _, cut := range []int{0, 7, 8, 35, 36, 100, len(data) / 2, len(data) - 1} {
		if _, err := LoadNet(data[:cut]); err == nil {
			t.Errorf("truncated to %d bytes: no error", cut)
		}
	}
	for _, at := range []int{0, 9, 13, 40, 5000, len(data) - 40, len(data) - 1} {
		bad := bytes.Clone(data)
		bad[at] ^= 0x20
		if _, err := LoadNet(bad); err == nil {
			t.Errorf("byte %d flipped: no error", at)
		}
	}
}

func FuzzLoadNet(f *testing.F) {
	var buf bytes.Buffer
	_ = WriteNet(&buf, randomNet(2), "{}")
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:100])
	f.Add([]byte("RCHDNNUE"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := LoadNet(data)
		if err == nil && n == nil {
			t.Fatal("nil net without error")
		}
	})
}

// TestSIMDMatchesGeneric: the vector kernels and the pure-Go reference
// give exactly the same integers.
func TestSIMDMatchesGeneric(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	n := randomNet(3)
	r := rand.New(rand.NewPCG(4, 5))
	for iter := 0; iter < 2000; iter++ {
		var src, d1, d2 [NetHidden]int16
		for i := range src {
			src[i] = int16(r.IntN(2000) - 700)
		}
		var adds, subs [2]*int16
		na, ns := r.IntN(3), r.IntN(3)
		for k := 0; k < na; k++ {
			adds[k] = &n.W[r.IntN(NetInputs)*NetHidden]
		}
		for k := 0; k < ns; k++ {
			subs[k] = &n.W[r.IntN(NetInputs)*NetHidden]
		}
		accUpdateAVX2(&d1, &src, &adds, na, &subs, ns)
		accUpdateGeneric(&d2, &src, &adds, na, &subs, ns)
		if d1 != d2 {
			t.Fatalf("accUpdate differs (adds %d, subs %d)", na, ns)
		}
		w := (*[NetHidden]int16)(n.O[r.IntN(2)*NetHidden:])
		useAVX2 = true
		a := screluDot(&src, w)
		useAVX2 = false
		b := screluDot(&src, w)
		useAVX2 = true
		if a != b {
			t.Fatalf("screluDot differs: %d vs %d", a, b)
		}
	}
	// Saturated inputs and extreme weights: the worst case for overflow.
	var acc, w [NetHidden]int16
	for i := range acc {
		acc[i], w[i] = 1000, 127
	}
	useAVX2 = false
	want := screluDot(&acc, &w)
	useAVX2 = true
	if got := screluDot(&acc, &w); got != want || want != 255*255*127*NetHidden {
		t.Fatalf("saturated screluDot %d, want %d", got, want)
	}
}

// walk plays random games from the test positions, pushing and popping
// on the evaluator as the search does, and checks the incremental
// accumulators against a refresh after every move and every take-back.
func TestIncrementalMatchesRefresh(t *testing.T) {
	n := randomNet(6)
	e := New()
	e.SetNet(n)
	r := rand.New(rand.NewPCG(8, 9))
	checked := 0
	roots := testPositions(t)
	for i := 0; i < 12; i++ {
		for _, sp := range []int{r.IntN(960), r.IntN(960)} {
			p, _ := v.DFRCPosition(sp, r.IntN(960))
			roots = append(roots, p)
		}
	}
	check := func(p *v.Position) {
		t.Helper()
		got, want := e.evaluateNNUE(p), EvaluateNet(n, p)
		if got != want {
			t.Fatalf("incremental %d, refresh %d at %s", got, want, p.ShredderFEN())
		}
		checked++
	}
	for ri, root := range roots {
		if ri%3 != 0 && ri >= 200 {
			continue
		}
		p := root.Copy()
		e.Reset(p)
		check(p)
		depth := 0
		for step := 0; step < 80; step++ {
			var ml v.MoveList
			p.GenerateLegal(&ml)
			switch {
			case depth > 0 && (ml.N == 0 || r.IntN(4) == 0):
				if p.LastMove() == v.NullMove {
					p.UnmakeNull()
				} else {
					p.Unmake()
				}
				e.Pop()
				depth--
			case ml.N == 0:
				step = 80
				continue
			case !p.InCheck() && r.IntN(12) == 0:
				e.PushNull()
				p.MakeNull()
				depth++
			default:
				// Prefer castling, captures and promotions now and then.
				m := ml.Moves[r.IntN(ml.N)]
				for _, c := range ml.Slice() {
					if (c.IsCastling() || c.Kind() != v.KindNormal) && r.IntN(2) == 0 {
						m = c
					}
				}
				e.Push(p, m)
				p.Make(m)
				depth++
			}
			if r.IntN(3) == 0 {
				check(p)
			}
		}
	}
	if checked < 3000 {
		t.Fatalf("only %d positions checked", checked)
	}
}

func TestNNUESymmetry(t *testing.T) {
	e := New()
	e.SetNet(randomNet(10))
	for _, p := range testPositions(t) {
		fen := p.ShredderFEN()
		q := v.MustParseFEN(flipFEN(fen))
		if a, b := e.Evaluate(p), e.Evaluate(q); a != b {
			t.Fatalf("asymmetric: %d for %s, %d for its mirror", a, fen, b)
		}
	}
}

func BenchmarkNNUEIncremental(b *testing.B) {
	e := New()
	e.SetNet(randomNet(11))
	p := v.MustParseFEN(middlegames[0])
	var ml v.MoveList
	p.GenerateLegal(&ml)
	e.Reset(p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := ml.Moves[i%ml.N]
		e.Push(p, m)
		p.Make(m)
		_ = e.Evaluate(p)
		p.Unmake()
		e.Pop()
	}
}

// TestDefaultNet: the embedded net loads, names its training data, and
// scores the start positions near zero and a queen up clearly ahead.
func TestDefaultNet(t *testing.T) {
	n, err := DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n.Manifest, "dfrc_n5000_boot") {
		t.Errorf("manifest does not name its data: %.200s", n.Manifest)
	}
	for _, sp := range []int{0, 518, 959} {
		p, _ := v.Chess960Position(sp)
		if s := EvaluateNet(n, p); s < -60 || s > 60 {
			t.Errorf("SP %d scores %d", sp, s)
		}
	}
	if s := EvaluateNet(n, v.MustParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1")); s < 300 {
		t.Errorf("a queen up scores %d", s)
	}
}

// TestNetEndgameScale: the hand-written scale factor reaches the net's
// score in drawish endgames and nowhere else.
func TestNetEndgameScale(t *testing.T) {
	n, err := DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	e := New()
	e.SetNet(n)
	defer func() { NetEndgameScale = true }()
	for _, c := range []struct {
		fen    string
		scaled bool
	}{
		{"8/8/4b3/8/p7/1k6/8/1K6 b - - 3 59", true},         // wrong bishop: a draw
		{"8/5k2/4b3/3p4/3P4/2B5/5K2/8 w - - 0 1", true},     // opposite-coloured bishops
		{"8/8/8/3k4/8/3K4/2B5/2n5 w - - 0 1", true},         // minor against minor, no pawns
		{"4k3/ppp5/8/8/8/8/PPP3B1/4K3 w - - 0 1", false},    // a bishop and pawns against pawns
		{"4k3/pppq4/8/8/8/8/PPPR4/4K3 w - - 0 1", false},    // queen on the board
		{"r3k3/ppp5/8/8/8/8/PPP1NB2/R3K3 w - - 0 1", false}, // more than a rook and a minor
	} {
		p := v.MustParseFEN(c.fen)
		NetEndgameScale = false
		raw := e.Evaluate(p)
		NetEndgameScale = true
		got := e.Evaluate(p)
		want := raw * netScale(p, raw) / 64
		if got != want {
			t.Errorf("%s: %d, want %d (raw %d)", c.fen, got, want, raw)
		}
		if c.scaled != (netScale(p, raw) < 64) {
			t.Errorf("%s: scale %d, scaled should be %v (raw %d)", c.fen, netScale(p, raw), c.scaled, raw)
		}
	}
	if s := e.Evaluate(v.MustParseFEN("8/8/4b3/8/p7/1k6/8/1K6 b - - 3 59")); s != 0 {
		t.Errorf("wrong-bishop draw scores %d", s)
	}
}
