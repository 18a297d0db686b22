package uci

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// syncBuffer is an output that the test may read while the session writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// cappedSearcher is the real engine with every search held to a few
// thousand nodes, so that a fuzz input runs in milliseconds.
type cappedSearcher struct{ *search.Engine }

func (c cappedSearcher) SearchWith(ctl *search.Control, pos *v.Position, lim search.Limits, cb search.Callbacks) search.Result {
	if lim.Nodes == 0 || lim.Nodes > 3000 {
		lim.Nodes = 3000
	}
	return c.Engine.SearchWith(ctl, pos, lim, cb)
}

var fuzzSeeds = []string{
	"uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\nstop\n",
	"setoption name UCI_Chess960 value true\nposition fen rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R w HAha - 0 1 moves b1h1\ngo nodes 100\n",
	"setoption name Threads value 999999999\nsetoption name Hash value 999999999\nisready\ngo infinite\nsetoption name Threads value 3\nstop\n",
	"setoption name Hash value -5\nsetoption name MultiPV value 99999999999999999999\ngo movetime 1\n",
	"go wtime 1 btime 1\ngo wtime -1 btime -1 winc -5\ngo movetime 0\ngo nodes 1\n",
	"stop\nponderhit\ngo ponder\nponderhit\nstop\n",
	"position fen QQQQQQQQ/QQQQQQQQ/QQQk4/8/8/8/8/4K3 w - - 0 1\nposition fen 8/8/8/8/8/8/8/8 w - - 0 1\ngo\nstop\n",
	"position fen P3k3/8/8/8/8/8/8/4K3 w - - 0 1 moves a8b8\nd\n",
	"go perft 3\ngo perft 9\nstop\nisready\n",
	"position startpos moves e1g1 O-O 0-0-0 e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1\ngo searchmoves e1g1 zz\n",
	"\x00\x01\xff\xfe garbage\n\t\t  \r\nuci uci uci\nquit now\n",
	"ucinewgame\nsetoption name Clear Hash\nsetoption name Threads value 2\ngo infinite\nucinewgame\nsetoption name Clear Hash\nisready\nstop\n",
	"position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1 e8d8 h1h8\ngo mate 1\n",
	"position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 5\ngo infinite\nstop\n",
	"setoption name\nsetoption name value\nsetoption name Hash\nsetoption name Ponder value maybe\nsetoption foo\n",
	"go depth 999999999 nodes 999999999999 movetime 9999999999999 wtime 99999999999999999 movestogo 0 mate -1\nstop\n",
}

// FuzzSession feeds arbitrary input to a session: it must not panic, and
// it must still answer isready.
func FuzzSession(f *testing.F) {
	os.Setenv("ROCHADE_MEMORY_MB", "128") // keep Hash and Threads small
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		var lines []string
		for _, l := range strings.Split(input, "\n") {
			// No files: the Debug Log File option would write one.
			if !strings.Contains(strings.ToLower(l), "log") {
				lines = append(lines, l)
			}
		}
		out := &syncBuffer{}
		watchdog := time.AfterFunc(20*time.Second, func() {
			buf := make([]byte, 1<<20)
			panic("input hangs:\n" + string(buf[:runtime.Stack(buf, true)]))
		})
		defer watchdog.Stop()
		s := NewSession(out, Config{NewSearcher: func(o search.Options) Searcher {
			return cappedSearcher{search.NewEngine(o)}
		}})
		defer s.Close()
		s.Run(strings.NewReader(strings.Join(lines, "\n")))
		// Whatever came before (even quit), the session still answers.
		n := len(out.String())
		s.Handle("isready")
		if !strings.Contains(out.String()[n:], "readyok\n") {
			t.Fatalf("no readyok; output:\n%s", out.String())
		}
		s.stop()
		s.wait(0)
		for _, l := range strings.Split(out.String(), "\n") {
			if len(l) > maxMessage+len("info string error: ")+64 && !strings.HasPrefix(l, "info depth") &&
				!strings.HasPrefix(l, "info multipv") && !strings.Contains(l, " pv ") {
				t.Fatalf("an output line of %d bytes", len(l))
			}
		}
	})
}
