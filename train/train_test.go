package train

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/internal/testutil"
	v "github.com/rochade/rochade/variant960"
)

// randomFEN builds a random legal-looking position: two kings and up to
// maxExtra other pieces (no pawns on the back ranks). A position that
// ParseFEN accepts comes back in its FEN (Position.Placement); one it
// refuses, with a '1' for every empty square.
func randomFEN(r *rand.Rand, maxExtra int) string {
	var board [64]byte
	put := func(ch byte, pawn bool) {
		for {
			s := r.IntN(64)
			if board[s] != 0 || (pawn && (s < 8 || s >= 56)) {
				continue
			}
			board[s] = ch
			return
		}
	}
	put('K', false)
	put('k', false)
	n := r.IntN(maxExtra + 1)
	for range n {
		ch := "PNBRQ"[r.IntN(5)]
		if r.IntN(2) == 1 {
			ch += 'a' - 'A'
		}
		put(ch, ch == 'P' || ch == 'p')
	}
	side := "w"
	if r.IntN(2) == 1 {
		side = "b"
	}
	ranks := make([]string, 8)
	for rank := range 8 {
		row := []byte("11111111")
		for file := range 8 {
			if ch := board[rank*8+file]; ch != 0 {
				row[file] = ch
			}
		}
		ranks[7-rank] = string(row)
	}
	fen := strings.Join(ranks, "/") + " " + side + " - - 0 1"
	if p, err := v.ParseFEN(fen); err == nil {
		return p.Placement() + " " + side + " - - 0 1"
	}
	return fen
}

// randomPositions returns n random positions that ParseFEN accepts.
func randomPositions(t testing.TB, r *rand.Rand, n, maxExtra int) []*v.Position {
	var out []*v.Position
	for len(out) < n {
		pos, err := v.ParseFEN(randomFEN(r, maxExtra))
		if err != nil {
			continue
		}
		out = append(out, pos)
	}
	return out
}

// mirrorFEN swaps the colours: ranks reversed, case swapped, other side to
// move (castling and en passant dropped; the features ignore them).
func mirrorFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}
	side := "b"
	if f[1] == "b" {
		side = "w"
	}
	return strings.Map(swap, strings.Join(ranks, "/")) + " " + side + " - - 0 1"
}

// TestFlip: flip turns a White-perspective feature into the
// Black-perspective one (eval.FeatureIndex, tested in eval).
func TestFlip(t *testing.T) {
	for c := v.White; c <= v.Black; c++ {
		for pt := v.Pawn; pt <= v.King; pt++ {
			for s := v.Square(0); s < 64; s++ {
				if got, want := flip(uint16(eval.FeatureIndex(v.White, c, pt, s))), eval.FeatureIndex(v.Black, c, pt, s); int(got) != want {
					t.Fatalf("flip(%d) = %d, want %d", eval.FeatureIndex(v.White, c, pt, s), got, want)
				}
			}
		}
	}
}

func TestMirrorSymmetry(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := NewNet(3, 8)
	q := n.Quantise()
	for range 50 {
		fen := randomFEN(r, 20)
		a, err1 := v.ParseFEN(fen)
		b, err2 := v.ParseFEN(mirrorFEN(fen))
		if err1 != nil || err2 != nil {
			continue
		}
		if ea, eb := n.Eval(a), n.Eval(b); math.Abs(ea-eb) > 1e-3 {
			t.Errorf("%s: float %v, mirrored %v", fen, ea, eb)
		}
		if ea, eb := q.QuantEval(a), q.QuantEval(b); ea != eb {
			t.Errorf("%s: quant %v, mirrored %v", fen, ea, eb)
		}
	}
}

