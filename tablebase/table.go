package tablebase

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
)

var (
	errTruncated  = errors.New("file truncated")
	errEmpty      = errors.New("file empty")
	errCorrupt    = errors.New("file corrupt")
	errNotRegular = errors.New("not a regular file")
)

var (
	wdlMagic = [4]byte{0x71, 0xE8, 0x23, 0x5D}
	dtzMagic = [4]byte{0xD7, 0x66, 0x0C, 0xA5}
)

// Per-table flags (DTZ tables and the single-value case).
const (
	flagSTM         = 1
	flagMapped      = 2
	flagWinPlies    = 4
	flagLossPlies   = 8
	flagWide        = 16
	flagSingleValue = 128
)

// pairs describes one compressed sub-table: one side to move and, for
// tables with pawns, one file of the leading pawn.
type pairs struct {
	flags    byte
	pieces   [maxTBPieces]byte // piece codes in encoding order
	groupLen [maxTBPieces + 1]int
	groupIdx [maxTBPieces + 1]uint64
	tbSize   uint64

	// The sections below stay in the mapped file m: the fields are their
	// offsets, checked to lie inside the file when it is parsed.
	m           *mapping
	sizeofBlock uint64
	span        uint64
	sparse      int // 6 bytes an entry: block uint32, offset uint16
	sparseN     uint64
	blockLen    int // 2 bytes an entry
	blockLenN   uint64
	blocks      int
	blocksNum   uint64
	btree       int // 3 bytes a symbol
	minSymLen   int
	single      int      // the value of a single-value table
	lowestSym   []uint16 // at most 32 entries
	base64      []uint64
	symlen      []uint8 // values a symbol stands for, less one (at most 256)
	mapIdx      [4]int  // DTZ value maps, offsets from table.dtzMap
}

const maxTBPieces = 7

// table is one .rtbw or .rtbz file. Its description comes from the file
// name; the file is mapped and its header parsed when it is found.
type table struct {
	name      string
	path      string
	owner     *Tablebases // told when the file fails in a probe; may be nil
	dtz       bool
	key, key2 uint64
	pieces    int
	hasPawns  bool
	unique    bool   // some non-king piece appears once for a side
	pawnCount [2]int // leading colour first

	mm     *mapping    // the mapped file; nil once closed
	failed atomic.Bool // a probe found the file damaged: no longer read
	sides  int
	files  int
	items  [2][4]pairs
	dtzMap int // offset of the DTZ value maps
}

// materialKey packs piece counts: 4 bits per colour and type (pawn..queen).
func materialKey(counts [2][7]int) uint64 {
	var k uint64
	for c := 0; c < 2; c++ {
		for pt := 1; pt <= 5; pt++ {
			k |= uint64(counts[c][pt]&15) << (4 * (c*5 + pt - 1))
		}
	}
	return k
}

// parseName reads a table name like "KRPvKB" into piece counts.
func parseName(name string) (counts [2][7]int, ok bool) {
	side := 0
	kings := [2]int{}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		if ch == 'v' {
			if side == 1 {
				return counts, false
			}
			side = 1
			continue
		}
		pt := 0
		switch ch {
		case 'P':
			pt = 1
		case 'N':
			pt = 2
		case 'B':
			pt = 3
		case 'R':
			pt = 4
		case 'Q':
			pt = 5
		case 'K':
			pt = 6
		default:
			return counts, false
		}
		counts[side][pt]++
	}
	kings[0], kings[1] = counts[0][6], counts[1][6]
	if side != 1 || kings[0] != 1 || kings[1] != 1 {
		return counts, false
	}
	n := 0
	for c := 0; c < 2; c++ {
		for pt := 1; pt <= 6; pt++ {
			if counts[c][pt] > 15 {
				return counts, false
			}
			n += counts[c][pt]
		}
	}
	if n > maxTBPieces || n < 3 {
		return counts, false
	}
	return counts, true
}

func newTable(name, path string, dtz bool) (*table, bool) {
	counts, ok := parseName(name)
	if !ok {
		return nil, false
	}
	t := &table{name: name, path: path, dtz: dtz}
	var swapped [2][7]int
	swapped[0], swapped[1] = counts[1], counts[0]
	t.key = materialKey(counts)
	t.key2 = materialKey(swapped)
	for c := 0; c < 2; c++ {
		for pt := 1; pt <= 6; pt++ {
			t.pieces += counts[c][pt]
			if pt < 6 && counts[c][pt] == 1 {
				t.unique = true
			}
		}
	}
	wp, bp := counts[0][1], counts[1][1]
	t.hasPawns = wp+bp > 0
	if t.hasPawns {
		// The leading colour is the one with fewer pawns (white if equal),
		// or the only one with pawns.
		lead := bp == 0 || (wp > 0 && bp >= wp)
		if lead {
			t.pawnCount = [2]int{wp, bp}
		} else {
			t.pawnCount = [2]int{bp, wp}
		}
	}
	return t, true
}

