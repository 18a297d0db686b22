//go:build amd64 && !purego

package eval

import "golang.org/x/sys/cpu"

// useAVX2 selects the vector kernels; tests flip it to compare paths.
var useAVX2 = cpu.X86.HasAVX2

//go:noescape
func accUpdateAVX2(dst, src *[NetHidden]int16, adds *[2]*int16, nAdd int, subs *[2]*int16, nSub int)

//go:noescape
func screluDotAVX2(acc, w *[NetHidden]int16, lanes *[8]int32)

func accUpdate(dst, src *[NetHidden]int16, adds *[2]*int16, nAdd int, subs *[2]*int16, nSub int) {
	if useAVX2 {
		accUpdateAVX2(dst, src, adds, nAdd, subs, nSub)
		return
	}
	accUpdateGeneric(dst, src, adds, nAdd, subs, nSub)
}

// screluDot: the AVX2 kernel sums into eight int32 lanes. Each lane takes
// 32 products of at most 255·255·127 (output weights are checked to
// |w| ≤ 127 on load), so no lane can overflow.
func screluDot(acc, w *[NetHidden]int16) int64 {
	if useAVX2 {
		var lanes [8]int32
		screluDotAVX2(acc, w, &lanes)
		var s int64
		for _, l := range lanes {
			s += int64(l)
		}
		return s
	}
	return screluDotGeneric(acc, w)
}
