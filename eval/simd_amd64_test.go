//go:build amd64 && !purego

package eval

import (
	"math/rand/v2"
	"testing"
)

// TestSIMDMatchesGeneric: the vector kernels and the pure-Go reference
// give exactly the same integers.
func TestSIMDMatchesGeneric(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	n := randomNet(3, 8)
	r := rand.New(rand.NewPCG(4, 5))
	for iter := 0; iter < 2000; iter++ {
		var src, d1, d2 [NetHidden]int16
		for i := range src {
			src[i] = int16(r.IntN(2000) - 700)
		}
		var adds, subs [2]*int16
		na, ns := r.IntN(3), r.IntN(3)
		for k := 0; k < na; k++ {
			adds[k] = &n.W[r.IntN(NetInputs)*NetHidden]
		}
		for k := 0; k < ns; k++ {
			subs[k] = &n.W[r.IntN(NetInputs)*NetHidden]
		}
		accUpdateAVX2(&d1, &src, &adds, na, &subs, ns)
		accUpdateGeneric(&d2, &src, &adds, na, &subs, ns)
		if d1 != d2 {
			t.Fatalf("accUpdate differs (adds %d, subs %d)", na, ns)
		}
		w := (*[NetHidden]int16)(n.O[r.IntN(8)][r.IntN(2)*NetHidden:])
		useAVX2 = true
		a := screluDot(&src, w)
		useAVX2 = false
		b := screluDot(&src, w)
		useAVX2 = true
		if a != b {
			t.Fatalf("screluDot differs: %d vs %d", a, b)
		}
	}
	// Saturated inputs and extreme weights: the worst case for overflow.
	var acc, w [NetHidden]int16
	for i := range acc {
		acc[i], w[i] = 1000, 127
	}
	useAVX2 = false
	want := screluDot(&acc, &w)
	useAVX2 = true
	if got := screluDot(&acc, &w); got != want || want != 255*255*127*NetHidden {
		t.Fatalf("saturated screluDot %d, want %d", got, want)
	}
}
