//go:build tune

package uci

// TuneBuild tells whether this build offers the search parameters as UCI
// options (built with -tags tune).
const TuneBuild = true

func init() { registerTune() }