// refLoss is an independent float64 implementation of the training loss
// of a net of shape sh (output buckets, width, king buckets): the inputs
// are eval's (KingBuckets.Index).
func refLoss(p []float64, sh shape, kings eval.KingBuckets, pos []*v.Position, scores []int, results []float64, k, lambda float64) float64 {
	var total float64
	nb, hid := sh.buckets, sh.hidden
	offB, offO := sh.offB(), sh.offO()
	for i, ps := range pos {
		pieces := ps.Occupied().Count()
		div := (32 + nb - 1) / nb
		b := min((pieces-2)/div, nb-1)
		acc := [2][]float64{make([]float64, hid), make([]float64, hid)}
		for side := range 2 {
			pp := ps.Side()
			if side == 1 {
				pp = pp.Other()
			}
			copy(acc[side], p[offB:offB+hid])
			for c := v.White; c <= v.Black; c++ {
				for pt := v.Pawn; pt <= v.King; pt++ {
					for bb := ps.Pieces(c, pt); bb != 0; {
						f := kings.Index(pp, ps.KingSquare(pp), c, pt, bb.PopLSB())
						for h := range hid {
							acc[side][h] += p[offW+f*hid+h]
						}
						if sh.factor { // the same input in the factoriser's block
							ff := kings.N*eval.NetInputs + f%eval.NetInputs
							for h := range hid {
								acc[side][h] += p[offW+ff*hid+h]
							}
						}
					}
				}
			}
		}
		out := p[offO+nb*2*hid+b]
		for side := range 2 {
			for h := range hid {
				a := min(max(acc[side][h], 0), 1)
				out += a * a * p[offO+b*2*hid+side*hid+h]
			}
		}
		s, res := float64(scores[i]), results[i]
		if ps.Side() == v.Black {
			s, res = -s, 1-res
		}
		target := lambda*sigmoid(s/k) + (1-lambda)*res
		e := sigmoid(out*eval.NetScale/k) - target
		total += e * e
	}
	return total / float64(len(pos))
}

func TestGradientMatchesFiniteDifferences(t *testing.T) {
	for _, nb := range []int{1, 3, 8} {
		t.Run(fmt.Sprint(nb, " buckets"), func(t *testing.T) { testGradient(t, nb, eval.NetHidden, eval.PlainKings, false) })
	}
	for _, name := range []string{"4", "8"} {
		kb := KingLayouts[name]
		t.Run("width 512, king buckets "+name, func(t *testing.T) { testGradient(t, 3, 512, kb, false) })
		t.Run("width 512, king buckets "+name+", factorised", func(t *testing.T) { testGradient(t, 3, 512, kb, true) })
	}
}

