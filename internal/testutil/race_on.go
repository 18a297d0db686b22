//go:build race

package testutil

// RaceEnabled says whether the race detector is on: the tests that it
// slows tenfold run smaller then, and skip their timing and accuracy
// checks.
const RaceEnabled = true
