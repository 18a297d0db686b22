package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	v "github.com/rochade/rochade/variant960"
)

// The network: 768 inputs (colour relative to the perspective, piece
// type, square mirrored for Black) into a 256-wide accumulator per
// perspective, SCReLU, and one output over both accumulators (side to
// move first), with one set of output weights per bucket of piece counts.
// See README.md, "Net file format".
const (
	NetInputs     = 768
	NetHidden     = 256
	NetQA         = 255
	NetQB         = 64
	NetScale      = 400
	NetMaxBuckets = 32

	netMagic   = "RCHDNNUE"
	netVersion = 2 // written; version 1 (one bucket, no buckets field) is read too
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

// SetBuckets sets the number of output buckets (1..NetMaxBuckets): a
// position with p pieces (kings and pawns included) is scored with bucket
// min((p-2)/ceil(32/b), b-1).
func (n *Net) SetBuckets(b int) error {
	if b < 1 || b > NetMaxBuckets {
		return fmt.Errorf("net has %d output buckets, want 1..%d", b, NetMaxBuckets)
	}
	n.buckets = b
	div := (32 + b - 1) / b
	for p := range n.bucketOf {
		n.bucketOf[p] = uint8(min(max(p-2, 0)/div, b-1))
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

// LoadNet reads a net file (version 2, or version 1 as one bucket) and
// checks its header, sizes and checksum.
func LoadNet(data []byte) (*Net, error) {
	const hdrV1, hdrV2 = 36, 40
	if len(data) < hdrV1+sha256.Size {
		return nil, errors.New("net file too short")
	}
	if string(data[:8]) != netMagic {
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
		return nil, fmt.Errorf("net file version %d, want 1 or %d", ver, netVersion)
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
		return nil, fmt.Errorf("net file size %d, want %d for its header", len(data), want)
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
	h := sha256.Sum256(data)
	n.Hash = hex.EncodeToString(h[:8])
	return n, nil
}

// WriteNet writes n in the net file format (version 2) with the given
// manifest.
func WriteNet(w io.Writer, n *Net, manifest string) error {
	nb := n.Buckets()
	var buf bytes.Buffer
	buf.WriteString(netMagic)
	for _, x := range []uint32{netVersion, NetInputs, NetHidden, NetQA, NetQB, NetScale, uint32(nb), uint32(len(manifest))} {
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
