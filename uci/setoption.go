package uci

import (
	"fmt"
	"strings"

	"github.com/rochade/rochade/tablebase"
)

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
		if o.tune {
			s.setTunable(o, n)
			s.logEvent("option", fmt.Sprintf("%s = %d", o.name, n))
			return
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
		case "UCI_Elo":
			s.set.elo = n
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
		case "UCI_LimitStrength":
			s.set.limitStrength = b
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

// setSyzygyPath looks for tablebase files in the folders of path and
// reports how many it found. Folders that cannot be read are reported too;
// neither stops the session. The tables found before stay mapped (a
// search may still be using them).
func (s *Session) setSyzygyPath(path string) {
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
}
