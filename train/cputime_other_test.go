//go:build !unix

package train

import "time"

var processStart = time.Now()

// cpuTime is the wall time since the tests started, where CPU time is
// not read (no getrusage).
func cpuTime() time.Duration { return time.Since(processStart) }
