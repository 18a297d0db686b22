package variant960_test

import (
	"strings"
	"testing"

	"github.com/notnil/chess"
	v "github.com/rochade/rochade/variant960"
)

func TestPGNChess960(t *testing.T) {
	p, _ := v.Chess960Position(0) // BBQNNRKR: castling needs 960 rules
	var moves []v.Move
	q := p.Copy()
	for _, s := range []string{"f2f4", "f7f5", "f1f3", "f8f6", "g1h1"} {
		m, err := q.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		q.Make(m)
	}
	g := v.Game{Tags: [][2]string{{"White", "A"}, {"Black", "B"}}, Start: p, Moves: moves, Result: "*"}
	out, err := g.PGN()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]`,
		`[White "A"]`, "1. f4 f5 2. Rf3 Rf6 3. O-O *"} {
		if !strings.Contains(out, want) {
			t.Errorf("PGN lacks %q:\n%s", want, out)
		}
	}
	// An illegal move is refused.
	g.Moves = append(g.Moves[:1], g.Moves[0])
	if _, err := g.PGN(); err == nil {
		t.Error("illegal move written")
	}
}

func TestPGNStandardReadByNotnil(t *testing.T) {
	p := v.NewStartPosition()
	var moves []v.Move
	for _, s := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5"} {
		m, _ := p.ParseMove(s)
		moves = append(moves, m)
		p.Make(m)
	}
	g := v.Game{Moves: moves, Result: "*"}
	out, err := g.PGN()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "Variant") || strings.Contains(out, "SetUp") {
		t.Errorf("standard game tagged as a variant:\n%s", out)
	}
	opt, err := chess.PGN(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	game := chess.NewGame(opt)
	if len(game.Moves()) != len(moves) {
		t.Errorf("notnil read %d moves of %d:\n%s", len(game.Moves()), len(moves), out)
	}
}
