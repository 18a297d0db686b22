//go:build wine

package tests

import (
	"strings"
	"testing"
	"time"
)

// TestWineLogTargets: with stdout and stderr both pipes (as a GUI starts
// the engine), `Debug Log File -` logs to stderr and NUL is taken.
// Windows' Stat of a pipe or device
// has no file id, so os.SameFile once called any two of them the same
// file, and both were refused as stdout.
func TestWineLogTargets(t *testing.T) {
	e := startWine(t)
	for _, target := range []string{"-", "NUL"} {
		e.send("setoption name Debug Log File value " + target)
		if got := e.wsync(); len(got) != 0 {
			t.Errorf("Debug Log File %s: %q", target, got)
		}
	}
	e.send("setoption name Debug Log File value -")
	e.wsync()
	e.send("quit")
	select {
	case <-e.exited:
	case <-time.After(wineTimeout):
		t.Fatalf("engine did not exit within %v", wineTimeout)
	}
	if !strings.Contains(e.stderr.String(), `"debug log started"`) {
		t.Errorf("no debug log on stderr:\n%s", e.stderr.String())
	}
}