// testGradient checks the trainer's loss and gradient against refLoss and
// its central differences, on positions of different piece counts so that
// several output buckets are used (and, with king buckets, kings on both
// wings, so that mirrored and unmirrored inputs are used); with factor,
// the net has the factoriser, with random weights.
func testGradient(t *testing.T, nb, hid int, kings eval.KingBuckets, factor bool) {
	r := rand.New(rand.NewPCG(5, 6))
	var pos []*v.Position
	used := map[int]bool{}
	for len(pos) < 10 {
		p := randomPositions(t, r, 1, 30)[0]
		if b := eval.NetBucket(p.Occupied().Count(), nb); !used[b] || len(used) >= min(nb, 5) {
			used[b] = true
			pos = append(pos, p)
		}
	}
	if len(used) < min(nb, 5) {
		t.Fatalf("only buckets %v used", used)
	}
	d := NewDataset()
	var scores []int
	var results []float64
	for _, p := range pos {
		s := r.IntN(1200) - 600
		res := float64(r.IntN(3)) / 2
		scores = append(scores, s)
		results = append(results, res)
		d.Add(p, s, res)
	}
	net := NewShapedNet(7, nb, hid, kings)
	if factor {
		net = NewFactorisedNet(7, nb, hid, kings)
		for i := kings.N * eval.NetInputs * hid; i < len(net.W); i++ {
			net.W[i] = float32((r.Float64()*2 - 1) * 0.1)
		}
	}
	for i := range net.O {
		net.O[i] *= 6 // a livelier output than at initialisation
	}
	for i := range net.OB {
		net.OB[i] = 0.1 - 0.03*float32(i)
	}
	sh := net.shape()
	offB, offO, offOB := sh.offB(), sh.offO(), sh.offOB()
	cfg := DefaultConfig()
	cfg.K, cfg.Lambda, cfg.Threads = 180, 0.6, 2
	tr := NewTrainer(net, cfg)
	idx := make([]uint32, len(pos))
	for i := range idx {
		idx[i] = uint32(i)
	}
	loss, g := tr.Gradient(d, idx)
	if len(g) != NumParams(nb, hid, kings.N, factor) {
		t.Fatalf("%d gradients, want %d", len(g), NumParams(nb, hid, kings.N, factor))
	}

	p := make([]float64, len(tr.P))
	for i, x := range tr.P {
		p[i] = float64(x)
	}
	ref := refLoss(p, sh, kings, pos, scores, results, cfg.K, cfg.Lambda)
	if math.Abs(loss-ref) > 1e-5*max(1, ref) {
		t.Fatalf("loss %v, reference %v", loss, ref)
	}
	// Parameters to check: rows of the inputs of a few pieces of the
	// first positions from both sides, biases, the output weights and bias
	// of every bucket (those of unused buckets must have no gradient).
	var check []int
	for i := range 3 {
		ps := pos[i]
		for _, persp := range []v.Color{v.White, v.Black} {
			n := 0
			for c := v.White; c <= v.Black; c++ {
				for pt := v.Pawn; pt <= v.King; pt++ {
					for bb := ps.Pieces(c, pt); bb != 0 && n < 3; n++ {
						f := kings.Index(persp, ps.KingSquare(persp), c, pt, bb.PopLSB())
						for range 4 {
							check = append(check, offW+f*hid+r.IntN(hid))
						}
						if factor {
							ff := kings.N*eval.NetInputs + f%eval.NetInputs
							for range 4 {
								check = append(check, offW+ff*hid+r.IntN(hid))
							}
						}
					}
				}
			}
		}
	}
	for range 12 {
		check = append(check, offB+r.IntN(hid))
	}
	for b := range nb {
		for range 8 {
			check = append(check, offO+b*2*hid+r.IntN(2*hid))
		}
		check = append(check, offOB+b)
	}
	var gmax float64
	for _, j := range check {
		gmax = max(gmax, math.Abs(float64(g[j])))
	}
	if gmax == 0 {
		t.Fatal("all checked gradients are zero")
	}
	for b := range nb {
		zero := true
		for j := offO + b*2*hid; j < offO+(b+1)*2*hid; j++ {
			zero = zero && g[j] == 0
		}
		if zero != (g[offOB+b] == 0) || zero == used[b] {
			t.Errorf("bucket %d: used %v, output gradient zero %v, bias gradient %v", b, used[b], zero, g[offOB+b])
		}
	}
	// No input of another king bucket than those of the kings of the
	// positions has a gradient.
	if kings.N > 1 {
		active := map[int]bool{}
		for _, ps := range pos {
			for _, persp := range []v.Color{v.White, v.Black} {
				active[kings.Index(persp, ps.KingSquare(persp), v.White, v.Pawn, 8)/eval.NetInputs] = true
			}
		}
		for kb := range kings.N {
			nonzero := false
			for _, x := range g[kb*eval.NetInputs*hid : (kb+1)*eval.NetInputs*hid] {
				nonzero = nonzero || x != 0
			}
			if nonzero != active[kb] {
				t.Errorf("king bucket %d: active %v, has a gradient %v", kb, active[kb], nonzero)
			}
		}
	}
	const eps = 1e-4
	for _, j := range check {
		old := p[j]
		p[j] = old + eps
		lp := refLoss(p, sh, kings, pos, scores, results, cfg.K, cfg.Lambda)
		p[j] = old - eps
		lm := refLoss(p, sh, kings, pos, scores, results, cfg.K, cfg.Lambda)
		p[j] = old
		num := (lp - lm) / (2 * eps)
		if diff := math.Abs(num - float64(g[j])); diff > 1e-3*gmax+1e-2*math.Abs(num) {
			t.Errorf("param %d: analytic %.6g, numeric %.6g", j, g[j], num)
		}
	}
}

var pieceValue = [7]int{0, 100, 300, 320, 500, 900, 0}

// materialData makes n random positions scored by material balance.
func materialData(t testing.TB, r *rand.Rand, n int) (*Dataset, []*v.Position) {
	pos := randomPositions(t, r, n, 14)
	d := NewDataset()
	for _, p := range pos {
		s := 0
		for pt := v.Pawn; pt <= v.Queen; pt++ {
			s += pieceValue[pt] * (p.Pieces(v.White, pt).Count() - p.Pieces(v.Black, pt).Count())
		}
		d.Add(p, s, 0.5)
	}
	return d, pos
}

