//go:build amd64 && !purego

package eval

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestSIMDMatchesGeneric: the vector kernels and the pure-Go reference
// give exactly the same integers, at every width, with any number of rows.
func TestSIMDMatchesGeneric(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	defer func() { useAVX2 = true }()
	r := rand.New(rand.NewPCG(4, 5))
	for _, h := range []int{256, 512, 768, 1024} {
		n := randomShapedNet(3, 8, h, KingBuckets{N: 2, Map: [32]uint8{1, 1, 1}})
		for iter := 0; iter < 500; iter++ {
			src, d1, d2 := make([]int16, h), make([]int16, h), make([]int16, h)
			for i := range src {
				src[i] = int16(r.IntN(2000) - 700)
			}
			var adds, subs []*int16
			na, ns := r.IntN(3), r.IntN(3)
			if iter%10 == 0 {
				na, ns = r.IntN(40), r.IntN(40)
			}
			for range na {
				adds = append(adds, &n.W[r.IntN(2*NetInputs)*h])
			}
			for range ns {
				subs = append(subs, &n.W[r.IntN(2*NetInputs)*h])
			}
			accUpdateAVX2(&d1[0], &src[0], unsafe.SliceData(adds), na, unsafe.SliceData(subs), ns, h/NetHiddenStep)
			accUpdateGeneric(&d2[0], &src[0], unsafe.SliceData(adds), na, unsafe.SliceData(subs), ns, h)
			if !slices.Equal(d1, d2) {
				t.Fatalf("width %d: accUpdate differs (adds %d, subs %d)", h, na, ns)
			}
			// In place, as the refresh cache updates.
			useAVX2 = true
			accUpdate(&src[0], &src[0], unsafe.SliceData(adds), na, unsafe.SliceData(subs), ns, h)
			if !slices.Equal(src, d2) {
				t.Fatalf("width %d: accUpdate in place differs", h)
			}
			w := &n.OutputRow(r.IntN(8))[r.IntN(2)*h]
			a := screluDot(&src[0], w, h)
			useAVX2 = false
			b := screluDot(&src[0], w, h)
			useAVX2 = true
			if a != b {
				t.Fatalf("width %d: screluDot differs: %d vs %d", h, a, b)
			}
		}
		// Saturated inputs and extreme weights: the worst case for overflow.
		acc, w := make([]int16, h), make([]int16, h)
		for i := range acc {
			acc[i], w[i] = 1000, 127
		}
		useAVX2 = false
		want := screluDot(&acc[0], &w[0], h)
		useAVX2 = true
		if got := screluDot(&acc[0], &w[0], h); got != want || want != int64(255*255*127*h) {
			t.Fatalf("width %d: saturated screluDot %d, want %d", h, got, want)
		}
	}
}
