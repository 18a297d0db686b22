package uci

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/search"
	"github.com/rochade/rochade/tablebase"
)

type optionType int

const (
	optSpin optionType = iota
	optCheck
	optButton
	optString
)

// option is one UCI option, declared once in optionList: how the uci
// handshake advertises it (type, default, range), where its value lives
// in settings, and how setoption applies a new value. The constructors
// below (spin, check, str, button) fill in init and set.
type option struct {
	name     string
	typ      optionType
	def      string
	min, max int
	// engine tells whether the option is a search setting, applied to
	// the searcher only while no search runs.
	engine bool
	// tune marks a search parameter of the tune build (tune.go).
	tune bool

	// init stores the default in a settings value; nil for a button and
	// for the tune build's parameters, whose values live in the search.
	init func(*settings)
	// set applies a setoption value. It returns what the debug log
	// records, or ok false when it refused the value: it has then said
	// why, and nothing changed.
	set func(s *Session, o *option, value string) (logged string, ok bool)
}

// HashMax is the largest Hash size accepted, in MB, and ThreadsMax the
// most Threads; both are further held to the memory budget (mem.go).
const (
	HashMax    = 65536
	ThreadsMax = 1024
)

// optionList declares every UCI option once, in the order the uci
// handshake lists them: name, default, range, the settings field that
// holds the value and, where a plain store is not enough, the function
// that applies a new value (setoption.go). The README's option table is
// checked against it (TestREADMEOptionTable). Options the search does not
// read are marked notSearch.
var optionList = []option{
	spin("Hash", 16, 1, HashMax, func(c *settings) *int { return &c.hash }, (*Session).setHash),
	spin("Threads", 1, 1, ThreadsMax, func(c *settings) *int { return &c.threads }, (*Session).setThreads),
	spin("MultiPV", 1, 1, 256, func(c *settings) *int { return &c.multiPV }, nil),
	check("Ponder", false, func(c *settings) *bool { return &c.ponder }, nil).notSearch(),
	spin("Move Overhead", 30, 0, 5000, func(c *settings) *int { return &c.overhead }, nil),
	button("Clear Hash", (*Session).clearHash),
	check("UCI_ShowWDL", false, func(c *settings) *bool { return &c.showWDL }, nil),
	check("UCI_Chess960", false, func(c *settings) *bool { return &c.chess960 }, nil).notSearch(),
	check("UCI_LimitStrength", false, func(c *settings) *bool { return &c.limitStrength }, nil),
	spin("UCI_Elo", search.EloMax, search.EloMin, search.EloMax, func(c *settings) *int { return &c.elo }, nil),
	str("Debug Log File", "", func(c *settings) *string { return &c.logFile }, (*Session).setDebugLogFile).notSearch(),
	str("EvalFile", evalFileInternal, func(c *settings) *string { return &c.evalFile }, (*Session).setEvalFile),
	check("Use NNUE", eval.UseNetByDefault, func(c *settings) *bool { return &c.useNNUE }, (*Session).setUseNNUE),
	str("SyzygyPath", "", func(c *settings) *string { return &c.syzygyPath }, (*Session).setSyzygyPath),
	spin("SyzygyProbeDepth", 1, 1, 100, func(c *settings) *int { return &c.tbProbeDepth }, nil),
	spin("SyzygyProbeLimit", 7, 0, 7, func(c *settings) *int { return &c.tbLimit }, nil),
	check("Syzygy50MoveRule", true, func(c *settings) *bool { return &c.tb50 }, nil),
}

// evalFileInternal names the net compiled into the binary.
const evalFileInternal = "<internal>"

// spin declares a spin option whose value lives in field. A value out of
// the range is clamped, with an info string. apply, when not nil, sets
// the value in place of a plain store into field.
func spin(name string, def, lo, hi int, field func(*settings) *int, apply func(*Session, int)) option {
	return option{name: name, typ: optSpin, def: strconv.Itoa(def), min: lo, max: hi, engine: true,
		init: func(c *settings) { *field(c) = def },
		set: func(s *Session, o *option, value string) (string, bool) {
			n, ok := s.spinValue(o, value)
			if !ok {
				return "", false
			}
			if apply != nil {
				apply(s, n)
			} else {
				*field(&s.set) = n
			}
			return o.name + " = " + value, true
		}}
}

// check declares a check option whose value lives in field; apply, when
// not nil, sets the value in place of a plain store.
func check(name string, def bool, field func(*settings) *bool, apply func(*Session, bool)) option {
	return option{name: name, typ: optCheck, def: strconv.FormatBool(def), engine: true,
		init: func(c *settings) { *field(c) = def },
		set: func(s *Session, o *option, value string) (string, bool) {
			b, err := parseCheck(o, value)
			if err != nil {
				s.errorf("%v", err)
				return "", false
			}
			if apply != nil {
				apply(s, b)
			} else {
				*field(&s.set) = b
			}
			return o.name + " = " + value, true
		}}
}

