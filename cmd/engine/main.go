// Command rochade is the Rochade chess engine. With no arguments it
// speaks UCI on stdin/stdout; subcommands run benchmarks and tools.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rochade/rochade/uci"
)

// A command is one subcommand of rochade. run gets the arguments after
// the subcommand's name and the streams to use, and returns the exit
// status; it writes nowhere else.
type command struct {
	name    string
	summary []form // the subcommand's lines in rochade help
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
	// logFlag: run takes --log FILE, and the global --log is passed on
	// to it as such.
	logFlag bool
}

// A form is one way to call a subcommand: its arguments and what it does
// (lines after the first are continuation lines).
type form struct{ args, what string }

// commands is the table of subcommands: run dispatches on it, and
// rochade help lists it. It is filled in init, as help reads it.
var commands []command

func init() {
	commands = []command{
		{name: "uci", run: uciCmd, logFlag: true, summary: []form{
			{`["CMD" ...]`, "speak UCI with the uci command already given;\nwith commands, run them as below and exit"},
		}},
		{name: "bench", run: benchCmd, summary: []form{
			{"[depth] [--hce|--nnue|--evalfile F]", "fixed-depth search of the bench positions;\n" + `the last line is "<N> nodes <M> nps"`},
		}},
		{name: "eval", run: evalCmd, summary: []form{
			{"[--hce|--nnue|--evalfile F] [--info]", "static eval (cp, White's view) of each FEN on stdin"},
		}},
		{name: "perft", run: perftCmd, summary: []form{
			{"<depth> [fen]", "perft divide (standard start position by default)"},
		}},
		{name: "startpos", run: startposCmd, summary: []form{
			{"<n>", "FEN of Chess960 start position n (0..959, 518 = standard)"},
			{"--fischer168 <i>", "FEN of Fischer168 position i (1..168)"},
			{"--dfrc <w> <b>", "FEN of the DFRC position with White SP w and Black SP b"},
			{"--random [--fischer168] [--dfrc] [--seed S]", "FEN of a random start position"},
			{"--number <fen|back rank>", "SP number(s) and Fischer168 index of a start position"},
		}},
		{name: "datagen", run: runDatagen, summary: []form{
			{"--out DIR ...", "self-play training data (rochade datagen --help)"},
			{"convert|stats FILE", "training data as text lines, or its statistics"},
		}},
		{name: "train", run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runTrain(args, stdout, stderr) }, summary: []form{
			{"--data FILES ...", "train an evaluation net (rochade train --help)"},
		}},
		{name: "spsa", run: spsaCmd, summary: []form{
			{"", "the search parameters as OpenBench SPSA input\n(tune build only: make tune, docs/openbench.md)"},
		}},
		{name: "version", run: versionCmd, summary: []form{
			{"", "print the version"},
		}},
		{name: "help", run: helpCmd, summary: []form{
			{"", "this text"},
		}},
	}
}

func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// usageColumn is where the descriptions of the usage lines start.
const usageColumn = 39

// writeForms writes the usage lines of c.
func writeForms(w io.Writer, c *command) {
	for _, f := range c.summary {
		line := "  rochade " + c.name
		if f.args != "" {
			line += " " + f.args
		}
		writeUsageLine(w, line, f.what)
	}
}

func writeUsageLine(w io.Writer, line, what string) {
	pad := strings.Repeat(" ", usageColumn)
	if len(line) < usageColumn {
		line += pad[len(line):]
	} else {
		line += "\n" + pad
	}
	fmt.Fprintf(w, "%s%s\n", line, strings.ReplaceAll(what, "\n", "\n"+pad))
}

// usage writes rochade's help text: the subcommands of the table between
// the forms that are no subcommand.
func usage(w io.Writer) {
	fmt.Fprintf(w, "Rochade %s - a UCI chess engine for Chess960, DFRC and standard chess\n\nUsage:\n", uci.Version)
	writeUsageLine(w, "  rochade [--log FILE]", "speak UCI on stdin/stdout")
	for i := range commands {
		writeForms(w, &commands[i])
	}
	writeUsageLine(w, `  rochade "CMD" ["CMD" ...]`, "run UCI commands, one an argument, then exit; stdin is\n"+
		"not read, a search with a limit runs to it and one without\n"+
		"(go, go infinite, go ponder) is stopped at the end\n"+
		`(OpenBench: rochade "genfens 64 seed 1 book None" quit)`)
	fmt.Fprint(w, `
Global flags (before the subcommand):
  --log FILE    write the debug log to FILE ("-" for stderr): a regular file or a terminal,
                never stdout; a log that cannot keep up loses lines, never answers
  --version     print the version, as rochade version does
  --help        this text
`)
}

