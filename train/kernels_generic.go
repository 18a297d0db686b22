//go:build !(goexperiment.simd && amd64)

package train

// simdEnabled tells whether the AVX2 kernels are in use.
const simdEnabled = false

func accumulateRows(acc, bias []float32, w []float32, feats []uint16) {
	accumulateRowsScalar(acc, bias, w, feats)
}

func addRow(dst, src []float32) { addRowScalar(dst, src) }

func addRows(w []float32, feats []uint16, src []float32) { addRowsScalar(w, feats, src) }

func dotSCReLU(acc, o []float32) float32 { return dotSCReLUScalar(acc, o) }

func hiddenGrad(acc, o []float32, d float32, gout, gacc []float32) {
	hiddenGradScalar(acc, o, d, gout, gacc)
}

func adamStep(c adamConsts, p, m, v, g []float32, update bool) { adamStepScalar(c, p, m, v, g, update) }
