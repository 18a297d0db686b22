//go:build amd64 && !purego

package eval

import "golang.org/x/sys/cpu"

// useAVX2 selects the vector kernels; tests flip it to compare paths.
var useAVX2 = cpu.X86.HasAVX2

// accUpdateAVX2 works on blocks of NetHiddenStep units.
//
//go:noescape
func accUpdateAVX2(dst, src *int16, adds **int16, nAdd int, subs **int16, nSub int, blocks int)

// screluDotAVX2 takes iters runs of 32 units.
//
//go:noescape
func screluDotAVX2(acc, w *int16, iters int, lanes *[8]int32)

func accUpdate(dst, src *int16, adds **int16, nAdd int, subs **int16, nSub int, h int) {
	if useAVX2 {
		accUpdateAVX2(dst, src, adds, nAdd, subs, nSub, h/NetHiddenStep)
		return
	}
	accUpdateGeneric(dst, src, adds, nAdd, subs, nSub, h)
}

// screluDot: the AVX2 kernel sums into eight int32 lanes. Each lane takes
// 32 products of at most 255·255·127 for every 256 units (output weights
// are checked to |w| ≤ 127 on load), 128 at the widest (NetMaxHidden),
// under 1.06e9: no lane can overflow.
func screluDot(acc, w *int16, h int) int64 {
	if useAVX2 {
		var lanes [8]int32
		screluDotAVX2(acc, w, h/32, &lanes)
		var s int64
		for _, l := range lanes {
			s += int64(l)
		}
		return s
	}
	return screluDotGeneric(acc, w, h)
}
