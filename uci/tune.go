package uci

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rochade/rochade/search"
)

// The tune build (`make tune`, go build -tags tune) offers every
// parameter of search.TunableParams as a spin option of the same name,
// for SPSA (OpenBench or scripts/spsa), and knows the `spsa` command.
// Other builds register neither (tune_off.go): these functions are never
// reached there.

// registerTune adds the tune build's options and the spsa command.
func registerTune() {
	optionList = append(optionList, tuneOptions()...)
	commands["spsa"] = true
}

// tuneOptions are the spin options of the tunable parameters, declared
// by search's paramTable, with their current values as defaults.
func tuneOptions() []option {
	var opts []option
	for _, t := range search.TunableParams() {
		opts = append(opts, option{name: t.Name, typ: optSpin, def: strconv.Itoa(t.Value()),
			min: t.Min, max: t.Max, tune: true, set: setTuneOption})
	}
	return opts
}

// setTuneOption is the setoption of a tunable parameter: the value,
// clamped to the range, goes to the search (the log records it so).
func setTuneOption(s *Session, o *option, value string) (string, bool) {
	n, ok := s.spinValue(o, value)
	if !ok {
		return "", false
	}
	s.setTunable(o, n)
	return fmt.Sprintf("%s = %d", o.name, n), true
}

// setTunable sets a search parameter; during a search it waits for the
// search to end, as the other search options do.
func (s *Session) setTunable(o *option, n int) {
	if s.searching() {
		if s.pendingTune == nil {
			s.pendingTune = map[string]int{}
		}
		s.pendingTune[o.name] = n
		s.info("%s will be applied when the current search ends", o.name)
		return
	}
	search.SetTunable(o.name, n)
}

// applyPendingTune sets the parameters given during the last search.
func (s *Session) applyPendingTune() {
	for name, n := range s.pendingTune {
		search.SetTunable(name, n)
	}
	s.pendingTune = nil
}

// SPSAInput is the tunable parameters with their current values in
// OpenBench's SPSA input format, one `name, int, value, min, max, c_end,
// r_end` line each.
func SPSAInput() string {
	var b strings.Builder
	for _, t := range search.TunableParams() {
		b.WriteString(t.OpenBenchLine())
		b.WriteByte('\n')
	}
	return b.String()
}

// cmdSPSA answers the `spsa` command of the tune build: the current
// values as OpenBench SPSA input, each line as `info string spsa <line>`.
func (s *Session) cmdSPSA() {
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(SPSAInput(), "\n"), "\n") {
		lines = append(lines, "info string spsa "+l)
	}
	s.send(lines...)
}
