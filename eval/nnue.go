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
	"unsafe"

	v "github.com/rochade/rochade/variant960"
)

// The network: 768 inputs per king bucket (colour relative to the
// perspective, piece type, square mirrored vertically for Black, and
// horizontally too where the net mirrors and the perspective's king is on
// files e-h) into a Hidden-wide accumulator per perspective, SCReLU, and
// one output over both accumulators (side to move first), with one set of
// output weights per bucket of piece counts. The perspective's own king
// square chooses its king bucket, the block of 768 inputs its pieces use.
// See docs/training-data.md, "Net file format".
const (
	// NetInputs is the number of inputs of one king bucket.
	NetInputs = 768
	// NetHidden is the accumulator width of format versions 1 and 2.
	NetHidden = 256
	// NetHiddenStep divides every accumulator width (the vector kernels
	// work on blocks of it), and NetMaxHidden bounds it.
	NetHiddenStep = 256
	NetMaxHidden  = 1024
	// NetMaxKingBuckets bounds the king buckets: one per entry of the
	// 32-square king bucket map.
	NetMaxKingBuckets = 32
	NetQA             = 255
	NetQB             = 64
	NetScale          = 400
	NetMaxBuckets     = 32

	// NetMagic opens every net file.
	NetMagic = "RCHDNNUE"
	// NetVersion is the newest file format version. WriteNet writes the
	// oldest version that holds the net: 2 for a net of width 256 with
	// one king bucket and no mirroring (the nets of earlier builds, which
	// read it), 3 otherwise. Versions 1 and 2 are read as width 256, one
	// king bucket, no mirroring.
	NetVersion = 3
	// NetMaxActive is the most features active in one accumulator: one
	// per piece, 32 pieces at most.
	NetMaxActive = 32
	// maxManifest bounds the manifest a net file may carry.
	maxManifest = 1 << 20
)

// KingBuckets is a net's king input bucket layout. A perspective's king
// square, seen from its side (vertically flipped for Black), picks the
// bucket: Map[rank*4+file] with the file folded onto a-d (file e reads
// as d, ..., h as a), so Map has one entry for each square of files a-d,
// rank 1 (the perspective's own back rank) first. With Mirror, while the
// king is on files e-h every square of that perspective (pieces and king)
// is reflected horizontally (a <-> h) as well. One bucket without
// mirroring is the plain net.
type KingBuckets struct {
	N      int       // buckets, 1..NetMaxKingBuckets
	Map    [32]uint8 // bucket by folded king square, values 0..N-1
	Mirror bool      // reflect a perspective whose king is on files e-h
}

// PlainKings is the layout of one king bucket without mirroring.
var PlainKings = KingBuckets{N: 1}

// Check reports an error if k is no valid layout.
func (k *KingBuckets) Check() error {
	if k.N < 1 || k.N > NetMaxKingBuckets {
		return fmt.Errorf("%d king buckets, want 1..%d", k.N, NetMaxKingBuckets)
	}
	for i, b := range k.Map {
		if int(b) >= k.N {
			return fmt.Errorf("king bucket map entry %d is %d, want 0..%d", i, b, k.N-1)
		}
	}
	return nil
}

// Plain tells whether k is one bucket without mirroring.
func (k *KingBuckets) Plain() bool { return k.N <= 1 && !k.Mirror }

// Of is the bucket of a perspective whose king is on rel (seen from the
// perspective's side), and whether its squares are reflected.
func (k *KingBuckets) Of(rel v.Square) (bucket int, mirror bool) {
	f := rel.File()
	if f >= 4 {
		f = 7 - f
		mirror = k.Mirror
	}
	return int(k.Map[rel.Rank()*4+f]), mirror
}

// Index is the input index of a piece of colour c and type t on square s
// seen from perspective persp, whose own king is on ksq (both squares as
// on the board): the bucket's block of NetInputs, then FeatureIndex of
// the square reflected where the layout mirrors.
func (k *KingBuckets) Index(persp v.Color, ksq v.Square, c v.Color, t v.PieceType, s v.Square) int {
	rel := ksq
	if persp == v.Black {
		rel ^= 56
	}
	b, m := k.Of(rel)
	if m {
		s ^= 7
	}
	return b*NetInputs + FeatureIndex(persp, c, t, s)
}

// kingView is what a perspective's king square makes of its inputs: the
// first input of its bucket, the XOR that turns a board square into the
// perspective's (56 for Black's vertical flip, 7 for a reflection), and
// the refresh state (bucket*2 + reflected), which a king move must keep
// for the accumulator to be updated incrementally.
type kingView struct {
	base  int32
	xor   uint8
	state uint8
}

