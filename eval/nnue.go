package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	v "github.com/rochade/rochade/variant960"
)

// The network: 768 inputs (colour relative to the perspective, piece
// type, square mirrored for Black) into a 256-wide accumulator per
// perspective, SCReLU, and one output over both accumulators (side to
// move first), with one set of output weights per bucket of piece counts.
// See docs/training-data.md, "Net file format".
const (
	NetInputs     = 768
	NetHidden     = 256
	NetQA         = 255
	NetQB         = 64
	NetScale      = 400
	NetMaxBuckets = 32

	// NetMagic opens every net file.
	NetMagic = "RCHDNNUE"
	// NetVersion is the file format version written; version 1 (one
	// bucket, no buckets field) is read too.
	NetVersion = 2
	// NetMaxActive is the most features active in one accumulator: one
	// per piece, 32 pieces at most.
	NetMaxActive = 32
	// maxManifest bounds the manifest a net file may carry.
	maxManifest = 1 << 20
)

// Net is a quantised network. It is read-only once loaded and shared by
// every search thread. Only the first Buckets() rows of O and OB are used;
// a zero Net has one bucket (SetBuckets chooses more).
type Net struct {
	W        [NetInputs * NetHidden]int16        // feature weights, index f*NetHidden+h
	B        [NetHidden]int16                    // accumulator bias
	O        [NetMaxBuckets][2 * NetHidden]int16 // output weights by bucket: side to move, then other side
	OB       [NetMaxBuckets]int32                // output bias by bucket
	Manifest string                              // the training manifest (JSON text)
	Hash     string                              // hex SHA-256 of the file, first 16 digits

	buckets  int                      // output buckets (0 reads as 1)
	bucketOf [NetMaxBuckets + 1]uint8 // output bucket by piece count
}

// Buckets is the number of output buckets.
func (n *Net) Buckets() int { return max(n.buckets, 1) }

// NetBucket is the output bucket of a position with the given number of
// pieces (kings and pawns included) in a net with the given number of
// buckets (1..NetMaxBuckets): the piece counts 2..32 are cut into runs of
// ceil(32/buckets), the last bucket taking what is left, so bucket
// min((pieces-2)/ceil(32/buckets), buckets-1). One bucket is the plain
// net. The trainer uses this formula too.
func NetBucket(pieces, buckets int) int {
	div := (NetMaxActive + buckets - 1) / buckets
	return min(max(pieces-2, 0)/div, buckets-1)
}

// SetBuckets sets the number of output buckets (1..NetMaxBuckets); a
// position is scored with bucket NetBucket(pieces, b).
func (n *Net) SetBuckets(b int) error {
	if b < 1 || b > NetMaxBuckets {
		return fmt.Errorf("net has %d output buckets, want 1..%d", b, NetMaxBuckets)
	}
	n.buckets = b
	for p := range n.bucketOf {
		n.bucketOf[p] = uint8(NetBucket(p, b))
	}
	return nil
}

// Bucket is the output bucket of a position with the given number of
// pieces.
func (n *Net) Bucket(pieces int) int { return int(n.bucketOf[min(pieces, 32)]) }

// FeatureIndex is the input index of a piece of colour c and type t on
// square s, seen from perspective persp.
func FeatureIndex(persp, c v.Color, t v.PieceType, s v.Square) int {
	sq := int(s)
	if persp == v.Black {
		sq ^= 56
	}
	idx := 64*(int(t)-1) + sq
	if c != persp {
		idx += 384
	}
	return idx
}

// LoadNet reads a net file (version 2, or version 1 as one bucket; see
// WriteNet for the layout) and checks its header, sizes and checksum, that
// the output weights are within ±127, and that no accumulator can leave
// the int16 range (CheckAccumulators).
func LoadNet(data []byte) (*Net, error) {
	const hdrV1, hdrV2 = 36, 40
	if len(data) < hdrV1+sha256.Size {
		return nil, errors.New("net file too short")
	}
	if string(data[:8]) != NetMagic {
		return nil, errors.New("not a Rochade net file (bad magic)")
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, errors.New("net file checksum mismatch (corrupt or truncated)")
	}
	u32 := func(off int) uint32 { return binary.LittleEndian.Uint32(data[off:]) }
	hdr, nb := hdrV1, uint32(1)
	switch ver := u32(8); ver {
	case 1:
	case 2:
		if len(data) < hdrV2+sha256.Size {
			return nil, errors.New("net file too short")
		}
		hdr, nb = hdrV2, u32(32)
		if nb < 1 || nb > NetMaxBuckets {
			return nil, fmt.Errorf("net file has %d output buckets, want 1..%d", nb, NetMaxBuckets)
		}
	default:
		return nil, fmt.Errorf("net file version %d, want 1 or %d", ver, NetVersion)
	}
	if in, hid := u32(12), u32(16); in != NetInputs || hid != NetHidden {
		return nil, fmt.Errorf("net architecture %d→%d, want %d→%d", in, hid, NetInputs, NetHidden)
	}
	if qa, qb, sc := u32(20), u32(24), u32(28); qa != NetQA || qb != NetQB || sc != NetScale {
		return nil, fmt.Errorf("net quantisation QA=%d QB=%d scale=%d, want %d/%d/%d", qa, qb, sc, NetQA, NetQB, NetScale)
	}
	ml := u32(hdr - 4)
	want := uint64(hdr) + uint64(ml) + 2*(NetInputs*NetHidden+NetHidden+uint64(nb)*2*NetHidden) + 4*uint64(nb) + sha256.Size
	if ml > maxManifest || uint64(len(data)) != want {
		return nil, fmt.Errorf("net file is %d bytes, want %d for its header", len(data), want)
	}
	n := &Net{Manifest: string(data[hdr : hdr+int(ml)])}
	if err := n.SetBuckets(int(nb)); err != nil {
		return nil, err
	}
	r := bytes.NewReader(data[hdr+int(ml):])
	for _, dst := range []any{n.W[:], n.B[:], n.O[:nb], n.OB[:nb]} {
		if err := binary.Read(r, binary.LittleEndian, dst); err != nil {
			return nil, fmt.Errorf("net file: %w", err)
		}
	}
	for _, row := range n.O[:nb] {
		for _, o := range row {
			if o > 127 || o < -127 {
				return nil, errors.New("net output weight out of range (|w| > 127)")
			}
		}
	}
	if err := n.CheckAccumulators(); err != nil {
		return nil, err
	}
	h := sha256.Sum256(data)
	n.Hash = hex.EncodeToString(h[:8])
	return n, nil
}

