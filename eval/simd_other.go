//go:build !amd64 || purego

package eval

var useAVX2 = false

func accUpdate(dst, src *[NetHidden]int16, adds *[2]*int16, nAdd int, subs *[2]*int16, nSub int) {
	accUpdateGeneric(dst, src, adds, nAdd, subs, nSub)
}

func screluDot(acc, w *[NetHidden]int16) int64 { return screluDotGeneric(acc, w) }
