package tablebase

import (
	"fmt"
)

// setSizes reads the block geometry and the canonical Huffman code of one
// sub-table, and the pair tree of its Recursive Pairing symbols.
func (t *table) setSizes(d *pairs, r *reader) error {
	d.m = r.m
	d.flags = byte(r.u8())
	if d.flags&flagSingleValue != 0 {
		d.single = r.u8()
		return r.err
	}
	bs, sp := r.u8(), r.u8()
	if bs > 30 || sp > 30 {
		return fmt.Errorf("%w: block size or span out of range", errCorrupt)
	}
	d.sizeofBlock = 1 << bs
	d.span = 1 << sp
	padding := uint64(r.u8())
	d.blocksNum = r.u32()
	d.blockLenN = d.blocksNum + padding
	maxSymLen, minSymLen := r.u8(), r.u8()
	if r.err != nil {
		return r.err
	}
	if minSymLen < 1 || maxSymLen > 32 || minSymLen > maxSymLen {
		return fmt.Errorf("%w: symbol lengths %d..%d", errCorrupt, minSymLen, maxSymLen)
	}
	d.minSymLen = minSymLen
	n := maxSymLen - minSymLen + 1
	d.lowestSym = make([]uint16, n)
	for i := range d.lowestSym {
		d.lowestSym[i] = uint16(r.u16())
	}
	if r.err != nil {
		return r.err
	}
	low := func(i int) uint64 { return uint64(d.lowestSym[i]) }
	d.base64 = make([]uint64, n)
	for i := n - 2; i >= 0; i-- {
		d.base64[i] = (d.base64[i+1] + low(i) - low(i+1)) / 2
		if d.base64[i]*2 < d.base64[i+1] {
			return fmt.Errorf("%w: Huffman code not canonical", errCorrupt)
		}
	}
	for i := range d.base64 {
		d.base64[i] <<= uint(64 - i - minSymLen)
	}
	nsym := r.u16()
	d.btree = r.skip(uint64(3 * nsym))
	if nsym&1 != 0 {
		r.u8()
	}
	if r.err != nil {
		return r.err
	}
	if nsym == 0 {
		return fmt.Errorf("%w: no symbols", errCorrupt)
	}
	d.symlen = make([]uint8, nsym)
	visited := make([]bool, nsym)
	for s := 0; s < nsym; s++ {
		if !visited[s] {
			v, err := d.setSymlen(s, visited, 0)
			if err != nil {
				return err
			}
			d.symlen[s] = uint8(v)
		}
	}
	// Every pair must expand into strictly shorter halves, so that the
	// walk down the tree in decompress always ends.
	for s := 0; s < nsym; s++ {
		rs := d.right(s)
		if rs == 0xFFF {
			continue
		}
		ls := d.left(s)
		if int(d.symlen[s]) != int(d.symlen[ls])+int(d.symlen[rs])+1 {
			return fmt.Errorf("%w: pair tree inconsistent", errCorrupt)
		}
	}
	return nil
}

func (d *pairs) left(s int) int {
	o := d.btree + 3*s
	return int(d.m.At(o+1)&15)<<8 | int(d.m.At(o))
}

func (d *pairs) right(s int) int {
	o := d.btree + 3*s
	return int(d.m.At(o+2))<<4 | int(d.m.At(o+1)>>4)
}

// setSymlen returns how many values, less one, symbol s stands for.
func (d *pairs) setSymlen(s int, visited []bool, depth int) (int, error) {
	visited[s] = true
	rs := d.right(s)
	if rs == 0xFFF {
		return 0, nil
	}
	ls := d.left(s)
	if ls >= len(d.symlen) || rs >= len(d.symlen) || depth > len(d.symlen) {
		return 0, fmt.Errorf("%w: pair tree out of range", errCorrupt)
	}
	for _, c := range [2]int{ls, rs} {
		if !visited[c] {
			v, err := d.setSymlen(c, visited, depth+1)
			if err != nil {
				return 0, err
			}
			d.symlen[c] = uint8(v)
		}
	}
	n := int(d.symlen[ls]) + int(d.symlen[rs]) + 1
	if n > 255 {
		return 0, fmt.Errorf("%w: a symbol stands for more than 256 values", errCorrupt)
	}
	return n, nil
}