// CheckAccumulators reports an error if some position could take an
// accumulator unit out of the int16 range: for each hidden unit, the bias
// plus the NetMaxActive largest weights of its column, and the bias plus
// the NetMaxActive smallest, must fit in int16. The accumulators wrap
// silently otherwise (the trainer's clipped weights stay far inside).
// Updates that pass through a wider value on the way wrap back, as int16
// arithmetic is modular; only the sums of real positions matter.
func (n *Net) CheckAccumulators() error {
	// A quick pass first: the bias plus NetMaxActive times the column's
	// extreme weights bounds the sums loosely, and suffices for any
	// trained net. Only a unit it does not clear gets the exact bound.
	var wmin, wmax [NetHidden]int16
	for f := range NetInputs {
		row := (*[NetHidden]int16)(n.W[f*NetHidden:])
		for h, w := range row {
			wmin[h], wmax[h] = min(wmin[h], w), max(wmax[h], w)
		}
	}
	var col [NetInputs]int16
	for h := range NetHidden {
		b := int64(n.B[h])
		if b+NetMaxActive*int64(wmin[h]) >= math.MinInt16 && b+NetMaxActive*int64(wmax[h]) <= math.MaxInt16 {
			continue
		}
		for f := range NetInputs {
			col[f] = n.W[f*NetHidden+h]
		}
		slices.Sort(col[:])
		lo, hi := int64(n.B[h]), int64(n.B[h])
		for i := range NetMaxActive {
			lo += int64(min(col[i], 0))
			hi += int64(max(col[NetInputs-1-i], 0))
		}
		if lo < math.MinInt16 || hi > math.MaxInt16 {
			return fmt.Errorf("net first layer out of range: hidden unit %d's accumulator can reach [%d, %d] with %d pieces, outside int16 (are the weights clipped?)",
				h, lo, hi, NetMaxActive)
		}
	}
	return nil
}

// WriteNet writes n in the net file format, version 2, with the given
// manifest. All values are little-endian; B is n.Buckets():
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
// with one bucket. This is the only implementation of the format; the
// trainer (package train) reads and writes through it.
func WriteNet(w io.Writer, n *Net, manifest string) error {
	nb := n.Buckets()
	var buf bytes.Buffer
	buf.WriteString(NetMagic)
	for _, x := range []uint32{NetVersion, NetInputs, NetHidden, NetQA, NetQB, NetScale, uint32(nb), uint32(len(manifest))} {
		_ = binary.Write(&buf, binary.LittleEndian, x)
	}
	buf.WriteString(manifest)
	for _, src := range []any{n.W[:], n.B[:], n.O[:nb], n.OB[:nb]} {
		_ = binary.Write(&buf, binary.LittleEndian, src)
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	_, err := w.Write(buf.Bytes())
	return err
}

// output turns the two accumulators into centipawns for the side to move,
// with the output bucket of a position of the given number of pieces.
func (n *Net) output(us, them *[NetHidden]int16, pieces int) int {
	b := n.Bucket(pieces)
	o := &n.O[b]
	sum := screluDot(us, (*[NetHidden]int16)(o[:NetHidden])) +
		screluDot(them, (*[NetHidden]int16)(o[NetHidden:]))
	return int((sum/NetQA + int64(n.OB[b])) * NetScale / (NetQA * NetQB))
}

// refresh computes perspective persp's accumulator from scratch.
func (n *Net) refresh(acc *[NetHidden]int16, p *v.Position, persp v.Color) {
	*acc = n.B
	var adds [32]int
	k := 0
	for c := v.White; c <= v.Black; c++ {
		for t := v.Pawn; t <= v.King; t++ {
			for bb := p.Pieces(c, t); bb != 0; bb &= bb - 1 {
				if k < len(adds) {
					adds[k] = FeatureIndex(persp, c, t, bb.LSB())
					k++
				} else {
					addFeature(acc, n, FeatureIndex(persp, c, t, bb.LSB()))
				}
			}
		}
	}
	for i := 0; i < k; i++ {
		addFeature(acc, n, adds[i])
	}
}

func addFeature(acc *[NetHidden]int16, n *Net, f int) {
	row := (*[NetHidden]int16)(n.W[f*NetHidden:])
	for i := range acc {
		acc[i] += row[i]
	}
}

// EvaluateNet is the network's score of p for the side to move, computed
// from scratch (a reference for tests and the eval command).
func EvaluateNet(n *Net, p *v.Position) int {
	var acc [2][NetHidden]int16
	n.refresh(&acc[0], p, v.White)
	n.refresh(&acc[1], p, v.Black)
	us := p.Side()
	return n.output(&acc[us], &acc[us.Other()], p.Occupied().Count())
}