// commandUsage writes the usage of one subcommand, and its flags' when fs
// is not nil.
func commandUsage(w io.Writer, name string, fs *flag.FlagSet) {
	fmt.Fprintln(w, "Usage:")
	writeForms(w, lookup(name))
	if fs != nil {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// isHelp reports whether args asks for help.
func isHelp(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return true
	}
	return false
}

// newFlagSet is a subcommand's flag set: it prints nothing itself; see
// flagExit.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// fail reports err of subcommand name and returns its exit status: 0 for
// a request for help, whose answer (the subcommand's usage) goes to
// stdout, and 1 for an error, which goes to stderr.
func fail(name string, fs *flag.FlagSet, err error, stdout, stderr io.Writer) int {
	if errors.Is(err, flag.ErrHelp) {
		commandUsage(stdout, name, fs)
		return 0
	}
	fmt.Fprintf(stderr, "rochade %s: %v\n", name, err)
	return 1
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("rochade")
	logFile := fs.String("log", "", "debug log file (\"-\" for stderr)")
	showVersion := fs.Bool("version", false, "print the version")
	// The usage goes to stdout when asked for (--help) and to stderr
	// after a bad flag, once either way, the bad flag named first.
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			usage(stdout)
			return 0
		}
		fmt.Fprintf(stderr, "rochade: %v\n\n", err)
		usage(stderr)
		return 2
	}
	rest := fs.Args()
	if *showVersion {
		return versionCmd(rest, stdin, stdout, stderr)
	}
	if len(rest) == 0 {
		uci.Run(stdin, stdout, uci.Config{LogFile: *logFile})
		return 0
	}
	if c := lookup(rest[0]); c != nil {
		args := rest[1:]
		if c.logFlag && *logFile != "" {
			args = append([]string{"--log", *logFile}, args...)
		}
		return c.run(args, stdin, stdout, stderr)
	}
	// Arguments that are UCI commands run as such, one an argument, as
	// Stockfish runs them (OpenBench's genfens calls work so).
	if f := strings.Fields(rest[0]); len(f) > 0 && uci.IsCommand(f[0]) {
		return uciCommands(rest, stdout, *logFile)
	}
	// -version and --version after "--".
	if rest[0] == "--version" || rest[0] == "-version" {
		return versionCmd(rest[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "rochade: unknown command %q (try rochade --help)\n", rest[0])
	return 2
}

// uciCmd is `rochade uci`: the UCI loop, with the uci command already
// given, or with arguments the UCI commands they are, uci first.
func uciCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// --log FILE, passed on from the global flag, comes first.
	// A --log without a file name is a usage error, not a UCI command.
	var logFile string
	for len(args) > 0 {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
		if name != "log" || !strings.HasPrefix(args[0], "-") {
			break
		}
		if !hasValue && len(args) >= 2 {
			value, args = args[1], args[1:]
		}
		args = args[1:]
		if value == "" {
			fmt.Fprintln(stderr, "rochade uci: --log needs a file name (\"-\" for stderr)")
			commandUsage(stderr, "uci", nil)
			return 2
		}
		logFile = value
	}
	if isHelp(args) {
		commandUsage(stdout, "uci", nil)
		return 0
	}
	if len(args) > 0 {
		return uciCommands(append([]string{"uci"}, args...), stdout, logFile)
	}
	s := uci.NewSession(stdout, uci.Config{LogFile: logFile})
	if s.Handle("uci") {
		s.Run(stdin)
	}
	s.Close()
	return 0
}

// uciCommands runs each argument as one UCI input line, in order, and
// returns when quit comes or the last command (a search, say) is done.
func uciCommands(lines []string, stdout io.Writer, logFile string) int {
	s := uci.NewSession(stdout, uci.Config{LogFile: logFile})
	s.RunCommands(lines)
	s.Close()
	return 0
}

// spsaCmd prints the tunable search parameters as OpenBench SPSA input.
func spsaCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if isHelp(args) {
		commandUsage(stdout, "spsa", nil)
		return 0
	}
	if !uci.TuneBuild {
		fmt.Fprintln(stderr, "rochade spsa: this build has no tuning options; build rochade-tune with `make tune` (go build -tags tune)")
		return 1
	}
	fmt.Fprint(stdout, uci.SPSAInput())
	return 0
}

func versionCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if isHelp(args) {
		commandUsage(stdout, "version", nil)
		return 0
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "rochade version: unexpected argument %q\n", args[0])
		return 1
	}
	fmt.Fprintf(stdout, "%s %s\n", uci.Name, uci.Version)
	return 0
}

func helpCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && !isHelp(args) {
		fmt.Fprintf(stderr, "rochade help: unexpected argument %q (rochade COMMAND --help gives a command's usage)\n", args[0])
		return 1
	}
	usage(stdout)
	return 0
}
