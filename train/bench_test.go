package train

import (
	"math/rand/v2"
	"testing"

	"github.com/rochade/rochade/eval"
)

// BenchmarkGradient measures one thread's gradient throughput on random
// positions of about 26 pieces; it also reports samples per CPU second,
// which is steadier than wall time on a shared machine.
func BenchmarkGradient(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	d := NewDataset()
	for d.Len() < 16384 {
		pos := randomPositions(b, r, 1, 30)[0]
		if n := pos.Occupied().Count(); n >= 22 && n <= 30 {
			d.Add(pos, r.IntN(600)-300, 0.5)
		}
	}
	idx := make([]uint32, d.Len())
	for i := range idx {
		idx[i] = uint32(i)
	}
	cfg := DefaultConfig()
	cfg.Threads = 1
	for _, c := range []struct {
		name string
		net  func() *Net
	}{
		{"256", func() *Net { return NewNet(1, DefaultBuckets) }},
		{"512", func() *Net { return NewShapedNet(1, DefaultBuckets, 512, eval.PlainKings) }},
		{"512-kings4", func() *Net { return NewShapedNet(1, DefaultBuckets, 512, KingLayouts["4"]) }},
		{"512-kings4-factorised", func() *Net { return NewFactorisedNet(1, DefaultBuckets, 512, KingLayouts["4"]) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			tr := NewTrainer(c.net(), cfg)
			b.ResetTimer()
			c0 := cpuTime()
			for range b.N {
				tr.Gradient(d, idx)
			}
			cpu := cpuTime() - c0
			b.ReportMetric(float64(b.N*len(idx))/cpu.Seconds(), "samples/cpu-s")
			b.ReportMetric(float64(len(d.Feat))/float64(d.Len()), "pieces")
		})
	}
}

func TestKernelsMatchScalar(t *testing.T) {
	t.Logf("SIMD kernels: %v", simdEnabled)
	for _, hid := range []int{256, 512, 1024} {
		testKernels(t, hid)
	}
}

func testKernels(t *testing.T, hid int) {
	r := rand.New(rand.NewPCG(61, 62))
	mk := func() []float32 { return make([]float32, hid) }
	bias, acc, acc2, o, gout, gout2, gacc, gacc2 := mk(), mk(), mk(), mk(), mk(), mk(), mk(), mk()
	w := make([]float32, eval.NetInputs*hid)
	for i := range w {
		w[i] = float32(r.NormFloat64() * 0.2)
	}
	for i := range hid {
		bias[i] = float32(r.NormFloat64() * 0.3)
		o[i] = float32(r.NormFloat64())
		gout[i] = float32(r.NormFloat64())
	}
	copy(gout2, gout)
	feats := []uint16{0, 5, 700, 767, 300, 301, 12}
	accumulateRows(acc, bias, w, feats)
	accumulateRowsScalar(acc2, bias, w, feats)
	near := func(what string, a, b float32) {
		t.Helper()
		if d := a - b; d > 1e-4 || d < -1e-4 {
			t.Fatalf("width %d: %s: %v vs scalar %v", hid, what, a, b)
		}
	}
	for h := range acc {
		near("accumulate", acc[h], acc2[h])
	}
	near("dotSCReLU", dotSCReLU(acc, o), dotSCReLUScalar(acc, o))
	hiddenGrad(acc, o, 0.37, gout, gacc)
	hiddenGradScalar(acc, o, 0.37, gout2, gacc2)
	for h := range acc {
		near("hiddenGrad gout", gout[h], gout2[h])
		near("hiddenGrad gacc", gacc[h], gacc2[h])
	}
	addRow(gout, o)
	addRowScalar(gout2, o)
	for h := range acc {
		near("addRow", gout[h], gout2[h])
	}
	// addRows: the same sums as a loop of addRowScalar, bit for bit,
	// a feature twice included.
	g, g2 := make([]float32, len(w)), make([]float32, len(w))
	copy(g, w)
	copy(g2, w)
	rows := append(feats, 5)
	addRows(g, rows, gacc)
	for _, f := range rows {
		addRowScalar(g2[int(f)*hid:int(f)*hid+hid], gacc)
	}
	for i := range g {
		if g[i] != g2[i] {
			t.Fatalf("width %d: addRows element %d: %v vs scalar %v", hid, i, g[i], g2[i])
		}
	}
}

// TestAdamStepMatchesScalar: the vector AdamW step gives exactly the
// scalar step's parameters and moments (frozen or not, with and without
// decay, lengths that are not multiples of eight).
func TestAdamStepMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for _, n := range []int{0, 5, 8, 1000, 1003} {
		for _, update := range []bool{true, false} {
			for _, c := range []adamConsts{{0.0021, 1.7, 0.9998}, {0.00003, 31.6, 1}} {
				mk := func(s float64) []float32 {
					x := make([]float32, n)
					for i := range x {
						x[i] = float32(r.NormFloat64() * s)
					}
					return x
				}
				p, m, v, g := mk(1), mk(0.01), mk(0.001), mk(0.05)
				for i := range v {
					v[i] = v[i] * v[i]
				}
				if n > 3 {
					p[0], p[1] = 1.979, -1.9799 // near the clip
				}
				p2, m2, v2 := append([]float32(nil), p...), append([]float32(nil), m...), append([]float32(nil), v...)
				adamStep(c, p, m, v, g, update)
				adamStepScalar(c, p2, m2, v2, g, update)
				for i := range p {
					if p[i] != p2[i] || m[i] != m2[i] || v[i] != v2[i] {
						t.Fatalf("n %d, update %v, %+v, parameter %d: %v %v %v, scalar %v %v %v", n, update, c, i, p[i], m[i], v[i], p2[i], m2[i], v2[i])
					}
				}
			}
		}
	}
}
