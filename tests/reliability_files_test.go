//go:build linux

package tests

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOFilesRefused: a FIFO as the Debug Log File, as --log or as the
// genfens book froze the engine (opening a FIFO waits for the other end),
// quit and the end of input included. Each is refused with one error, at
// once, and the engine goes on.
func TestFIFOFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "f")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}

	e := startEngine(t)
	e.handshake()
	for _, c := range []struct{ cmd, want string }{
		{"setoption name Debug Log File value " + fifo, "info string error: Debug Log File"},
		{"genfens 3 seed 1 book " + fifo, "info string error: genfens: book"},
	} {
		start := time.Now()
		e.send(c.cmd)
		got := e.sync()
		if took := time.Since(start); took > 5*sec {
			t.Errorf("%s: readyok after %v", c.cmd, took)
		}
		// genfens reads its book on its own goroutine: its error may
		// follow readyok.
		if !contains(got, c.want) {
			got = append(got, e.until(c.want, 5*sec)...)
		}
		n := 0
		for _, l := range got {
			if strings.HasPrefix(l, "info string error") {
				n++
				if !strings.Contains(l, "not a regular file") {
					t.Errorf("%s: %q does not say why", c.cmd, l)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d error lines, want 1: %q", c.cmd, n, got)
		}
	}
	e.send("position startpos")
	best, _, _ := e.search("go depth 3", 10*sec)
	if best == "" || best == "0000" {
		t.Errorf("no move after the refused files: %q", best)
	}
	e.send("quit")
	e.waitExit(5 * sec)

	// --log: the engine starts, says why after uciok, and plays.
	e = startEngine(t, "--log", fifo)
	e.send("uci")
	got := e.until("uciok", 5*sec)
	got = append(got, e.sync()...)
	if !contains(got, "info string error: --log") {
		t.Errorf("--log FIFO: no error line: %q", got)
	}
	e.send("quit")
	select {
	case <-e.exited:
	case <-time.After(5 * sec):
		t.Fatal("--log FIFO: no exit after quit")
	}
	if !strings.Contains(e.stderr.String(), "not a regular file") {
		t.Errorf("--log FIFO: stderr %q", e.stderr.String())
	}
}

// TestStderrLogNeverBlocks: with --log - and a GUI that never reads our
// stderr, the engine stopped answering (isready included) once the pipe
// held about 64 KB of log. The log now never makes the protocol wait.
func TestStderrLogNeverBlocks(t *testing.T) {
	cmd, stdin, stdout := startUnreadStderr(t, rochadeBin(t), "--log", "-")
	defer cmd.Process.Kill()
	// About 130 KB of log, twice what a pipe holds.
	const searches = 80
	go func() {
		var b strings.Builder
		b.WriteString("uci\nsetoption name MultiPV value 4\n")
		for range searches {
			b.WriteString("ucinewgame\nposition startpos\ngo depth 8\n")
		}
		stdin.Write([]byte(b.String()))
	}()
	lines := make(chan string, 1<<16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	bestmoves, ready, notes := 0, false, 0
	timeout := time.After(120 * sec)
	for !ready {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed after %d bestmoves", bestmoves)
			}
			switch {
			case strings.HasPrefix(l, "bestmove"):
				if bestmoves++; bestmoves == searches {
					stdin.Write([]byte("isready\n"))
					timeout = time.After(5 * sec)
				}
			case l == "readyok":
				ready = true
			case strings.Contains(l, "debug log"):
				notes++
			}
		case <-timeout:
			t.Fatalf("%d of %d bestmoves, and no readyok: the engine is blocked", bestmoves, searches)
		}
	}
	if notes > 1 {
		t.Errorf("%d notes on the log, want at most 1", notes)
	}
	stdin.Write([]byte("quit\n"))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * sec):
		t.Error("no exit within 5 s after quit")
	}
}

// TestDebugLogNotStdout: a Debug Log File or --log that is our stdout
// put JSON log lines among the protocol lines. Every name for stdout is
// refused with one error: /dev/stdout, /dev/fd/1, /proc/self/fd/1, a
// symbolic link to one of them, and --log - where stderr is stdout.
func TestDebugLogNotStdout(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.log")
	if err := os.Symlink("/proc/self/fd/1", link); err != nil {
		t.Fatal(err)
	}
	e := startEngine(t)
	e.handshake()
	for _, name := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", link} {
		e.send("setoption name Debug Log File value " + name)
		got := e.sync()
		if len(got) != 1 || !strings.HasPrefix(got[0], "info string error: Debug Log File") || !strings.Contains(got[0], "it is stdout") {
			t.Errorf("%s: %q, want one error naming stdout", name, got)
		}
	}
	e.send("position startpos")
	e.search("go depth 3", 10*sec)
	e.closeAndWait(5 * sec) // every stdout line is protocol

	// --log naming stdout.
	for _, name := range []string{"/dev/stdout", "-"} {
		cmd := exec.Command(rochadeBin(t), "--log", name, "uci", "isready", "quit")
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = w, w // 2>&1
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		out := make(chan []byte)
		go func() {
			var b []byte
			buf := make([]byte, 4096)
			for {
				n, err := r.Read(buf)
				b = append(b, buf[:n]...)
				if err != nil {
					out <- b
					return
				}
			}
		}()
		var got []byte
		select {
		case got = <-out:
		case <-time.After(10 * sec):
			cmd.Process.Kill()
			t.Fatalf("--log %s: no exit", name)
		}
		cmd.Wait()
		r.Close()
		if strings.Contains(string(got), "{") {
			t.Errorf("--log %s 2>&1: log lines on stdout:\n%s", name, got)
		}
		if !strings.Contains(string(got), "info string error: --log") {
			t.Errorf("--log %s 2>&1: no error line:\n%s", name, got)
		}
	}
}
