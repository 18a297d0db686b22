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
// move first). See README.md, "Net file format".
const (
	NetInputs = 768
	NetHidden = 256
	NetQA     = 255
	NetQB     = 64
	NetScale  = 400

	netMagic   = "RCHDNNUE"
	netVersion = 1
	// maxManifest bounds the manifest a net file may carry.
	maxManifest = 1 << 20
)

// Net is a quantised network. It is read-only once loaded and shared by
// every search thread.
type Net struct {
	W        [NetInputs * NetHidden]int16 // feature weights, index f*NetHidden+h
	B        [NetHidden]int16             // accumulator bias
	O        [2 * NetHidden]int16         // output weights: side to move, then other side
	OB       int32                        // output bias
	Manifest string                       // the training manifest (JSON text)
	Hash     string                       // hex SHA-256 of the file, first 16 digits
}

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

// LoadNet reads a net file and checks its header, sizes and checksum.
func LoadNet(data []byte) (*Net, error) {
	const hdr = 36
	if len(data) < hdr+sha256.Size {
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
	if ver := u32(8); ver != netVersion {
		return nil, fmt.Errorf("net file version %d, want %d", ver, netVersion)
	}
	if in, hid := u32(12), u32(16); in != NetInputs || hid != NetHidden {
		return nil, fmt.Errorf("net architecture %d→%d, want %d→%d", in, hid, NetInputs, NetHidden)
	}
	if qa, qb, sc := u32(20), u32(24), u32(28); qa != NetQA || qb != NetQB || sc != NetScale {
		return nil, fmt.Errorf("net quantisation QA=%d QB=%d scale=%d, want %d/%d/%d", qa, qb, sc, NetQA, NetQB, NetScale)
	}
	ml := u32(32)
	want := uint64(hdr) + uint64(ml) + 2*(NetInputs*NetHidden+NetHidden+2*NetHidden) + 4 + sha256.Size
	if ml > maxManifest || uint64(len(data)) != want {
		return nil, fmt.Errorf("net file size %d, want %d for its header", len(data), want)
	}
	n := &Net{Manifest: string(data[hdr : hdr+int(ml)])}
	r := bytes.NewReader(data[hdr+int(ml):])
	for _, dst := range []any{n.W[:], n.B[:], n.O[:], &n.OB} {
		if err := binary.Read(r, binary.LittleEndian, dst); err != nil {
			return nil, fmt.Errorf("net file: %w", err)
		}
	}
	for _, o := range n.O {
		if o > 127 || o < -127 {
			return nil, errors.New("net output weight out of range (|w| > 127)")
		}
	}
	h := sha256.Sum256(data)
	n.Hash = hex.EncodeToString(h[:8])
	return n, nil
}

// WriteNet writes n in the net file format with the given manifest.
func WriteNet(w io.Writer, n *Net, manifest string) error {
	var buf bytes.Buffer
	buf.WriteString(netMagic)
	for _, x := range []uint32{netVersion, NetInputs, NetHidden, NetQA, NetQB, NetScale, uint32(len(manifest))} {
		_ = binary.Write(&buf, binary.LittleEndian, x)
	}
	buf.WriteString(manifest)
	for _, src := range []any{n.W[:], n.B[:], n.O[:], n.OB} {
		_ = binary.Write(&buf, binary.LittleEndian, src)
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	_, err := w.Write(buf.Bytes())
	return err
}

// output turns the two accumulators into centipawns for the side to move.
func (n *Net) output(us, them *[NetHidden]int16) int {
	sum := screluDot(us, (*[NetHidden]int16)(n.O[:NetHidden])) +
		screluDot(them, (*[NetHidden]int16)(n.O[NetHidden:]))
	return int((sum/NetQA + int64(n.OB)) * NetScale / (NetQA * NetQB))
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
	return n.output(&acc[us], &acc[us.Other()])
}
