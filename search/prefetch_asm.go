//go:build (amd64 || arm64) && !purego

package search

import "unsafe"

// prefetch asks the CPU to bring the cache line at addr into the cache.
// It only hints: it reads nothing, and a bad address does not fault.
//
//go:noescape
func prefetch(addr unsafe.Pointer)
