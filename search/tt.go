package search

import (
	"math/bits"
	"sync/atomic"
	"unsafe"

	v "github.com/rochade/rochade/variant960"
)

// ttEntry is one slot. The key word holds key^data, so that a torn write
// from another thread reads back as a miss (lock-free, Hyatt's scheme),
// and both words are atomic, so the race detector stays quiet.
type ttEntry struct {
	key  atomic.Uint64
	data atomic.Uint64
}

// A bucket is one cache line of four slots.
type ttBucket [4]ttEntry

// ttData is an unpacked entry.
type ttData struct {
	move  v.Move
	score int
	eval  int
	depth int
	bound Bound
	pv    bool
}

// data layout: move 0-15, score 16-31, eval 32-47, depth+depthOffset
// 48-55, pv flag 56, bound 57-58, generation 59-63.
const (
	depthOffset = 8
	genShift    = 59
	genMask     = 31
)

func pack(m v.Move, score, eval, depth int, bound Bound, pv bool, gen uint8) uint64 {
	d := uint64(uint16(m)) | uint64(uint16(int16(score)))<<16 | uint64(uint16(int16(eval)))<<32 |
		uint64(uint8(depth+depthOffset))<<48 | uint64(bound)<<57 | uint64(gen)<<genShift
	if pv {
		d |= 1 << 56
	}
	return d
}

func unpack(d uint64) ttData {
	return ttData{
		move:  v.Move(d),
		score: int(int16(d >> 16)),
		eval:  int(int16(d >> 32)),
		depth: int(uint8(d>>48)) - depthOffset,
		pv:    d>>56&1 != 0,
		bound: Bound(d >> 57 & 3),
	}
}

// TT is the shared transposition table. Probe, Store and HashFull may run
// at the same time from any goroutines; Resize, Clear and NewSearch need
// the table to themselves (the Engine sees to that).
type TT struct {
	buckets []ttBucket
	mem     ttMemory // where buckets lives (ttmem_*.go)
	gen     uint8
	// used is set when a search starts: before that the table is still
	// all zeros as allocated, and Clear has nothing to do (clearing it
	// would only fault in every page of a table no search has touched).
	used bool
}

// NewTT makes a table of about mb megabytes.
func NewTT(mb int) *TT {
	t := &TT{}
	t.Resize(mb)
	return t
}

// Resize reallocates the table (contents are lost).
func (t *TT) Resize(mb int) {
	t.realloc(max(uint64(mb)<<20/64, 1))
}

// realloc replaces the table with n fresh buckets. The old table is
// released to the operating system before the new one is allocated
// (freeBuckets and allocBuckets are in ttmem_*.go).
func (t *TT) realloc(n uint64) {
	if t.buckets != nil {
		t.freeBuckets()
	}
	t.allocBuckets(n)
	t.used = false
}

// clearRemakeBytes: from this size on, Clear drops the table and
// allocates a new one instead of writing zeros over it. Writing zeros
// touches every page, also those no search ever used: on a 17 GB table
// that took 30-100 s and made the whole table resident. Fresh pages from
// the OS are zero and cost nothing until used.
const clearRemakeBytes = 64 << 20

// Clear empties the table.
func (t *TT) Clear() {
	if t.used {
		if n := len(t.buckets); n*int(unsafe.Sizeof(ttBucket{})) >= clearRemakeBytes {
			t.realloc(uint64(n))
		} else {
			clear(t.buckets)
		}
		t.used = false
	}
	t.gen = 0
}

// NewSearch ages the table.
func (t *TT) NewSearch() {
	t.gen = (t.gen + 1) & genMask
	t.used = true
}

func (t *TT) bucket(key uint64) *ttBucket {
	hi, _ := bits.Mul64(key, uint64(len(t.buckets)))
	return &t.buckets[hi]
}

// Prefetch starts loading the bucket of key into the cache, so that a
// Probe soon after finds it there.
func (t *TT) Prefetch(key uint64) {
	prefetch(unsafe.Pointer(t.bucket(key)))
}

// Probe looks up a key. An entry with BoundNone carries only a static
// evaluation.
func (t *TT) Probe(key uint64) (ttData, bool) {
	b := t.bucket(key)
	for i := range b {
		d := b[i].data.Load()
		if b[i].key.Load()^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return ttData{}, false
}

// Store writes an entry, choosing the slot by depth and age.
func (t *TT) Store(key uint64, m v.Move, score, eval, depth int, bound Bound, pv bool) {
	b := t.bucket(key)
	gen := t.gen
	replace := 0
	worst := 1 << 30
	for i := range b {
		d := b[i].data.Load()
		k := b[i].key.Load() ^ d
		if k == key || d == 0 {
			old := unpack(d)
			if k == key {
				if m == v.NoMove {
					m = old.move
				}
				// Keep a deeper entry of the same search unless exact.
				if bound != BoundExact && depth+4 < old.depth && uint8(d>>genShift) == gen {
					return
				}
			}
			replace = i
			break
		}
		age := int((gen - uint8(d>>genShift)) & genMask)
		if val := int(uint8(d>>48)) - 8*age; val < worst {
			worst = val
			replace = i
		}
	}
	d := pack(m, score, eval, depth, bound, pv, gen)
	b[replace].data.Store(d)
	b[replace].key.Store(key ^ d)
}

// HashFull returns the permille of slots used by the current search.
func (t *TT) HashFull() int {
	n := min(1000, len(t.buckets))
	used := 0
	for i := 0; i < n; i++ {
		for j := range t.buckets[i] {
			d := t.buckets[i][j].data.Load()
			if d != 0 && uint8(d>>genShift) == t.gen {
				used++
			}
		}
	}
	return used * 1000 / (n * 4)
}

// Mate scores are stored relative to the node, not the root.
func scoreToTT(s, ply int) int {
	if s >= MateInMaxPly {
		return s + ply
	}
	if s <= -MateInMaxPly {
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply, rule50 int) int {
	if s >= MateInMaxPly {
		// A mate that the fifty-move rule would cut off is not sure.
		if MateScore-s > 99-rule50 {
			return MateInMaxPly - 1
		}
		return s - ply
	}
	if s <= -MateInMaxPly {
		if MateScore+s > 99-rule50 {
			return -MateInMaxPly + 1
		}
		return s + ply
	}
	return s
}
