// Package train trains Rochade's evaluation network (NNUE) from scored
// positions and writes the quantised net file the engine loads. No engine
// package imports it.
//
// The network is (K*768) -> Hx2 -> 1 with B output buckets: each colour
// has an accumulator of width H (256 by default; 512 or 1024 for a wider
// net) over the 768 piece-square inputs seen from its own side, in one of
// K blocks chosen by its own king's square (eval.KingBuckets; K is 1 by
// default, the plain net), the activation is SCReLU (clamp to [0,1],
// squared) and the output layer reads the side to move's accumulator
// first; it has B sets of weights, and the number of pieces on the board
// picks one (eval.NetBucket). Package eval defines the shape, the
// quantisation and the file format (eval.WriteNet, eval.LoadNet; version
// 2 for the plain net of width 256, 3 otherwise); the trainer uses them
// directly.
package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// MaxSize is the |weight| bound kept after every step, so that the
// quantised values fit the file's integers.
const MaxSize = 1.98

// DefaultBuckets is the number of output buckets a new net gets unless
// told otherwise (rochade train --buckets).
const DefaultBuckets = 8

// flip turns a White-perspective feature into the Black-perspective one.
func flip(f uint16) uint16 {
	if f >= 384 {
		f -= 384
	} else {
		f += 384
	}
	return f ^ 56
}

// Net holds float weights. W is [Kings.N*Inputs][Hidden] flat (index
// f*Hidden+h, f the bucketed input), O is [Buckets][2*Hidden] flat (index
// b*2*Hidden + h, the side to move's half first) and OB [Buckets];
// Buckets is len(OB).
type Net struct {
	W  []float32
	B  []float32
	O  []float32
	OB []float32

	Hidden int              // accumulator width
	Kings  eval.KingBuckets // king input buckets
	// Factor: W has one more block of NetInputs rows after the king
	// buckets' blocks, the factoriser. Every piece uses its row there as
	// well as its row in its king bucket's block, so what is common to all
	// king squares is learnt from every position. The file holds the sum
	// (Merged); the factoriser exists in training only.
	Factor bool
	// eff is, with the factoriser, every king bucket's block plus the
	// factoriser's: the rows the forward pass reads, so that a sample
	// costs what it costs without the factoriser. syncFactor makes it
	// from W; whoever changes W calls it (the trainer does after every
	// step).
	eff []float32
}

// rows is the first layer as the forward pass reads it: Kings.N blocks of
// NetInputs rows.
func (n *Net) rows() []float32 {
	if n.Factor {
		return n.eff
	}
	return n.W
}

// allocEff makes eff the right size (before syncFactor runs on several
// threads).
func (n *Net) allocEff() {
	if k := n.Kings.N * eval.NetInputs * n.Hidden; n.Factor && len(n.eff) != k {
		n.eff = make([]float32, k)
	}
}

// syncFactor sets eff from W, for the positions [lo, hi) of each block
// (allocEff first).
func (n *Net) syncFactor(lo, hi int) {
	if !n.Factor {
		return
	}
	blk := eval.NetInputs * n.Hidden
	k := n.Kings.N
	fac := n.W[k*blk : (k+1)*blk]
	for b := range k {
		w, e := n.W[b*blk:(b+1)*blk], n.eff[b*blk:(b+1)*blk]
		for i := lo; i < hi; i++ {
			e[i] = w[i] + fac[i]
		}
	}
}

// Buckets is the number of output buckets.
func (n *Net) Buckets() int { return len(n.OB) }

// shape is the size of a net's parts, which places them in the trainer's
// flat parameter vector: W at 0, then B, O and OB.
type shape struct {
	hidden, kings, buckets int
	factor                 bool
}

func (n *Net) shape() shape { return shape{n.Hidden, n.Kings.N, n.Buckets(), n.Factor} }

// blocks is the number of blocks of NetInputs rows in W.
func (s shape) blocks() int {
	if s.factor {
		return s.kings + 1
	}
	return s.kings
}

func (s shape) offB() int   { return s.blocks() * eval.NetInputs * s.hidden }
func (s shape) offO() int   { return s.offB() + s.hidden }
func (s shape) offOB() int  { return s.offO() + s.buckets*2*s.hidden }
func (s shape) params() int { return s.offOB() + s.buckets }

// NumParams is the number of parameters of a net with the given output
// buckets, width and king buckets, with or without the factoriser.
func NumParams(buckets, hidden, kingBuckets int, factor bool) int {
	return shape{hidden, kingBuckets, buckets, factor}.params()
}

