//go:build amd64 && !purego

package eval

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

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

func accUpdate(dst, src []int16, adds, subs []*int16) {
	if useAVX2 {
		_ = src[len(dst)-1]
		accUpdateAVX2(&dst[0], &src[0], unsafe.SliceData(adds), len(adds), unsafe.SliceData(subs), len(subs), len(dst)/NetHiddenStep)
		return
	}
	accUpdateGeneric(dst, src, adds, subs)
}

// screluDot: the AVX2 kernel sums into eight int32 lanes. Each lane takes
// 32 products of at most 255·255·127 for every 256 units (output weights
// are checked to |w| ≤ 127 on load), 128 at the widest (NetMaxHidden),
// under 1.06e9: no lane can overflow.
func screluDot(acc, w []int16) int64 {
	if useAVX2 {
		_ = w[len(acc)-1]
		var lanes [8]int32
		screluDotAVX2(&acc[0], &w[0], len(acc)/32, &lanes)
		var s int64
		for _, l := range lanes {
			s += int64(l)
		}
		return s
	}
	return screluDotGeneric(acc, w)
}
