package uci

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// Config sets up a protocol session.
type Config struct {
	// LogFile is the debug log given on the command line (--log); "-"
	// means stderr. The Debug Log File option replaces it.
	LogFile string
	// NewSearcher makes the searcher; nil means search.NewEngine.
	NewSearcher func(search.Options) Searcher
}

// Session is one UCI conversation. Commands are handled on the goroutine
// that calls Run; a search runs on a goroutine of its own, so reading
// input never waits for a search.
type Session struct {
	out   *bufio.Writer
	outMu sync.Mutex // guards out and log; every output line is written whole under it
	log   logger

	set      settings
	searcher Searcher
	pos      *v.Position
	posError string // why the last position command was refused; "" while a position is set

	done chan struct{} // closed when the running search has printed bestmove; nil if none ran
	// sent is set by the running search just before it writes its
	// bestmove (nil for go perft and genfens): from then on the job is
	// over but for closing done, and searching waits for that, so that
	// what the GUI sends after the bestmove (setoption Hash, isready) is
	// never taken for a command during a search.
	sent *atomic.Bool
	ctl  *search.Control // stops the running search (or the last one)

	perftStop      atomic.Bool    // ends a running go perft
	clock          clockWatch     // measures the lag the GUI charges us
	pendingOptions bool           // search options changed during a search
	pendingClear   bool           // Clear Hash / ucinewgame during a search
	reserveOwed    bool           // a table was set up without being made resident (reserve.go)
	resv           *reservation   // the table being made resident in the background, if any
	hashCut        atomic.Int64   // the size the guard cut a table to while it was made resident (0: none)
	pendingTune    map[string]int // search parameters set during a search (tune build)

	logError       string // why --log was refused, said after the first uciok
	genfensStarted bool   // the last command started genfens (RunCommands waits for it)
}

// NewSession makes a session that writes protocol output to out.
func NewSession(out io.Writer, cfg Config) *Session {
	s := &Session{
		out: bufio.NewWriter(out),
		set: defaultSettings(),
		pos: v.NewStartPosition(),
	}
	if cfg.LogFile != "" {
		if err := s.log.open(cfg.LogFile); err != nil {
			// Nothing may come before `id name`: the GUI hears of it
			// after uciok, and stderr at once, where it is not stdout.
			s.logError = fmt.Sprintf("--log %s: %v; no debug log", cfg.LogFile, err)
			if !sameAsStdout(os.Stderr) {
				fmt.Fprintf(os.Stderr, "rochade: --log: %v\n", err)
			}
		}
	}
	mk := cfg.NewSearcher
	if mk == nil {
		mk = newSearcher
	}
	s.searcher = mk(s.set.searchOptions())
	setMemoryLimit(currentBudget(), s.set.hash, s.set.threads)
	return s
}

// applyOptions gives the searcher the current options (only while no
// search runs) and the garbage collector the memory budget.
func (s *Session) applyOptions() {
	s.searcher.SetOptions(s.set.searchOptions())
	s.takeCut()
	setMemoryLimit(currentBudget(), s.set.hash, s.set.threads)
}

// Close closes the debug log, giving it a moment to write out its queue.
func (s *Session) Close() {
	s.endReserve()
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.log.closeWait(logExitPatience)
}

// Run reads commands until quit or end of input.
func Run(in io.Reader, out io.Writer, cfg Config) {
	s := NewSession(out, cfg)
	defer s.Close()
	s.Run(in)
}

// Run reads commands from in until `quit` or end of input. At end of
// input any running search or go perft is stopped, as by `stop` (its
// bestmove is still printed), and Run returns once it has ended: input
// ends when the GUI has gone, and an engine left searching for no one
// would burn a core, for good after `go infinite` or a ponderhit on a
// search without a clock. Stockfish treats end of input as quit too.
func (s *Session) Run(in io.Reader) {
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		line, long, err := readLine(r)
		if long != nil {
			if !s.longLine(long) {
				return
			}
		} else if line != "" {
			if !s.Handle(line) {
				return
			}
		}
		if err != nil {
			s.logEvent("eof", "end of input")
			s.endReserve()
			s.stop()
			s.wait(0)
			return
		}
	}
}

// MaxLine is the longest input line read, in bytes; a longer one is
// skipped as a whole (a game of 6,000 moves fits many times over).
const MaxLine = 1 << 20

// overlong is what is kept of a line longer than MaxLine: its command
// (after unknown leading tokens, as Handle skips them; "" if there is
// none in its first MaxLine bytes) and, for go, whether it asks for perft.
type overlong struct {
	cmd   string
	perft bool
}

