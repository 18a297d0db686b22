package eval

import "unsafe"

// The network's two hot loops, with a pure-Go reference here and AVX2
// kernels on amd64 (simd_amd64.go), chosen at start-up by a CPU-feature
// check. Both give exactly the same integers. An accumulator, a weight
// row and an output half are h int16 values from a pointer, h a multiple
// of NetHiddenStep (the net's width).

// accUpdateGeneric sets dst = src + Σ adds − Σ subs (int16, wrapping as
// the vector instructions do), adds and subs being the first of nAdd and
// nSub pointers to rows. dst and src may be the same accumulator.
func accUpdateGeneric(dst, src *int16, adds **int16, nAdd int, subs **int16, nSub int, h int) {
	d := unsafe.Slice(dst, h)
	copy(d, unsafe.Slice(src, h))
	for _, p := range unsafe.Slice(adds, nAdd) {
		row := unsafe.Slice(p, h)
		for i := range d {
			d[i] += row[i]
		}
	}
	for _, p := range unsafe.Slice(subs, nSub) {
		row := unsafe.Slice(p, h)
		for i := range d {
			d[i] -= row[i]
		}
	}
}

// screluDotGeneric is Σ clamp(acc,0,QA)² · w over h units.
func screluDotGeneric(acc, w *int16, h int) int64 {
	var sum int64
	ws := unsafe.Slice(w, h)
	for i, a := range unsafe.Slice(acc, h) {
		x := int64(min(max(a, 0), NetQA))
		sum += x * x * int64(ws[i])
	}
	return sum
}
