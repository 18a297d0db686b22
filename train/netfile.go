package train

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	v "github.com/rochade/rochade/variant960"
)

// NetMagic opens every net file.
const NetMagic = "RCHDNNUE"

// NetVersion is the file format version written. ReadNetFile also reads
// version 1 (no buckets field; one output bucket).
const NetVersion = 2

// QuantNet is a quantised net as the file holds it.
type QuantNet struct {
	W        []int16 // [Inputs][Hidden], round(W*QA)
	B        []int16 // [Hidden], round(B*QA)
	O        []int16 // [Buckets][2*Hidden], side to move first, round(O*QB)
	OB       []int32 // [Buckets], round(ob*QA*QB)
	Manifest []byte  // UTF-8 JSON
}

// Buckets is the number of output buckets.
func (q *QuantNet) Buckets() int { return len(q.OB) }

func roundClamp16(x float64) int16 {
	r := math.Round(x)
	return int16(min(max(r, math.MinInt16), math.MaxInt16))
}

// Quantise converts float weights to the file's integers. The weights must
// be within MaxSize (Clip does that) for the values to be exact roundings.
func (n *Net) Quantise() *QuantNet {
	q := &QuantNet{
		W:  make([]int16, len(n.W)),
		B:  make([]int16, len(n.B)),
		O:  make([]int16, len(n.O)),
		OB: make([]int32, len(n.OB)),
	}
	for i, w := range n.W {
		q.W[i] = roundClamp16(float64(w) * QA)
	}
	for i, w := range n.B {
		q.B[i] = roundClamp16(float64(w) * QA)
	}
	for i, w := range n.O {
		q.O[i] = roundClamp16(float64(w) * QB)
	}
	for i, w := range n.OB {
		q.OB[i] = int32(math.Round(float64(w) * QA * QB))
	}
	return q
}

// headerV1 and headerV2 are the sizes of the fixed headers, up to the
// manifest.
const (
	headerV1 = 36
	headerV2 = 40
)

