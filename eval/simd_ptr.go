package eval

import "unsafe"

// sliceOf views NetHidden int16 values starting at p.
func sliceOf(p *int16) []int16 { return unsafe.Slice(p, NetHidden) }
