package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"
	"github.com/notnil/chess/uci"
)

// notnilClient is github.com/notnil/chess/uci's client with a deadline on
// every exchange. The library reads the engine's stdout through a pipe
// that nobody closes when the engine dies, so a crashed engine would
// leave Run blocked until the package's test timeout; here the test fails
// after the deadline, and an engine that still runs is killed.
type notnilClient struct {
	t    *testing.T
	path string
	eng  *uci.Engine
	// stuck is set once an exchange has missed its deadline: its
	// goroutine holds the client's lock for good.
	stuck bool
}

func newNotnilClient(t *testing.T, path string) *notnilClient {
	t.Helper()
	eng, err := uci.New(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &notnilClient{t: t, path: path, eng: eng}
	t.Cleanup(c.close)
	return c
}

// run runs the commands and returns their error, or an error once d has
// passed without an answer.
func (c *notnilClient) run(d time.Duration, cmds ...uci.Cmd) error {
	if c.stuck {
		return fmt.Errorf("the client is stuck in an earlier exchange")
	}
	done := make(chan error, 1)
	go func() { done <- c.eng.Run(cmds...) }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		c.stuck = true
		c.kill()
		var names []string
		for _, cmd := range cmds {
			names = append(names, strings.Fields(cmd.String() + " ?")[0])
		}
		return fmt.Errorf("no answer to %s within %v (engine dead or hung)", strings.Join(names, ", "), d)
	}
}

// close quits the engine, waiting a few seconds at most.
func (c *notnilClient) close() {
	if !c.stuck {
		done := make(chan struct{})
		go func() {
			c.eng.Close()
			close(done)
		}()
		select {
		case <-done:
			return
		case <-time.After(5 * time.Second):
			c.stuck = true
		}
	}
	c.kill()
}

// kill kills the engine processes this test process started from the
// client's path, if they still run (Linux: found through /proc; the
// client does not give its process away).
func (c *notnilClient) kill() {
	if runtime.GOOS != "linux" {
		return
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces; it ends at the
		// last ')'.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		if exe, err := os.Readlink(filepath.Join(d, "exe")); err != nil || exe != c.path {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(d)); err == nil {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
		}
	}
}

// TestUCINotnilClient drives the engine with github.com/notnil/chess/uci,
// a real UCI client, through a standard game of the engine against
// itself, checking every move with notnil/chess.
func TestUCINotnilClient(t *testing.T) {
	c := newNotnilClient(t, rochadeBin(t))
	if err := c.run(30*sec, uci.CmdUCI, uci.CmdIsReady, uci.CmdUCINewGame); err != nil {
		t.Fatal(err)
	}
	if name := c.eng.ID()["name"]; len(name) < 8 || name[:8] != "Rochade " {
		t.Errorf("id name %q", name)
	}
	// (notnil/chess reads only one-word option names.)
	for _, o := range []string{"Hash", "Threads", "MultiPV", "Ponder", "UCI_ShowWDL", "UCI_Chess960"} {
		if _, ok := c.eng.Options()[o]; !ok {
			t.Errorf("option %s not seen by the client", o)
		}
	}
	if err := c.run(30*sec, uci.CmdSetOption{Name: "Hash", Value: "8"}); err != nil {
		t.Fatal(err)
	}
	game := chess.NewGame()
	plies := 60
	if raceEnabled {
		plies = 20
	}
	for i := 0; i < plies && game.Outcome() == chess.NoOutcome; i++ {
		cmdGo := uci.CmdGo{Depth: 4}
		if i%2 == 1 {
			cmdGo = uci.CmdGo{MoveTime: 20 * time.Millisecond}
		}
		if err := c.run(10*sec, uci.CmdPosition{Position: game.Position()}, cmdGo); err != nil {
			t.Fatalf("ply %d: %v", i, err)
		}
		res := c.eng.SearchResults()
		if res.BestMove == nil {
			t.Fatalf("ply %d: no best move", i)
		}
		legal := false
		for _, m := range game.ValidMoves() {
			if m.String() == res.BestMove.String() {
				legal = true
			}
		}
		if !legal {
			t.Fatalf("ply %d: illegal move %s in %s", i, res.BestMove, game.Position())
		}
		if err := game.Move(res.BestMove); err != nil {
			t.Fatalf("ply %d: %v", i, err)
		}
	}
	t.Logf("%s", game.String())
}

// TestUCINotnilClientDeadline: an engine that dies in the middle of a
// search makes the client fail within the deadline, where the bare
// library blocks until the package's test timeout. The engine here is a
// shell script that answers the handshake and exits on go.
func TestUCINotnilClientDeadline(t *testing.T) {
	sh := "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		t.Skip("no /bin/sh")
	}
	path := filepath.Join(t.TempDir(), "dying-engine")
	script := "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n" +
		"    uci) echo 'id name Dying 1'; echo uciok ;;\n" +
		"    isready) echo readyok ;;\n" +
		"    go*) echo 'info depth 1 score cp 0'; exit 3 ;;\n" +
		"  esac\ndone\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newNotnilClient(t, path)
	if err := c.run(10*sec, uci.CmdUCI, uci.CmdIsReady); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := c.run(2*sec, uci.CmdPosition{Position: chess.NewGame().Position()}, uci.CmdGo{Depth: 4})
	if err == nil || !strings.Contains(err.Error(), "within") {
		t.Fatalf("dead engine: %v", err)
	}
	if el := time.Since(start); el > 10*sec {
		t.Errorf("the deadline of 2 s took %v", el)
	}
}