// readLine reads one line; a line longer than MaxLine is read to its end
// and dropped (long says what it was), so that no input can make the
// reader grow without bound.
func readLine(r *bufio.Reader) (line string, long *overlong, err error) {
	var buf []byte
	for {
		frag, err := r.ReadSlice('\n')
		if long == nil && len(buf)+len(frag) <= MaxLine {
			buf = append(buf, frag...)
		} else if long == nil {
			// Too long: tell from its first MaxLine bytes (the last
			// word may be cut) which command was lost.
			long = describeLong(buf)
			buf = nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if long != nil {
			return "", long, err
		}
		return string(buf), nil, err
	}
}

// describeLong finds the command of the start of a too-long line (more
// of the line follows, so its last word may be cut and is not read).
func describeLong(head []byte) *overlong {
	long := &overlong{}
	for i := 0; i < len(head); {
		for i < len(head) && isSpace(head[i]) {
			i++
		}
		j := i
		for j < len(head) && !isSpace(head[j]) {
			j++
		}
		if j == len(head) {
			break
		}
		switch w := head[i:j]; {
		case long.cmd == "" && commands[string(w)]:
			long.cmd = string(w)
			if long.cmd != "go" {
				return long
			}
		case long.cmd == "go" && string(w) == "perft":
			long.perft = true
			return long
		}
		i = j
	}
	return long
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// longLine answers a line that was too long to read. It is lost with an
// error; a lost position is a refused one (the next go must not search
// the position before it), and a lost go still gets its one bestmove,
// the null move, as a go with no position does (go perft prints none).
// A command that takes no arguments (isready, stop, ponderhit, quit) is
// run without them, so that a GUI waiting for readyok is answered. It
// returns false on quit.
func (s *Session) longLine(long *overlong) bool {
	s.errorf("a line of more than %d bytes was ignored", MaxLine)
	switch long.cmd {
	case "isready", "stop", "ponderhit", "quit":
		return s.Handle(long.cmd)
	case "position":
		s.posError = "the position line was too long"
	case "go":
		if s.searching() {
			s.stop()
			s.wait(0)
			s.applyPending()
		}
		if !long.perft {
			s.send("bestmove 0000")
		}
	}
	return true
}

// maxMessage bounds an error message (which may quote input).
const maxMessage = 300

// clip shortens a message to maxMessage bytes of valid UTF-8.
func clip(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	return strings.ToValidUTF8(msg[:maxMessage], "") + fmt.Sprintf("... (%d bytes in all)", len(msg))
}

// send writes whole lines to the output and the log.
func (s *Session) send(lines ...string) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	for _, l := range lines {
		s.out.WriteString(l)
		s.out.WriteByte('\n')
		s.log.line("out", l)
	}
	if msg := s.log.takeLost(); msg != "" {
		s.out.WriteString("info string error: " + clip(msg) + "\n")
	}
	s.out.Flush()
}

// info sends an info string.
func (s *Session) info(format string, args ...any) {
	s.send("info string " + fmt.Sprintf(format, args...))
}

// errorf sends one `info string error: ...` line and logs it.
func (s *Session) errorf(format string, args ...any) {
	msg := clip(fmt.Sprintf(format, args...))
	s.outMu.Lock()
	s.log.errorMsg(msg)
	s.outMu.Unlock()
	s.send("info string error: " + msg)
}

func (s *Session) logEvent(kind, msg string) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.log.event(kind, msg)
}

func (s *Session) searching() bool {
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
	}
	if s.sent != nil && s.sent.Load() {
		<-s.done
		return false
	}
	return true
}

// stop ends the running search or perft, if any. A search has its own
// control, made before its goroutine started, so the stop cannot be lost
// nor reach another search.
func (s *Session) stop() {
	if s.searching() {
		s.perftStop.Store(true)
		if s.ctl != nil {
			s.ctl.Stop()
		}
	}
}

// wait waits for the running search to print its bestmove; timeout 0
// waits as long as it takes. It reports whether the search ended.
func (s *Session) wait(timeout time.Duration) bool {
	if s.done == nil {
		return true
	}
	if timeout == 0 {
		<-s.done
		return true
	}
	select {
	case <-s.done:
		return true
	case <-time.After(timeout):
		return false
	}
}

// applyPending gives the searcher the options set during a search. It
// runs before the command that follows the search, most often the
// position and go of the next move: a new table is not made resident
// now (that takes seconds for a large one, and the clock runs), but in
// the background from the next isready or ucinewgame (reserve.go).
func (s *Session) applyPending() {
	if s.searching() {
		return
	}
	if s.pendingOptions || s.pendingClear || s.pendingTune != nil {
		s.endReserve()
	}
	if s.pendingOptions {
		s.pendingOptions = false
		s.applyOptionsLazy()
	}
	if s.pendingClear {
		s.pendingClear = false
		s.searcher.Clear()
	}
	if s.pendingTune != nil {
		s.applyPendingTune()
	}
}

