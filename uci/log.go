package uci

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rochade/rochade/search"
	"github.com/rs/zerolog"
)

// logger is the debug log: a zerolog logger writing to stderr or a file,
// never to stdout. The zero value is off. Its methods are called with
// Session.outMu held, so the log and the output are in the same order.
type logger struct {
	zl   *zerolog.Logger
	file *os.File
	name string
	w    *errWriter
	lost string // why logging stopped, until the session has said so
}

// errWriter keeps the first write error. zerolog would report each
// dropped event on stderr, and a GUI that never reads our stderr then
// blocks the engine once the pipe is full (a full disk under the log
// did that): the log stops at the first failure instead, and the
// session says so once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

func init() {
	// Failures are handled by errWriter and reported as an info string.
	zerolog.ErrorHandler = func(error) {}
}

// check stops the log after a failed write.
func (l *logger) check() {
	if l.w != nil && l.w.err != nil {
		l.lost = fmt.Sprintf("the debug log %s failed (%v); logging stopped", l.name, l.w.err)
		l.close()
	}
}

// takeLost returns, once, why the log stopped.
func (l *logger) takeLost() string {
	msg := l.lost
	l.lost = ""
	return msg
}

// open starts logging to the named file (appending), or to stderr for "-".
func (l *logger) open(name string) error {
	l.close()
	w := os.Stderr
	if name != "-" {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		l.file, w = f, f
	}
	l.w = &errWriter{w: w}
	zl := zerolog.New(l.w).With().Timestamp().Logger()
	l.zl, l.name = &zl, name
	l.zl.Info().Str("event", "log").Str("version", Version).Msg("debug log started")
	if err := l.w.err; err != nil {
		l.close()
		return err
	}
	return nil
}

func (l *logger) close() {
	if l.file != nil {
		l.file.Close()
	}
	l.zl, l.file, l.name, l.w = nil, nil, "", nil
}

func (l *logger) line(dir, text string) {
	if l.zl != nil {
		l.zl.Info().Str("dir", dir).Msg(text)
		l.check()
	}
}

func (l *logger) event(kind, msg string) {
	if l.zl != nil {
		l.zl.Info().Str("event", kind).Msg(msg)
		l.check()
	}
}

func (l *logger) errorMsg(msg string) {
	if l.zl != nil {
		l.zl.Error().Msg(msg)
		l.check()
	}
}

func (l *logger) summary(res search.Result, bestmove string, elapsed time.Duration) {
	if l.zl != nil {
		l.zl.Info().Str("event", "search").Str("bestmove", bestmove).Int("depth", res.Depth).
			Int("score", res.Score).Uint64("nodes", res.Nodes).Int64("elapsed_ms", elapsed.Milliseconds()).Msg("search done")
		l.check()
	}
}