// trainMaterial trains a net with DefaultBuckets output buckets on
// material-scored random positions (once; the tests share it; 2 to 16
// pieces, so buckets 0..3 are trained): 20,000 training and 500 held-out
// positions, 6 epochs, then the output layer is rounded and frozen for one finishing
// epoch. It returns the trainer, the held-out set and its positions, and
// the float net as it was before the finishing epoch.
func trainMaterial(t testing.TB) (*Trainer, *Dataset, []*v.Position, *Net) {
	materialOnce.Do(func() {
		r := rand.New(rand.NewPCG(11, 12))
		n, epochs := 20000, 6
		if testutil.RaceEnabled {
			n, epochs = 2000, 2
		}
		d, pos := materialData(t, r, n+500)
		val := d.Split(500)
		cfg := DefaultConfig()
		cfg.Epochs, cfg.Batch, cfg.LR, cfg.Lambda, cfg.K, cfg.WD, cfg.Threads = epochs, 128, 0.01, 1, 400, 0, 2
		tr := NewTrainer(NewNet(13, DefaultBuckets), cfg)
		for range cfg.Epochs {
			t.Log(tr.RunEpoch(d, val, time.Now(), nil))
		}
		before := tr.Net.Clone()
		tr.RoundOutput()
		tr.Cfg.FreezeOutput = true
		t.Log(tr.RunEpoch(d, val, time.Now(), nil))
		material = materialFit{tr, val, pos[n:], before}
	})
	m := material
	return m.tr, m.val, m.pos, m.before
}

type materialFit struct {
	tr     *Trainer
	val    *Dataset
	pos    []*v.Position
	before *Net
}

var (
	materialOnce sync.Once
	material     materialFit
)

func TestFitMaterial(t *testing.T) {
	tr, val, pos, _ := trainMaterial(t)
	var mae float64
	n := 0
	for i, p := range pos {
		want := float64(val.Score[i])
		if math.Abs(want) > 600 {
			continue // the sigmoid loss cares little about large scores
		}
		mae += math.Abs(tr.Net.Eval(p) - want)
		n++
	}
	mae /= float64(n)
	t.Logf("material fit: val loss %.6f, mean abs error %.1f cp on %d positions with |score| <= 600", tr.Loss(val), mae, n)
	if mae > 25 && !testutil.RaceEnabled {
		t.Errorf("mean abs error %.1f cp on held-out positions, want <= 25", mae)
	}
}

// TestQuantisedMatchesFloat: on random positions (mean |eval| of the
// material net is about 900 cp) the quantised net is within 4 cp of the
// float net on average once the output layer has been rounded to its file
// resolution and the first layer fine-tuned (measured: about 1 cp; without
// that finishing epoch about 11 cp, from rounding O to multiples of 1/64).
func TestQuantisedMatchesFloat(t *testing.T) {
	tr, val, _, before := trainMaterial(t)
	fl, ql := tr.Loss(val), tr.QuantLoss(tr.Net.Quantise(), val)
	t.Logf("validation loss: float %.6f, quantised %.6f", fl, ql)
	if math.Abs(fl-ql) > 0.1*fl && !testutil.RaceEnabled {
		t.Errorf("validation loss: float %.6f, quantised %.6f", fl, ql)
	}
	r := rand.New(rand.NewPCG(21, 22))
	pos := randomPositions(t, r, 1000, 30)
	if testutil.RaceEnabled {
		pos = pos[:100]
	}
	compare := func(n *Net) (mean, worst float64) {
		q := n.Quantise()
		for _, p := range pos {
			diff := math.Abs(float64(q.QuantEval(p)) - n.Eval(p))
			mean += diff
			worst = max(worst, diff)
		}
		return mean / float64(len(pos)), worst
	}
	mb, wb := compare(before)
	mean, worst := compare(tr.Net)
	t.Logf("quantised vs float: mean abs %.2f cp, max %.1f cp (before finishing: %.2f, %.1f)", mean, worst, mb, wb)
	if mean > 4 && !testutil.RaceEnabled {
		t.Errorf("quantised net differs from float by %.2f cp on average, want <= 4", mean)
	}
	// A net whose weights are exact multiples of the quantisation steps
	// differs only by the two integer truncations (< 1.03 cp together).
	q := tr.Net.Quantise()
	qf := q.Float()
	for _, p := range pos {
		if diff := math.Abs(float64(q.QuantEval(p)) - qf.Eval(p)); diff > 1.03 {
			t.Fatalf("exactly representable net: quant %d, float %.3f", q.QuantEval(p), qf.Eval(p))
		}
	}
}

