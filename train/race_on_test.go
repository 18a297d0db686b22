//go:build race

package train

// raceEnabled: under the race detector the training tests run a smaller
// fit (the detector slows the inner loops tenfold) and skip its accuracy
// checks.
const raceEnabled = true
