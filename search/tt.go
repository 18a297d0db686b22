package search

import (
	"math/bits"
	"runtime"
	"sync"
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
	// resident is set by Reserve, once every page of the table has been
	// written: Clear then writes zeros in place and the pages stay.
	resident bool
	// populated: buckets [0, populated) have been made resident by
	// Reserve (one stopped early goes on from there, and Clear writes
	// zeros over them in place).
	populated uint64
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
	t.used, t.resident, t.populated = false, false, 0
}

// reserveChunk is how much of the table Reserve makes resident between
// two looks at the memory and at its stop: what it can overshoot by when
// other processes take memory at the same time, and about how long a
// stop waits (32 MB: 10-40 ms on the 2-core build machine, up to about
// 0.3 s under heavy load).
const reserveChunk = 32 << 20

// pageBytes is the page size assumed where the table is written page by
// page to make it resident; where pages are larger, some writes are
// spent on pages already resident.
const pageBytes = 4096

// Reserve makes every page of the table resident now, a chunk at a time,
// so that the memory it needs is taken when it is set up (and other
// processes that measure the memory see it taken) rather than during the
// games. After each chunk, fit says how many buckets the table may have
// with what the process holds now; where other processes took memory
// meanwhile and that is less than the table, the table is cut to it
// (never below one bucket); lock, if not nil, is held while it is cut
// (readers of the table's allocation hold it). Before each chunk, a stop
// that returns true ends it early (stop may be nil): the pages made
// resident so far stay, the rest are taken as searches write them, and
// the next Reserve goes on from there. It returns the number of buckets
// left and whether a stop ended it. A table still not resident without a
// stop was cut too often (the memory kept shrinking): the rest is left
// to fill during the games.
func (t *TT) Reserve(fit func() uint64, stop func() bool, lock sync.Locker) (n uint64, stopped bool) {
	bucketBytes := uint64(unsafe.Sizeof(ttBucket{}))
	chunk := uint64(reserveChunk) / bucketBytes
	for cuts := 0; t.populated < uint64(len(t.buckets)); {
		if stop != nil && stop() {
			return uint64(len(t.buckets)), true
		}
		end := min(uint64(len(t.buckets)), t.populated+chunk)
		t.populateRange(t.populated, end)
		t.populated = end
		n := max(1, min(uint64(len(t.buckets)), fit()))
		if n == uint64(len(t.buckets)) {
			continue
		}
		cuts++
		if lock != nil {
			lock.Lock()
		}
		cut := t.shrinkBuckets(n)
		if cut {
			t.populated = min(t.populated, n)
		} else {
			// The table cannot be cut in place: a new one, written
			// again from its start.
			t.realloc(n)
		}
		if lock != nil {
			lock.Unlock()
		}
		if !cut && cuts > 4 {
			return n, false
		}
	}
	t.resident = true
	return uint64(len(t.buckets)), false
}

// populateRange makes buckets [lo, hi) resident, split among the
// processors.
func (t *TT) populateRange(lo, hi uint64) {
	t.parallel(lo, hi, func(b []ttBucket) {
		if t.populate(b) {
			return
		}
		step := pageBytes / int(unsafe.Sizeof(ttBucket{}))
		for i := 0; i < len(b); i += step {
			b[i][0].key.Store(0) // a write: a read would map the shared zero page
		}
	})
}

// parallel runs f over [lo, hi) of the buckets in parts on every
// processor, each part starting on a 2 MB boundary of the table (a page
// boundary, whatever the page size).
func (t *TT) parallel(lo, hi uint64, f func([]ttBucket)) {
	const align = (2 << 20) / uint64(unsafe.Sizeof(ttBucket{}))
	workers := uint64(runtime.GOMAXPROCS(0))
	per := ((hi-lo)/workers + align - 1) / align * align
	if workers == 1 || per == 0 || hi-lo <= align {
		f(t.buckets[lo:hi])
		return
	}
	var wg sync.WaitGroup
	for a := lo; a < hi; a += per {
		b := min(hi, a+per)
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(t.buckets[a:b])
		}()
	}
	wg.Wait()
}

// clearRemakeBytes: from this size on, Clear of a table that is not
// resident hands its pages back (or allocates a new one) instead of
// writing zeros over it. Writing zeros touches every page, also those no
// search ever used: on a 17 GB table that took 30-100 s and made the
// whole table resident. Fresh pages from the OS are zero and cost nothing
// until used.
const clearRemakeBytes = 64 << 20

// Clear empties the table. A resident table (Reserve) is overwritten in
// place, on every processor, and stays resident; so is the part a stopped
// Reserve made resident, the rest being handed back.
func (t *TT) Clear() {
	if t.used {
		n := uint64(len(t.buckets))
		bucketBytes := uint64(unsafe.Sizeof(ttBucket{}))
		// The resident part, to a page boundary (Reserve's chunks are
		// whole pages but for the table's last).
		keep := min(n, (t.populated*bucketBytes+pageBytes-1)/pageBytes*pageBytes/bucketBytes)
		switch {
		case t.resident:
			t.parallel(0, n, func(b []ttBucket) { clear(b) })
		case n*bucketBytes < clearRemakeBytes:
			clear(t.buckets)
		case t.discardFrom(keep):
			t.parallel(0, keep, func(b []ttBucket) { clear(b) })
		default:
			t.realloc(n)
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
	if n == 0 {
		return 0 // freed (Engine.Close)
	}
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