// TestQuantNetIsEngines: the trainer's quantised net converts to the
// engine's net (package eval, which reads and writes the file format and
// is tested there) and back without a change: the embedded net writes back
// byte for byte through the conversion, a quantised net keeps its values
// and buckets through a file, and an unclipped net that would wrap the
// engine's int16 accumulators converts and writes, but is refused when
// read (QuantEval panicked on it), while the same net clipped loads.
func TestQuantNetIsEngines(t *testing.T) {
	data, err := os.ReadFile("../eval/nets/default.nnue")
	if err != nil {
		t.Fatal(err)
	}
	emb, err := eval.LoadNet(data)
	if err != nil {
		t.Fatal(err)
	}
	en, err := QuantNetOf(emb).EngineNet()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := eval.WriteNet(&buf, en, en.Manifest); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("the embedded net writes back as %d different bytes", len(buf.Bytes()))
	}

	same := func(a, b *QuantNet) bool {
		return bytes.Equal(a.Manifest, b.Manifest) && slices.Equal(a.OB, b.OB) &&
			slices.Equal(a.W, b.W) && slices.Equal(a.B, b.B) && slices.Equal(a.O, b.O)
	}
	for _, nb := range []int{1, 8} {
		n := NewNet(31, nb)
		for i := range n.OB {
			n.OB[i] = -0.37 + 0.01*float32(i)
		}
		q := n.Quantise()
		q.Manifest = []byte(`{"test":true}`)
		for b := range nb {
			if want := int32(math.Round(float64(n.OB[b]) * 255 * 64)); q.OB[b] != want {
				t.Errorf("%d buckets: ob[%d] = %d, want %d", nb, b, q.OB[b], want)
			}
		}
		path := filepath.Join(t.TempDir(), "x.nnue")
		if err := SaveNetFile(path, q); err != nil {
			t.Fatal(err)
		}
		back, err := LoadNetFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !same(back, q) || back.Buckets() != nb {
			t.Fatalf("%d buckets: read-back net differs", nb)
		}
		// A net of the wrong shape is not converted, nor written.
		q.OB = append(q.OB, 0)
		if _, err := q.EngineNet(); err == nil {
			t.Error("mismatched O and OB converted")
		}
		if err := SaveNetFile(path, q); err == nil {
			t.Error("mismatched O and OB written")
		}
	}

	n := NewNet(3, 2)
	for i := range n.W {
		n.W[i] *= 40 // far past MaxSize: no Clip
	}
	u, err := n.Quantise().EngineNet()
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := eval.WriteNet(&buf, u, "{}"); err != nil {
		t.Fatal(err)
	}
	if _, err := eval.LoadNet(buf.Bytes()); err == nil || !strings.Contains(err.Error(), "int16") {
		t.Fatalf("unclipped net read: err = %v", err)
	}
	n.Clip()
	c, err := n.Quantise().EngineNet()
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := eval.WriteNet(&buf, c, "{}"); err != nil {
		t.Fatal(err)
	}
	if _, err := eval.LoadNet(buf.Bytes()); err != nil {
		t.Fatalf("clipped net: %v", err)
	}
}

