package tests

import (
	"strings"

	"github.com/rochade/rochade/internal/testutil"
)

// raceEnabled: the engine is built and tested under the race detector.
const raceEnabled = testutil.RaceEnabled

func splitFields(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Fields(s)
}