// NewNet returns a randomly initialised net of width eval.NetHidden with
// one king bucket (the plain net) and the given number of output buckets
// (1..eval.NetMaxBuckets), deterministic for a seed. Bucket 0 gets the same
// weights whatever the number of buckets, so a one-bucket net is the net
// of the trainer before buckets.
func NewNet(seed uint64, buckets int) *Net {
	return NewShapedNet(seed, buckets, eval.NetHidden, eval.PlainKings)
}

// NewShapedNet is NewNet with the given width and king buckets. The plain
// shape gets NewNet's weights.
func NewShapedNet(seed uint64, buckets, hidden int, kings eval.KingBuckets) *Net {
	if buckets < 1 || buckets > eval.NetMaxBuckets {
		panic(fmt.Sprintf("train: %d output buckets, want 1..%d", buckets, eval.NetMaxBuckets))
	}
	if err := eval.CheckHidden(hidden); err != nil {
		panic("train: " + err.Error())
	}
	if err := kings.Check(); err != nil {
		panic("train: " + err.Error())
	}
	n := &Net{
		W:      make([]float32, kings.N*eval.NetInputs*hidden),
		B:      make([]float32, hidden),
		O:      make([]float32, buckets*2*hidden),
		OB:     make([]float32, buckets),
		Hidden: hidden,
		Kings:  kings,
	}
	r := rand.New(rand.NewPCG(seed, 0x7261696e))
	// About 30 inputs are active: an accumulator starts with a spread of
	// roughly 0.5 around a small positive bias, so most units are live.
	for i := range n.W {
		n.W[i] = float32((r.Float64()*2 - 1) * 0.15)
	}
	for i := range n.B {
		n.B[i] = 0.25
	}
	for i := range n.O {
		n.O[i] = float32((r.Float64()*2 - 1) * 0.05)
	}
	return n
}

// NewFactorisedNet is NewShapedNet with the factoriser: its block starts
// at zero, so the net starts as NewShapedNet's.
func NewFactorisedNet(seed uint64, buckets, hidden int, kings eval.KingBuckets) *Net {
	n := NewShapedNet(seed, buckets, hidden, kings)
	n.W = append(n.W, make([]float32, eval.NetInputs*hidden)...)
	n.Factor = true
	n.allocEff()
	n.syncFactor(0, eval.NetInputs*hidden)
	return n
}

// Expand returns a net with king buckets made from n, a plain net (one
// king bucket, no factoriser): the same width, output layer and biases,
// and n's first layer in every king bucket's block, or, with factor, in
// the factoriser's block with every bucket's own block at zero. So a
// bucketed run can start from a trained plain net; without king
// mirroring the new net is the same function as n.
func (n *Net) Expand(kings eval.KingBuckets, factor bool) (*Net, error) {
	if n.Kings.N != 1 || n.Kings.Mirror || n.Factor {
		return nil, fmt.Errorf("the net to expand has %d king buckets (mirror %v, factoriser %v); want the plain net", n.Kings.N, n.Kings.Mirror, n.Factor)
	}
	if err := kings.Check(); err != nil {
		return nil, err
	}
	if factor && kings.N < 2 {
		return nil, errors.New("a factoriser needs two or more king buckets")
	}
	blk := eval.NetInputs * n.Hidden
	e := &Net{
		B:      slices.Clone(n.B),
		O:      slices.Clone(n.O),
		OB:     slices.Clone(n.OB),
		Hidden: n.Hidden,
		Kings:  kings,
		Factor: factor,
	}
	if factor {
		e.W = make([]float32, (kings.N+1)*blk)
		copy(e.W[kings.N*blk:], n.W)
	} else {
		e.W = make([]float32, 0, kings.N*blk)
		for range kings.N {
			e.W = append(e.W, n.W...)
		}
	}
	e.allocEff()
	e.syncFactor(0, blk)
	return e, nil
}

// Merged returns the net as the file holds it. With the factoriser, that
// is a net without one whose every king bucket's block is that block plus
// the factoriser's, each weight kept within MaxSize like every weight the
// trainer makes; without one, it is n itself.
func (n *Net) Merged() *Net {
	if !n.Factor {
		return n
	}
	m := n.Clone() // its eff is made afresh from its W
	m.W, m.eff, m.Factor = m.eff, nil, false
	clip(m.W)
	return m
}

