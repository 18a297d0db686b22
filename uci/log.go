package uci

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rochade/rochade/internal/regfile"
	"github.com/rochade/rochade/search"
	"github.com/rs/zerolog"
)

// logger is the debug log: a zerolog logger writing to stderr or a file,
// never to stdout. The zero value is off. Its methods are called with
// Session.outMu held, so the log and the output are in the same order.
//
// The protocol never waits for the log: each line goes into a bounded
// queue (logQueueBytes) that a goroutine of the log's own writes out. A
// target that is slow or stuck (a stderr pipe that the GUI never reads, a
// hung network disk) costs log lines, never answers: a line that finds
// the queue full is dropped and counted, the session says so once with
// an info string, and the log itself notes how many lines it lost.
type logger struct {
	zl   *zerolog.Logger
	q    *logQueue
	name string
	lost string // why logging stopped, until the session has said so
}

// logQueueBytes bounds the lines waiting for the log's writer.
const logQueueBytes = 4 << 20

// Patience of close: it waits for the writer to drain the queue as long
// as the writer makes progress within this time, and at most four times
// as long in all (the target may be stuck for good).
const (
	logSwitchPatience = 100 * time.Millisecond // a new Debug Log File
	logExitPatience   = 500 * time.Millisecond // the end of the session
)

func init() {
	// zerolog's writes go into the queue, which never fails; write errors
	// of the target are the writer's and are reported as an info string.
	zerolog.ErrorHandler = func(error) {}
}

// logQueue is an io.Writer for zerolog that hands whole lines to a
// writer goroutine and never blocks.
type logQueue struct {
	mu      sync.Mutex
	lines   [][]byte
	size    int    // bytes in lines
	limit   int    // most bytes in lines
	dropped uint64 // lines dropped since the writer last noted it
	total   uint64 // lines dropped since the log started
	told    bool   // the session has said that lines are dropped
	err     error  // the target's write error; the log stopped
	closed  bool
	c       io.Closer // the target's file; nil for stderr

	wake    chan struct{} // a line is queued, or the queue closed
	done    chan struct{} // the writer has ended (and closed the file)
	written atomic.Uint64 // batches written: the writer's progress
}

