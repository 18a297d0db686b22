//go:build !amd64 || purego

package eval

var useAVX2 = false

func accUpdate(dst, src *int16, adds **int16, nAdd int, subs **int16, nSub int, h int) {
	accUpdateGeneric(dst, src, adds, nAdd, subs, nSub, h)
}

func screluDot(acc, w *int16, h int) int64 { return screluDotGeneric(acc, w, h) }
