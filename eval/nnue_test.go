package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// randomNet has weights in the ranges a trained net uses, width 256, one
// king bucket and the given number of output buckets (the unused rows of
// O and OB stay zero).
func randomNet(seed uint64, buckets int) *Net {
	return randomShapedNet(seed, buckets, NetHidden, PlainKings)
}

// randomShapedNet is randomNet with the given width and king buckets.
func randomShapedNet(seed uint64, buckets, hidden int, kings KingBuckets) *Net {
	r := rand.New(rand.NewPCG(seed, 7))
	n, err := NewNet(hidden, kings, buckets)
	if err != nil {
		panic(err)
	}
	for i := range n.W {
		n.W[i] = int16(r.IntN(161) - 80)
	}
	for i := range n.B {
		n.B[i] = int16(r.IntN(401) - 100)
	}
	for b := range buckets {
		o := n.OutputRow(b)
		for i := range o {
			o[i] = int16(r.IntN(255) - 127)
		}
		n.OB[b] = int32(r.IntN(20001) - 10000)
	}
	return n
}

// sameNet tells whether two nets have the same shape, weights and
// manifest.
func sameNet(a, b *Net) bool {
	return a.hidden == b.hidden && a.kings == b.kings && a.view == b.view && slices.Equal(a.W, b.W) && slices.Equal(a.B, b.B) &&
		slices.Equal(a.O, b.O) && a.OB == b.OB && a.Buckets() == b.Buckets() && a.bucketOf == b.bucketOf && a.Manifest == b.Manifest
}

// toV1 rewrites a one-bucket net file as format version 1 (no buckets
// field, 36-byte header), with a new checksum.
func toV1(t testing.TB, data []byte) []byte {
	le := binary.LittleEndian
	if le.Uint32(data[8:]) != 2 || le.Uint32(data[32:]) != 1 {
		t.Fatal("toV1: not a one-bucket version 2 file")
	}
	v1 := append([]byte(nil), data[:32]...)
	le.PutUint32(v1[8:], 1)
	v1 = append(v1, data[36:len(data)-sha256.Size]...)
	sum := sha256.Sum256(v1)
	return append(v1, sum[:]...)
}

func TestBuckets(t *testing.T) {
	var n Net
	for p := 0; p <= 40; p++ {
		if b := n.Bucket(p); b != 0 || n.Buckets() != 1 {
			t.Fatalf("zero net: %d pieces in bucket %d of %d", p, b, n.Buckets())
		}
	}
	for _, c := range []struct{ pieces, nb, want int }{
		{2, 1, 0}, {32, 1, 0},
		{2, 8, 0}, {5, 8, 0}, {6, 8, 1}, {17, 8, 3}, {29, 8, 6}, {30, 8, 7}, {32, 8, 7},
		{2, 3, 0}, {12, 3, 0}, {13, 3, 1}, {23, 3, 1}, {24, 3, 2}, {32, 3, 2},
		{2, 32, 0}, {3, 32, 1}, {32, 32, 30},
		{2, 5, 0}, {30, 5, 4}, {32, 5, 4}, // div 7: the last bucket takes 30..32
	} {
		if got := NetBucket(c.pieces, c.nb); got != c.want {
			t.Errorf("NetBucket(%d pieces, %d buckets) = %d, want %d", c.pieces, c.nb, got, c.want)
		}
		if err := n.SetBuckets(c.nb); err != nil {
			t.Fatal(err)
		}
		if got := n.Bucket(c.pieces); got != c.want {
			t.Errorf("%d pieces, %d buckets: bucket %d, want %d", c.pieces, c.nb, got, c.want)
		}
	}
	for _, bad := range []int{0, -1, 33} {
		if err := n.SetBuckets(bad); err == nil {
			t.Errorf("SetBuckets(%d): no error", bad)
		}
	}
}

// TestFeatureIndex: the input index of a piece (docs/training-data.md,
// "Net file format") from either side's point of view.
func TestFeatureIndex(t *testing.T) {
	for _, c := range []struct {
		persp, c v.Color
		t        v.PieceType
		s        v.Square
		want     int
		what     string
	}{
		{v.White, v.White, v.Pawn, 12, 12, "white pawn e2, white view"},
		{v.Black, v.White, v.Pawn, 12, 384 + 52, "white pawn e2, black view"},
		{v.White, v.Black, v.King, 60, 384 + 320 + 60, "black king e8, white view"},
		{v.Black, v.Black, v.King, 60, 320 + 4, "black king e8, black view"},
	} {
		if got := FeatureIndex(c.persp, c.c, c.t, c.s); got != c.want {
			t.Errorf("%s: %d, want %d", c.what, got, c.want)
		}
	}
}

