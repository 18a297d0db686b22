package uci

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// failAfter accepts n bytes, then fails every write, as a disk that fills.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		return 0, errors.New("no space left on device")
	}
	f.n -= len(p)
	return len(p), nil
}

// testLogger is a logger writing to w through a queue of limit bytes.
func testLogger(w *lockedWriter, limit int) *logger {
	l := &logger{name: "x.log", q: newLogQueue(w, nil, limit)}
	zl := zerolog.New(l.q)
	l.zl = &zl
	return l
}

// lockedWriter passes writes to w; while gate is held, they wait.
type lockedWriter struct {
	gate sync.Mutex
	mu   sync.Mutex
	w    interface{ Write([]byte) (int, error) }
}

func (b *lockedWriter) Write(p []byte) (int, error) {
	b.gate.Lock()
	defer b.gate.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

// TestLogStopsAtFirstFailure: the log stops at the first failed write and
// the reason is handed over once.
func TestLogStopsAtFirstFailure(t *testing.T) {
	l := testLogger(&lockedWriter{w: &failAfter{n: 500}}, logQueueBytes)
	var msg string
	for i := 0; i < 1000 && msg == ""; i++ {
		l.line("out", "info depth 1 score cp 20 pv e2e4")
		msg = l.takeLost()
		time.Sleep(time.Millisecond)
	}
	if l.zl != nil {
		t.Fatal("the log still runs after failed writes")
	}
	if !strings.Contains(msg, "x.log") || !strings.Contains(msg, "no space left") {
		t.Errorf("reason: %q", msg)
	}
	if msg := l.takeLost(); msg != "" {
		t.Errorf("reason given twice: %q", msg)
	}
}

// TestLogNeverBlocks: a target that takes nothing (a stderr pipe nobody
// reads) blocked every line, and so the protocol. Lines now go into a
// bounded queue; those that do not fit are dropped and counted, the
// session is told once, and the log notes the count when it can write.
func TestLogNeverBlocks(t *testing.T) {
	var buf bytes.Buffer
	w := &lockedWriter{w: &buf}
	w.gate.Lock() // the target is stuck
	l := testLogger(w, 4096)
	start := time.Now()
	const lines = 10000
	for i := 0; i < lines; i++ {
		l.line("out", "info depth 1 seldepth 1 multipv 1 score cp 20 nodes 20 nps 20000 hashfull 0 tbhits 0 time 1 pv e2e4")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("%d lines took %v", lines, took)
	}
	msg := l.takeLost()
	if !strings.Contains(msg, "x.log") || !strings.Contains(msg, "dropped") {
		t.Errorf("first note: %q", msg)
	}
	l.line("out", "more")
	if msg := l.takeLost(); msg != "" {
		t.Errorf("a second note: %q", msg)
	}
	// A close while the target is stuck does not wait for it for good.
	q := l.q
	start = time.Now()
	l.closeWait(logExitPatience)
	if took := time.Since(start); took > 5*logExitPatience {
		t.Errorf("close waited %v", took)
	}
	w.gate.Unlock()
	<-q.done
	w.mu.Lock()
	out := buf.String()
	w.mu.Unlock()
	if !strings.Contains(out, `"dropped":`) || !strings.Contains(out, "log lines were dropped") {
		t.Errorf("the log does not note the dropped lines:\n%.2000s", out)
	}
}

// TestLogDrains: on close, every queued line reaches a working target.
func TestLogDrains(t *testing.T) {
	var buf bytes.Buffer
	l := testLogger(&lockedWriter{w: &buf}, logQueueBytes)
	for i := 0; i < 2000; i++ {
		l.line("in", "isready")
	}
	l.closeWait(logExitPatience)
	if n := strings.Count(buf.String(), "isready"); n != 2000 {
		t.Errorf("%d of 2000 lines written", n)
	}
}

// TestLogTargets: a directory is refused; a character device (the null
// device) and a regular file are taken.
func TestLogTargets(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := openLogTarget(dir); err == nil {
		t.Errorf("%s: a directory was taken", dir)
	}
	for _, name := range []string{os.DevNull, dir + "/x.log"} {
		_, c, err := openLogTarget(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		c.Close()
	}
}

// TestLogSwitchDoesNotWait: switching the debug log away from a stuck
// target (a stderr pipe that nobody reads, full) during a search does not
// hold the protocol's output while the old log drains.
func TestLogSwitchDoesNotWait(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Fill the pipe, then let writes wait again.
	w.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
	w.Write(make([]byte, 4<<20))
	w.SetWriteDeadline(time.Time{})
	saved := os.Stderr
	os.Stderr = w
	defer func() {
		os.Stderr = saved
		go func() { // unstick the old log's writer, then end
			buf := make([]byte, 64<<10)
			for {
				if _, err := r.Read(buf); err != nil {
					return
				}
			}
		}()
	}()
	out := &syncBuffer{}
	s := NewSession(out, Config{})
	defer s.Close()
	s.Handle("setoption name Debug Log File value -")
	if strings.Contains(out.String(), "error") {
		t.Fatalf("stderr log refused: %q", out.String())
	}
	s.Handle("go infinite")
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	s.Handle("setoption name Debug Log File value " + t.TempDir() + "/x.log")
	s.Handle("isready")
	took := time.Since(start)
	s.Handle("stop")
	s.wait(0)
	if took > 50*time.Millisecond {
		t.Errorf("setoption Debug Log File + isready took %v during a search with the old log stuck; want under 50ms", took)
	}
	if !strings.Contains(out.String(), "readyok") {
		t.Errorf("no readyok: %q", out.String())
	}
}

// fakeInfo is a FileInfo of a given mode, as Windows' Stat of a pipe or
// device gives: no file id.
type fakeInfo struct{ mode os.FileMode }

func (f fakeInfo) Name() string       { return "" }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() os.FileMode  { return f.mode }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }

// TestIsStdoutWindows: on Windows a pipe or device is stdout only when it
// is the same handle; regular files are compared by id.
func TestIsStdoutWindows(t *testing.T) {
	pipe, null := fakeInfo{os.ModeNamedPipe}, fakeInfo{os.ModeDevice | os.ModeCharDevice}
	name := t.TempDir() + "/x.log"
	if err := os.WriteFile(name, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		out, fi    os.FileInfo
		sameHandle bool
		want       bool
	}{
		{pipe, pipe, false, false}, // stderr and stdout, two pipes
		{pipe, null, false, false}, // NUL while stdout is a pipe
		{pipe, pipe, true, true},   // stderr is stdout's handle
		{null, pipe, true, false},  // stdout is a device: anything goes
		{reg, reg, false, true},    // stdout is the log file
		{pipe, reg, false, false},
	} {
		if got := isStdout("windows", tc.out, tc.fi, tc.sameHandle); got != tc.want {
			t.Errorf("isStdout(windows, %v, %v, same handle %v) = %v, want %v", tc.out.Mode(), tc.fi.Mode(), tc.sameHandle, got, tc.want)
		}
	}
}
