//go:build !race

package testutil

// RaceEnabled says whether the race detector is on.
const RaceEnabled = false
