package train

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// unmirrored2 is a layout of two buckets without mirroring: back rank or
// not.
var unmirrored2 = eval.KingBuckets{N: 2, Map: [32]uint8{
	0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}

// gamePositions plays random Chess960 games and returns positions along
// them: kings castled, stepped up and walked across the board.
func gamePositions(r *rand.Rand, games int) []*v.Position {
	var out []*v.Position
	for range games {
		p, _ := v.Chess960Position(r.IntN(960))
		for range 200 {
			var ml v.MoveList
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[r.IntN(ml.N)]
			for _, c := range ml.Slice() {
				if (c.IsCastling() || p.PieceOn(c.From()).Type() == v.King || p.PieceOn(c.To()) != v.NoPiece) && r.IntN(3) == 0 {
					m = c
				}
			}
			p.Make(m)
			if r.IntN(3) == 0 {
				out = append(out, p.Copy())
			}
		}
	}
	return out
}

// TestKingInputsAreEvals: the trainer's inputs of a position (from its
// White-perspective features) are the engine's (eval.KingBuckets.Index)
// for each perspective, in every layout.
func TestKingInputsAreEvals(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	pos := append(randomPositions(t, r, 300, 30), gamePositions(r, 10)...)
	for _, k := range []eval.KingBuckets{KingLayouts["1"], KingLayouts["4"], KingLayouts["8"], unmirrored2} {
		for _, p := range pos {
			var buf, stm, opp [eval.NetMaxActive]uint16
			fw := Features(buf[:0], p)
			perspectives(&k, fw, p.Side() == v.White, &stm, &opp)
			for i, got := range [][]uint16{stm[:len(fw)], opp[:len(fw)]} {
				persp := p.Side()
				if i == 1 {
					persp = persp.Other()
				}
				var want []uint16
				for c := v.White; c <= v.Black; c++ {
					for pt := v.Pawn; pt <= v.King; pt++ {
						for bb := p.Pieces(c, pt); bb != 0; {
							want = append(want, uint16(k.Index(persp, p.KingSquare(persp), c, pt, bb.PopLSB())))
						}
					}
				}
				got = slices.Clone(got)
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("%d king buckets, %s, perspective %v: inputs %v, want %v", k.N, p.ShredderFEN(), persp, got, want)
				}
			}
		}
	}
}

// TestEngineMatchesQuantEval: for random nets of width 512 and 1024 with
// king buckets (and the plain net), the engine's integer inference
// (package eval, from a file written by the trainer; from scratch and
// incrementally along games) equals the trainer's reference QuantEval on
// every position.
func TestEngineMatchesQuantEval(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	pos := append(randomPositions(t, r, 400, 30), gamePositions(r, 12)...)
	for _, c := range []struct {
		name   string
		hidden int
		kings  eval.KingBuckets
	}{{"plain", eval.NetHidden, KingLayouts["1"]}, {"512, layout 4", 512, KingLayouts["4"]}, {"1024, layout 8", 1024, KingLayouts["8"]}, {"512, unmirrored 2", 512, unmirrored2}} {
		n := NewShapedNet(83, 8, c.hidden, c.kings)
		for i := range n.O {
			n.O[i] *= 20 // output weights of a trained net's size
		}
		for i := range n.OB {
			n.OB[i] = 0.05 * float32(i-4)
		}
		q := n.Quantise()
		path := filepath.Join(t.TempDir(), "n.nnue")
		if err := SaveNetFile(path, q); err != nil {
			t.Fatal(err)
		}
		en, err := eval.LoadNetFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if en.Hidden() != c.hidden || en.Kings() != c.kings || (en.FileVersion() == 2) != (c.name == "plain") {
			t.Fatalf("%s: loaded as width %d, kings %v, version %d", c.name, en.Hidden(), en.Kings(), en.FileVersion())
		}
		spread := map[int]bool{}
		for _, p := range pos {
			want := q.QuantEval(p)
			if got := eval.EvaluateNet(en, p); got != want {
				t.Fatalf("%s: %s: engine %d, trainer %d", c.name, p.ShredderFEN(), got, want)
			}
			spread[want/50] = true
		}
		if len(spread) < 10 {
			t.Fatalf("%s: scores too alike to show much (%d bands of 50 cp)", c.name, len(spread))
		}
		// Along games, through the evaluator's incremental accumulators.
		ev := eval.New()
		ev.SetNet(en)
		compared := 0
		for g := range 6 {
			p, _ := v.Chess960Position(r.IntN(960))
			ev.Reset(p)
			for ply := range 150 {
				var ml v.MoveList
				p.GenerateLegal(&ml)
				if ml.N == 0 {
					break
				}
				m := ml.Moves[r.IntN(ml.N)]
				for _, mv := range ml.Slice() {
					if (mv.IsCastling() || p.PieceOn(mv.From()).Type() == v.King) && r.IntN(2) == 0 {
						m = mv
					}
				}
				ev.Push(p, m)
				p.Make(m)
				if p.InCheck() {
					continue
				}
				if p.ByColor(v.White) == p.Pieces(v.White, v.King) || p.ByColor(v.Black) == p.Pieces(v.Black, v.King) {
					continue // a bare king: the exact endgame rules score it
				}
				want := q.QuantEval(p)
				got := ev.Evaluate(p)
				if got != min(max(want, -eval.MaxEval), eval.MaxEval) {
					t.Fatalf("%s: game %d ply %d %s: evaluator %d, trainer %d", c.name, g, ply, p.ShredderFEN(), got, want)
				}
				compared++
			}
		}
		if compared < 300 {
			t.Fatalf("%s: only %d positions of games compared", c.name, compared)
		}
	}
}