// WriteNetFile writes q in net file format v2 (all little-endian), with
// B = q.Buckets() output buckets:
//
//	0   [8]byte "RCHDNNUE"
//	8   uint32 version = 2
//	12  uint32 inputs = 768
//	16  uint32 hidden = 256
//	20  uint32 QA = 255
//	24  uint32 QB = 64
//	28  uint32 scale = 400
//	32  uint32 buckets = B (1..32)
//	36  uint32 manifestLen
//	40  manifest: manifestLen bytes of UTF-8 JSON
//	..  int16 W[768][256] (index f*256+h)
//	..  int16 B[256]
//	..  int16 O[B][512] (per bucket: 0..255 side to move, 256..511 other side)
//	..  int32 ob[B]
//	..  [32]byte SHA-256 of all preceding bytes
//
// Version 1 is the same without the buckets field (a 36-byte header) and
// with one bucket.
func WriteNetFile(w io.Writer, q *QuantNet) error {
	nb := q.Buckets()
	if len(q.W) != Inputs*Hidden || len(q.B) != Hidden || nb < 1 || nb > MaxBuckets || len(q.O) != nb*2*Hidden {
		return errors.New("net has the wrong shape")
	}
	var buf bytes.Buffer
	buf.Grow(headerV2 + len(q.Manifest) + 2*(len(q.W)+len(q.B)+len(q.O)) + 4*nb + 32)
	buf.WriteString(NetMagic)
	le := binary.LittleEndian
	for _, x := range []uint32{NetVersion, Inputs, Hidden, QA, QB, Scale, uint32(nb), uint32(len(q.Manifest))} {
		buf.Write(le.AppendUint32(nil, x))
	}
	buf.Write(q.Manifest)
	var b2 [2]byte
	for _, part := range [][]int16{q.W, q.B, q.O} {
		for _, x := range part {
			le.PutUint16(b2[:], uint16(x))
			buf.Write(b2[:])
		}
	}
	for _, x := range q.OB {
		buf.Write(le.AppendUint32(nil, uint32(x)))
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	_, err := w.Write(buf.Bytes())
	return err
}

// SaveNetFile writes q to path (through a temporary file and a rename).
func SaveNetFile(path string, q *QuantNet) error {
	var buf bytes.Buffer
	if err := WriteNetFile(&buf, q); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadNetFile parses and checks a net file (format v2, or v1 as one
// bucket): magic, header values, lengths and the SHA-256 trailer.
func ReadNetFile(data []byte) (*QuantNet, error) {
	if len(data) < headerV1+32 {
		return nil, errors.New("net file too short")
	}
	if string(data[:8]) != NetMagic {
		return nil, errors.New("not a Rochade net file (bad magic)")
	}
	le := binary.LittleEndian
	header, nb := headerV2, 0
	switch ver := le.Uint32(data[8:]); ver {
	case 1:
		header, nb = headerV1, 1
	case 2:
		if len(data) < headerV2+32 {
			return nil, errors.New("net file too short")
		}
		b := le.Uint32(data[32:])
		if b < 1 || b > MaxBuckets {
			return nil, fmt.Errorf("net file has %d output buckets, want 1..%d", b, MaxBuckets)
		}
		nb = int(b)
	default:
		return nil, fmt.Errorf("net file version is %d, want 1 or %d", ver, NetVersion)
	}
	want := []uint32{Inputs, Hidden, QA, QB, Scale}
	names := []string{"inputs", "hidden", "QA", "QB", "scale"}
	for i, w := range want {
		if got := le.Uint32(data[12+4*i:]); got != w {
			return nil, fmt.Errorf("net file %s is %d, want %d", names[i], got, w)
		}
	}
	mlen := uint64(le.Uint32(data[header-4:]))
	total := uint64(header) + mlen + 2*uint64(Inputs*Hidden+Hidden+nb*2*Hidden) + 4*uint64(nb) + 32
	if uint64(len(data)) != total {
		return nil, fmt.Errorf("net file is %d bytes, want %d", len(data), total)
	}
	body := data[:total-32]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[total-32:]) {
		return nil, errors.New("net file checksum mismatch")
	}
	q := &QuantNet{Manifest: append([]byte(nil), data[header:header+int(mlen)]...)}
	p := header + int(mlen)
	read16 := func(n int) []int16 {
		out := make([]int16, n)
		for i := range out {
			out[i] = int16(le.Uint16(data[p:]))
			p += 2
		}
		return out
	}
	q.W = read16(Inputs * Hidden)
	q.B = read16(Hidden)
	q.O = read16(nb * 2 * Hidden)
	q.OB = make([]int32, nb)
	for i := range q.OB {
		q.OB[i] = int32(le.Uint32(data[p:]))
		p += 4
	}
	return q, nil
}

// LoadNetFile reads and checks the net file at path.
func LoadNetFile(path string) (*QuantNet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ReadNetFile(data)
}

// QuantEval is the reference integer inference of a quantised net: the
// engine's evaluation of pos in centipawns, side to move's point of view.
// Accumulators are int16 (sums are checked for overflow), the activation
// is clamp(acc, 0, QA)^2, the output bucket b is Bucket(pieces, Buckets)
// and
//
//	out = (sum/QA + ob[b]) * Scale / (QA*QB)
//
// with Go's truncating int64 division.
func (q *QuantNet) QuantEval(pos *v.Position) int {
	var buf [MaxPieces]uint16
	fw := Features(buf[:0], pos)
	return q.EvalFeatures(fw, pos.Side() == v.White)
}

// EvalFeatures is QuantEval on White-perspective features.
func (q *QuantNet) EvalFeatures(fw []uint16, whiteToMove bool) int {
	var stm, opp [MaxPieces]uint16
	perspectives(fw, whiteToMove, &stm, &opp)
	b := Bucket(len(fw), q.Buckets())
	o := q.O[b*2*Hidden : (b+1)*2*Hidden]
	sum := q.half(stm[:len(fw)], o[:Hidden]) + q.half(opp[:len(fw)], o[Hidden:])
	out := (sum/QA + int64(q.OB[b])) * Scale / (QA * QB)
	return int(out)
}

// half is sum over h of clamp(acc[h],0,QA)^2 * o[h] for one accumulator.
func (q *QuantNet) half(feats []uint16, o []int16) int64 {
	var acc [Hidden]int16
	copy(acc[:], q.B)
	for _, f := range feats {
		row := q.W[int(f)*Hidden : int(f)*Hidden+Hidden]
		for h, w := range row {
			s := int32(acc[h]) + int32(w)
			if s != int32(int16(s)) {
				panic(fmt.Sprintf("train: int16 accumulator overflow (unit %d)", h))
			}
			acc[h] = int16(s)
		}
	}
	var sum int64
	for h, a := range acc {
		x := int64(min(max(a, 0), QA))
		sum += x * x * int64(o[h])
	}
	return sum
}

// Float returns the float net that q is the exact quantisation of
// (weights divided by their scales).
func (q *QuantNet) Float() *Net {
	n := &Net{
		W:  make([]float32, len(q.W)),
		B:  make([]float32, len(q.B)),
		O:  make([]float32, len(q.O)),
		OB: make([]float32, len(q.OB)),
	}
	for i, x := range q.W {
		n.W[i] = float32(x) / QA
	}
	for i, x := range q.B {
		n.B[i] = float32(x) / QA
	}
	for i, x := range q.O {
		n.O[i] = float32(x) / QB
	}
	for i, x := range q.OB {
		n.OB[i] = float32(float64(x) / (QA * QB))
	}
	return n
}
