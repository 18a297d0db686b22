package variant960_test

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/notnil/chess"
	v "github.com/rochade/rochade/variant960"
)

// TestAgainstNotnilChess plays random standard games with our generator
// and checks, position by position, that github.com/notnil/chess finds the
// same legal moves and writes the same SAN.
func TestAgainstNotnilChess(t *testing.T) {
	games := 60
	if *long {
		games = 2000
	}
	r := rand.New(rand.NewPCG(42, 7))
	starts := []string{
		v.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	}
	positions := 0
	for g := 0; g < games; g++ {
		fen := starts[g%len(starts)]
		p := v.MustParseFEN(fen)
		opt, err := chess.FEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		game := chess.NewGame(opt)
		for ply := 0; ply < 120; ply++ {
			var ml v.MoveList
			p.GenerateLegal(&ml)
			ours := make([]string, 0, ml.N)
			for _, m := range ml.Slice() {
				ours = append(ours, m.UCI(false))
			}
			var theirs []string
			for _, m := range game.ValidMoves() {
				theirs = append(theirs, m.String())
			}
			sort.Strings(ours)
			sort.Strings(theirs)
			if strings.Join(ours, " ") != strings.Join(theirs, " ") {
				t.Fatalf("position %s:\n ours   %v\n theirs %v", p.FEN(), ours, theirs)
			}
			positions++
			if ml.N == 0 || p.IsDraw() {
				break
			}
			m := ml.Moves[r.IntN(ml.N)]
			san := p.SAN(m)
			var cm *chess.Move
			for _, x := range game.ValidMoves() {
				if x.String() == m.UCI(false) {
					cm = x
				}
			}
			if want := (chess.AlgebraicNotation{}).Encode(game.Position(), cm); want != san {
				t.Fatalf("SAN of %s in %s: ours %s, notnil %s", m.UCI(false), p.FEN(), san, want)
			}
			if back, err := p.ParseSAN(san); err != nil || back != m {
				t.Fatalf("SAN %s read back as %v %v", san, back, err)
			}
			if err := game.Move(cm); err != nil {
				t.Fatal(err)
			}
			p.Make(m)
		}
	}
	t.Logf("%d positions agreed", positions)
	if positions < 3000 {
		t.Errorf("only %d positions checked", positions)
	}
}