func TestNetFileRoundTrip(t *testing.T) {
	for _, nb := range []int{1, 8, 32} {
		t.Run(fmt.Sprint(nb, " buckets"), func(t *testing.T) { testNetFile(t, nb) })
	}
}

func testNetFile(t *testing.T, nb int) {
	n := randomNet(1, nb)
	var buf bytes.Buffer
	if err := WriteNet(&buf, n, `{"test":true}`); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if want := 40 + 13 + 2*(768*256+256+nb*512) + 4*nb + 32; len(data) != want {
		t.Fatalf("file is %d bytes, want %d", len(data), want)
	}
	// The header's words and some weights at the offsets the format gives.
	le := binary.LittleEndian
	if string(data[:8]) != "RCHDNNUE" {
		t.Fatalf("magic %q", data[:8])
	}
	for i, want := range []uint32{2, 768, 256, 255, 64, 400, uint32(nb), 13} {
		if got := le.Uint32(data[8+4*i:]); got != want {
			t.Errorf("header word at %d = %d, want %d", 8+4*i, got, want)
		}
	}
	base := 40 + 13
	if got := int16(le.Uint16(data[base+2*(5*256+7):])); got != n.W[5*256+7] {
		t.Errorf("W[5][7] at its offset = %d, want %d", got, n.W[5*256+7])
	}
	oBase := base + 2*(768*256+256)
	if got := int16(le.Uint16(data[oBase+2*((nb-1)*512+300):])); got != n.OutputRow(nb - 1)[300] {
		t.Errorf("O[%d][300] at its offset = %d, want %d", nb-1, got, n.OutputRow(nb - 1)[300])
	}
	for b := range nb {
		if got := int32(le.Uint32(data[len(data)-32-4*(nb-b):])); got != n.OB[b] {
			t.Errorf("ob[%d] at its offset = %d, want %d", b, got, n.OB[b])
		}
	}
	if sum := sha256.Sum256(data[:len(data)-32]); !bytes.Equal(sum[:], data[len(data)-32:]) {
		t.Error("trailer is not the SHA-256 of the preceding bytes")
	}
	m, err := LoadNet(data)
	if err != nil {
		t.Fatal(err)
	}
	n.Manifest = `{"test":true}`
	if !sameNet(m, n) || m.Buckets() != nb || len(m.Hash) != 16 {
		t.Fatal("net differs after a round trip")
	}
	// Bucket counts outside 1..32 are refused, with a valid checksum too.
	for _, bad := range []uint32{0, 33, 1 << 31} {
		b := bytes.Clone(data)
		binary.LittleEndian.PutUint32(b[32:], bad)
		s := sha256.Sum256(b[:len(b)-32])
		copy(b[len(b)-32:], s[:])
		if _, err := LoadNet(b); err == nil || !strings.Contains(err.Error(), "buckets") {
			t.Errorf("%d buckets: err = %v", bad, err)
		}
	}
	// Another bucket count than the file's size fits is a size error.
	if nb > 1 {
		b := bytes.Clone(data)
		binary.LittleEndian.PutUint32(b[32:], uint32(nb-1))
		s := sha256.Sum256(b[:len(b)-32])
		copy(b[len(b)-32:], s[:])
		if _, err := LoadNet(b); err == nil || !strings.Contains(err.Error(), "bytes") {
			t.Errorf("wrong bucket count: err = %v", err)
		}
	}
	// Every truncation and a flipped byte anywhere are errors, not panics.
	for _, cut := range []int{0, 7, 8, 35, 36, 39, 40, 67, 68, 71, 72, 100, len(data) / 2, len(data) - 4, len(data) - 1} {
		if _, err := LoadNet(data[:cut]); err == nil {
			t.Errorf("truncated to %d bytes: no error", cut)
		}
	}
	for _, at := range []int{0, 9, 13, 33, 40, 5000, len(data) - 40, len(data) - 1} {
		bad := bytes.Clone(data)
		bad[at] ^= 0x20
		if _, err := LoadNet(bad); err == nil {
			t.Errorf("byte %d flipped: no error", at)
		}
	}
	bad := bytes.Clone(data)
	bad[1000] ^= 1
	if _, err := LoadNet(bad); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("corrupted weight: err = %v, want a checksum error", err)
	}
}

