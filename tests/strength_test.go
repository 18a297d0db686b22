package tests

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// TestUCILimitStrength plays a few moves over pipes at UCI_Elo 1500, as a
// GUI sets it up: every bestmove is legal, every info line is protocol and
// counts no more nodes than the level's cap, and with a clock of minutes
// each move comes at once (the cap, not the clock, ends the search).
func TestUCILimitStrength(t *testing.T) {
	const elo = 1500
	cap := search.StrengthFor(elo).Nodes
	e := startEngine(t)
	e.handshake()
	e.send("setoption name Hash value 8", "setoption name UCI_LimitStrength value true",
		"setoption name UCI_Elo value "+strconv.Itoa(elo), "ucinewgame")
	e.sync()
	pos := v.NewStartPosition()
	var moves []string
	for ply := 0; ply < 16; ply++ {
		cmd := "position startpos"
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		e.send(cmd)
		goCmd := "go wtime 300000 btime 300000 winc 1000 binc 1000"
		if ply%2 == 1 {
			goCmd = "go movetime 60000"
		}
		start := time.Now()
		best, ponder, lines := e.search(goCmd, 30*sec)
		if took := time.Since(start); took > 10*sec {
			t.Errorf("ply %d: %s took %v", ply, goCmd, took)
		}
		m := legalIn(t, pos, best)
		for _, l := range lines {
			f := strings.Fields(l)
			for i := 0; i+1 < len(f); i++ {
				if f[0] == "info" && f[i] == "nodes" {
					if n, _ := strconv.ParseUint(f[i+1], 10, 64); n > cap {
						t.Errorf("ply %d: %q: more than the cap of %d nodes", ply, l, cap)
					}
				}
			}
		}
		pos.Make(m)
		if ponder != "" {
			legalIn(t, pos, ponder)
		}
		moves = append(moves, best)
	}
	t.Logf("UCI_Elo %d: %s", elo, strings.Join(moves, " "))
	e.closeAndWait(5 * sec)
}