// notRegular is the error for a path that is not a regular file: mode
// says what it is.
func notRegular(mode os.FileMode) error {
	what := "a special file"
	switch {
	case mode.IsDir():
		what = "a folder"
	case mode&os.ModeNamedPipe != 0:
		what = "a FIFO"
	case mode&os.ModeSocket != 0:
		what = "a socket"
	case mode&os.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%w: %s", errNotRegular, what)
}

// checksumSize is the length of the checksum that ends every table file.
const checksumSize = 16

// checkSize rejects a file whose length no table can have: tables are laid
// out in 64-byte units, and a 16-byte checksum follows.
func checkSize(n int) error {
	switch {
	case n == 0:
		return errEmpty
	case n%64 != checksumSize:
		return fmt.Errorf("%w: %d bytes, not 64n+16 as every table file", errTruncated, n)
	}
	return nil
}

// load maps the file and checks its header (magic, flags, piece lists,
// Huffman codes, and that every section lies inside the file). It runs
// once, when the folder is opened; a table that fails is not used.
func (t *table) load() error {
	m, err := mapFile(t.path)
	if err == nil {
		t.mm = m
		if err = checkSize(m.Len()); err == nil {
			err = t.parse()
		}
	}
	if err != nil {
		t.release()
		var pe *os.PathError
		if errors.As(err, &pe) {
			return err // it names the file already
		}
		return fmt.Errorf("%s: %w", t.path, err)
	}
	return nil
}

func (t *table) release() {
	if t.mm != nil {
		t.mm.close()
	}
	t.mm = nil
}

// Reads from a mapped file. The offsets of the probe code were checked
// against the file's length when it was parsed (At checks them again).
func u16le(m *mapping, off int) int {
	return int(m.At(off)) | int(m.At(off+1))<<8
}

func u32le(m *mapping, off int) uint64 {
	return uint64(m.At(off)) | uint64(m.At(off+1))<<8 | uint64(m.At(off+2))<<16 | uint64(m.At(off+3))<<24
}

func u32be(m *mapping, off int) uint64 {
	return uint64(m.At(off))<<24 | uint64(m.At(off+1))<<16 | uint64(m.At(off+2))<<8 | uint64(m.At(off+3))
}

// reader walks the file's header with bounds checks.
type reader struct {
	m   *mapping
	pos int
	err error
}

func (r *reader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || r.pos+n > r.m.Len() || r.pos+n < r.pos {
		r.err = errTruncated
		return false
	}
	return true
}

func (r *reader) u8() int {
	if !r.need(1) {
		return 0
	}
	r.pos++
	return int(r.m.At(r.pos - 1))
}

func (r *reader) u16() int {
	if !r.need(2) {
		return 0
	}
	r.pos += 2
	return u16le(r.m, r.pos-2)
}

func (r *reader) u32() uint64 {
	if !r.need(4) {
		return 0
	}
	r.pos += 4
	return u32le(r.m, r.pos-4)
}

// skip passes over the next n bytes and returns where they start.
func (r *reader) skip(n uint64) int {
	if n > uint64(r.m.Len()) || !r.need(int(n)) {
		r.err = errTruncated
		return 0
	}
	r.pos += int(n)
	return r.pos - int(n)
}

func (r *reader) align(a int) {
	if p := (r.pos + a - 1) &^ (a - 1); p <= r.m.Len() {
		r.pos = p
	} else {
		r.err = errTruncated
	}
}

// parse reads the header, the Huffman tables and locates the data blocks.
func (t *table) parse() error {
	r := &reader{m: t.mm}
	var magic [4]byte
	for i := range magic {
		magic[i] = byte(r.u8())
	}
	if r.err != nil {
		return r.err
	}
	want := wdlMagic
	if t.dtz {
		want = dtzMagic
	}
	if magic != want {
		return fmt.Errorf("%w: bad magic", errCorrupt)
	}
	flags := r.u8()
	if (flags&2 != 0) != t.hasPawns {
		return fmt.Errorf("%w: pawn flag does not match the name", errCorrupt)
	}
	split := t.key != t.key2
	if !t.dtz && (flags&1 != 0) != split {
		return fmt.Errorf("%w: split flag does not match the name", errCorrupt)
	}
	t.sides = 1
	if !t.dtz && split {
		t.sides = 2
	}
	t.files = 1
	if t.hasPawns {
		t.files = 4
	}
	pp := t.hasPawns && t.pawnCount[1] > 0
	for f := 0; f < t.files; f++ {
		b0 := r.u8()
		b1 := 0xFF
		if pp {
			b1 = r.u8()
		}
		order := [2][2]int{{b0 & 15, b1 & 15}, {b0 >> 4, b1 >> 4}}
		for k := 0; k < t.pieces; k++ {
			b := r.u8()
			for i := 0; i < t.sides; i++ {
				pc := b & 15
				if i == 1 {
					pc = b >> 4
				}
				t.items[i][f].pieces[k] = byte(pc)
			}
		}
		if r.err != nil {
			return r.err
		}
		for i := 0; i < t.sides; i++ {
			if err := t.checkPieces(&t.items[i][f]); err != nil {
				return err
			}
			if err := t.setGroups(&t.items[i][f], order[i], f); err != nil {
				return err
			}
		}
	}
	r.align(2)
	for f := 0; f < t.files; f++ {
		for i := 0; i < t.sides; i++ {
			if err := t.setSizes(&t.items[i][f], r); err != nil {
				return err
			}
		}
	}
	if t.dtz {
		if err := t.setDTZMap(r); err != nil {
			return err
		}
	}
	for f := 0; f < t.files; f++ {
		for i := 0; i < t.sides; i++ {
			d := &t.items[i][f]
			if d.flags&flagSingleValue == 0 {
				d.sparseN = (d.tbSize + d.span - 1) / d.span
			}
			d.sparse = r.skip(d.sparseN * 6)
		}
	}
	for f := 0; f < t.files; f++ {
		for i := 0; i < t.sides; i++ {
			d := &t.items[i][f]
			d.blockLen = r.skip(d.blockLenN * 2)
		}
	}
	for f := 0; f < t.files; f++ {
		for i := 0; i < t.sides; i++ {
			d := &t.items[i][f]
			r.align(64)
			if d.blocksNum > 0 && d.sizeofBlock > uint64(t.mm.Len()) {
				return errTruncated
			}
			d.blocks = r.skip(d.blocksNum * d.sizeofBlock)
		}
	}
	if r.err != nil {
		return r.err
	}
	if r.pos > t.mm.Len()-checksumSize {
		return fmt.Errorf("%w: the data runs into the checksum", errTruncated)
	}
	return nil
}

// checkPieces makes sure the piece list is the table's material.
func (t *table) checkPieces(d *pairs) error {
	var counts [2][7]int
	for k := 0; k < t.pieces; k++ {
		pc := d.pieces[k]
		pt, c := pc&7, pc>>3
		if pt < 1 || pt > 6 || c > 1 {
			return fmt.Errorf("%w: bad piece code %d", errCorrupt, pc)
		}
		counts[c][pt]++
	}
	if k := materialKey(counts); k != t.key && k != t.key2 {
		return fmt.Errorf("%w: piece list does not match the name", errCorrupt)
	}
	if t.hasPawns && d.pieces[0]&7 != 1 {
		return fmt.Errorf("%w: leading piece is not a pawn", errCorrupt)
	}
	return nil
}

// setGroups splits the pieces into encoding groups and computes each
// group's multiplier in the position index.
func (t *table) setGroups(d *pairs, order [2]int, f int) error {
	n := 0
	firstLen := 2
	if t.hasPawns {
		firstLen = 0
	} else if t.unique {
		firstLen = 3
	}
	d.groupLen[0] = 1
	for i := 1; i < t.pieces; i++ {
		firstLen--
		if firstLen > 0 || d.pieces[i] == d.pieces[i-1] {
			d.groupLen[n]++
		} else {
			n++
			d.groupLen[n] = 1
		}
	}
	n++
	d.groupLen[n] = 0
	pp := t.hasPawns && t.pawnCount[1] > 0
	next := 1
	if pp {
		next = 2
	}
	free := 64 - d.groupLen[0]
	if pp {
		free -= d.groupLen[1]
	}
	idx := uint64(1)
	for k := 0; next < n || k == order[0] || k == order[1]; k++ {
		if k > maxTBPieces+1 {
			return fmt.Errorf("%w: bad group order", errCorrupt)
		}
		switch {
		case k == order[0]:
			d.groupIdx[0] = idx
			switch {
			case t.hasPawns:
				if d.groupLen[0] > 6 {
					return errCorrupt
				}
				idx *= leadPawnsSize[d.groupLen[0]][f]
			case t.unique:
				idx *= 31332
			default:
				idx *= 462
			}
		case k == order[1]:
			d.groupIdx[1] = idx
			idx *= binomial[d.groupLen[1]][48-d.groupLen[0]]
		default:
			if next >= n || free < 0 || d.groupLen[next] > 7 {
				return errCorrupt
			}
			d.groupIdx[next] = idx
			idx *= binomial[d.groupLen[next]][free]
			free -= d.groupLen[next]
			next++
		}
	}
	d.groupIdx[n] = idx
	d.tbSize = idx
	return nil
}
