//go:build !(amd64 || arm64) || purego

package search

import "unsafe"

// prefetch does nothing where there is no prefetch kernel.
func prefetch(addr unsafe.Pointer) {}
