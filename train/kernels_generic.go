//go:build !(goexperiment.simd && amd64)

package train

import "github.com/rochade/rochade/eval"

// simdEnabled tells whether the AVX2 kernels are in use.
const simdEnabled = false

func accumulateRows(acc, bias *[eval.NetHidden]float32, w []float32, feats []uint16) {
	accumulateRowsScalar(acc, bias, w, feats)
}

func addRow(dst, src *[eval.NetHidden]float32) { addRowScalar(dst, src) }

func dotSCReLU(acc, o *[eval.NetHidden]float32) float32 { return dotSCReLUScalar(acc, o) }

func hiddenGrad(acc, o *[eval.NetHidden]float32, d float32, gout, gacc *[eval.NetHidden]float32) {
	hiddenGradScalar(acc, o, d, gout, gacc)
}