// Clone returns a deep copy.
func (n *Net) Clone() *Net {
	c := &Net{
		W:      append([]float32(nil), n.W...),
		B:      append([]float32(nil), n.B...),
		O:      append([]float32(nil), n.O...),
		OB:     append([]float32(nil), n.OB...),
		Hidden: n.Hidden,
		Kings:  n.Kings,
		Factor: n.Factor,
	}
	c.allocEff()
	c.syncFactor(0, eval.NetInputs*n.Hidden)
	return c
}

// Clip bounds every weight to [-MaxSize, MaxSize].
func (n *Net) Clip() {
	clip(n.W)
	clip(n.B)
	clip(n.O)
	clip(n.OB)
}

func clip(x []float32) {
	for i, w := range x {
		x[i] = min(max(w, -MaxSize), MaxSize)
	}
}

// Features appends the White-perspective feature index of every piece of
// pos to dst. The Black-perspective index of the same piece is flip(f).
func Features(dst []uint16, pos *v.Position) []uint16 {
	for c := v.White; c <= v.Black; c++ {
		for t := v.Pawn; t <= v.King; t++ {
			for b := pos.Pieces(c, t); b != 0; {
				s := b.PopLSB()
				dst = append(dst, uint16(eval.FeatureIndex(v.White, c, t, s)))
			}
		}
	}
	return dst
}

// kingInput turns a feature of the 768 of one perspective into the
// bucketed input of a perspective whose king is on rel (its side's view).
// Reflecting the square is f^7: the square is the low six bits of f.
func kingInput(k *eval.KingBuckets, rel v.Square, f uint16) uint16 {
	b, m := k.Of(rel)
	if m {
		f ^= 7
	}
	return uint16(b*eval.NetInputs) + f
}

// White-perspective king features: the White king is 320+square, the
// Black king 704+square.
const (
	whiteKingFeature = 320
	blackKingFeature = 384 + 320
)

// perspectives fills stm and opp with the inputs of the side to move's
// and the other side's accumulator, from White-perspective features fw,
// for the king bucket layout k.
func perspectives(k *eval.KingBuckets, fw []uint16, whiteToMove bool, stm, opp *[eval.NetMaxActive]uint16) {
	if k.Plain() {
		for i, f := range fw {
			if whiteToMove {
				stm[i], opp[i] = f, flip(f)
			} else {
				stm[i], opp[i] = flip(f), f
			}
		}
		return
	}
	var wk, bk v.Square // each king's square seen from its own side
	for _, f := range fw {
		switch {
		case f >= whiteKingFeature && f < whiteKingFeature+64:
			wk = v.Square(f - whiteKingFeature)
		case f >= blackKingFeature:
			bk = v.Square(f-blackKingFeature) ^ 56
		}
	}
	ws, bs := stm, opp
	if !whiteToMove {
		ws, bs = opp, stm
	}
	for i, f := range fw {
		ws[i] = kingInput(k, wk, f)
		bs[i] = kingInput(k, bk, flip(f))
	}
}

// screlu is clamp(x, 0, 1)^2.
func screlu(x float32) float32 {
	x = min(max(x, 0), 1)
	return x * x
}

// accumulate sets acc to B plus the first-layer rows of feats.
func (n *Net) accumulate(acc []float32, feats []uint16) {
	accumulateRows(acc, n.B, n.rows(), feats)
}

// output is the raw output (eval = output*Scale) of output bucket b given
// both accumulators.
func (n *Net) output(stm, opp []float32, b int) float32 {
	h := n.Hidden
	o := n.O[b*2*h : (b+1)*2*h]
	return dotSCReLU(stm, o[:h]) + dotSCReLU(opp, o[h:]) + n.OB[b]
}

// EvalFeatures is the float network's raw output for White-perspective
// features fw with the given side to move; multiply by Scale for cp.
func (n *Net) EvalFeatures(fw []uint16, whiteToMove bool) float32 {
	var stm, opp [eval.NetMaxActive]uint16
	perspectives(&n.Kings, fw, whiteToMove, &stm, &opp)
	var as, ao [eval.NetMaxHidden]float32
	n.accumulate(as[:n.Hidden], stm[:len(fw)])
	n.accumulate(ao[:n.Hidden], opp[:len(fw)])
	return n.output(as[:n.Hidden], ao[:n.Hidden], eval.NetBucket(len(fw), n.Buckets()))
}

// Eval is the float network's evaluation of pos in centipawns from the side
// to move's point of view.
func (n *Net) Eval(pos *v.Position) float64 {
	var buf [eval.NetMaxActive]uint16
	fw := Features(buf[:0], pos)
	return float64(n.EvalFeatures(fw, pos.Side() == v.White)) * eval.NetScale
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
