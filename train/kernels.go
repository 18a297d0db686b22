package train

import (
	"math"

	"github.com/rochade/rochade/eval"
)

// The inner loops of training and inference. Each has a portable scalar
// version here; kernels_simd.go replaces them with AVX2 versions when the
// trainer is built with GOEXPERIMENT=simd on amd64 (and the CPU has AVX2).

// The accumulators are Hidden units, a multiple of eval.NetHiddenStep:
// every kernel takes them as slices of that length, and works on blocks
// of that many (the bounds are checked once a block).
const block = eval.NetHiddenStep

// accumulateRowsScalar sets acc to bias plus the rows w[f*Hidden:] of
// feats (Hidden = len(acc)), in blocks of eight units held in registers
// across all features.
func accumulateRowsScalar(acc, bias []float32, w []float32, feats []uint16) {
	h := len(acc)
	bias = bias[:h]
	for i := 0; i < h; i += 8 {
		a0, a1, a2, a3 := bias[i], bias[i+1], bias[i+2], bias[i+3]
		a4, a5, a6, a7 := bias[i+4], bias[i+5], bias[i+6], bias[i+7]
		for _, f := range feats {
			r := (*[8]float32)(w[int(f)*h+i:])
			a0 += r[0]
			a1 += r[1]
			a2 += r[2]
			a3 += r[3]
			a4 += r[4]
			a5 += r[5]
			a6 += r[6]
			a7 += r[7]
		}
		acc[i], acc[i+1], acc[i+2], acc[i+3] = a0, a1, a2, a3
		acc[i+4], acc[i+5], acc[i+6], acc[i+7] = a4, a5, a6, a7
	}
}

// addRowScalar adds src to dst.
func addRowScalar(dst, src []float32) {
	src = src[:len(dst)]
	for k := 0; k < len(dst); k += block {
		db, sb := (*[block]float32)(dst[k:]), (*[block]float32)(src[k:])
		for i := 0; i < block; i += 8 {
			a := (*[8]float32)(db[i:])
			b := (*[8]float32)(sb[i:])
			a[0] += b[0]
			a[1] += b[1]
			a[2] += b[2]
			a[3] += b[3]
			a[4] += b[4]
			a[5] += b[5]
			a[6] += b[6]
			a[7] += b[7]
		}
	}
}

// addRowsScalar adds src to the rows w[f*len(src):] of feats, in blocks
// of eight units held in registers across all features (each unit gets
// the same additions in the same order as a loop of addRowScalar).
func addRowsScalar(w []float32, feats []uint16, src []float32) {
	h := len(src)
	for i := 0; i < h; i += 8 {
		s := (*[8]float32)(src[i:])
		s0, s1, s2, s3, s4, s5, s6, s7 := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
		for _, f := range feats {
			r := (*[8]float32)(w[int(f)*h+i:])
			r[0] += s0
			r[1] += s1
			r[2] += s2
			r[3] += s3
			r[4] += s4
			r[5] += s5
			r[6] += s6
			r[7] += s7
		}
	}
}

// dotSCReLUScalar is the sum over h of screlu(acc[h]) * o[h].
func dotSCReLUScalar(acc, o []float32) float32 {
	var s0, s1 float32
	o = o[:len(acc)]
	for k := 0; k < len(acc); k += block {
		ab, ob := (*[block]float32)(acc[k:]), (*[block]float32)(o[k:])
		for h := 0; h < block; h += 2 {
			s0 += screlu(ab[h]) * ob[h]
			s1 += screlu(ab[h+1]) * ob[h+1]
		}
	}
	return s0 + s1
}

// hiddenGradScalar is the backward pass through one half of the output
// layer and SCReLU, given d = dLoss/dout: it adds d*screlu(acc) to the
// output weights' gradient gout and sets gacc to dLoss/dacc
// (2*d*acc*o where 0 < acc < 1, else 0).
func hiddenGradScalar(acc, o []float32, d float32, gout, gacc []float32) {
	o, gout, gacc = o[:len(acc)], gout[:len(acc)], gacc[:len(acc)]
	for h := range acc {
		a := acc[h]
		c := min(max(a, 0), 1)
		gout[h] += d * c * c
		var g float32
		if a < 1 {
			g = 2 * d * c * o[h] // c is 0 where a <= 0
		}
		gacc[h] = g
	}
}

// AdamW's moment decays and epsilon.
const adamB1, adamB2, adamEps = 0.9, 0.999, 1e-8

// adamConsts are the step's factors: the learning rate over the first
// moment's bias correction, the second moment's correction (1/sqrt), and
// the weight decay factor (1: none).
type adamConsts struct{ lrc, sc2, decay float32 }

// adamStepScalar moves the moments m, v by the gradient g and, with
// update, the parameters p by one AdamW step, each clipped to MaxSize.
func adamStepScalar(c adamConsts, p, m, v, g []float32, update bool) {
	m, v, g = m[:len(p)], v[:len(p)], g[:len(p)]
	for j := range p {
		gj := g[j]
		mj := adamB1*m[j] + (1-adamB1)*gj
		vj := adamB2*v[j] + (1-adamB2)*gj*gj
		m[j], v[j] = mj, vj
		if !update {
			continue
		}
		x := p[j] * c.decay
		x -= c.lrc * mj / (float32(math.Sqrt(float64(vj)))*c.sc2 + adamEps)
		p[j] = min(max(x, -MaxSize), MaxSize)
	}
}
