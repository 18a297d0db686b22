package tests

import (
	"testing"
	"time"

	"github.com/notnil/chess"
	"github.com/notnil/chess/uci"
)

// TestUCINotnilClient drives the engine with github.com/notnil/chess/uci,
// a real UCI client, through a standard game of the engine against
// itself, checking every move with notnil/chess.
func TestUCINotnilClient(t *testing.T) {
	eng, err := uci.New(rochadeBin(t))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if err := eng.Run(uci.CmdUCI, uci.CmdIsReady, uci.CmdUCINewGame); err != nil {
		t.Fatal(err)
	}
	if name := eng.ID()["name"]; len(name) < 8 || name[:8] != "Rochade " {
		t.Errorf("id name %q", name)
	}
	// (notnil/chess reads only one-word option names.)
	for _, o := range []string{"Hash", "Threads", "MultiPV", "Ponder", "UCI_ShowWDL", "UCI_Chess960"} {
		if _, ok := eng.Options()[o]; !ok {
			t.Errorf("option %s not seen by the client", o)
		}
	}
	if err := eng.Run(uci.CmdSetOption{Name: "Hash", Value: "8"}); err != nil {
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
		if err := eng.Run(uci.CmdPosition{Position: game.Position()}, cmdGo); err != nil {
			t.Fatal(err)
		}
		res := eng.SearchResults()
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
