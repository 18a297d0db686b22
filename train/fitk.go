package train

import "math"

// FitK returns the K (cp) minimising the mean squared error between
// sigmoid(score/K) and the game result over d (at most 1M positions,
// evenly spaced, are used), and that error. It scans K from 20 to 2000 cp
// and refines the best bracket by golden-section search.
func FitK(d *Dataset) (k, mse float64) {
	n := d.Len()
	if n == 0 {
		return 200, 0
	}
	step := max(1, n/1_000_000)
	err := func(k float64) float64 {
		var s float64
		var c int
		for i := 0; i < n; i += step {
			e := sigmoid(float64(d.Score[i])/k) - float64(d.Result[i])*0.5
			s += e * e
			c++
		}
		return s / float64(c)
	}
	best, bestErr := 20.0, math.Inf(1)
	for k := 20.0; k <= 2000; k += 20 {
		if e := err(k); e < bestErr {
			best, bestErr = k, e
		}
	}
	lo, hi := max(best-20, 1), best+20
	const phi = 0.6180339887498949
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	ea, eb := err(a), err(b)
	for hi-lo > 0.05 {
		if ea < eb {
			hi, b, eb = b, a, ea
			a = hi - phi*(hi-lo)
			ea = err(a)
		} else {
			lo, a, ea = a, b, eb
			b = lo + phi*(hi-lo)
			eb = err(b)
		}
	}
	k = (lo + hi) / 2
	return k, err(k)
}
