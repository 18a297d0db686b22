//go:build !race

package variant960_test

const raceEnabled = false