func TestTextLoader(t *testing.T) {
	text := `# comment
r1nbkrqn/p1pppppp/8/1p6/6P1/8/PPPPPP1P/BNRKQNR1 w GCf - 0 3 | 46 | 1.0
r1nbkrqn/p1pppppp/8/1p6/6P1/4N3/PPPPPP1P/BNRKQ1R1 b GCf - 1 3 | 8 | 0.5

rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 20 | 0.0
bqnrknrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKNRB w DGdg - 0 1 | -5000 | 0.0
4k3/8/8/8/8/8/8/4K2R b K - 0 1 | 700 | 1.0
4k3/8/8/8/8/8/4r3/4K3 w - - 0 1 | -600 | 0.0
`
	d := NewDataset()
	st, err := d.Load("mem", TextReader(strings.NewReader(text), "mem"), DefaultFilter)
	if err != nil {
		t.Fatal(err)
	}
	if st.Read != 6 || st.Kept != 4 || st.Skipped["score"] != 1 || st.Skipped["in check"] != 1 {
		t.Fatalf("stats %+v", st)
	}
	// Scores and results are stored from the side to move's view.
	if d.Score[0] != 46 || d.Result[0] != 2 || d.Score[1] != -8 || d.Result[1] != 1 || d.Score[2] != 20 || d.Result[2] != 0 {
		t.Errorf("scores %v results %v", d.Score, d.Result)
	}
	if d.Score[3] != -700 || d.Result[3] != 0 || d.STM[3] != 1 {
		t.Errorf("X-FEN line: score %d result %d stm %d", d.Score[3], d.Result[3], d.STM[3])
	}
	if got := len(d.Features(0)); got != 30 {
		t.Errorf("position 0 has %d features, want 30", got)
	}
	if got := len(d.Features(3)); got != 3 {
		t.Errorf("position 3 has %d features, want 3", got)
	}
	for _, bad := range []string{"8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 1.0", "4k3/8/8/8/8/8/8/4K3 w - - | x | 1.0", "4k3/8/8/8/8/8/8/4K3 w - - | 1 | 2"} {
		if _, _, _, err := ParseTextLine(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	// Many lines: parsed in parallel chunks but delivered in file order;
	// a bad line is reported with its number.
	var sb strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&sb, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | %d | 0.5\n", i%3000)
	}
	big := NewDataset()
	if st, err := big.Load("big", TextReader(strings.NewReader(sb.String()), "big"), DefaultFilter); err != nil || st.Kept != 10000 {
		t.Fatalf("big: %v, %+v", err, st)
	}
	for i := range 10000 {
		if int(big.Score[i]) != i%3000 {
			t.Fatalf("big: position %d has score %d", i, big.Score[i])
		}
	}
	sb.WriteString("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 1 | draw\n")
	if _, err := NewDataset().Load("big", TextReader(strings.NewReader(sb.String()), "big"), DefaultFilter); err == nil || !strings.Contains(err.Error(), "big:10001:") {
		t.Errorf("bad line 10001: err = %v", err)
	}
	// Split keeps order: the last positions move to the new dataset.
	tail := d.Split(2)
	if d.Len() != 2 || tail.Len() != 2 || tail.Score[1] != -700 || len(tail.Features(1)) != 3 || len(d.Features(1)) != 30 {
		t.Errorf("split: %d + %d", d.Len(), tail.Len())
	}
}

// TestBestNetSurvivesResume: a resumed run measures the net already kept
// by --best and replaces it only with a better one. The loss to beat once
// started again at +Inf, so the first epoch after a resume overwrote the
// best net with a worse one.
func TestBestNetSurvivesResume(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	d, _ := materialData(t, r, 600)
	val := d.Split(100)
	cfg := DefaultConfig()
	cfg.Batch, cfg.Epochs, cfg.K, cfg.Threads = 64, 4, 400, 2
	tr := NewTrainer(NewNet(53, 2), cfg)
	for range 3 {
		tr.RunEpoch(d, val, time.Now(), nil)
	}
	good := tr.Net.Quantise()
	good.Manifest = []byte(`{"net":"good"}`)
	goodLoss := tr.QuantLoss(good, val)
	bad := NewNet(54, 2).Quantise() // untrained: worse
	bad.Manifest = []byte(`{"net":"bad"}`)
	badLoss := tr.QuantLoss(bad, val)
	if !(goodLoss < badLoss) {
		t.Fatalf("trained loss %.6f, untrained %.6f", goodLoss, badLoss)
	}
	path := filepath.Join(t.TempDir(), "best.nnue")

	// The first run keeps the good net.
	b, err := NewBestNet(path, false, tr, val)
	if err != nil || !math.IsInf(b.Loss, 1) {
		t.Fatalf("fresh: %v, %v", b, err)
	}
	if wrote, err := b.Offer(good, goodLoss); !wrote || err != nil {
		t.Fatalf("first offer: %v %v", wrote, err)
	}
	if wrote, _ := b.Offer(bad, badLoss); wrote {
		t.Fatal("a worse net replaced the best in the same run")
	}

	// The resumed run: the kept net's loss is the one to beat.
	b, err = NewBestNet(path, true, tr, val)
	if err != nil {
		t.Fatal(err)
	}
	if b.Loss != goodLoss {
		t.Fatalf("resumed: loss to beat %.6f, want the kept net's %.6f", b.Loss, goodLoss)
	}
	if wrote, err := b.Offer(bad, badLoss); wrote || err != nil {
		t.Fatalf("resumed: a worse net (%.6f > %.6f) replaced the best: %v %v", badLoss, goodLoss, wrote, err)
	}
	if q, err := LoadNetFile(path); err != nil || string(q.Manifest) != `{"net":"good"}` {
		t.Fatalf("best file now holds %s (%v)", q.Manifest, err)
	}
	if wrote, err := b.Offer(bad, goodLoss/2); !wrote || err != nil {
		t.Fatalf("a better loss was not kept: %v %v", wrote, err)
	}
	if q, err := LoadNetFile(path); err != nil || string(q.Manifest) != `{"net":"bad"}` {
		t.Fatalf("best file holds %s (%v)", q.Manifest, err)
	}

	// No file yet: +Inf. A file that does not load: an error.
	if b, err := NewBestNet(filepath.Join(t.TempDir(), "none.nnue"), true, tr, val); err != nil || !math.IsInf(b.Loss, 1) {
		t.Errorf("no file: %v, %v", b, err)
	}
	os.WriteFile(path, []byte("junk"), 0o644)
	if _, err := NewBestNet(path, true, tr, val); err == nil {
		t.Error("a junk best file was taken as no net")
	}
}

func TestCheckpointRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	d, _ := materialData(t, r, 300)
	cfg := DefaultConfig()
	cfg.Batch, cfg.Epochs, cfg.K = 64, 3, 400
	tr := NewTrainer(NewNet(43, 8), cfg)
	tr.RunEpoch(d, nil, time.Now(), nil)
	c, res, path := checkpointRoundTrip(t, tr, cfg)
	if res.Epoch != 1 || res.Step != tr.Step || c.K != 400 || c.Buckets != 8 || res.Net.Buckets() != 8 {
		t.Fatalf("epoch %d step %d K %v", res.Epoch, res.Step, c.K)
	}
	// Continuing both gives the same weights.
	tr.RunEpoch(d, nil, time.Now(), nil)
	res.RunEpoch(d, nil, time.Now(), nil)
	for i := range tr.P {
		if tr.P[i] != res.P[i] || tr.M[i] != res.M[i] || tr.V[i] != res.V[i] {
			t.Fatalf("param %d differs after resuming", i)
		}
	}
	if !slices.Equal(res.Net.OB, tr.Net.OB) || !slices.Equal(res.Net.O, tr.Net.O) {
		t.Fatal("output layer differs")
	}
	os.WriteFile(path, []byte("junk"), 0o644)
	if _, err := LoadCheckpoint(path); err == nil {
		t.Error("junk checkpoint loaded")
	}
	// A checkpoint of the format before buckets is refused, saying so.
	old := append([]byte("RCHDCKPT"), 1, 0, 0, 0)
	old = append(old, make([]byte, 100)...)
	os.WriteFile(path, old, 0o644)
	if _, err := LoadCheckpoint(path); err == nil || !strings.Contains(err.Error(), "v1") {
		t.Errorf("v1 checkpoint: err = %v", err)
	}
}