func newLogQueue(w io.Writer, c io.Closer, limit int) *logQueue {
	q := &logQueue{limit: limit, c: c, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go q.run(w, c)
	return q
}

// Write queues one log line (zerolog writes each event in one call).
func (q *logQueue) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil || q.closed {
		return len(p), nil
	}
	if q.size+len(p) > q.limit {
		q.dropped++
		q.total++
		return len(p), nil
	}
	q.lines = append(q.lines, append([]byte(nil), p...))
	q.size += len(p)
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

// run writes the queued lines out until the queue is closed and empty,
// or the target fails.
func (q *logQueue) run(w io.Writer, c io.Closer) {
	defer close(q.done)
	if c != nil {
		defer c.Close()
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	note := zerolog.New(bw).With().Timestamp().Logger()
	for {
		q.mu.Lock()
		for len(q.lines) == 0 && q.dropped == 0 && !q.closed {
			q.mu.Unlock()
			<-q.wake
			q.mu.Lock()
		}
		batch, dropped, closed := q.lines, q.dropped, q.closed
		q.lines, q.size, q.dropped = nil, 0, 0
		q.mu.Unlock()
		for _, l := range batch {
			bw.Write(l)
		}
		if dropped > 0 {
			// The lines were dropped while these waited: after them.
			note.Warn().Str("event", "log").Uint64("dropped", dropped).
				Msgf("%d log lines were dropped: the log could not keep up", dropped)
		}
		err := bw.Flush()
		q.written.Add(1)
		if err != nil {
			q.mu.Lock()
			q.err, q.lines, q.size = err, nil, 0
			q.mu.Unlock()
			return
		}
		if closed {
			q.mu.Lock()
			empty := len(q.lines) == 0 && q.dropped == 0
			q.mu.Unlock()
			if empty {
				return
			}
		}
	}
}

// close stops taking lines and waits for the writer to write out what is
// queued, as long as it makes progress within patience, and at most four
// times patience in all (a target read slowly but steadily).
func (q *logQueue) close(patience time.Duration) {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	last, idle := q.written.Load(), time.Duration(0)
	const tick = 10 * time.Millisecond
	for waited := time.Duration(0); idle < patience && waited < 4*patience; waited += tick {
		select {
		case <-q.done:
			return
		case <-time.After(tick):
		}
		if n := q.written.Load(); n != last {
			last, idle = n, 0
		} else {
			idle += tick
		}
	}
	// Stuck: give up on the queued lines. Closing the file ends a write
	// that waits in the poller (a terminal) at once; otherwise the writer
	// ends, and the file is closed, whenever its write returns.
	q.mu.Lock()
	q.lines, q.size = nil, 0
	q.mu.Unlock()
	if q.c != nil {
		q.c.Close()
	}
}

// status says whether the target failed and whether lines were dropped
// that the session has not yet told of (it is told once).
func (q *logQueue) status() (err error, newDrops bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.total > 0 && !q.told {
		q.told, newDrops = true, true
	}
	return q.err, newDrops
}

// takeLost returns, once each, why the log stopped or that it drops lines.
func (l *logger) takeLost() string {
	if l.q != nil {
		err, drops := l.q.status()
		switch {
		case err != nil:
			l.lost = fmt.Sprintf("the debug log %s failed (%v); logging stopped", l.name, err)
			l.closeWait(0)
		case drops:
			l.lost = fmt.Sprintf("the debug log %s cannot keep up; lines are dropped while its queue is full (the log notes how many)", l.name)
		}
	}
	msg := l.lost
	l.lost = ""
	return msg
}

// errLogIsStdout refuses a log target that is the protocol's stdout.
var errLogIsStdout = errors.New("it is stdout, which carries the protocol only")

// openLogTarget opens the log's target: stderr for "-", else the named
// file, created or appended to. Opening never waits (a FIFO would wait
// for a reader): only a regular file or a character device (a terminal,
// /dev/null) is accepted, and nothing that is stdout, whatever its name
// (/dev/stdout, /dev/fd/1, a link), unless stdout is itself a character
// device, where no program reads the protocol. c is nil for stderr.
func openLogTarget(name string) (w io.Writer, c io.Closer, err error) {
	if name == "-" {
		if sameAsStdout(os.Stderr) {
			return nil, nil, fmt.Errorf("stderr: %w", errLogIsStdout)
		}
		return os.Stderr, nil, nil
	}
	f, fi, err := openNoWait(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	if sameAsStdout(f) {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", name, errLogIsStdout)
	}
	if !fi.Mode().IsRegular() && fi.Mode()&fs.ModeCharDevice == 0 {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file (%s)", name, regfile.Kind(fi.Mode()))
	}
	return f, f, nil
}

// openNoWait opens a file without ever waiting (regfile.OpenNoWait).
func openNoWait(name string, flag int, perm os.FileMode) (*os.File, os.FileInfo, error) {
	return regfile.OpenNoWait(name, flag, perm)
}

// openRegular opens a regular file to read it, never waiting: anything
// else (a FIFO, a device, a directory) is refused.
func openRegular(name string) (*os.File, os.FileInfo, error) {
	return regfile.OpenRegular(name)
}

// sameAsStdout tells whether f is the process's stdout, unless stdout is
// a character device (a terminal or /dev/null), where a person reads or
// nothing does.
func sameAsStdout(f *os.File) bool {
	out, err := os.Stdout.Stat()
	if err != nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	// Fd is asked for only on Windows: on Unix it would make the file
	// blocking.
	sameHandle := runtime.GOOS == "windows" && f.Fd() == os.Stdout.Fd()
	return isStdout(runtime.GOOS, out, fi, sameHandle)
}

// isStdout decides sameAsStdout from the stat of stdout (out) and of the
// file (fi), and whether the two are the same handle (only asked for on
// Windows). On Windows the stat of a pipe or a device (NUL, a console)
// has no file id, and os.SameFile calls any two of them the same file:
// there only regular files are compared by id, anything else by handle
// (a pipe that stdout shares under another handle, as with 2>&1, goes
// unseen there).
func isStdout(goos string, out, fi os.FileInfo, sameHandle bool) bool {
	if out.Mode()&fs.ModeCharDevice != 0 {
		return false
	}
	if goos == "windows" && !(out.Mode().IsRegular() && fi.Mode().IsRegular()) {
		return sameHandle
	}
	return os.SameFile(fi, out)
}

// open starts logging to the named file (appending), or to stderr for "-".
func (l *logger) open(name string) error {
	l.close()
	w, c, err := openLogTarget(name)
	if err != nil {
		return err
	}
	l.q = newLogQueue(w, c, logQueueBytes)
	zl := zerolog.New(l.q).With().Timestamp().Logger()
	l.zl, l.name = &zl, name
	l.zl.Info().Str("event", "log").Str("version", Version).Msg("debug log started")
	return nil
}

// close ends the log, giving its writer logSwitchPatience to write out
// what is queued.
func (l *logger) close() { l.closeWait(logSwitchPatience) }

// detach turns the log off and returns its queue (nil if it was off),
// for the caller to close with closeInBackground once it no longer holds
// Session.outMu: the protocol never waits for an old log to drain.
func (l *logger) detach() *logQueue {
	q := l.q
	l.zl, l.q, l.name = nil, nil, ""
	return q
}

// closeInBackground closes q (if any) on a goroutine of its own, giving
// its writer logSwitchPatience to write out what is queued.
func closeInBackground(q *logQueue) {
	if q != nil {
		go q.close(logSwitchPatience)
	}
}

// closeWait ends the log, waiting for its writer as logQueue.close says.
func (l *logger) closeWait(patience time.Duration) {
	if l.q != nil {
		l.q.close(patience)
	}
	l.zl, l.q, l.name = nil, nil, ""
}

func (l *logger) line(dir, text string) {
	if l.zl != nil {
		l.zl.Info().Str("dir", dir).Msg(text)
	}
}

func (l *logger) event(kind, msg string) {
	if l.zl != nil {
		l.zl.Info().Str("event", kind).Msg(msg)
	}
}

func (l *logger) errorMsg(msg string) {
	if l.zl != nil {
		l.zl.Error().Msg(msg)
	}
}

func (l *logger) summary(res search.Result, bestmove string, elapsed time.Duration) {
	if l.zl != nil {
		l.zl.Info().Str("event", "search").Str("bestmove", bestmove).Int("depth", res.Depth).
			Int("score", res.Score).Uint64("nodes", res.Nodes).Int64("elapsed_ms", elapsed.Milliseconds()).Msg("search done")
	}
}
