package uci

import (
	"errors"
	"strings"
	"testing"

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

// TestLogStopsAtFirstFailure: the log stops at the first failed write and
// the reason is handed over once.
func TestLogStopsAtFirstFailure(t *testing.T) {
	l := &logger{name: "x.log", w: &errWriter{w: &failAfter{n: 500}}}
	zl := zerolog.New(l.w)
	l.zl = &zl
	for i := 0; i < 100; i++ {
		l.line("out", "info depth 1 score cp 20 pv e2e4")
	}
	if l.zl != nil {
		t.Fatal("the log still runs after failed writes")
	}
	if msg := l.takeLost(); !strings.Contains(msg, "x.log") || !strings.Contains(msg, "no space left") {
		t.Errorf("reason: %q", msg)
	}
	if msg := l.takeLost(); msg != "" {
		t.Errorf("reason given twice: %q", msg)
	}
}
