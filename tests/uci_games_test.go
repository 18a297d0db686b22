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

// gameRecord is a game played over pipes.
type gameRecord struct {
	result string // "1-0", "0-1", "1/2-1/2", or "*" at the ply cap
	reason string // checkmate, stalemate, fifty-move rule, repetition, insufficient material, ply cap
	moves  []string
	// lastScore is each colour's (White, Black) score on the last info
	// line before its last bestmove ("cp 35", "mate -1"; "" if none).
	lastScore [2]string
	// slowest is the longest a move took, from go to bestmove.
	slowest time.Duration
}

// playGame plays one game from start (Shredder-FEN), sending the full
// move list each time as GUIs do, and checks every move with our move
// generator: an illegal or missing bestmove (a forfeit in a GUI) fails
// the test at once.
func playGame(t *testing.T, start string, white, black player, maxPlies int) gameRecord {
	t.Helper()
	pos := v.MustParseFEN(start)
	var g gameRecord
	for _, pl := range []player{white, black} {
		pl.e.send("ucinewgame", "isready")
		pl.e.until("readyok", 10*sec)
	}
	for ply := 0; ; ply++ {
		var ml v.MoveList
		pos.GenerateLegal(&ml)
		switch {
		case ml.N == 0 && pos.InCheck():
			g.result, g.reason = "1-0", "checkmate"
			if pos.Side() == v.White {
				g.result = "0-1"
			}
			return g
		case ml.N == 0:
			g.result, g.reason = "1/2-1/2", "stalemate"
			return g
		case pos.Rule50() >= 100:
			g.result, g.reason = "1/2-1/2", "fifty-move rule"
			return g
		case pos.RepetitionCount() >= 2:
			g.result, g.reason = "1/2-1/2", "repetition"
			return g
		case pos.InsufficientMaterial():
			g.result, g.reason = "1/2-1/2", "insufficient material"
			return g
		case ply >= maxPlies:
			g.result, g.reason = "*", "ply cap"
			return g
		}
		pl := white
		if pos.Side() == v.Black {
			pl = black
		}
		cmd := "position fen " + start
		if len(g.moves) > 0 {
			cmd += " moves " + strings.Join(g.moves, " ")
		}
		pl.e.send(cmd)
		began := time.Now()
		best, _, lines := pl.e.search(pl.goCmd, 30*sec)
		g.slowest = max(g.slowest, time.Since(began))
		if sc := lastScoreText(lines); sc != "" {
			g.lastScore[pos.Side()] = sc
		}
		m, err := pos.ParseMove(best)
		if err != nil {
			t.Fatalf("%s played illegal %q after %s (from %s): %v", pl.name, best, strings.Join(g.moves, " "), start, err)
		}
		if want := pos.MoveToUCI(m, true); best != want {
			t.Errorf("%s wrote %s as %q, want the Chess960 form %q", pl.name, pos.SAN(m), best, want)
		}
		pos.Make(m)
		g.moves = append(g.moves, best)
	}
}

// lastScoreText returns the score ("cp 35", "mate -1") of the last info line
// that has one.
func lastScoreText(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		f := strings.Fields(lines[i])
		for j := 0; j+2 < len(f); j++ {
			if f[0] == "info" && f[j] == "score" {
				return f[j+1] + " " + f[j+2]
			}
		}
	}
	return ""
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
		gr := playGame(t, fen, w, bl, maxPlies)
		results[gr.result]++
		t.Logf("game %d %s: %s (%s) in %d plies", g+1, fen, gr.result, gr.reason, len(gr.moves))
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

// TestUCIAgainstStockfish960 plays Chess960 games against Stockfish at
// low node limits, each opening with both colours, when Stockfish is
// installed. Every move of both sides must be legal and arrive in time
// (a forfeit otherwise), Rochade writes its moves in the Chess960 form,
// and every game ends by the rules (mate, stalemate, fifty moves,
// repetition or insufficient material), with no ply cap that counts.
// Where Rochade mates, its last score was mate 1; where it is mated, its
// last score was a mate against it. Both engines' games are
// deterministic (node limits, one thread), so the test is too.
func TestUCIAgainstStockfish960(t *testing.T) {
	sfPath := stockfishPath()
	if sfPath == "" {
		t.Skip("stockfish not installed")
	}
	games := 6
	if raceEnabled {
		games = 2
	}
	if *long {
		games = 20
	}
	// A game longer than this is a defect: the fifty-move rule ends
	// games of engines that make no progress far sooner.
	const maxPlies = 1000
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
	var slowest time.Duration
	for g := 0; g < games; g++ {
		if g%2 == 0 {
			fen = starts[r.IntN(len(starts))] // then the same opening, colours reversed
		}
		w, b := ro, sf
		roColour := v.White
		if g%2 == 1 {
			w, b = sf, ro
			roColour = v.Black
		}
		gr := playGame(t, fen, w, b, maxPlies)
		results[w.name+"-"+b.name+" "+gr.result]++
		slowest = max(slowest, gr.slowest)
		t.Logf("game %d %s vs %s, %s: %s (%s) in %d plies; last scores %q", g+1, w.name, b.name, fen, gr.result, gr.reason, len(gr.moves), gr.lastScore)
		if gr.result == "*" {
			t.Errorf("game %d did not end in %d plies", g+1, maxPlies)
		}
		if gr.reason == "checkmate" {
			roWon := (gr.result == "1-0") == (roColour == v.White)
			sc := gr.lastScore[roColour]
			if roWon && sc != "mate 1" {
				t.Errorf("game %d: rochade mated with its last score %q, want mate 1", g+1, sc)
			}
			if !roWon && !strings.HasPrefix(sc, "mate -") {
				t.Errorf("game %d: rochade was mated with its last score %q, want a mate against it", g+1, sc)
			}
		}
	}
	// Each move takes a few milliseconds; a second is a hang on any
	// machine this suite runs on.
	if slowest > 5*sec {
		t.Errorf("slowest move took %v", slowest)
	}
	t.Logf("results: %v; slowest move %v", results, slowest.Round(time.Millisecond))
	ro.e.closeAndWait(5 * sec)
	sfe.send("quit")
	sfe.waitExit(5 * sec)
}
