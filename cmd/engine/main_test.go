package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// runIn runs rochade in this process with args and stdin.
func runIn(args []string, stdin string) (rc int, stdout, stderr string) {
	var out, errb bytes.Buffer
	rc = run(args, strings.NewReader(stdin), &out, &errb)
	return rc, out.String(), errb.String()
}

func TestHelpListsEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}} {
		rc, out, stderr := runIn(args, "")
		if rc != 0 || stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, rc, stderr)
		}
		for _, c := range commands {
			for _, f := range c.summary {
				want := strings.TrimSpace("rochade " + c.name + " " + f.args)
				if !strings.Contains(out, "\n  "+want) {
					t.Errorf("%v lacks %q", args, want)
				}
			}
		}
	}
	if len(commands) != 10 {
		t.Errorf("%d subcommands in the table, want 10 (uci, bench, eval, perft, startpos, datagen, train, spsa, version, help)", len(commands))
	}
}

// Every subcommand answers --help with exit status 0 and its usage, on
// the writers it is given.
func TestCommandHelp(t *testing.T) {
	for _, c := range commands {
		for _, h := range []string{"--help", "-h"} {
			var rc int
			var out, stderr string
			procOut := processOutput(t, func() { rc, out, stderr = runIn([]string{c.name, h}, "") })
			if rc != 0 {
				t.Errorf("rochade %s %s: exit %d, stderr %q", c.name, h, rc, stderr)
			}
			// runTrain writes to the process's stderr.
			if procOut != "" {
				t.Errorf("rochade %s %s wrote %q to the process's stdout or stderr", c.name, h, procOut)
			}
			all := out + stderr + procOut
			if !strings.Contains(all, "Usage") || !strings.Contains(all, "rochade "+c.name) {
				t.Errorf("rochade %s %s: no usage in stdout %q, stderr %q", c.name, h, out, stderr)
			}
		}
	}
}

// processOutput returns what f writes to os.Stdout and os.Stderr.
func processOutput(t *testing.T, f func()) string {
	tmp, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Close()
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = tmp, tmp
	defer func() { os.Stdout, os.Stderr = stdout, stderr }()
	f()
	b, err := os.ReadFile(tmp.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The subcommands write to the writers they are given.
func TestCommandsWriteToTheirWriters(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		stdin string
		want  string // a regexp that stdout must match
	}{
		{[]string{"bench", "1"}, "", `(?m)^\d+ nodes \d+ nps\n\z`},
		{[]string{"perft", "2"}, "", `Nodes searched: 400\n`},
		{[]string{"startpos", "518"}, "", `^rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n$`},
		{[]string{"startpos", "--number", "RNBQKBNR"}, "", `^SP: 518\n`},
		{[]string{"eval", "--hce"}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n", `^-?\d+\n$`},
		{[]string{"version"}, "", `^Rochade \S+\n$`},
		{[]string{"uci", "isready", "quit"}, "", `(?s)uciok\n.*readyok\n`},
		{[]string{"isready"}, "", `^readyok\n$`},
	} {
		rc, out, stderr := runIn(tc.args, tc.stdin)
		if rc != 0 || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", tc.args, rc, stderr)
		}
		if !regexp.MustCompile(tc.want).MatchString(out) {
			t.Errorf("%v: stdout %q does not match %s", tc.args, out, tc.want)
		}
	}
	for _, args := range [][]string{{"bench", "x"}, {"bench", "--frob"}, {"perft"}, {"startpos", "960"}, {"eval", "x"}, {"frobnicate"}} {
		rc, out, stderr := runIn(args, "")
		if rc == 0 || out != "" || !strings.Contains(stderr, "rochade") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want an error on stderr only", args, rc, out, stderr)
		}
	}
}

// TestUCILogWithoutFile: `rochade uci --log` with no file name is a usage
// error, not a UCI command "--log".
func TestUCILogWithoutFile(t *testing.T) {
	for _, args := range [][]string{{"uci", "--log"}, {"uci", "-log"}, {"uci", "--log="}} {
		rc, out, stderr := runIn(args, "quit\n")
		if rc != 2 || out != "" || !strings.Contains(stderr, "--log") || !strings.Contains(stderr, "Usage") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and the usage on stderr only", args, rc, out, stderr)
		}
	}
}
