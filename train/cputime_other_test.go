//go:build !unix

package train

import "time"

var processStart = time.Now()

// cpuTime stands in with the wall time where getrusage is missing, so the
// benchmark's samples/cpu-s are per second of wall time there.
func cpuTime() time.Duration { return time.Since(processStart) }
