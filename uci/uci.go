package uci

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rochade/rochade/search"
	"github.com/rochade/rochade/tablebase"
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

	done chan struct{}   // closed when the running search has printed bestmove; nil if none ran
	ctl  *search.Control // stops the running search (or the last one)

	perftStop      atomic.Bool // ends a running go perft
	clock          clockWatch  // measures the lag the GUI charges us
	pendingOptions bool        // search options changed during a search
	pendingClear   bool        // Clear Hash / ucinewgame during a search
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
			// Not on stdout: nothing may come before `id name`.
			fmt.Fprintf(os.Stderr, "rochade: --log: %v\n", err)
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
	setMemoryLimit(currentBudget(), s.set.hash, s.set.threads)
}

// Close closes the debug log.
func (s *Session) Close() {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.log.close()
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
		if long {
			s.errorf("a line of more than %d bytes was ignored", MaxLine)
		} else if line != "" {
			if !s.Handle(line) {
				return
			}
		}
		if err != nil {
			s.logEvent("eof", "end of input")
			s.stop()
			s.wait(0)
			return
		}
	}
}

// MaxLine is the longest input line read, in bytes; a longer one is
// skipped as a whole (a game of 6,000 moves fits many times over).
const MaxLine = 1 << 20

// readLine reads one line; a line longer than MaxLine is read to its end
// and dropped (long is true), so that no input can make the reader grow
// without bound.
func readLine(r *bufio.Reader) (line string, long bool, err error) {
	var buf []byte
	for {
		frag, err := r.ReadSlice('\n')
		if !long && len(buf)+len(frag) <= MaxLine {
			buf = append(buf, frag...)
		} else {
			long, buf = true, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return string(buf), long, err
	}
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
		return true
	}
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

// applyPending gives the searcher the options set during a search.
func (s *Session) applyPending() {
	if s.searching() {
		return
	}
	if s.pendingOptions {
		s.pendingOptions = false
		s.applyOptions()
	}
	if s.pendingClear {
		s.pendingClear = false
		s.searcher.Clear()
	}
}

var commands = map[string]bool{
	"uci": true, "isready": true, "ucinewgame": true, "setoption": true, "position": true,
	"go": true, "stop": true, "ponderhit": true, "quit": true, "debug": true, "register": true,
	"d": true,
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
	i := 0
	for i < len(f) && !commands[f[i]] {
		i++
	}
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
	s.applyPending()
	switch cmd {
	case "uci":
		s.cmdUCI()
	case "isready":
		s.send("readyok")
	case "ucinewgame":
		if s.searching() {
			s.pendingClear = true
		} else {
			s.searcher.Clear()
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
		if s.searching() {
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
}

func (s *Session) cmdSetOption(args []string) {
	// setoption name <name words> [value <value words>]
	if len(args) == 0 || args[0] != "name" {
		s.errorf("setoption: expected 'name', got %q", strings.Join(args, " "))
		return
	}
	args = args[1:]
	vi := -1
	for i, a := range args {
		if a == "value" {
			vi = i
			break
		}
	}
	nameWords, value := args, ""
	if vi >= 0 {
		nameWords, value = args[:vi], strings.Join(args[vi+1:], " ")
	}
	name := strings.Join(nameWords, " ")
	o, ok := findOption(name)
	if !ok {
		s.errorf("unknown option %q", name)
		return
	}
	old := s.set
	switch o.typ {
	case optSpin:
		n, note, err := parseSpin(o, value)
		if err != nil {
			s.errorf("%v", err)
			return
		}
		if note != "" {
			s.info("%s", note)
		}
		switch o.name {
		case "Hash":
			s.set.hash = s.clampHash(n)
		case "Threads":
			s.set.threads = s.clampThreads(n)
		case "MultiPV":
			s.set.multiPV = n
		case "Move Overhead":
			s.set.overhead = n
		case "SyzygyProbeDepth":
			s.set.tbProbeDepth = n
		case "SyzygyProbeLimit":
			s.set.tbLimit = n
		}
	case optCheck:
		b, err := parseCheck(o, value)
		if err != nil {
			s.errorf("%v", err)
			return
		}
		switch o.name {
		case "Ponder":
			s.set.ponder = b
		case "UCI_ShowWDL":
			s.set.showWDL = b
		case "UCI_Chess960":
			s.set.chess960 = b
		case "Use NNUE":
			s.set.useNNUE = b
			if b && s.set.net == nil {
				s.info("Use NNUE: no net is loaded; the hand-written evaluation stays in use")
			}
		case "Syzygy50MoveRule":
			s.set.tb50 = b
		}
	case optButton:
		if s.searching() {
			s.pendingClear = true
			s.info("Clear Hash will be done when the current search ends")
		} else {
			s.searcher.Clear()
		}
		s.logEvent("option", o.name)
		return
	case optString:
		if value == "<empty>" {
			value = ""
		}
		if o.name == "EvalFile" {
			net, err := loadEvalFile(value)
			if err != nil {
				s.errorf("EvalFile %q: %v; keeping %s", value, err, s.set.evalFile)
				return
			}
			if value == "" {
				value = evalFileInternal
			}
			s.set.evalFile, s.set.net = value, net
			s.info("EvalFile %s loaded (net %s)", value, net.Hash)
			break
		}
		if o.name == "SyzygyPath" {
			s.setSyzygyPath(value)
			break
		}
		s.outMu.Lock()
		s.log.event("option", fmt.Sprintf("%s = %s", o.name, value))
		s.log.close()
		var err error
		if value != "" {
			err = s.log.open(value)
		}
		s.outMu.Unlock()
		if err != nil {
			s.errorf("Debug Log File: %v", err)
			value = ""
		}
		s.set.logFile = value
	}
	s.logEvent("option", fmt.Sprintf("%s = %s", o.name, value))
	if o.engine && s.set != old {
		if s.searching() {
			s.pendingOptions = true
			s.info("%s will be applied when the current search ends", o.name)
		} else {
			s.applyOptions()
		}
	}
}

// cmdPosition sets up a position. If the FEN or any move is bad, the
// command is rejected as a whole and no position is set: until a later
// position command is accepted, go searches nothing (see goNoPosition).
// Searching the previous position instead would play a move of another
// game. Castling rights that the board cannot have (no rook for them)
// are dropped, as Stockfish does, with one info string naming them.
func (s *Session) cmdPosition(args []string) {
	pos, dropped, refused := parsePosition(args)
	if refused != "" {
		s.posError = clip(refused)
		s.errorf("%s; no position is set, and go answers bestmove 0000 until a position is accepted", refused)
		return
	}
	s.pos, s.posError = pos, ""
	if len(dropped) > 0 {
		names := make([]string, len(dropped))
		for i, d := range dropped {
			names[i] = d.String()
		}
		s.info("%s", clip("position: castling rights the board cannot have were dropped from the FEN: "+strings.Join(names, ", ")))
	}
}

// parsePosition reads the arguments of position: the position and the
// castling rights dropped from its FEN, or the message for a refused
// command.
func parsePosition(args []string) (pos *v.Position, dropped []v.DroppedRight, refused string) {
	if len(args) == 0 {
		return nil, nil, "position: expected 'startpos' or 'fen'"
	}
	var rest []string
	switch args[0] {
	case "startpos":
		pos = v.NewStartPosition()
		rest = args[1:]
	case "fen":
		end := len(args)
		for i := 1; i < len(args); i++ {
			if args[i] == "moves" {
				end = i
				break
			}
		}
		fen := strings.Join(args[1:end], " ")
		p, d, err := v.ParseFENDropped(fen)
		if err != nil {
			return nil, nil, fmt.Sprintf("position: %v (FEN %q)", err, fen)
		}
		pos, dropped, rest = p, d, args[end:]
	default:
		return nil, nil, fmt.Sprintf("position: expected 'startpos' or 'fen', got %q", args[0])
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return nil, nil, fmt.Sprintf("position: expected 'moves', got %q", rest[0])
		}
		if i, err := pos.PlayMoves(rest[1:]...); err != nil {
			return nil, nil, fmt.Sprintf("position: move %d %q: %v", i+1, rest[1+i], err)
		}
	}
	return pos, dropped, ""
}

// goNoPosition answers a go sent while no position is set (the last
// position command was refused): it searches nothing and says why in an
// info string, then answers bestmove 0000, the protocol's null move, at
// once, also for go infinite and go ponder, which have nothing to wait
// for. A go perft gets the info string only. A search still running is
// stopped first, as a go does.
func (s *Session) goNoPosition(args []string) {
	if s.searching() {
		s.stop()
		s.wait(0)
		s.applyPending()
	}
	s.errorf("go: no position is set (%s); not searching", s.posError)
	for _, a := range args {
		if a == "perft" {
			return
		}
	}
	s.send("bestmove 0000")
}

// maxGoErrors is how many errors one go command reports one by one.
const maxGoErrors = 5

var goKeywords = map[string]bool{
	"wtime": true, "btime": true, "winc": true, "binc": true, "movestogo": true, "movetime": true,
	"depth": true, "nodes": true, "mate": true, "infinite": true, "ponder": true, "searchmoves": true,
	"perft": true,
}

// parseGo reads the parameters of `go`. Bad values are reported and
// ignored; negative times count as 0.
func (s *Session) parseGo(args []string) (lim search.Limits, perft int, errs []string) {
	perft = -1
	valid := 0
	// num reads the value after args[*i] and steps *i past it (a missing
	// value, i.e. the next keyword, is not consumed).
	num := func(key string, i *int) (int64, bool) {
		if *i+1 >= len(args) || goKeywords[args[*i+1]] {
			errs = append(errs, fmt.Sprintf("go: %s needs a value", key))
			return 0, false
		}
		*i++
		n, err := strconv.ParseInt(args[*i], 10, 64)
		if err != nil {
			errs = append(errs, fmt.Sprintf("go: %s %q is not an integer; ignored", key, args[*i]))
			return 0, false
		}
		return n, true
	}
	ms := func(key string, n int64) time.Duration {
		if n < 0 {
			errs = append(errs, fmt.Sprintf("go: %s %d is negative; using 0", key, n))
			n = 0
		}
		if n > int64(24*365*time.Hour/time.Millisecond) {
			n = int64(24 * 365 * time.Hour / time.Millisecond)
		}
		return time.Duration(n) * time.Millisecond
	}
	for i := 0; i < len(args); i++ {
		key := args[i]
		switch key {
		case "infinite":
			lim.Infinite = true
			valid++
		case "ponder":
			lim.Ponder = true
		case "searchmoves":
			for i+1 < len(args) && !goKeywords[args[i+1]] {
				i++
				m, err := s.pos.ParseMove(args[i])
				if err != nil {
					errs = append(errs, fmt.Sprintf("go: searchmoves %q: %v; ignored", args[i], err))
					continue
				}
				lim.SearchMoves = append(lim.SearchMoves, m)
			}
		case "wtime", "btime", "winc", "binc", "movetime":
			n, ok := num(key, &i)
			if !ok {
				continue
			}
			d := ms(key, n)
			switch key {
			case "wtime":
				lim.WTime, lim.TimeGiven = d, true
			case "btime":
				lim.BTime, lim.TimeGiven = d, true
			case "winc":
				lim.WInc = d
			case "binc":
				lim.BInc = d
			case "movetime":
				lim.MoveTime = d
				if d == 0 {
					d = time.Millisecond
					lim.MoveTime = d
				}
			}
			if key != "winc" && key != "binc" {
				valid++
			}
		case "movestogo", "depth", "nodes", "mate", "perft":
			n, ok := num(key, &i)
			if !ok {
				continue
			}
			if n <= 0 {
				errs = append(errs, fmt.Sprintf("go: %s %d must be positive; ignored", key, n))
				continue
			}
			switch key {
			case "movestogo":
				lim.MovesToGo = int(min(n, 1000))
			case "depth":
				lim.Depth = int(min(n, search.MaxPly-1))
				valid++
			case "nodes":
				lim.Nodes = uint64(n)
				valid++
			case "mate":
				lim.Mate = int(min(n, search.MaxPly/2))
				valid++
			case "perft":
				perft = int(min(n, 20))
			}
		default:
			errs = append(errs, fmt.Sprintf("go: unknown parameter %q; ignored", key))
		}
	}
	if valid == 0 && !lim.Ponder {
		if len(errs) > 0 {
			// Every limit was rejected: answer quickly rather than
			// search until a stop that may never come.
			lim.Depth = 1
		} else {
			lim.Infinite = true // a bare `go`, as in other engines
		}
	}
	return lim, perft, errs
}

func (s *Session) cmdGo(args []string) {
	if s.searching() {
		// A go during a search: finish that one first, so that every go
		// gets its own bestmove.
		s.stop()
		s.wait(0)
		s.applyPending()
	}
	lim, perft, errs := s.parseGo(args)
	for i, e := range errs {
		if i == maxGoErrors {
			s.errorf("go: %d more errors not shown", len(errs)-i)
			break
		}
		s.errorf("%s", e)
	}
	if perft >= 0 {
		s.perft(perft)
		return
	}
	// The lag estimate takes in the previous move first, so that it
	// acts on this one.
	elapsed := s.clock.startMove(s.pos, lim)
	s.useLag(lim)
	root := s.pos.Copy()
	chess960, showWDL := s.set.chess960, s.set.showWDL
	done := make(chan struct{})
	s.done = done
	ctl := search.NewControl()
	s.ctl = ctl
	searcher := s.searcher
	s.logEvent("go", strings.Join(args, " "))
	go func() {
		defer close(done)
		start := time.Now()
		cb := search.Callbacks{
			OnInfo: func(in search.Info) {
				s.send(formatInfo(root, in, chess960, showWDL))
			},
			OnCurrMove: func(c search.CurrMove) {
				s.send(fmt.Sprintf("info depth %d currmove %s currmovenumber %d",
					c.Depth, moveString(root, c.Move, chess960), c.Number))
			},
		}
		res := searcher.SearchWith(ctl, root, lim, cb)
		line := formatBestMove(root, res, chess960)
		s.outMu.Lock()
		s.log.summary(res, line, time.Since(start))
		s.outMu.Unlock()
		s.send(line)
		*elapsed = time.Since(start)
	}()
}

// perft runs a divide on a goroutine of its own, like a search: isready
// is answered meanwhile, and stop (or quit, or a new go) ends it early,
// with the root moves counted so far and an info string.
func (s *Session) perft(depth int) {
	pos := s.pos.Copy()
	chess960 := s.set.chess960
	done := make(chan struct{})
	s.done = done
	stop := &s.perftStop
	stop.Store(false)
	go func() {
		defer close(done)
		start := time.Now()
		var ml v.MoveList
		pos.GenerateLegal(&ml)
		lines := make([]string, 0, ml.N+3)
		var total uint64
		stopped := false
		for _, m := range ml.Slice() {
			pos.Make(m)
			n, ok := perftStoppable(pos, depth-1, stop)
			pos.Unmake()
			if !ok {
				stopped = true
				break
			}
			lines = append(lines, fmt.Sprintf("%s: %d", pos.MoveToUCI(m, chess960), n))
			total += n
		}
		if depth == 0 {
			total = 1
		}
		if stopped {
			lines = append(lines, fmt.Sprintf("info string perft %d stopped after %d of %d root moves", depth, len(lines), ml.N))
		}
		lines = append(lines, "", fmt.Sprintf("Nodes searched: %d", total))
		s.send(lines...)
		s.logEvent("perft", fmt.Sprintf("depth %d nodes %d time %v stopped %v", depth, total, time.Since(start), stopped))
	}()
}

// perftStoppable is Perft that looks at the stop flag between subtrees
// of depth 3 (a few milliseconds each); ok is false when it was stopped.
func perftStoppable(pos *v.Position, depth int, stop *atomic.Bool) (n uint64, ok bool) {
	if stop.Load() {
		return 0, false
	}
	if depth <= 3 {
		return pos.Perft(depth), true
	}
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		pos.Make(m)
		c, ok := perftStoppable(pos, depth-1, stop)
		pos.Unmake()
		if !ok {
			return 0, false
		}
		n += c
	}
	return n, true
}

// setSyzygyPath looks for tablebase files in the folders of path and
// reports how many it found. Folders that cannot be read are reported too;
// neither stops the session. The tables found before stay mapped (a
// search may still be using them).
func (s *Session) setSyzygyPath(path string) {
	s.set.syzygyPath = path
	tb, warnings := tablebase.Open(path)
	for _, w := range warnings {
		s.info("%s", w)
	}
	s.set.tb = tb
	if path == "" {
		s.set.tb = nil
	}
	s.info("found %d tablebases", tb.Count())
}