// setDTZMap records where the DTZ value maps of each file start.
func (t *table) setDTZMap(r *reader) error {
	start := r.pos
	t.dtzMap = start
	for f := 0; f < t.files; f++ {
		d := &t.items[0][f]
		if d.flags&flagMapped == 0 {
			continue
		}
		if d.flags&flagWide != 0 {
			r.align(2)
			for i := 0; i < 4; i++ {
				d.mapIdx[i] = (r.pos-start)/2 + 1
				n := r.u16()
				r.skip(uint64(2 * n))
			}
		} else {
			for i := 0; i < 4; i++ {
				d.mapIdx[i] = r.pos - start + 1
				n := r.u8()
				r.skip(uint64(n))
			}
		}
	}
	r.align(2)
	return r.err
}

// decompress returns the stored value at index idx of a sub-table.
func (d *pairs) decompress(idx uint64) (int, bool) {
	if d.flags&flagSingleValue != 0 {
		return d.single, true
	}
	if idx >= d.tbSize {
		return 0, false
	}
	m := d.m
	k := idx / d.span
	if k >= d.sparseN {
		return 0, false
	}
	e := d.sparse + int(k)*6
	block := u32le(m, e)
	offset := int64(u16le(m, e+4))
	offset += int64(idx%d.span) - int64(d.span/2)
	blockLen := func(b uint64) (int64, bool) {
		if b >= d.blockLenN {
			return 0, false
		}
		return int64(u16le(m, d.blockLen+2*int(b))), true
	}
	for offset < 0 {
		if block == 0 {
			return 0, false
		}
		block--
		l, ok := blockLen(block)
		if !ok {
			return 0, false
		}
		offset += l + 1
	}
	for {
		l, ok := blockLen(block)
		if !ok {
			return 0, false
		}
		if offset <= l {
			break
		}
		offset -= l + 1
		block++
	}
	if block >= d.blocksNum || d.sizeofBlock < 8 {
		return 0, false
	}
	data := d.blocks + int(block*d.sizeofBlock)
	size := int(d.sizeofBlock)
	buf := u32be(m, data)<<32 | u32be(m, data+4)
	ptr := 8
	bits := 64
	var sym int
	for {
		l := 0
		for l < len(d.base64) && buf < d.base64[l] {
			l++
		}
		if l >= len(d.base64) || l >= len(d.lowestSym) {
			return 0, false // the last code length has base 0: a valid table never ends here
		}
		sym = int((buf - d.base64[l]) >> uint(64-l-d.minSymLen))
		sym += int(d.lowestSym[l])
		if sym >= len(d.symlen) {
			return 0, false
		}
		if offset < int64(d.symlen[sym])+1 {
			break
		}
		offset -= int64(d.symlen[sym]) + 1
		l += d.minSymLen
		buf <<= uint(l)
		bits -= l
		if bits <= 32 {
			// Refill. Past the end of the block the bits are not needed
			// by a valid table: read zeros there.
			if ptr+4 > size {
				if ptr > size+64 {
					return 0, false
				}
			} else {
				buf |= u32be(m, data+ptr) << uint(32-bits)
			}
			bits += 32
			ptr += 4
		}
	}
	// Each step goes to a shorter symbol, as checked when the file was
	// opened; a file changed since could lead anywhere, so check again.
	for d.symlen[sym] != 0 {
		ls := d.left(sym)
		if ls >= len(d.symlen) || d.symlen[ls] >= d.symlen[sym] {
			return 0, false
		}
		next := ls
		if offset >= int64(d.symlen[ls])+1 {
			offset -= int64(d.symlen[ls]) + 1
			next = d.right(sym)
			if next >= len(d.symlen) || d.symlen[next] >= d.symlen[sym] {
				return 0, false
			}
		}
		sym = next
	}
	return d.left(sym), true
}