// TestNetV1Loads: a version 1 file (36-byte header, no buckets field)
// loads as one bucket and scores exactly as the same net written as
// version 2.
func TestNetV1Loads(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteNet(&buf, randomNet(12, 1), `{"v":1}`); err != nil {
		t.Fatal(err)
	}
	v2 := buf.Bytes()
	v1 := toV1(t, v2)
	a, err := LoadNet(v1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadNet(v2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Buckets() != 1 || !sameNet(a, b) || a.Manifest != `{"v":1}` {
		t.Fatal("v1 file loads differently")
	}
	for _, p := range testPositions(t) {
		if x, y := EvaluateNet(a, p), EvaluateNet(b, p); x != y {
			t.Fatalf("%s: v1 %d, v2 %d", p.ShredderFEN(), x, y)
		}
	}
	for _, cut := range []int{35, 36, 67, 68, len(v1) - 1} {
		if _, err := LoadNet(v1[:cut]); err == nil {
			t.Errorf("v1 truncated to %d bytes: no error", cut)
		}
	}
}

// TestNetBucketsUsed: each output bucket scores exactly the positions of
// its piece counts: changing one bucket's bias moves the score of those
// positions only.
func TestNetBucketsUsed(t *testing.T) {
	n := randomNet(13, 8)
	e := New()
	e.SetNet(n)
	seen := map[int]bool{}
	for _, p := range testPositions(t) {
		b := n.Bucket(p.Occupied().Count())
		seen[b] = true
		before := make([]int, 8)
		for k := range 8 {
			m := *n
			m.OB[k] += NetQA * NetQB * 10 / NetScale // +10 cp in bucket k (OB is an array: n keeps its own)
			before[k] = EvaluateNet(&m, p)
		}
		base := EvaluateNet(n, p)
		for k := range 8 {
			if d := before[k] - base; (k == b) != (d >= 9 && d <= 11) || (k != b && d != 0) {
				t.Fatalf("%s (%d pieces, bucket %d): raising bucket %d's bias moved the score by %d",
					p.ShredderFEN(), p.Occupied().Count(), b, k, d)
			}
		}
		e.Reset(p)
		if got := e.evaluateNNUE(p); got != base {
			t.Fatalf("incremental %d, refresh %d", got, base)
		}
	}
	if len(seen) < 4 {
		t.Errorf("test positions cover buckets %v only", seen)
	}
}

func FuzzLoadNet(f *testing.F) {
	var buf bytes.Buffer
	_ = WriteNet(&buf, randomNet(2, 1), "{}")
	f.Add(toV1(f, buf.Bytes()))
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:100])
	buf.Reset()
	_ = WriteNet(&buf, randomNet(2, 8), "{}")
	f.Add(buf.Bytes())
	buf.Reset()
	_ = WriteNet(&buf, randomShapedNet(2, 2, NetHidden, KingBuckets{N: 1, Mirror: true}), "{}") // version 3
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:200])
	f.Add([]byte("RCHDNNUE"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := LoadNet(data)
		if err == nil && n == nil {
			t.Fatal("nil net without error")
		}
	})
}

func TestNNUESymmetry(t *testing.T) {
	e := New()
	e.SetNet(randomNet(10, 8))
	for _, p := range testPositions(t) {
		fen := p.ShredderFEN()
		q := v.MustParseFEN(flipFEN(fen))
		if a, b := e.Evaluate(p), e.Evaluate(q); a != b {
			t.Fatalf("asymmetric: %d for %s, %d for its mirror", a, fen, b)
		}
	}
}

// BenchmarkNNUEIncremental: a move pushed and made, evaluated, taken
// back and popped, with the plain net of width 256;
// BenchmarkNNUEIncrementalWide the same with wider nets and king buckets.
func BenchmarkNNUEIncremental(b *testing.B) {
	benchIncremental(b, randomNet(11, 8))
}

func BenchmarkNNUEIncrementalWide(b *testing.B) {
	for _, c := range []struct {
		hidden int
		kings  KingBuckets
	}{{512, PlainKings}, {512, testKings4}, {1024, testKings8}} {
		b.Run(fmt.Sprintf("width %d, %d king buckets", c.hidden, c.kings.N), func(b *testing.B) {
			benchIncremental(b, randomShapedNet(11, 8, c.hidden, c.kings))
		})
	}
}

func benchIncremental(b *testing.B, n *Net) {
	e := New()
	e.SetNet(n)
	p := v.MustParseFEN(middlegames[0])
	var ml v.MoveList
	p.GenerateLegal(&ml)
	e.Reset(p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := ml.Moves[i%ml.N]
		e.Push(p, m)
		p.Make(m)
		_ = e.Evaluate(p)
		p.Unmake()
		e.Pop()
	}
}

// TestDefaultNet: the embedded net loads, writes back byte for byte,
// names its training data, and scores the start positions near zero and
// a queen up clearly ahead.
func TestDefaultNet(t *testing.T) {
	n, err := DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("nets/default.nnue")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteNet(&buf, n, n.Manifest); err != nil || !bytes.Equal(buf.Bytes(), data) {
		t.Errorf("the embedded net does not write back byte for byte (%v)", err)
	}
	if !strings.Contains(n.Manifest, "dfrc_n5000_boot") {
		t.Errorf("manifest does not name its data: %.200s", n.Manifest)
	}
	for _, sp := range []int{0, 518, 959} {
		p, _ := v.Chess960Position(sp)
		if s := EvaluateNet(n, p); s < -60 || s > 60 {
			t.Errorf("SP %d scores %d", sp, s)
		}
	}
	if s := EvaluateNet(n, v.MustParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1")); s < 300 {
		t.Errorf("a queen up scores %d", s)
	}
}

