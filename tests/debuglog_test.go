//go:build linux

package tests

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestDebugLogFailure: a debug log whose writes fail (/dev/full stands in
// for a full disk), with stderr piped and never read, as some GUIs do.
// zerolog reported every dropped event on stderr; once the pipe was full
// the engine blocked for good. Now the log stops at the first failure and
// the engine says so once, and plays on.
func TestDebugLogFailure(t *testing.T) {
	cmd, stdin, stdout := startUnreadStderr(t, plainBin(t))
	defer cmd.Process.Kill()
	const games = 300
	go func() {
		var b strings.Builder
		b.WriteString("uci\nsetoption name Debug Log File value /dev/full\nposition startpos\n")
		for i := 0; i < games; i++ {
			b.WriteString("go depth 2\n")
		}
		stdin.Write([]byte(b.String()))
	}()
	done := make(chan struct{})
	bestmoves, errors := 0, 0
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			l := sc.Text()
			switch {
			case strings.HasPrefix(l, "bestmove"):
				bestmoves++
			case strings.HasPrefix(l, "info string error: Debug Log File"), strings.HasPrefix(l, "info string error: the debug log"):
				errors++
			}
			if bestmoves == games {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("after 60 s, %d of %d bestmoves: the engine is blocked", bestmoves, games)
	}
	if bestmoves != games || errors != 1 {
		t.Errorf("%d of %d bestmoves, %d error lines (want 1)", bestmoves, games, errors)
	}
	stdin.Write([]byte("quit\n"))
}

// startUnreadStderr starts the engine with pipes for stdin and stdout and
// a stderr pipe that is never read, as under a GUI that ignores stderr.
func startUnreadStderr(t *testing.T, bin string, args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.StderrPipe(); err != nil { // never read
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdin, stdout
}
