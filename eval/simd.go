package eval

import "unsafe"

// The network's two hot loops, with a pure-Go reference here and AVX2
// kernels on amd64 (simd_amd64.go), chosen at start-up by a CPU-feature
// check. Both give exactly the same integers. Accumulators are Hidden
// int16 values, a multiple of NetHiddenStep.

// accUpdateGeneric sets dst = src + Σ adds − Σ subs (int16, wrapping as
// the vector instructions do). Each pointer is the first of len(dst)
// weights; dst and src may be the same accumulator.
func accUpdateGeneric(dst, src []int16, adds, subs []*int16) {
	copy(dst, src[:len(dst)])
	for _, p := range adds {
		row := unsafe.Slice(p, len(dst))
		for i := range dst {
			dst[i] += row[i]
		}
	}
	for _, p := range subs {
		row := unsafe.Slice(p, len(dst))
		for i := range dst {
			dst[i] -= row[i]
		}
	}
}

// screluDotGeneric is Σ clamp(acc,0,QA)² · w.
func screluDotGeneric(acc, w []int16) int64 {
	var sum int64
	w = w[:len(acc)]
	for i, a := range acc {
		x := int64(min(max(a, 0), NetQA))
		sum += x * x * int64(w[i])
	}
	return sum
}