func TestFitK(t *testing.T) {
	// Results drawn from sigmoid(score/150): the fit finds about 150.
	r := rand.New(rand.NewPCG(51, 52))
	d := NewDataset()
	for range 200000 {
		s := r.IntN(1600) - 800
		res := uint8(0)
		if r.Float64() < sigmoid(float64(s)/150) {
			res = 2
		}
		d.AddFeatures(nil, true, s, res)
	}
	k, _ := FitK(d)
	if math.Abs(k-150) > 10 {
		t.Errorf("K = %.1f, want about 150", k)
	}
}

func TestLRSchedule(t *testing.T) {
	c := DefaultConfig()
	c.Epochs, c.LR, c.LRFinal = 10, 0.001, 0.1
	if got := c.LRAt(0); math.Abs(got-0.001) > 1e-12 {
		t.Errorf("cosine start %v", got)
	}
	if got := c.LRAt(5); math.Abs(got-0.00055) > 1e-12 {
		t.Errorf("cosine middle %v", got)
	}
	if got := c.LRAt(10); math.Abs(got-0.0001) > 1e-12 {
		t.Errorf("cosine end %v", got)
	}
	if got := c.LRAt(12); math.Abs(got-0.0001) > 1e-12 {
		t.Errorf("after the end (finishing epochs) %v", got)
	}
	c.Schedule, c.LRStep, c.LRGamma = "step", 4, 0.5
	for _, x := range []struct{ e, want float64 }{{0, 0.001}, {3.9, 0.001}, {4, 0.0005}, {8.5, 0.00025}} {
		if got := c.LRAt(x.e); math.Abs(got-x.want) > 1e-12 {
			t.Errorf("step schedule at %v: %v, want %v", x.e, got, x.want)
		}
	}
}

