// Package train trains Rochade's evaluation network (NNUE) from scored
// positions and writes the quantised net file the engine loads. No engine
// package imports it.
//
// The network (file format v2) is 768 -> 256x2 -> 1 with B output buckets:
// each colour has an accumulator over the 768 piece-square inputs seen from
// its own side, the activation is SCReLU (clamp to [0,1], squared) and the
// output layer reads the side to move's accumulator first; it has B sets of
// weights, and the number of pieces on the board picks one
// (eval.NetBucket). Package eval defines the shape, the quantisation and
// the file format (eval.WriteNet, eval.LoadNet); the trainer uses them
// directly.
package train

import (
	"fmt"
	"math"
	"math/rand/v2"

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

// Net holds float weights. W is [Inputs][Hidden] flat (index f*Hidden+h),
// O is [Buckets][2*Hidden] flat (index b*2*Hidden + h, the side to move's
// half first) and OB [Buckets]; Buckets is len(OB).
type Net struct {
	W  []float32
	B  []float32
	O  []float32
	OB []float32
}

// Buckets is the number of output buckets.
func (n *Net) Buckets() int { return len(n.OB) }

// NewNet returns a randomly initialised net with the given number of
// output buckets (1..eval.NetMaxBuckets), deterministic for a seed. Bucket 0 gets
// the same weights whatever the number of buckets, so a one-bucket net is
// the net of the trainer before buckets.
func NewNet(seed uint64, buckets int) *Net {
	if buckets < 1 || buckets > eval.NetMaxBuckets {
		panic(fmt.Sprintf("train: %d output buckets, want 1..%d", buckets, eval.NetMaxBuckets))
	}
	n := &Net{
		W:  make([]float32, eval.NetInputs*eval.NetHidden),
		B:  make([]float32, eval.NetHidden),
		O:  make([]float32, buckets*2*eval.NetHidden),
		OB: make([]float32, buckets),
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

// Clone returns a deep copy.
func (n *Net) Clone() *Net {
	c := &Net{
		W:  append([]float32(nil), n.W...),
		B:  append([]float32(nil), n.B...),
		O:  append([]float32(nil), n.O...),
		OB: append([]float32(nil), n.OB...),
	}
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

// perspectives fills stm and opp with the features of the side to move's
// and the other side's accumulator, from White-perspective features fw.
func perspectives(fw []uint16, whiteToMove bool, stm, opp *[eval.NetMaxActive]uint16) {
	for i, f := range fw {
		if whiteToMove {
			stm[i], opp[i] = f, flip(f)
		} else {
			stm[i], opp[i] = flip(f), f
		}
	}
}

// screlu is clamp(x, 0, 1)^2.
func screlu(x float32) float32 {
	x = min(max(x, 0), 1)
	return x * x
}

// accumulate sets acc to B plus the W rows of feats.
func (n *Net) accumulate(acc *[eval.NetHidden]float32, feats []uint16) {
	accumulateRows(acc, (*[eval.NetHidden]float32)(n.B), n.W, feats)
}

// output is the raw output (eval = output*Scale) of output bucket b given
// both accumulators.
func (n *Net) output(stm, opp *[eval.NetHidden]float32, b int) float32 {
	o := n.O[b*2*eval.NetHidden : (b+1)*2*eval.NetHidden]
	return dotSCReLU(stm, (*[eval.NetHidden]float32)(o[:eval.NetHidden])) +
		dotSCReLU(opp, (*[eval.NetHidden]float32)(o[eval.NetHidden:])) + n.OB[b]
}

// EvalFeatures is the float network's raw output for White-perspective
// features fw with the given side to move; multiply by Scale for cp.
func (n *Net) EvalFeatures(fw []uint16, whiteToMove bool) float32 {
	var stm, opp [eval.NetMaxActive]uint16
	perspectives(fw, whiteToMove, &stm, &opp)
	var as, ao [eval.NetHidden]float32
	n.accumulate(&as, stm[:len(fw)])
	n.accumulate(&ao, opp[:len(fw)])
	return n.output(&as, &ao, eval.NetBucket(len(fw), n.Buckets()))
}

// Eval is the float network's evaluation of pos in centipawns from the side
// to move's point of view.
func (n *Net) Eval(pos *v.Position) float64 {
	var buf [eval.NetMaxActive]uint16
	fw := Features(buf[:0], pos)
	return float64(n.EvalFeatures(fw, pos.Side() == v.White)) * eval.NetScale
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
