//go:build !(goexperiment.simd && amd64)

package train

// simdEnabled tells whether the AVX2 kernels are in use.
const simdEnabled = false

func accumulateRows(acc, bias *[Hidden]float32, w []float32, feats []uint16) {
	accumulateRowsScalar(acc, bias, w, feats)
}

func addRow(dst, src *[Hidden]float32) { addRowScalar(dst, src) }

func dotSCReLU(acc, o *[Hidden]float32) float32 { return dotSCReLUScalar(acc, o) }

func hiddenGrad(acc, o *[Hidden]float32, d float32, gout, gacc *[Hidden]float32) {
	hiddenGradScalar(acc, o, d, gout, gacc)
}