// Net is a quantised network. It is read-only once loaded and shared by
// every search thread. Make one with NewNet or LoadNet. Only the first
// Buckets() rows of O and OB are used.
type Net struct {
	W        []int16              // feature weights, index (kingBucket*NetInputs+f)*Hidden+h
	B        []int16              // accumulator bias, Hidden
	O        []int16              // output weights by bucket, NetMaxBuckets rows of 2*Hidden: side to move, then other side
	OB       [NetMaxBuckets]int32 // output bias by bucket
	Manifest string               // the training manifest (JSON text)
	Hash     string               // hex SHA-256 of the file, first 16 digits

	hidden   int
	kings    KingBuckets
	view     [2][64]kingView          // by perspective and king square
	buckets  int                      // output buckets (0 reads as 1)
	bucketOf [NetMaxBuckets + 1]uint8 // output bucket by piece count
}

// CheckHidden reports an error unless h is an accumulator width a net may
// have: a multiple of NetHiddenStep up to NetMaxHidden.
func CheckHidden(h int) error {
	if h < NetHiddenStep || h > NetMaxHidden || h%NetHiddenStep != 0 {
		return fmt.Errorf("hidden width %d, want a multiple of %d up to %d", h, NetHiddenStep, NetMaxHidden)
	}
	return nil
}

// NewNet returns a net of zero weights with the given accumulator width,
// king bucket layout and number of output buckets.
func NewNet(hidden int, kings KingBuckets, buckets int) (*Net, error) {
	if err := CheckHidden(hidden); err != nil {
		return nil, err
	}
	if err := kings.Check(); err != nil {
		return nil, err
	}
	n := &Net{
		W:      make([]int16, kings.N*NetInputs*hidden),
		B:      make([]int16, hidden),
		O:      make([]int16, NetMaxBuckets*2*hidden),
		hidden: hidden,
		kings:  kings,
	}
	for persp := v.White; persp <= v.Black; persp++ {
		for s := v.Square(0); s < 64; s++ {
			rel := s
			if persp == v.Black {
				rel ^= 56
			}
			b, m := kings.Of(rel)
			kv := kingView{base: int32(b * NetInputs), xor: uint8(rel ^ s), state: uint8(2 * b)}
			if m {
				kv.xor ^= 7
				kv.state++
			}
			n.view[persp][s] = kv
		}
	}
	if err := n.SetBuckets(buckets); err != nil {
		return nil, err
	}
	return n, nil
}

// Hidden is the accumulator width.
func (n *Net) Hidden() int { return n.hidden }

// Kings is the king bucket layout.
func (n *Net) Kings() KingBuckets { return n.kings }

// OutputRow is output bucket b's weights: Hidden for the side to move,
// then Hidden for the other side.
func (n *Net) OutputRow(b int) []int16 { return n.O[b*2*n.hidden : (b+1)*2*n.hidden] }

