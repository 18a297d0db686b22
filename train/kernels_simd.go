//go:build goexperiment.simd && amd64

package train

import "simd/archsimd"

// simdEnabled tells whether the AVX2 kernels are in use.
var simdEnabled = archsimd.X86.AVX2()

func accumulateRows(acc, bias []float32, w []float32, feats []uint16) {
	if !simdEnabled {
		accumulateRowsScalar(acc, bias, w, feats)
		return
	}
	// Blocks of 64 units: eight vector registers across all features.
	h := len(acc)
	bias = bias[:h]
	for i := 0; i < h; i += 64 {
		b := (*[64]float32)(bias[i:])
		a0 := archsimd.LoadFloat32x8((*[8]float32)(b[0:]))
		a1 := archsimd.LoadFloat32x8((*[8]float32)(b[8:]))
		a2 := archsimd.LoadFloat32x8((*[8]float32)(b[16:]))
		a3 := archsimd.LoadFloat32x8((*[8]float32)(b[24:]))
		a4 := archsimd.LoadFloat32x8((*[8]float32)(b[32:]))
		a5 := archsimd.LoadFloat32x8((*[8]float32)(b[40:]))
		a6 := archsimd.LoadFloat32x8((*[8]float32)(b[48:]))
		a7 := archsimd.LoadFloat32x8((*[8]float32)(b[56:]))
		for _, f := range feats {
			r := (*[64]float32)(w[int(f)*h+i:])
			a0 = a0.Add(archsimd.LoadFloat32x8((*[8]float32)(r[0:])))
			a1 = a1.Add(archsimd.LoadFloat32x8((*[8]float32)(r[8:])))
			a2 = a2.Add(archsimd.LoadFloat32x8((*[8]float32)(r[16:])))
			a3 = a3.Add(archsimd.LoadFloat32x8((*[8]float32)(r[24:])))
			a4 = a4.Add(archsimd.LoadFloat32x8((*[8]float32)(r[32:])))
			a5 = a5.Add(archsimd.LoadFloat32x8((*[8]float32)(r[40:])))
			a6 = a6.Add(archsimd.LoadFloat32x8((*[8]float32)(r[48:])))
			a7 = a7.Add(archsimd.LoadFloat32x8((*[8]float32)(r[56:])))
		}
		o := (*[64]float32)(acc[i:])
		a0.Store((*[8]float32)(o[0:]))
		a1.Store((*[8]float32)(o[8:]))
		a2.Store((*[8]float32)(o[16:]))
		a3.Store((*[8]float32)(o[24:]))
		a4.Store((*[8]float32)(o[32:]))
		a5.Store((*[8]float32)(o[40:]))
		a6.Store((*[8]float32)(o[48:]))
		a7.Store((*[8]float32)(o[56:]))
	}
	archsimd.ClearAVXUpperBits()
}

func addRow(dst, src []float32) {
	if !simdEnabled {
		addRowScalar(dst, src)
		return
	}
	src = src[:len(dst)]
	for k := 0; k < len(dst); k += block {
		db, sb := (*[block]float32)(dst[k:]), (*[block]float32)(src[k:])
		for i := 0; i < block; i += 16 {
			d := (*[16]float32)(db[i:])
			s := (*[16]float32)(sb[i:])
			x := archsimd.LoadFloat32x8((*[8]float32)(d[0:])).Add(archsimd.LoadFloat32x8((*[8]float32)(s[0:])))
			y := archsimd.LoadFloat32x8((*[8]float32)(d[8:])).Add(archsimd.LoadFloat32x8((*[8]float32)(s[8:])))
			x.Store((*[8]float32)(d[0:]))
			y.Store((*[8]float32)(d[8:]))
		}
	}
	archsimd.ClearAVXUpperBits()
}

func addRows(w []float32, feats []uint16, src []float32) {
	if !simdEnabled {
		addRowsScalar(w, feats, src)
		return
	}
	// Blocks of 64 units: src's block stays in eight vector registers
	// while it is added to every feature's row.
	h := len(src)
	for i := 0; i < h; i += 64 {
		b := (*[64]float32)(src[i:])
		s0 := archsimd.LoadFloat32x8((*[8]float32)(b[0:]))
		s1 := archsimd.LoadFloat32x8((*[8]float32)(b[8:]))
		s2 := archsimd.LoadFloat32x8((*[8]float32)(b[16:]))
		s3 := archsimd.LoadFloat32x8((*[8]float32)(b[24:]))
		s4 := archsimd.LoadFloat32x8((*[8]float32)(b[32:]))
		s5 := archsimd.LoadFloat32x8((*[8]float32)(b[40:]))
		s6 := archsimd.LoadFloat32x8((*[8]float32)(b[48:]))
		s7 := archsimd.LoadFloat32x8((*[8]float32)(b[56:]))
		for _, f := range feats {
			r := (*[64]float32)(w[int(f)*h+i:])
			r0, r1 := (*[8]float32)(r[0:]), (*[8]float32)(r[8:])
			r2, r3 := (*[8]float32)(r[16:]), (*[8]float32)(r[24:])
			r4, r5 := (*[8]float32)(r[32:]), (*[8]float32)(r[40:])
			r6, r7 := (*[8]float32)(r[48:]), (*[8]float32)(r[56:])
			archsimd.LoadFloat32x8(r0).Add(s0).Store(r0)
			archsimd.LoadFloat32x8(r1).Add(s1).Store(r1)
			archsimd.LoadFloat32x8(r2).Add(s2).Store(r2)
			archsimd.LoadFloat32x8(r3).Add(s3).Store(r3)
			archsimd.LoadFloat32x8(r4).Add(s4).Store(r4)
			archsimd.LoadFloat32x8(r5).Add(s5).Store(r5)
			archsimd.LoadFloat32x8(r6).Add(s6).Store(r6)
			archsimd.LoadFloat32x8(r7).Add(s7).Store(r7)
		}
	}
	archsimd.ClearAVXUpperBits()
}

