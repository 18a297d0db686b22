package uci

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rochade/rochade/tablebase"
)

// cmdSetOption looks the option up in optionList and lets its
// declaration apply the value. A changed search setting reaches the
// searcher at once, or when the running search ends.
func (s *Session) cmdSetOption(args []string) {
	// setoption name <name words> [value <value words>]
	if len(args) == 0 || args[0] != "name" {
		s.errorf("setoption: expected 'name', got %q", strings.Join(args, " "))
		return
	}
	args = args[1:]
	nameWords, value := args, ""
	if vi := slices.Index(args, "value"); vi >= 0 {
		nameWords, value = args[:vi], strings.Join(args[vi+1:], " ")
	}
	name := strings.Join(nameWords, " ")
	o, ok := findOption(name)
	if !ok {
		s.errorf("unknown option %q", name)
		return
	}
	old := s.set
	logged, ok := o.set(s, o, value)
	if !ok {
		return
	}
	s.logEvent("option", logged)
	if o.engine && s.set != old {
		if s.searching() {
			s.pendingOptions = true
			s.info("%s will be applied when the current search ends", o.name)
		} else {
			s.applyOptionsLazy()
			s.startReserve()
		}
	}
}

// The functions below apply the options whose value is more than a
// plain store into settings; optionList names each beside its option.

// setHash applies Hash: the size is held to the memory budget.
func (s *Session) setHash(n int) {
	s.set.hash = s.clampHash(n)
}

// setThreads applies Threads: the count is held to the memory budget.
func (s *Session) setThreads(n int) {
	s.set.threads = s.clampThreads(n)
}

// clearHash is the Clear Hash button: it empties the hash table and the
// histories now, or when the running search ends.
func (s *Session) clearHash() {
	if s.searching() {
		s.pendingClear = true
		s.info("Clear Hash will be done when the current search ends")
	} else {
		s.searcher.Clear()
	}
}

// setUseNNUE applies Use NNUE; on with no net loaded, it says that the
// hand-written evaluation stays in use.
func (s *Session) setUseNNUE(b bool) {
	s.set.useNNUE = b
	if b && s.set.net == nil {
		s.info("Use NNUE: no net is loaded; the hand-written evaluation stays in use")
	}
}

// setEvalFile loads the net that an EvalFile value names ("" is the
// internal net). A file that does not load is reported and refused: the
// previous net stays.
func (s *Session) setEvalFile(value string) bool {
	net, err := loadEvalFile(value)
	if err != nil {
		s.errorf("EvalFile %q: %v; keeping %s", value, err, s.set.evalFile)
		return false
	}
	if value == "" {
		value = evalFileInternal
	}
	s.set.evalFile, s.set.net = value, net
	s.info("EvalFile %s loaded (net %s)", value, net.Hash)
	return true
}

// setDebugLogFile closes the debug log (recording the change in it
// first) and opens the named file; "" turns the log off. A file that
// cannot be opened is reported, and the log stays off.
func (s *Session) setDebugLogFile(value string) bool {
	s.outMu.Lock()
	s.log.event("option", fmt.Sprintf("%s = %s", "Debug Log File", value))
	old := s.log.detach()
	var err error
	if value != "" {
		err = s.log.open(value)
	}
	s.outMu.Unlock()
	// The old log drains (or, stuck, is given up) without holding the
	// output: a search's info and bestmove never wait for it.
	closeInBackground(old)
	if err != nil {
		s.errorf("Debug Log File: %v", err)
		value = ""
	}
	s.set.logFile = value
	return true
}

// setSyzygyPath looks for tablebase files in the folders of path and
// reports how many it found. Folders that cannot be read are reported too;
// neither stops the session. The tables found before stay mapped (a
// search may still be using them).
func (s *Session) setSyzygyPath(path string) bool {
	s.set.syzygyPath = path
	tb, warnings := tablebase.Open(path)
	tb.OnFailure(func(msg string) { s.info("%s", msg) }) // a file damaged while in use
	for _, w := range warnings {
		s.info("%s", w)
	}
	s.set.tb = tb
	if path == "" {
		s.set.tb = nil
	}
	s.info("found %d tablebases", tb.Count())
	return true
}
