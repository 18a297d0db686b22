package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// Test layouts: four mirrored buckets by rank band and wing, and two
// unmirrored buckets (back rank or not).
var (
	testKings4 = KingBuckets{N: 4, Mirror: true, Map: [32]uint8{
		0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}}
	testKings2 = KingBuckets{N: 2, Map: [32]uint8{
		0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}
	testKings8 = KingBuckets{N: 8, Mirror: true, Map: [32]uint8{
		0, 0, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 5, 5, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}}
)

// TestKingBucketsOf: the bucket and reflection of king squares, from
// either side, and the input index built from them.
func TestKingBucketsOf(t *testing.T) {
	k := testKings4
	for _, c := range []struct {
		persp  v.Color
		ksq    v.Square
		bucket int
		mirror bool
	}{
		{v.White, v.SquareOf(1, 0), 0, false}, // b1
		{v.White, v.SquareOf(6, 0), 0, true},  // g1: b1 reflected
		{v.White, v.SquareOf(3, 0), 1, false}, // d1
		{v.White, v.SquareOf(4, 0), 1, true},  // e1: d1 reflected
		{v.White, v.SquareOf(4, 1), 2, true},  // e2
		{v.White, v.SquareOf(0, 7), 3, false}, // a8
		{v.Black, v.SquareOf(6, 7), 0, true},  // g8: Black's g1
		{v.Black, v.SquareOf(2, 7), 1, false}, // c8: Black's c1
		{v.Black, v.SquareOf(3, 6), 2, false}, // d7: Black's d2
		{v.Black, v.SquareOf(7, 0), 3, true},  // h1: Black's h8
	} {
		rel := c.ksq
		if c.persp == v.Black {
			rel ^= 56
		}
		if b, m := k.Of(rel); b != c.bucket || m != c.mirror {
			t.Errorf("%v king on %v: bucket %d mirror %v, want %d %v", c.persp, c.ksq, b, m, c.bucket, c.mirror)
		}
		// A white pawn on b3 from this perspective.
		want := c.bucket*NetInputs + FeatureIndex(c.persp, v.White, v.Pawn, v.SquareOf(1, 2))
		if c.mirror {
			want = c.bucket*NetInputs + FeatureIndex(c.persp, v.White, v.Pawn, v.SquareOf(6, 2))
		}
		if got := k.Index(c.persp, c.ksq, v.White, v.Pawn, v.SquareOf(1, 2)); got != want {
			t.Errorf("%v king on %v: pawn b3 input %d, want %d", c.persp, c.ksq, got, want)
		}
	}
	// The plain layout is FeatureIndex.
	for s := v.Square(0); s < 64; s++ {
		if PlainKings.Index(v.Black, s, v.White, v.Knight, 20) != FeatureIndex(v.Black, v.White, v.Knight, 20) {
			t.Fatal("the plain layout is not FeatureIndex")
		}
	}
	// The evaluator's precomputed rows are the layout's inputs.
	for _, kb := range []KingBuckets{PlainKings, testKings2, testKings4, testKings8} {
		n, err := NewNet(NetHidden, kb, 1)
		if err != nil {
			t.Fatal(err)
		}
		for persp := v.White; persp <= v.Black; persp++ {
			for ksq := v.Square(0); ksq < 64; ksq++ {
				kv := n.view[persp][ksq]
				for _, pc := range []v.Piece{v.MakePiece(v.White, v.Pawn), v.MakePiece(v.Black, v.King), v.MakePiece(v.Black, v.Queen)} {
					for s := v.Square(0); s < 64; s++ {
						want := &n.W[kb.Index(persp, ksq, pc.Color(), pc.Type(), s)*NetHidden]
						if n.row(kv, persp, pc, s) != want {
							t.Fatalf("layout %v, %v king on %v: the row of %v on %v is not its input", kb, persp, ksq, pc, s)
						}
					}
				}
			}
		}
	}
	for _, bad := range []KingBuckets{{N: 0}, {N: 33}, {N: 2, Map: [32]uint8{31: 2}}} {
		if err := bad.Check(); err == nil {
			t.Errorf("layout %v: no error", bad)
		}
	}
}

// fileMirror reflects a position's placement a <-> h (castling and en
// passant dropped: the net does not see them).
func fileMirror(p *v.Position) *v.Position {
	f := strings.Fields(p.ShredderFEN())
	ranks := strings.Split(f[0], "/")
	for i, rk := range ranks {
		var b []byte
		for j := 0; j < len(rk); j++ {
			if c := rk[j]; c >= '1' && c <= '8' {
				b = append(b, strings.Repeat("1", int(c-'0'))...)
			} else {
				b = append(b, c)
			}
		}
		slices.Reverse(b)
		ranks[i] = string(b)
	}
	return v.MustParseFEN(strings.Join(ranks, "/") + " " + f[1] + " - - 0 1")
}

// TestKingMirrorSymmetry: with mirroring, a position and its reflection
// a <-> h have the same inputs, so the same score; without, they differ.
func TestKingMirrorSymmetry(t *testing.T) {
	mir := randomShapedNet(40, 8, 512, testKings4)
	plain := randomShapedNet(40, 8, NetHidden, PlainKings)
	differ := 0
	for _, p := range testPositions(t) {
		q := fileMirror(p)
		if a, b := EvaluateNet(mir, p), EvaluateNet(mir, q); a != b {
			t.Fatalf("%s: %d, reflected %d", p.ShredderFEN(), a, b)
		}
		if EvaluateNet(plain, p) != EvaluateNet(plain, q) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the plain net scores every position as its reflection: the test shows nothing")
	}
}

// TestIncrementalMatchesRefresh plays random games from Chess960 and
// DFRC start positions, pushing and popping on the evaluator as the
// search does, and checks the incrementally kept accumulators (and the
// score) against a refresh from scratch: after every move and take-back
// in one pass, now and then in another (the stack catches up over several
// plies). Castling and king moves are preferred now and then, so that
// kings change bucket and cross the d/e line; the nets have 1, 2
// (unmirrored), 4 and 8 (mirrored) king buckets and widths 256 to 1024.
func TestIncrementalMatchesRefresh(t *testing.T) {
	for _, c := range []struct {
		hidden int
		kings  KingBuckets
	}{{NetHidden, PlainKings}, {NetHidden, testKings2}, {512, testKings4}, {1024, testKings8}} {
		t.Run(fmt.Sprintf("width %d, %d king buckets", c.hidden, c.kings.N), func(t *testing.T) {
			testIncremental(t, randomShapedNet(6, 8, c.hidden, c.kings))
		})
	}
}

func testIncremental(t *testing.T, n *Net) {
	e := New()
	e.SetNet(n)
	r := rand.New(rand.NewPCG(8, 9))
	checked, rebuilt, crossed := 0, 0, 0
	roots := testPositions(t)
	for i := 0; i < 12; i++ {
		for _, sp := range []int{r.IntN(960), r.IntN(960)} {
			p, _ := v.DFRCPosition(sp, r.IntN(960))
			roots = append(roots, p)
		}
	}
	want := make([]int16, n.hidden)
	check := func(p *v.Position) {
		t.Helper()
		en := e.accumulators()
		for c := v.White; c <= v.Black; c++ {
			n.refresh(&want[0], p, c)
			if !slices.Equal(e.accOf(en, c), want) {
				t.Fatalf("%v accumulator differs from a refresh at %s", c, p.ShredderFEN())
			}
		}
		if got, want := e.evaluateNNUE(p), EvaluateNet(n, p); got != want {
			t.Fatalf("incremental %d, refresh %d at %s", got, want, p.ShredderFEN())
		}
		checked++
	}
	for ri, root := range roots {
		if ri%3 != 0 && ri >= 200 {
			continue
		}
		every := ri%2 == 0
		p := root.Copy()
		e.Reset(p)
		check(p)
		depth := 0
		for step := 0; step < 80; step++ {
			var ml v.MoveList
			p.GenerateLegal(&ml)
			switch {
			case depth > 0 && (ml.N == 0 || r.IntN(4) == 0):
				if p.LastMove() == v.NullMove {
					p.UnmakeNull()
				} else {
					p.Unmake()
				}
				e.Pop()
				depth--
			case ml.N == 0:
				step = 80
				continue
			case !p.InCheck() && r.IntN(12) == 0:
				e.PushNull()
				p.MakeNull()
				depth++
			default:
				// Prefer castling, king moves, captures and promotions now
				// and then.
				m := ml.Moves[r.IntN(ml.N)]
				for _, c := range ml.Slice() {
					king := p.PieceOn(c.From()).Type() == v.King
					if (c.IsCastling() || king || c.Kind() != v.KindNormal || p.PieceOn(c.To()) != v.NoPiece) && r.IntN(3) == 0 {
						m = c
					}
				}
				if p.PieceOn(m.From()).Type() == v.King {
					to := m.To()
					if m.IsCastling() {
						to = m.CastlingKingTo()
					}
					if (m.From().File() < 4) != (to.File() < 4) {
						crossed++
					}
				}
				e.Push(p, m)
				if e.top < maxStack && e.stack[e.top].refresh != noRefresh {
					rebuilt++
				}
				p.Make(m)
				depth++
			}
			if every || r.IntN(3) == 0 {
				check(p)
			}
		}
	}
	t.Logf("%d positions checked, %d king moves rebuilt an accumulator, %d crossed the d/e line", checked, rebuilt, crossed)
	if checked < 5000 {
		t.Fatalf("only %d positions checked", checked)
	}
	if n.kings.Plain() != (rebuilt == 0) || (n.kings.N > 1 && rebuilt < 100) || crossed < 50 {
		t.Fatalf("%d rebuilds, %d d/e crossings", rebuilt, crossed)
	}
}

// TestRefreshCache: an accumulator rebuilt through the refresh cache is
// the one computed from scratch, whatever the cache held before (other
// positions in the same state, nothing, another net's sums).
func TestRefreshCache(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 31))
	nets := []*Net{randomShapedNet(31, 8, 512, testKings4), randomShapedNet(32, 8, 1024, testKings8), randomShapedNet(33, 4, NetHidden, testKings2)}
	var pos []*v.Position
	for i, p := range testPositions(t) {
		if i%8 == 0 {
			pos = append(pos, p)
		}
	}
	e := New()
	for round := range 3 {
		for _, n := range nets {
			e.SetNet(n)
			e.Reset(pos[0])
			if e.cacheNet != n || len(e.cache) != 4*n.kings.N {
				t.Fatal("the cache is not the net's")
			}
			got, want := make([]int16, n.hidden), make([]int16, n.hidden)
			states := map[int]bool{}
			for _, i := range r.Perm(len(pos)) {
				p := pos[i]
				ps := piecesOf(p)
				for c := v.White; c <= v.Black; c++ {
					clear(got)
					e.refreshCached(&got[0], &ps, c, p.KingSquare(c))
					n.refresh(&want[0], p, c)
					if !slices.Equal(got, want) {
						t.Fatalf("round %d, width %d: %v's accumulator through the cache differs at %s", round, n.hidden, c, p.ShredderFEN())
					}
					states[int(c)*64+int(n.view[c][p.KingSquare(c)].state)] = true
				}
			}
			reachable := 2 * n.kings.N // by perspective and bucket
			if n.kings.Mirror {
				reachable *= 2
			}
			if len(states) < min(8, reachable) {
				t.Errorf("width %d, %d king buckets: only %d refresh states used", n.hidden, n.kings.N, len(states))
			}
		}
	}
}