// TestNetNotScaled: in drawish endgames the net's score stands as it is.
// The hand-written evaluation's scale factor used to shrink it there too,
// though the net was trained on search scores that had been shrunk
// already (its self-play searched with the factor), so it counted twice;
// without it the engine played +12.9 ± 6.2 Elo better at 10,000 nodes a
// move (docs/search-tests.md).
func TestNetNotScaled(t *testing.T) {
	n, err := DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	e := New()
	e.SetNet(n)
	for _, fen := range []string{
		"8/5k2/4b3/3p4/3P4/2B5/5K2/8 w - - 0 1", // opposite-coloured bishops
		"8/8/8/3k4/8/3K4/2B5/2n5 w - - 0 1",     // minor against minor, no pawns
		"8/3k4/8/3r4/8/2BK4/3R4/8 w - - 0 1",    // rook and bishop against a rook
		"4k3/ppp5/8/8/8/8/PPP3B1/4K3 w - - 0 1", // a bishop and pawns against pawns
	} {
		p := v.MustParseFEN(fen)
		if got, want := e.Evaluate(p), min(max(EvaluateNet(n, p), -MaxEval), MaxEval); got != want {
			t.Errorf("%s: Evaluate %d, the net %d", fen, got, want)
		}
	}
}

// TestLoadNetRejectsAccumulatorOverflow: a net whose first layer could
// take an int16 accumulator out of range is refused with an error naming
// the unit; it once loaded and wrapped silently. The bound is exact: a
// unit that reaches ±32767 in the worst position loads, one more does not.
func TestLoadNetRejectsAccumulatorOverflow(t *testing.T) {
	start := v.NewStartPosition()
	// The 32 features of the start position, from White's side.
	var feats []int
	for c := v.White; c <= v.Black; c++ {
		for pt := v.Pawn; pt <= v.King; pt++ {
			for bb := start.Pieces(c, pt); bb != 0; bb &= bb - 1 {
				feats = append(feats, FeatureIndex(v.White, c, pt, bb.LSB()))
			}
		}
	}
	if len(feats) != NetMaxActive {
		t.Fatalf("%d features", len(feats))
	}
	const unit = 37
	// craft writes a net whose unit 37 has bias b and weight w for each
	// start position feature (and w/2 for the other 736), reads it back
	// through a real file, and returns LoadNetFile's answer.
	craft := func(b, w int16) (*Net, error) {
		n := randomNet(21, 1)
		for f := range NetInputs {
			n.W[f*NetHidden+unit] = w / 2
		}
		for _, f := range feats {
			n.W[f*NetHidden+unit] = w
		}
		n.B[unit] = b
		var buf bytes.Buffer
		if err := WriteNet(&buf, n, "{}"); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "unclipped.nnue")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return LoadNetFile(path)
	}
	for _, c := range []struct {
		b, w int16
		ok   bool
	}{
		{31, 1023, true},     // 31 + 32*1023 = 32767
		{32, 1023, false},    // 32768
		{-32, -1023, true},   // -32768
		{-33, -1023, false},  // -32769
		{0, 1100, false},     // 35200: wraps to a negative sum
		{32767, 0, true},     // a large bias alone
		{-20000, 400, true},  // the bias and the weights pull apart
		{20000, -1600, true}, // 20000 - 51200 = -31200
		{20000, -1700, false},
	} {
		n, err := craft(c.b, c.w)
		if c.ok {
			if err != nil {
				t.Errorf("bias %d, weights %d: %v", c.b, c.w, err)
				continue
			}
			// Loaded: the start position's accumulator is the exact sum.
			acc := make([]int16, NetHidden)
			n.refresh(&acc[0], start, v.White)
			if want := int(c.b) + NetMaxActive*int(c.w); int(acc[unit]) != want {
				t.Errorf("bias %d, weights %d: accumulator %d, want %d", c.b, c.w, acc[unit], want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("hidden unit %d", unit)) || !strings.Contains(err.Error(), "int16") {
			t.Errorf("bias %d, weights %d: err = %v, want a range error for unit %d", c.b, c.w, err, unit)
		}
	}
	// The embedded net passes.
	if n, err := DefaultNet(); err != nil || n.CheckAccumulators() != nil {
		t.Errorf("default net: %v", err)
	}
}
