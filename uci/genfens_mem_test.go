package uci

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/rochade/rochade/internal/testutil"
)

// residentBytes is the process's resident set (VmRSS).
func residentBytes(t *testing.T) int64 {
	kb, ok := testutil.ResidentKB(0)
	if !ok {
		t.Skip("no VmRSS in /proc/self/status on this system")
	}
	return kb << 10
}

// TestGenfensReleasesTable: each genfens searches with an engine of its
// own (a 16 MB table, made resident by its clears); many of them in one
// session leave the resident set where one left it.
func TestGenfensReleasesTable(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	var out bytes.Buffer
	s := NewSession(&out, Config{})
	defer s.Close()
	s.RunCommands([]string{"genfens 1 seed 0 book None", "isready"})
	debug.FreeOSMemory()
	base := residentBytes(t)
	const runs = 24
	cmds := make([]string, 0, runs+1)
	for i := 1; i <= runs; i++ {
		cmds = append(cmds, fmt.Sprintf("genfens 1 seed %d book None", i))
	}
	s.RunCommands(append(cmds, "isready"))
	if n := strings.Count(out.String(), "info string genfens "); n != runs+1 {
		t.Fatalf("%d openings, want %d:\n%s", n, runs+1, out.String())
	}
	grown := residentBytes(t) - base
	t.Logf("%d genfens grew the resident set by %d MB", runs, grown>>20)
	if grown > 64<<20 {
		t.Errorf("%d genfens grew the resident set by %d MB: their tables were not given back", runs, grown>>20)
	}
}