// fileMirrorFEN reflects the board across the vertical axis (a <-> h):
// each rank of the placement read backwards; castling and en passant are
// dropped.
func fileMirrorFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, rk := range ranks {
		b := []byte(rk)
		slices.Reverse(b)
		ranks[i] = string(b)
	}
	return strings.Join(ranks, "/") + " " + f[1] + " - - 0 1"
}

func TestAddMirrored(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	d, want := NewDataset(), NewDataset()
	for len(d.Score) < 200 {
		fen := randomFEN(r, 24)
		a, err1 := v.ParseFEN(fen)
		b, err2 := v.ParseFEN(fileMirrorFEN(fen))
		if err1 != nil || err2 != nil {
			continue
		}
		sc, res := r.IntN(2001)-1000, float64(r.IntN(3))/2
		d.Add(a, sc, res)
		want.Add(b, sc, res)
	}
	n := d.Len()
	orig := &Dataset{Feat: slices.Clone(d.Feat), Off: slices.Clone(d.Off)}
	d.AddMirrored()
	if d.Len() != 2*n {
		t.Fatalf("len %d, want %d", d.Len(), 2*n)
	}
	for i := range n {
		got := slices.Clone(d.Features(n + i))
		exp := slices.Clone(want.Features(i))
		slices.Sort(got)
		slices.Sort(exp)
		if !slices.Equal(got, exp) || d.Score[n+i] != want.Score[i] || d.Result[n+i] != want.Result[i] || d.STM[n+i] != want.STM[i] {
			t.Fatalf("position %d: mirrored copy %v %d %d %d, want %v %d %d %d", i,
				got, d.Score[n+i], d.Result[n+i], d.STM[n+i], exp, want.Score[i], want.Result[i], want.STM[i])
		}
		if !slices.Equal(d.Features(i), orig.Features(i)) {
			t.Fatalf("position %d: original changed", i)
		}
	}
}

// TestDedup: Dedup keeps the first of each set of positions with the same
// net inputs (castling rights, en passant and counters do not count, the
// side to move does), drops those found in the other set, and keeps the
// order, scores and results of the rest.
func TestDedup(t *testing.T) {
	add := func(d *Dataset, fen string, score int) {
		t.Helper()
		p, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		d.Add(p, score, 1)
	}
	const (
		a  = "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 9"
		a2 = "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w - - 7 30"   // a's pieces
		ab = "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R b KQkq - 0 9" // Black to move
		b  = "4k3/8/8/3p4/8/8/8/4K2R w K - 0 1"
		c  = "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1"
	)
	d, val := NewDataset(), NewDataset()
	add(val, c, 0)
	for i, fen := range []string{a, b, a2, c, ab, b, a} {
		add(d, fen, 10*(i+1))
	}
	want := NewDataset()
	add(want, a, 10)
	add(want, b, 20)
	add(want, ab, 50)
	repeats, inVal := d.Dedup(val)
	if repeats != 3 || inVal != 1 {
		t.Errorf("repeats %d, in val %d; want 3 and 1", repeats, inVal)
	}
	if d.Len() != want.Len() || !slices.Equal(d.Feat, want.Feat) || !slices.Equal(d.Off, want.Off) ||
		!slices.Equal(d.Score, want.Score) || !slices.Equal(d.Result, want.Result) || !slices.Equal(d.STM, want.STM) {
		t.Errorf("after Dedup: %d positions, scores %v; want %d, %v", d.Len(), d.Score, want.Len(), want.Score)
	}
	if r, iv := d.Dedup(nil); r != 0 || iv != 0 || d.Len() != 3 {
		t.Errorf("second Dedup: %d, %d, %d positions", r, iv, d.Len())
	}
}

// checkpointRoundTrip saves tr's checkpoint in a temporary file, loads it
// and resumes it with cfg; it returns the checkpoint, the resumed trainer
// and the file.
func checkpointRoundTrip(t *testing.T, tr *Trainer, cfg Config) (*Checkpoint, *Trainer, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ckpt")
	if err := tr.SaveCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	return c, Resume(c, cfg), path
}