// FileVersion is the format version WriteNet writes n in.
func (n *Net) FileVersion() int {
	if n.hidden == NetHidden && n.kings.Plain() {
		return 2
	}
	return 3
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

// LoadNet reads a net file (version 3, 2, or 1 as one output bucket; see
// WriteNet for the layout) and checks its header, sizes and checksum, that
// the output weights are within ±127, and that no accumulator can leave
// the int16 range (CheckAccumulators).
func LoadNet(data []byte) (*Net, error) {
	const hdrV1, hdrV2, hdrV3 = 36, 40, 80
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
	hdr, nb, kings := hdrV1, uint32(1), PlainKings
	switch ver := u32(8); ver {
	case 1:
	case 2, 3:
		hdr = hdrV2
		if ver == 3 {
			hdr = hdrV3
		}
		if len(data) < hdr+sha256.Size {
			return nil, errors.New("net file too short")
		}
		nb = u32(32)
		if nb < 1 || nb > NetMaxBuckets {
			return nil, fmt.Errorf("net file has %d output buckets, want 1..%d", nb, NetMaxBuckets)
		}
		if ver == 2 {
			break
		}
		if k := u32(36); k < 1 || k > NetMaxKingBuckets {
			return nil, fmt.Errorf("net file has %d king buckets, want 1..%d", k, NetMaxKingBuckets)
		} else {
			kings.N = int(k)
		}
		switch flags := u32(40); flags {
		case 0, 1:
			kings.Mirror = flags == 1
		default:
			return nil, fmt.Errorf("net file has unknown flags %#x", flags)
		}
		copy(kings.Map[:], data[44:76])
		if err := kings.Check(); err != nil {
			return nil, fmt.Errorf("net file: %w", err)
		}
	default:
		return nil, fmt.Errorf("net file version %d, want 1..%d", ver, NetVersion)
	}
	in, hid := u32(12), u32(16)
	if in != NetInputs || CheckHidden(int(min(hid, 1<<20))) != nil || (hdr < hdrV3 && hid != NetHidden) {
		return nil, fmt.Errorf("net architecture %d→%d, want %d→%d (version 3: a multiple of %d up to %d)",
			in, hid, NetInputs, NetHidden, NetHiddenStep, NetMaxHidden)
	}
	if qa, qb, sc := u32(20), u32(24), u32(28); qa != NetQA || qb != NetQB || sc != NetScale {
		return nil, fmt.Errorf("net quantisation QA=%d QB=%d scale=%d, want %d/%d/%d", qa, qb, sc, NetQA, NetQB, NetScale)
	}
	h := uint64(hid)
	ml := u32(hdr - 4)
	want := uint64(hdr) + uint64(ml) + 2*(uint64(kings.N)*NetInputs*h+h+uint64(nb)*2*h) + 4*uint64(nb) + sha256.Size
	if ml > maxManifest || uint64(len(data)) != want {
		return nil, fmt.Errorf("net file is %d bytes, want %d for its header", len(data), want)
	}
	n, err := NewNet(int(hid), kings, int(nb))
	if err != nil {
		return nil, err
	}
	n.Manifest = string(data[hdr : hdr+int(ml)])
	r := bytes.NewReader(data[hdr+int(ml):])
	for _, dst := range []any{n.W, n.B, n.O[:int(nb)*2*n.hidden], n.OB[:nb]} {
		if err := binary.Read(r, binary.LittleEndian, dst); err != nil {
			return nil, fmt.Errorf("net file: %w", err)
		}
	}
	for _, o := range n.O {
		if o > 127 || o < -127 {
			return nil, errors.New("net output weight out of range (|w| > 127)")
		}
	}
	if err := n.CheckAccumulators(); err != nil {
		return nil, err
	}
	hash := sha256.Sum256(data)
	n.Hash = hex.EncodeToString(hash[:8])
	return n, nil
}

// CheckAccumulators reports an error if some position could take an
// accumulator unit out of the int16 range: for each hidden unit and king
// bucket (a perspective's pieces all use its king's bucket), the bias
// plus the NetMaxActive largest weights of the bucket's column, and the
// bias plus the NetMaxActive smallest, must fit in int16. The
// accumulators wrap silently otherwise (the trainer's clipped weights stay
// far inside). Updates that pass through a wider value on the way wrap
// back, as int16 arithmetic is modular; only the sums of real positions
// matter.
func (n *Net) CheckAccumulators() error {
	// A quick pass first: the bias plus NetMaxActive times the column's
	// extreme weights bounds the sums loosely, and suffices for any
	// trained net. Only a unit it does not clear gets the exact bound.
	hid := n.hidden
	wmin, wmax := make([]int16, hid), make([]int16, hid)
	var col [NetInputs]int16
	for kb := range n.kings.N {
		block := n.W[kb*NetInputs*hid : (kb+1)*NetInputs*hid]
		clear(wmin)
		clear(wmax)
		for f := range NetInputs {
			row := block[f*hid : (f+1)*hid]
			for h, w := range row {
				wmin[h], wmax[h] = min(wmin[h], w), max(wmax[h], w)
			}
		}
		for h := range hid {
			b := int64(n.B[h])
			if b+NetMaxActive*int64(wmin[h]) >= math.MinInt16 && b+NetMaxActive*int64(wmax[h]) <= math.MaxInt16 {
				continue
			}
			for f := range NetInputs {
				col[f] = block[f*hid+h]
			}
			slices.Sort(col[:])
			lo, hi := b, b
			for i := range NetMaxActive {
				lo += int64(min(col[i], 0))
				hi += int64(max(col[NetInputs-1-i], 0))
			}
			if lo < math.MinInt16 || hi > math.MaxInt16 {
				what := ""
				if n.kings.N > 1 {
					what = fmt.Sprintf(" in king bucket %d", kb)
				}
				return fmt.Errorf("net first layer out of range: hidden unit %d's accumulator%s can reach [%d, %d] with %d pieces, outside int16 (are the weights clipped?)",
					h, what, lo, hi, NetMaxActive)
			}
		}
	}
	return nil
}

// WriteNet writes n in the net file format with the given manifest, in
// version n.FileVersion(): 2 for a net of width 256 with one king bucket
// and no mirroring, 3 otherwise. All values are little-endian; B is
// n.Buckets(), H the hidden width and K the number of king buckets:
//
//	0   [8]byte "RCHDNNUE"
//	8   uint32 version = 3
//	12  uint32 inputs = 768 (per king bucket)
//	16  uint32 hidden = H (a multiple of 256, 256..1024)
//	20  uint32 QA = 255
//	24  uint32 QB = 64
//	28  uint32 scale = 400
//	32  uint32 buckets = B (1..32)
//	36  uint32 king buckets = K (1..32)
//	40  uint32 flags: bit 0 horizontal mirroring, the others 0
//	44  [32]byte king bucket map, values 0..K-1 (see KingBuckets)
//	76  uint32 manifestLen
//	80  manifest: manifestLen bytes of UTF-8 JSON
//	..  int16 W[K*768][H] (index (k*768+f)*H+h)
//	..  int16 B[H]
//	..  int16 O[B][2H] (per bucket: 0..H-1 side to move, H..2H-1 other side)
//	..  int32 ob[B]
//	..  [32]byte SHA-256 of all preceding bytes
//
// Version 2 has H = 256 and K = 1 with no mirroring, and no fields at 36
// to 75: its manifestLen is at 36 and its manifest at 40. Version 1 is
// version 2 without the buckets field (a 36-byte header) and with one
// bucket. This is the only implementation of the format; the trainer
// (package train) reads and writes through it.
func WriteNet(w io.Writer, n *Net, manifest string) error {
	return writeNet(w, n, manifest, n.FileVersion())
}

// writeNet writes n in the given format version (2 or 3).
func writeNet(w io.Writer, n *Net, manifest string, version int) error {
	if version < n.FileVersion() {
		return fmt.Errorf("a net of width %d with %d king buckets needs format version 3", n.hidden, n.kings.N)
	}
	nb := n.Buckets()
	var buf bytes.Buffer
	buf.WriteString(NetMagic)
	put := func(xs ...uint32) {
		for _, x := range xs {
			_ = binary.Write(&buf, binary.LittleEndian, x)
		}
	}
	put(uint32(version), NetInputs, uint32(n.hidden), NetQA, NetQB, NetScale, uint32(nb))
	if version >= 3 {
		flags := uint32(0)
		if n.kings.Mirror {
			flags = 1
		}
		put(uint32(n.kings.N), flags)
		buf.Write(n.kings.Map[:])
	}
	put(uint32(len(manifest)))
	buf.WriteString(manifest)
	for _, src := range []any{n.W, n.B, n.O[:nb*2*n.hidden], n.OB[:nb]} {
		_ = binary.Write(&buf, binary.LittleEndian, src)
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	_, err := w.Write(buf.Bytes())
	return err
}

// output turns the two accumulators (Hidden values each) into centipawns
// for the side to move, with the output bucket of a position of the given
// number of pieces.
func (n *Net) output(us, them *int16, pieces int) int {
	b := n.Bucket(pieces)
	h := n.hidden
	o := &n.O[2*h*b]
	sum := screluDot(us, o, h) + screluDot(them, (*int16)(unsafe.Add(unsafe.Pointer(o), 2*h)), h)
	return int((sum/NetQA + int64(n.OB[b])) * NetScale / (NetQA * NetQB))
}

// row is the first weight of the input of piece pc on square s, for a
// perspective persp whose king view is kv.
func (n *Net) row(kv kingView, persp v.Color, pc v.Piece, s v.Square) *int16 {
	f := int(kv.base) + 64*(int(pc.Type())-1) + int(uint8(s)^kv.xor)
	if pc.Color() != persp {
		f += 384
	}
	// f is an input of the net: kv.base is a bucket's, the rest < 768.
	return (*int16)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(n.W)), 2*f*n.hidden))
}

// refresh computes perspective persp's accumulator (Hidden values at acc)
// from scratch.
func (n *Net) refresh(acc *int16, p *v.Position, persp v.Color) {
	kv := n.view[persp][p.KingSquare(persp)&63]
	var adds [64]*int16
	k := 0
	for c := v.White; c <= v.Black; c++ {
		for t := v.Pawn; t <= v.King; t++ {
			pc := v.MakePiece(c, t)
			for bb := p.Pieces(c, t); bb != 0; bb &= bb - 1 {
				adds[k] = n.row(kv, persp, pc, bb.LSB())
				k++
			}
		}
	}
	accUpdate(acc, &n.B[0], &adds[0], k, nil, 0, n.hidden)
}

// EvaluateNet is the network's score of p for the side to move, computed
// from scratch (a reference for tests and the eval command).
func EvaluateNet(n *Net, p *v.Position) int {
	var buf [2][NetMaxHidden]int16
	n.refresh(&buf[0][0], p, v.White)
	n.refresh(&buf[1][0], p, v.Black)
	us := p.Side()
	return n.output(&buf[us][0], &buf[us.Other()][0], p.Occupied().Count())
}
