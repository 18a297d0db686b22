package eval

// The network's two hot loops, with a pure-Go reference here and AVX2
// kernels on amd64 (simd_amd64.go), chosen at start-up by a CPU-feature
// check. Both give exactly the same integers.

// accUpdateGeneric sets dst = src + Σ adds − Σ subs (int16, wrapping as
// the vector instructions do). Each pointer is the first of NetHidden
// weights.
func accUpdateGeneric(dst, src *[NetHidden]int16, adds *[2]*int16, nAdd int, subs *[2]*int16, nSub int) {
	*dst = *src
	for k := 0; k < nAdd; k++ {
		row := (*[NetHidden]int16)(sliceOf(adds[k]))
		for i := range dst {
			dst[i] += row[i]
		}
	}
	for k := 0; k < nSub; k++ {
		row := (*[NetHidden]int16)(sliceOf(subs[k]))
		for i := range dst {
			dst[i] -= row[i]
		}
	}
}

// screluDotGeneric is Σ clamp(acc,0,QA)² · w.
func screluDotGeneric(acc, w *[NetHidden]int16) int64 {
	var sum int64
	for i, a := range acc {
		x := int64(min(max(a, 0), NetQA))
		sum += x * x * int64(w[i])
	}
	return sum
}