// TestParseKingBuckets: the named layouts and lists of 32 numbers.
func TestParseKingBuckets(t *testing.T) {
	for name, want := range map[string]int{"1": 1, "4": 4, "8": 8} {
		k, err := ParseKingBuckets(name)
		if err != nil || k.N != want || k.Mirror != (want > 1) || k.Check() != nil {
			t.Errorf("layout %s: %+v %v", name, k, err)
		}
		used := map[uint8]bool{}
		for _, b := range k.Map {
			used[b] = true
		}
		if len(used) != want {
			t.Errorf("layout %s uses %d buckets", name, len(used))
		}
	}
	list := "0,1,1,0," + strings.Repeat("2,", 27) + "2"
	k, err := ParseKingBuckets(list)
	if err != nil || k.N != 3 || !k.Mirror || k.Map[1] != 1 || k.Map[31] != 2 {
		t.Errorf("%s: %+v %v", list, k, err)
	}
	for _, bad := range []string{"", "2", "16", "0,1", strings.Repeat("0,", 31) + "x", strings.Repeat("0,", 31) + "32",
		strings.Repeat("0,", 31) + "2", strings.Repeat("0,", 31) + "-1"} {
		if _, err := ParseKingBuckets(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestMirrorAugmentationWithKingMirror: with a mirrored king layout, the
// reflected copies that AddMirrored adds (--mirror) have exactly the
// inputs of their originals: the augmentation only repeats positions.
// Without king mirroring they differ.
func TestMirrorAugmentationWithKingMirror(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	d, _ := materialData(t, r, 200)
	n := d.Len()
	d.AddMirrored()
	inputs := func(k *eval.KingBuckets, i int) []uint16 {
		var stm, opp [eval.NetMaxActive]uint16
		fw := d.Features(i)
		perspectives(k, fw, d.STM[i] == 0, &stm, &opp)
		a, b := slices.Clone(stm[:len(fw)]), slices.Clone(opp[:len(fw)])
		slices.Sort(a)
		slices.Sort(b)
		return append(a, b...)
	}
	differ := 0
	for i := range n {
		for _, k := range []eval.KingBuckets{KingLayouts["4"], KingLayouts["8"]} {
			if !slices.Equal(inputs(&k, i), inputs(&k, n+i)) {
				t.Fatalf("position %d: the reflected copy has other inputs", i)
			}
		}
		plain := KingLayouts["1"]
		if !slices.Equal(inputs(&plain, i), inputs(&plain, n+i)) {
			differ++
		}
	}
	if differ < n/2 {
		t.Errorf("without king mirroring only %d of %d copies differ", differ, n)
	}
}

// TestShapedNetFilesAndCheckpoints: a net of width 512 with king buckets
// goes through its checkpoint and its net file unchanged, and training it
// lowers the loss; a version 2 checkpoint (before widths and king
// buckets) still resumes, as the plain net.
func TestShapedNetFilesAndCheckpoints(t *testing.T) {
	r := rand.New(rand.NewPCG(93, 94))
	d, _ := materialData(t, r, 600)
	val := d.Split(100)
	cfg := DefaultConfig()
	cfg.Batch, cfg.Epochs, cfg.K, cfg.Threads, cfg.LR = 32, 3, 400, 2, 0.005
	tr := NewTrainer(NewShapedNet(95, 4, 512, KingLayouts["4"]), cfg)
	before := tr.Loss(val)
	tr.RunEpoch(d, val, time.Now(), nil)
	tr.RunEpoch(d, val, time.Now(), nil)
	if after := tr.Loss(val); !(after < before) {
		t.Errorf("validation loss %.6f after two epochs, %.6f before", after, before)
	}
	c, res, path := checkpointRoundTrip(t, tr, cfg)
	if c.Hidden != 512 || c.Kings != KingLayouts["4"] || res.Net.Hidden != 512 || res.Net.Kings != KingLayouts["4"] || res.Net.Buckets() != 4 {
		t.Fatalf("checkpoint: width %d, kings %+v", c.Hidden, c.Kings)
	}
	tr.RunEpoch(d, nil, time.Now(), nil)
	res.RunEpoch(d, nil, time.Now(), nil)
	if !slices.Equal(tr.P, res.P) || !slices.Equal(tr.M, res.M) {
		t.Fatal("the resumed run differs")
	}
	q := tr.Net.Quantise()
	q.Manifest = []byte(`{"shaped":true}`)
	nf := filepath.Join(t.TempDir(), "n.nnue")
	if err := SaveNetFile(nf, q); err != nil {
		t.Fatal(err)
	}
	back, err := LoadNetFile(nf)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hidden != 512 || back.Kings != q.Kings || !slices.Equal(back.W, q.W) || !slices.Equal(back.O, q.O) ||
		!slices.Equal(back.B, q.B) || !slices.Equal(back.OB, q.OB) || !bytes.Equal(back.Manifest, q.Manifest) {
		t.Fatal("the net file reads back differently")
	}
	if ql, bl := tr.QuantLoss(q, val), tr.QuantLoss(back, val); ql != bl {
		t.Fatalf("quantised loss %.6f, read back %.6f", ql, bl)
	}

	// A version 2 checkpoint: the header without the shape.
	plain := NewTrainer(NewNet(96, 2), cfg)
	plain.RunEpoch(d, nil, time.Now(), nil)
	var buf bytes.Buffer
	h := ckptHeader{NumParam: uint32(len(plain.P)), Buckets: 2, Epoch: 1, Step: uint64(plain.Step), K: 400, Lambda: 1}
	for _, x := range []any{[]byte(ckptMagic), uint32(2), h, plain.P, plain.M, plain.V} {
		binary.Write(&buf, binary.LittleEndian, x)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = LoadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Hidden != eval.NetHidden || c.Kings != eval.PlainKings || c.Buckets != 2 || !slices.Equal(c.P, plain.P) {
		t.Fatalf("version 2 checkpoint: width %d, kings %+v, buckets %d", c.Hidden, c.Kings, c.Buckets)
	}
	// A shape that does not match the parameter count is refused.
	b := buf.Bytes()
	binary.LittleEndian.PutUint32(b[8:], 3)
	b = slices.Insert(b, 12+int(binary.Size(h)), make([]byte, binary.Size(ckptShape{}))...)
	binary.LittleEndian.PutUint32(b[12+binary.Size(h):], 512)
	binary.LittleEndian.PutUint32(b[12+binary.Size(h)+4:], 1)
	os.WriteFile(path, b, 0o644)
	if _, err := LoadCheckpoint(path); err == nil || !strings.Contains(err.Error(), "parameters") {
		t.Errorf("width 512 with a plain net's parameters: err = %v", err)
	}
}

// TestFactorisedNet: a net with king buckets and the factoriser trains,
// its file holds the factoriser merged into every bucket (the engine's net
// evaluates as the float net does), its checkpoint resumes it exactly, and
// a version 3 checkpoint (before the factoriser) still resumes, without one.
func TestFactorisedNet(t *testing.T) {
	r := rand.New(rand.NewPCG(97, 98))
	d, _ := materialData(t, r, 600)
	val := d.Split(100)
	cfg := DefaultConfig()
	cfg.Batch, cfg.Epochs, cfg.K, cfg.Threads, cfg.LR = 32, 3, 400, 2, 0.005
	kings := KingLayouts["4"]
	tr := NewTrainer(NewFactorisedNet(99, 4, 512, kings), cfg)
	blk := eval.NetInputs * 512
	if len(tr.Net.W) != 5*blk || len(tr.P) != NumParams(4, 512, 4, true) {
		t.Fatalf("%d first-layer weights, %d parameters", len(tr.Net.W), len(tr.P))
	}
	before := tr.Loss(val)
	tr.RunEpoch(d, val, time.Now(), nil)
	tr.RunEpoch(d, val, time.Now(), nil)
	if after := tr.Loss(val); !(after < before) {
		t.Errorf("validation loss %.6f after two epochs, %.6f before", after, before)
	}
	fac := tr.Net.W[4*blk:]
	if !slices.ContainsFunc(fac, func(x float32) bool { return x != 0 }) {
		t.Fatal("the factoriser did not learn")
	}

	// The merged net is the same function as the factorised one, and its
	// quantisation is what the engine loads.
	m := tr.Net.Merged()
	if m.Factor || len(m.W) != 4*blk || m.Kings != kings {
		t.Fatalf("merged: factor %v, %d weights", m.Factor, len(m.W))
	}
	for i := range val.Len() {
		fw, wtm := val.Features(i), val.STM[i] == 0
		if a, b := tr.Net.EvalFeatures(fw, wtm), m.EvalFeatures(fw, wtm); math.Abs(float64(a-b)) > 1e-4 {
			t.Fatalf("position %d: factorised %v, merged %v", i, a, b)
		}
	}
	q := tr.Net.Quantise()
	if len(q.W) != 4*blk || q.Kings != kings {
		t.Fatalf("quantised: %d weights, kings %+v", len(q.W), q.Kings)
	}
	q.Manifest = []byte(`{}`)
	nf := filepath.Join(t.TempDir(), "f.nnue")
	if err := SaveNetFile(nf, q); err != nil {
		t.Fatal(err)
	}
	en, err := eval.LoadNetFile(nf)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range m.W {
		if q.W[i] != roundClamp16(float64(w)*eval.NetQA) {
			t.Fatalf("weight %d: quantised %d, merged %v", i, q.W[i], w)
		}
	}
	if ql, fl := tr.QuantLoss(q, val), tr.Loss(val); math.Abs(ql-fl) > 0.1*fl {
		t.Errorf("quantised loss %.6f, float %.6f", ql, fl)
	}
	pos, err := v.ParseFEN("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := eval.EvaluateNet(en, pos), q.QuantEval(pos); a != b {
		t.Errorf("engine %d, trainer's quantised eval %d", a, b)
	}

	// Checkpoints.
	c, res, path := checkpointRoundTrip(t, tr, cfg)
	if !c.Factor || !res.Net.Factor || len(res.Net.W) != 5*blk {
		t.Fatalf("checkpoint: factor %v, %d weights", c.Factor, len(res.Net.W))
	}
	if !slices.Equal(tr.P, res.P) || !slices.Equal(tr.Net.eff, res.Net.eff) || tr.Loss(val) != res.Loss(val) {
		t.Fatalf("resumed: P equal %v, eff equal %v", slices.Equal(tr.P, res.P), slices.Equal(tr.Net.eff, res.Net.eff))
	}
	tr.RunEpoch(d, nil, time.Now(), nil)
	res.RunEpoch(d, nil, time.Now(), nil)
	if !slices.Equal(tr.P, res.P) || !slices.Equal(tr.V, res.V) {
		t.Fatal("the resumed run differs")
	}
	// Version 3: the same file without the factoriser's uint32. A net
	// without the factoriser reads back; this one's parameters no longer
	// match its shape.
	plain := NewTrainer(NewShapedNet(99, 4, 512, kings), cfg)
	for _, tt := range []struct {
		tr *Trainer
		ok bool
	}{{plain, true}, {tr, false}} {
		if err := tt.tr.SaveCheckpoint(path); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		at := 12 + binary.Size(ckptHeader{}) + binary.Size(ckptShape{})
		b = slices.Delete(b, at, at+4)
		binary.LittleEndian.PutUint32(b[8:], 3)
		os.WriteFile(path, b, 0o644)
		c, err := LoadCheckpoint(path)
		if tt.ok && (err != nil || c.Factor || !slices.Equal(c.P, plain.P)) {
			t.Errorf("version 3 checkpoint: %v", err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "parameters")) {
			t.Errorf("version 3 checkpoint of a factorised net: err = %v", err)
		}
	}
}

// TestBucketWeightDecay: Config.BucketWD decays the king buckets' own
// blocks of a factorised net, and only those: with a large one they end
// far smaller than with the common weight decay, while the factoriser
// still learns.
func TestBucketWeightDecay(t *testing.T) {
	r := rand.New(rand.NewPCG(101, 102))
	d, _ := materialData(t, r, 400)
	cfg := DefaultConfig()
	cfg.Batch, cfg.Epochs, cfg.K, cfg.Threads, cfg.LR = 32, 2, 400, 2, 0.005
	blk := eval.NetInputs * 256
	meanAbs := func(x []float32) float64 {
		var s float64
		for _, w := range x {
			s += math.Abs(float64(w))
		}
		return s / float64(len(x))
	}
	var bucket, fac [2]float64
	for i, bwd := range []float64{0, 20} {
		c := cfg
		c.BucketWD = bwd
		tr := NewTrainer(NewFactorisedNet(103, 2, 256, KingLayouts["4"]), c)
		tr.RunEpoch(d, nil, time.Now(), nil)
		bucket[i], fac[i] = meanAbs(tr.Net.W[:4*blk]), meanAbs(tr.Net.W[4*blk:])
	}
	if !(bucket[1] < bucket[0]/2) || !(fac[1] > 0) {
		t.Errorf("mean |w| of the buckets %.5f with --bucket-wd 20, %.5f without; factoriser %.5f", bucket[1], bucket[0], fac[1])
	}
}

// TestExpand: a plain net expanded to unmirrored king buckets, with or
// without the factoriser, is the same function; with the factoriser the
// buckets' own blocks start at zero; only a plain net expands.
func TestExpand(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	pos := append(randomPositions(t, r, 200, 30), gamePositions(r, 6)...)
	plain := NewShapedNet(5, 8, 512, eval.PlainKings)
	unmirrored4 := KingLayouts["4"]
	unmirrored4.Mirror = false
	for _, c := range []struct {
		kings  eval.KingBuckets
		factor bool
	}{{unmirrored2, false}, {unmirrored2, true}, {unmirrored4, true}, {eval.PlainKings, false}} {
		e, err := plain.Expand(c.kings, c.factor)
		if err != nil {
			t.Fatal(err)
		}
		if e.Factor != c.factor || e.Kings != c.kings || e.Buckets() != 8 || e.Hidden != 512 {
			t.Fatalf("%v: expanded to kings %v, factor %v, %d buckets, width %d", c, e.Kings, e.Factor, e.Buckets(), e.Hidden)
		}
		if c.factor && slices.ContainsFunc(e.W[:c.kings.N*eval.NetInputs*512], func(x float32) bool { return x != 0 }) {
			t.Errorf("%v: a bucket's own block does not start at zero", c)
		}
		for _, p := range pos {
			if a, b := plain.Eval(p), e.Eval(p); math.Abs(a-b) > 1e-4*max(1, math.Abs(a)) {
				t.Fatalf("%v: %s: expanded %v, plain %v", c, p.FEN(), b, a)
			}
		}
	}
	if _, err := NewShapedNet(5, 8, 512, unmirrored2).Expand(unmirrored2, false); err == nil {
		t.Error("a net with king buckets expanded")
	}
	if _, err := plain.Expand(eval.PlainKings, true); err == nil {
		t.Error("a factoriser without king buckets")
	}
}