func dotSCReLU(acc, o []float32) float32 {
	if !simdEnabled {
		return dotSCReLUScalar(acc, o)
	}
	o = o[:len(acc)]
	zero := archsimd.BroadcastFloat32x8(0)
	one := archsimd.BroadcastFloat32x8(1)
	s0, s1 := zero, zero
	for k := 0; k < len(acc); k += block {
		ab, ob := (*[block]float32)(acc[k:]), (*[block]float32)(o[k:])
		for i := 0; i < block; i += 16 {
			a := (*[16]float32)(ab[i:])
			w := (*[16]float32)(ob[i:])
			c := archsimd.LoadFloat32x8((*[8]float32)(a[0:])).Max(zero).Min(one)
			s0 = c.Mul(c).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(w[0:])), s0)
			c = archsimd.LoadFloat32x8((*[8]float32)(a[8:])).Max(zero).Min(one)
			s1 = c.Mul(c).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(w[8:])), s1)
		}
	}
	var t [8]float32
	s0.Add(s1).Store(&t)
	archsimd.ClearAVXUpperBits()
	return ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]))
}

func hiddenGrad(acc, o []float32, d float32, gout, gacc []float32) {
	if !simdEnabled {
		hiddenGradScalar(acc, o, d, gout, gacc)
		return
	}
	o, gout, gacc = o[:len(acc)], gout[:len(acc)], gacc[:len(acc)]
	zero := archsimd.BroadcastFloat32x8(0)
	one := archsimd.BroadcastFloat32x8(1)
	dv := archsimd.BroadcastFloat32x8(d)
	d2 := archsimd.BroadcastFloat32x8(2 * d)
	for k := 0; k < len(acc); k += block {
		ab, ob := (*[block]float32)(acc[k:]), (*[block]float32)(o[k:])
		gob, gab := (*[block]float32)(gout[k:]), (*[block]float32)(gacc[k:])
		for i := 0; i < block; i += 8 {
			a := archsimd.LoadFloat32x8((*[8]float32)(ab[i:]))
			c := a.Max(zero).Min(one)
			gp := (*[8]float32)(gob[i:])
			c.Mul(c).MulAdd(dv, archsimd.LoadFloat32x8(gp)).Store(gp)
			g := c.Mul(d2).Mul(archsimd.LoadFloat32x8((*[8]float32)(ob[i:])))
			g.Masked(a.Less(one)).Store((*[8]float32)(gab[i:]))
		}
	}
	archsimd.ClearAVXUpperBits()
}

// adamStep is adamStepScalar eight parameters at a time, with the same
// operations in the same order (no fused multiply-add), so the same
// results.
func adamStep(c adamConsts, p, m, v, g []float32, update bool) {
	n := len(p) &^ 7
	if !simdEnabled || n == 0 {
		adamStepScalar(c, p, m, v, g, update)
		return
	}
	m, v, g = m[:len(p)], v[:len(p)], g[:len(p)]
	// The tail first: a scalar value live across the vector loop is
	// reloaded into an SSE register inside it, and SSE code with the
	// upper halves of the vector registers dirty runs many times slower
	// on some Intel CPUs (this loop ran at a third of the scalar one's
	// speed).
	adamStepScalar(c, p[n:], m[n:], v[n:], g[n:], update)
	var b1, b1c, b2, b2c float32 = adamB1, 1 - adamB1, adamB2, 1 - adamB2
	vb1, vb1c := archsimd.BroadcastFloat32x8(b1), archsimd.BroadcastFloat32x8(b1c)
	vb2, vb2c := archsimd.BroadcastFloat32x8(b2), archsimd.BroadcastFloat32x8(b2c)
	vlrc, vsc2 := archsimd.BroadcastFloat32x8(c.lrc), archsimd.BroadcastFloat32x8(c.sc2)
	veps, vdec := archsimd.BroadcastFloat32x8(adamEps), archsimd.BroadcastFloat32x8(c.decay)
	lo, hi := archsimd.BroadcastFloat32x8(-MaxSize), archsimd.BroadcastFloat32x8(MaxSize)
	for j := 0; j < n; j += 8 {
		gp, mp, vp := (*[8]float32)(g[j:]), (*[8]float32)(m[j:]), (*[8]float32)(v[j:])
		gj := archsimd.LoadFloat32x8(gp)
		mj := vb1.Mul(archsimd.LoadFloat32x8(mp)).Add(vb1c.Mul(gj))
		vj := vb2.Mul(archsimd.LoadFloat32x8(vp)).Add(vb2c.Mul(gj).Mul(gj))
		mj.Store(mp)
		vj.Store(vp)
		if !update {
			continue
		}
		pp := (*[8]float32)(p[j:])
		x := archsimd.LoadFloat32x8(pp).Mul(vdec)
		x = x.Sub(vlrc.Mul(mj).Div(vj.Sqrt().Mul(vsc2).Add(veps)))
		x.Max(lo).Min(hi).Store(pp)
	}
	archsimd.ClearAVXUpperBits()
}
