//go:build !amd64 || purego

package eval

var useAVX2 = false

func accUpdate(dst, src []int16, adds, subs []*int16) { accUpdateGeneric(dst, src, adds, subs) }

func screluDot(acc, w []int16) int64 { return screluDotGeneric(acc, w) }
