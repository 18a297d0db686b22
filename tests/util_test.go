package tests

import "github.com/rochade/rochade/internal/testutil"

// raceEnabled: the engine is built and tested under the race detector.
const raceEnabled = testutil.RaceEnabled