// str declares a string option whose value lives in field; "<empty>"
// stands for the empty string. apply, when not nil, sets the value in
// place of a plain store; it returns false when it refused the value.
// The log records the value as stored.
func str(name, def string, field func(*settings) *string, apply func(*Session, string) bool) option {
	return option{name: name, typ: optString, def: def, engine: true,
		init: func(c *settings) { *field(c) = def },
		set: func(s *Session, o *option, value string) (string, bool) {
			if value == "<empty>" {
				value = ""
			}
			if apply == nil {
				*field(&s.set) = value
			} else if !apply(s, value) {
				return "", false
			}
			return o.name + " = " + *field(&s.set), true
		}}
}

// button declares a button option: press runs on each setoption.
func button(name string, press func(*Session)) option {
	return option{name: name, typ: optButton, engine: true,
		set: func(s *Session, o *option, _ string) (string, bool) {
			press(s)
			return o.name, true
		}}
}

// notSearch marks an option that the search does not read: setting it
// never reaches the searcher.
func (o option) notSearch() option {
	o.engine = false
	return o
}

func findOption(name string) (*option, bool) {
	for i := range optionList {
		if strings.EqualFold(optionList[i].name, name) {
			return &optionList[i], true
		}
	}
	return nil, false
}

func (o *option) String() string {
	switch o.typ {
	case optSpin:
		return fmt.Sprintf("option name %s type spin default %s min %d max %d", o.name, o.def, o.min, o.max)
	case optCheck:
		return fmt.Sprintf("option name %s type check default %s", o.name, o.def)
	case optButton:
		return fmt.Sprintf("option name %s type button", o.name)
	default:
		def := o.def
		if def == "" {
			def = "<empty>"
		}
		return fmt.Sprintf("option name %s type string default %s", o.name, def)
	}
}

// settings are the current values of all options (each declaration in
// optionList names its field) and what they have loaded.
type settings struct {
	hash, threads, multiPV, overhead int
	ponder, showWDL, chess960        bool
	logFile                          string
	evalFile                         string
	useNNUE                          bool
	net                              *eval.Net // the loaded EvalFile

	syzygyPath            string
	tb                    *tablebase.Tablebases // the tables found under syzygyPath; nil if none
	tbProbeDepth, tbLimit int
	tb50                  bool

	limitStrength bool // UCI_LimitStrength
	elo           int  // UCI_Elo
}

// defaultSettings are the options' declared defaults, with the net that
// the default EvalFile names (the default SyzygyPath names no tables).
func defaultSettings() settings {
	var c settings
	for i := range optionList {
		if optionList[i].init != nil {
			optionList[i].init(&c)
		}
	}
	c.net, _ = eval.DefaultNet()
	return c
}

func (s settings) searchOptions() search.Options {
	return search.Options{
		HashMB:       s.hash,
		Threads:      s.threads,
		MultiPV:      s.multiPV,
		MoveOverhead: time.Duration(s.overhead) * time.Millisecond,
		ShowWDL:      s.showWDL,
		Net:          s.evalNet(),
		Tablebase:    s.tablebase(),
		TBProbeDepth: s.tbProbeDepth,
		TBProbeLimit: s.tbLimit,
		TB50MoveRule: s.tb50,

		LimitStrength: s.limitStrength,
		Elo:           s.elo,
	}
}

// evalNet is the net the search uses: nil (the hand-written evaluation)
// when Use NNUE is off or no net could be loaded.
func (s settings) evalNet() *eval.Net {
	if !s.useNNUE {
		return nil
	}
	return s.net
}

// loadEvalFile reads the net named by an EvalFile value.
func loadEvalFile(value string) (*eval.Net, error) {
	if value == "" || value == evalFileInternal {
		return eval.DefaultNet()
	}
	return eval.LoadNetFile(value)
}

// tablebase returns the tables as the search's interface: nil (not a nil
// pointer in an interface) when there are none.
func (s settings) tablebase() search.Tablebase {
	if s.tb == nil || s.tb.MaxPieces() == 0 {
		return nil
	}
	return s.tb
}

// spinValue reads a spin value: a value out of range is clamped, with an
// info string; a bad value is reported, and ok is false.
func (s *Session) spinValue(o *option, value string) (n int, ok bool) {
	n, note, err := parseSpin(o, value)
	if err != nil {
		s.errorf("%v", err)
		return 0, false
	}
	if note != "" {
		s.info("%s", note)
	}
	return n, true
}

// parseSpin reads a spin value. A value out of range is clamped and
// reported in note; a value that is not an integer is an error.
func parseSpin(o *option, value string) (n int, note string, err error) {
	if value == "" {
		return 0, "", fmt.Errorf("setoption %s: missing value", o.name)
	}
	n64, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			if strings.HasPrefix(value, "-") {
				n64 = int64(o.min) - 1
			} else {
				n64 = int64(o.max) + 1
			}
		} else {
			return 0, "", fmt.Errorf("setoption %s: value %q is not an integer; keeping %s", o.name, value, "the old value")
		}
	}
	switch {
	case n64 < int64(o.min):
		return o.min, fmt.Sprintf("%s %s is below the minimum; set to %d", o.name, value, o.min), nil
	case n64 > int64(o.max):
		return o.max, fmt.Sprintf("%s %s is above the maximum; set to %d", o.name, value, o.max), nil
	}
	return int(n64), "", nil
}

func parseCheck(o *option, value string) (bool, error) {
	switch strings.ToLower(value) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("setoption %s: value %q is not true or false; keeping the old value", o.name, value)
}
