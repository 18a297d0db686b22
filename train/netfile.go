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

// NetVersion is the file format version written.
const NetVersion = 1

// QuantNet is a quantised net as the file holds it.
type QuantNet struct {
	W        []int16 // [Inputs][Hidden], round(W*QA)
	B        []int16 // [Hidden], round(B*QA)
	O        []int16 // [2*Hidden], side to move first, round(O*QB)
	OB       int32   // round(ob*QA*QB)
	Manifest []byte  // UTF-8 JSON
}

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
		OB: int32(math.Round(float64(n.OB) * QA * QB)),
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
	return q
}

// WriteNetFile writes q in net file format v1 (all little-endian):
//
//	0   [8]byte "RCHDNNUE"
//	8   uint32 version = 1
//	12  uint32 inputs = 768
//	16  uint32 hidden = 256
//	20  uint32 QA = 255
//	24  uint32 QB = 64
//	28  uint32 scale = 400
//	32  uint32 manifestLen
//	36  manifest: manifestLen bytes of UTF-8 JSON
//	..  int16 W[768][256] (index f*256+h)
//	..  int16 B[256]
//	..  int16 O[512] (0..255 side to move, 256..511 other side)
//	..  int32 ob
//	..  [32]byte SHA-256 of all preceding bytes
func WriteNetFile(w io.Writer, q *QuantNet) error {
	if len(q.W) != Inputs*Hidden || len(q.B) != Hidden || len(q.O) != 2*Hidden {
		return errors.New("net has the wrong shape")
	}
	var buf bytes.Buffer
	buf.Grow(36 + len(q.Manifest) + 2*(len(q.W)+len(q.B)+len(q.O)) + 4 + 32)
	buf.WriteString(NetMagic)
	le := binary.LittleEndian
	for _, x := range []uint32{NetVersion, Inputs, Hidden, QA, QB, Scale, uint32(len(q.Manifest))} {
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
	buf.Write(le.AppendUint32(nil, uint32(q.OB)))
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

// ReadNetFile parses and checks a net file (format v1): magic, header
// values, lengths and the SHA-256 trailer.
func ReadNetFile(data []byte) (*QuantNet, error) {
	const header = 36
	if len(data) < header+32 {
		return nil, errors.New("net file too short")
	}
	if string(data[:8]) != NetMagic {
		return nil, errors.New("not a Rochade net file (bad magic)")
	}
	le := binary.LittleEndian
	want := []uint32{NetVersion, Inputs, Hidden, QA, QB, Scale}
	names := []string{"version", "inputs", "hidden", "QA", "QB", "scale"}
	for i, w := range want {
		if got := le.Uint32(data[8+4*i:]); got != w {
			return nil, fmt.Errorf("net file %s is %d, want %d", names[i], got, w)
		}
	}
	mlen := int(le.Uint32(data[32:]))
	total := header + mlen + 2*(Inputs*Hidden+Hidden+2*Hidden) + 4 + 32
	if mlen < 0 || len(data) != total {
		return nil, fmt.Errorf("net file is %d bytes, want %d", len(data), total)
	}
	body := data[:total-32]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[total-32:]) {
		return nil, errors.New("net file checksum mismatch")
	}
	q := &QuantNet{Manifest: append([]byte(nil), data[header:header+mlen]...)}
	p := header + mlen
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
	q.O = read16(2 * Hidden)
	q.OB = int32(le.Uint32(data[p:]))
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
// is clamp(acc, 0, QA)^2 and
//
//	out = (sum/QA + ob) * Scale / (QA*QB)
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
	sum := q.half(stm[:len(fw)], q.O[:Hidden]) + q.half(opp[:len(fw)], q.O[Hidden:])
	out := (sum/QA + int64(q.OB)) * Scale / (QA * QB)
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
		OB: float32(float64(q.OB) / (QA * QB)),
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
	return n
}
