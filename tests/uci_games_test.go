package tests

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// player is one side of a game over pipes.
type player struct {
	e     *engine
	name  string
	goCmd string
}

// playGame plays one game from start (Shredder-FEN), sending the full
// move list each time as GUIs do, and checks every move with our move
// generator. It returns the result ("1-0", "0-1", "1/2-1/2", or "*" at
// the ply cap) and the moves.
func playGame(t *testing.T, start string, white, black player, maxPlies int) (string, []string) {
	t.Helper()
	pos := v.MustParseFEN(start)
	var moves []string
	for _, pl := range []player{white, black} {
		pl.e.send("ucinewgame", "isready")
		pl.e.until("readyok", 10*sec)
	}
	for ply := 0; ply < maxPlies; ply++ {
		var ml v.MoveList
		pos.GenerateLegal(&ml)
		switch {
		case ml.N == 0 && pos.InCheck():
			if pos.Side() == v.White {
				return "0-1", moves
			}
			return "1-0", moves
		case ml.N == 0, pos.Rule50() >= 100, pos.RepetitionCount() >= 2, pos.InsufficientMaterial():
			return "1/2-1/2", moves
		}
		pl := white
		if pos.Side() == v.Black {
			pl = black
		}
		cmd := "position fen " + start
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		pl.e.send(cmd)
		best, _, _ := pl.e.search(pl.goCmd, 30*sec)
		m, err := pos.ParseMove(best)
		if err != nil {
			t.Fatalf("%s played illegal %q after %s (from %s): %v", pl.name, best, strings.Join(moves, " "), start, err)
		}
		if want := pos.MoveToUCI(m, true); best != want {
			t.Errorf("%s wrote %s as %q, want the Chess960 form %q", pl.name, pos.SAN(m), best, want)
		}
		pos.Make(m)
		moves = append(moves, best)
	}
	return "*", moves
}

func chess960Starts(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("testdata/chess960.epd")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func newRochadePlayer(t *testing.T, name, goCmd string) player {
	e := startEngine(t)
	e.handshake()
	e.send("setoption name UCI_Chess960 value true", "setoption name Hash value 8")
	return player{e: e, name: name, goCmd: goCmd}
}

// TestUCISelfPlay960 plays Chess960 games between two Rochade processes.
func TestUCISelfPlay960(t *testing.T) {
	games, maxPlies, goCmd := 20, 150, "go nodes 2000"
	if raceEnabled {
		games, maxPlies = 4, 80
	}
	if *long {
		games, maxPlies, goCmd = 200, 300, "go nodes 5000"
	}
	starts := chess960Starts(t)
	r := rand.New(rand.NewPCG(960, 1))
	a := newRochadePlayer(t, "rochade-a", goCmd)
	b := newRochadePlayer(t, "rochade-b", goCmd)
	start := time.Now()
	results := map[string]int{}
	for g := 0; g < games; g++ {
		fen := starts[r.IntN(len(starts))]
		if g%5 == 4 {
			// Every fifth game is DFRC.
			p, err := v.DFRCPosition(r.IntN(960), r.IntN(960))
			if err != nil {
				t.Fatal(err)
			}
			fen = p.ShredderFEN()
		}
		w, bl := a, b
		if g%2 == 1 {
			w, bl = b, a
		}
		res, moves := playGame(t, fen, w, bl, maxPlies)
		results[res]++
		t.Logf("game %d %s: %s in %d plies", g+1, fen, res, len(moves))
	}
	t.Logf("%d games in %v: %v", games, time.Since(start).Round(time.Millisecond), results)
	a.e.closeAndWait(5 * sec)
	b.e.closeAndWait(5 * sec)
}

func stockfishPath() string {
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/games/stockfish"); err == nil {
		return "/usr/games/stockfish"
	}
	return ""
}

// TestUCIAgainstStockfish960 plays Chess960 games against Stockfish at a
// low node limit, when it is installed.
func TestUCIAgainstStockfish960(t *testing.T) {
	sfPath := stockfishPath()
	if sfPath == "" {
		t.Skip("stockfish not installed")
	}
	games, maxPlies := 6, 150
	if raceEnabled {
		games, maxPlies = 2, 80
	}
	if *long {
		games, maxPlies = 20, 400
	}
	sfe := startProcess(t, sfPath)
	sfe.send("uci")
	sfe.until("uciok", 10*sec)
	sfe.send("setoption name UCI_Chess960 value true", "setoption name Threads value 1", "setoption name Hash value 16")
	sf := player{e: sfe, name: "stockfish", goCmd: "go nodes 1000"}
	ro := newRochadePlayer(t, "rochade", "go nodes 2000")
	starts := chess960Starts(t)
	r := rand.New(rand.NewPCG(15, 1))
	results := map[string]int{}
	var fen string
	for g := 0; g < games; g++ {
		if g%2 == 0 {
			fen = starts[r.IntN(len(starts))] // then the same opening, colours reversed
		}
		w, b := ro, sf
		if g%2 == 1 {
			w, b = sf, ro
		}
		res, moves := playGame(t, fen, w, b, maxPlies)
		results[w.name+"-"+b.name+" "+res]++
		t.Logf("game %d %s vs %s, %s: %s in %d plies", g+1, w.name, b.name, fen, res, len(moves))
	}
	t.Logf("results: %v", results)
	ro.e.closeAndWait(5 * sec)
	sfe.send("quit")
}
