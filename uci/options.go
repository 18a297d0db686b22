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

// option is one UCI option as advertised by the handshake.
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
}

// HashMax is the largest Hash size accepted, in MB, and ThreadsMax the
// most Threads; both are further held to the memory budget (mem.go).
const (
	HashMax    = 65536
	ThreadsMax = 1024
)

var optionList = []option{
	{name: "Hash", typ: optSpin, def: "16", min: 1, max: HashMax, engine: true},
	{name: "Threads", typ: optSpin, def: "1", min: 1, max: ThreadsMax, engine: true},
	{name: "MultiPV", typ: optSpin, def: "1", min: 1, max: 256, engine: true},
	{name: "Ponder", typ: optCheck, def: "false"},
	{name: "Move Overhead", typ: optSpin, def: "30", min: 0, max: 5000, engine: true},
	{name: "Clear Hash", typ: optButton, engine: true},
	{name: "UCI_ShowWDL", typ: optCheck, def: "false", engine: true},
	{name: "UCI_Chess960", typ: optCheck, def: "false"},
	{name: "UCI_LimitStrength", typ: optCheck, def: "false", engine: true},
	{name: "UCI_Elo", typ: optSpin, def: strconv.Itoa(search.EloMax), min: search.EloMin, max: search.EloMax, engine: true},
	{name: "Debug Log File", typ: optString, def: ""},
	{name: "EvalFile", typ: optString, def: evalFileInternal, engine: true},
	{name: "Use NNUE", typ: optCheck, def: strconv.FormatBool(eval.UseNetByDefault), engine: true},
	{name: "SyzygyPath", typ: optString, def: "", engine: true},
	{name: "SyzygyProbeDepth", typ: optSpin, def: "1", min: 1, max: 100, engine: true},
	{name: "SyzygyProbeLimit", typ: optSpin, def: "7", min: 0, max: 7, engine: true},
	{name: "Syzygy50MoveRule", typ: optCheck, def: "true", engine: true},
}

// evalFileInternal names the net compiled into the binary.
const evalFileInternal = "<internal>"

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

// settings are the current values of all options.
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

func defaultSettings() settings {
	net, _ := eval.DefaultNet()
	return settings{hash: 16, threads: 1, multiPV: 1, overhead: 30,
		evalFile: evalFileInternal, useNNUE: eval.UseNetByDefault, net: net,
		tbProbeDepth: 1, tbLimit: 7, tb50: true, elo: search.EloMax}
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
