//go:build !windows && !(linux && (amd64 || arm64))

package search

import "runtime/debug"

// ttMemory: the table is an ordinary Go slice.
type ttMemory struct{}

// allocBuckets makes n zeroed buckets. A large slice gets pages from the
// operating system that stay untouched, and so not resident, until used;
// on Linux also pages the runtime returned to it before (they come back
// zero, and the runtime knows it).
func (t *TT) allocBuckets(n uint64) { t.buckets = make([]ttBucket, n) }

// freeBuckets drops the table and returns its pages to the operating
// system.
func (t *TT) freeBuckets() {
	t.buckets = nil
	debug.FreeOSMemory() // collects the old table and returns its pages
}

// shrinkBuckets cannot cut a Go slice in place: the caller reallocates.
func (t *TT) shrinkBuckets(n uint64) bool { return false }

// discardFrom cannot empty a Go slice without writing it: the caller
// reallocates.
func (t *TT) discardFrom(uint64) bool { return false }

// populate leaves it to the caller to write to every page.
func (t *TT) populate(b []ttBucket) bool { return false }

// TableOutsideHeap: the table is in the Go runtime's memory (a slice).
const TableOutsideHeap = false