// TestNetFileV3 writes and reads back nets of format version 3: the
// header's words, the king bucket map and weights at the offsets the
// format gives, every field checked on load; a plain net written as
// version 3 scores as the same net written as version 2.
func TestNetFileV3(t *testing.T) {
	le := binary.LittleEndian
	for _, c := range []struct {
		hidden, nb int
		kings      KingBuckets
	}{{512, 8, testKings4}, {1024, 1, testKings8}, {NetHidden, 3, testKings2}, {768, 2, PlainKings}} {
		n := randomShapedNet(50, c.nb, c.hidden, c.kings)
		n.Manifest = `{"v":3}`
		var buf bytes.Buffer
		if err := WriteNet(&buf, n, n.Manifest); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		h, k := c.hidden, c.kings.N
		if want := 80 + 7 + 2*(k*768*h+h+c.nb*2*h) + 4*c.nb + 32; len(data) != want || n.FileVersion() != 3 {
			t.Fatalf("width %d, %d king buckets: file is %d bytes (version %d), want %d", h, k, len(data), n.FileVersion(), want)
		}
		flags := uint32(0)
		if c.kings.Mirror {
			flags = 1
		}
		for i, want := range []uint32{3, 768, uint32(h), 255, 64, 400, uint32(c.nb), uint32(k), flags} {
			if got := le.Uint32(data[8+4*i:]); got != want {
				t.Errorf("header word at %d = %d, want %d", 8+4*i, got, want)
			}
		}
		if !bytes.Equal(data[44:76], c.kings.Map[:]) || le.Uint32(data[76:]) != 7 || string(data[80:87]) != n.Manifest {
			t.Error("king bucket map or manifest not where the format puts them")
		}
		base := 87
		at := (k-1)*768*h + 5*h + 7
		if got := int16(le.Uint16(data[base+2*at:])); got != n.W[at] {
			t.Errorf("W of king bucket %d at its offset = %d, want %d", k-1, got, n.W[at])
		}
		oBase := base + 2*(k*768*h+h)
		if got := int16(le.Uint16(data[oBase+2*((c.nb-1)*2*h+h+3):])); got != n.OutputRow(c.nb - 1)[h+3] {
			t.Errorf("O at its offset = %d, want %d", got, n.OutputRow(c.nb - 1)[h+3])
		}
		m, err := LoadNet(data)
		if err != nil {
			t.Fatal(err)
		}
		if !sameNet(m, n) {
			t.Fatalf("width %d, %d king buckets: net differs after a round trip", h, k)
		}
		for _, p := range testPositions(t)[:20] {
			if EvaluateNet(m, p) != EvaluateNet(n, p) {
				t.Fatal("scores differ after a round trip")
			}
		}
		// Each header field out of range is refused, with a valid checksum.
		for _, bad := range []struct {
			off  int
			val  uint32
			what string
		}{{16, 300, "architecture"}, {16, 2048, "architecture"}, {16, 0, "architecture"}, {36, 0, "king buckets"}, {36, 33, "king buckets"},
			{40, 2, "flags"}, {44, uint32(k), "map"}, {12, 769, "architecture"}, {8, 4, "version"}} {
			b := bytes.Clone(data)
			if bad.off == 44 {
				b[44+31] = byte(k) // a map entry past the buckets
			} else {
				le.PutUint32(b[bad.off:], bad.val)
			}
			s := sha256.Sum256(b[:len(b)-32])
			copy(b[len(b)-32:], s[:])
			if _, err := LoadNet(b); err == nil || !strings.Contains(err.Error(), bad.what) {
				t.Errorf("header %d = %d: err = %v, want %q", bad.off, bad.val, err, bad.what)
			}
		}
		for _, cut := range []int{44, 75, 79, 80, len(data) / 2, len(data) - 1} {
			if _, err := LoadNet(data[:cut]); err == nil {
				t.Errorf("truncated to %d bytes: no error", cut)
			}
		}
	}
	// A plain net of width 256 is written as version 2; as version 3 it
	// loads to the same net. A wider or bucketed net is no version 2.
	n := randomNet(51, 4)
	var v2, v3 bytes.Buffer
	if err := WriteNet(&v2, n, "{}"); err != nil || binary.LittleEndian.Uint32(v2.Bytes()[8:]) != 2 || n.FileVersion() != 2 {
		t.Fatalf("plain net: version %d, %v", binary.LittleEndian.Uint32(v2.Bytes()[8:]), err)
	}
	if err := writeNet(&v3, n, "{}", 3); err != nil {
		t.Fatal(err)
	}
	a, err1 := LoadNet(v2.Bytes())
	b, err2 := LoadNet(v3.Bytes())
	if err1 != nil || err2 != nil || !sameNet(a, b) {
		t.Fatalf("plain net as versions 2 and 3: %v %v", err1, err2)
	}
	if err := writeNet(&v3, randomShapedNet(1, 1, 512, PlainKings), "{}", 2); err == nil {
		t.Error("a net of width 512 written as version 2")
	}
	// A version 2 file that says width 512 is refused.
	bad := bytes.Clone(v2.Bytes())
	binary.LittleEndian.PutUint32(bad[16:], 512)
	s := sha256.Sum256(bad[:len(bad)-32])
	copy(bad[len(bad)-32:], s[:])
	if _, err := LoadNet(bad); err == nil || !strings.Contains(err.Error(), "architecture") {
		t.Errorf("version 2 of width 512: err = %v", err)
	}
}

// TestCheckAccumulatorsKingBuckets: the accumulator range is checked in
// each king bucket: a column that only one bucket's 32 largest weights
// take out of int16 is refused, naming the bucket.
func TestCheckAccumulatorsKingBuckets(t *testing.T) {
	n := randomShapedNet(60, 1, 512, testKings4)
	if err := n.CheckAccumulators(); err != nil {
		t.Fatal(err)
	}
	const unit, bucket = 300, 2
	for f := range 40 {
		n.W[(bucket*NetInputs+f*7)*512+unit] = 1100
	}
	if err := n.CheckAccumulators(); err == nil || !strings.Contains(err.Error(), "hidden unit 300") || !strings.Contains(err.Error(), "king bucket 2") {
		t.Errorf("err = %v", err)
	}
}
