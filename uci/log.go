package uci

import (
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
	zl := zerolog.New(w).With().Timestamp().Logger()
	l.zl, l.name = &zl, name
	l.zl.Info().Str("event", "log").Str("version", Version).Msg("debug log started")
	return nil
}

func (l *logger) close() {
	if l.file != nil {
		l.file.Close()
	}
	l.zl, l.file, l.name = nil, nil, ""
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