var commands = map[string]bool{
	"uci": true, "isready": true, "ucinewgame": true, "setoption": true, "position": true,
	"go": true, "stop": true, "ponderhit": true, "quit": true, "debug": true, "register": true,
	"d": true, "genfens": true,
}

// IsCommand tells whether word is a command that Handle knows (the
// command line runs its arguments as commands when the first is one).
func IsCommand(word string) bool { return commands[word] }

// RunCommands executes lines as Handle does, in order, until quit. This
// is how the command line's arguments run, as Stockfish runs them:
// rochade "genfens 10 seed 1 book None" quit. A genfens runs to its end
// before the next line (OpenBench reads all N openings). After the last
// line, a search with a limit (depth, nodes, mate, movetime, a clock)
// runs to it, as `go depth 5` given alone asks, and a go perft to its
// depth; one without (a bare go, go infinite, go ponder) would never end,
// since no stop can follow, and is stopped at once, as Stockfish stops
// it: it prints its bestmove.
func (s *Session) RunCommands(lines []string) {
	var lastGo []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 {
			if i := commandIndex(f); i < len(f) && f[i] == "go" {
				lastGo = f[i+1:]
			}
		}
		s.genfensStarted = false
		if !s.Handle(l) {
			return
		}
		if s.genfensStarted {
			s.wait(0)
		}
	}
	if s.searching() && lastGo != nil {
		// A go perft counts to its depth: it is a limit, though parseGo
		// gives it no search limit.
		if lim, perft, _ := s.parseGo(lastGo); perft == noPerft && (lim.Infinite || lim.Ponder) {
			s.stop()
		}
	}
	s.wait(0)
	s.endReserve()
}

// commandIndex returns the index of the first known command among
// words, len(words) if there is none: as the protocol asks, unknown
// leading tokens are skipped.
func commandIndex(words []string) int {
	i := 0
	for i < len(words) && !commands[words[i]] {
		i++
	}
	return i
}

// Handle executes one input line. It returns false on quit.
func (s *Session) Handle(line string) bool {
	line = strings.TrimRight(line, "\r\n")
	s.outMu.Lock()
	s.log.line("in", line)
	s.outMu.Unlock()
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	// As the protocol asks, skip unknown leading tokens and try the rest.
	i := commandIndex(f)
	if i > 0 {
		s.errorf("unknown command %q", strings.Join(f[:i], " "))
		if i == len(f) {
			return true
		}
	}
	cmd, args := f[i], f[i+1:]
	if cmd == "go" && s.posError != "" {
		s.goNoPosition(args)
		return true
	}
	if !lightCommands[cmd] {
		s.endReserve() // the command may need the searcher
	}
	s.applyPending()
	switch cmd {
	case "uci":
		s.cmdUCI()
	case "isready":
		s.startReserve()
		s.awaitReserve(readyWait)
		s.send("readyok")
	case "ucinewgame":
		if s.searching() {
			s.pendingClear = true
		} else {
			s.searcher.Clear()
			s.startReserve()
		}
	case "setoption":
		s.cmdSetOption(args)
	case "position":
		s.cmdPosition(args)
	case "go":
		s.cmdGo(args)
	case "stop":
		s.stop()
	case "ponderhit":
		// A go perft has no control (and none may exist yet).
		if s.searching() && s.ctl != nil {
			s.ctl.PonderHit()
		}
	case "quit":
		if s.searching() {
			s.stop()
			s.wait(2 * time.Second)
		}
		return false
	case "debug", "register":
		// Accepted and ignored: the debug log is the Debug Log File
		// option, and the engine needs no registration.
	case "genfens":
		s.cmdGenfens(args)
	case "spsa":
		s.cmdSPSA()
	case "d":
		if s.posError != "" {
			s.info("no position is set (%s)", s.posError)
		} else {
			s.info("fen %s", s.fen())
		}
	}
	return true
}

func (s *Session) fen() string {
	if s.set.chess960 {
		return s.pos.ShredderFEN()
	}
	return s.pos.FEN()
}

func (s *Session) cmdUCI() {
	lines := []string{"id name " + Name + " " + Version, "id author " + Author}
	for i := range optionList {
		lines = append(lines, optionList[i].String())
	}
	lines = append(lines, "uciok")
	s.send(lines...)
	if msg := s.logError; msg != "" {
		s.logError = ""
		s.errorf("%s", msg)
	}
	// A build whose embedded net does not load plays with the
	// hand-written evaluation; the GUI must hear of it.
	if _, err := eval.DefaultNet(); err != nil && s.set.evalFile == evalFileInternal {
		s.errorf("the embedded net did not load (%v); the hand-written evaluation is in use", err)
	}
}
