package uci

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

func TestParseGenfens(t *testing.T) {
	g, err := parseGenfens(strings.Fields("64 seed 18446744073709551615 book None mix"))
	if err != nil || g.n != 64 || g.seed != 1<<64-1 || g.book != "" || g.mix != v.DatagenMix {
		t.Fatalf("%+v %v", g, err)
	}
	g, err = parseGenfens(strings.Fields("3 seed -1 book Books/DFRC.epd"))
	if err != nil || g.seed != 1<<64-1 || g.book != "Books/DFRC.epd" {
		t.Fatalf("%+v %v", g, err)
	}
	// A start kind overrides the book; plies sets the random plies.
	g, err = parseGenfens(strings.Fields("3 seed 1 book Books/DFRC.epd dfrc plies 2-4"))
	if err != nil || g.book != "" || g.mix.PctDFRC != 100 || g.mix.MinPlies != 2 || g.mix.MaxPlies != 4 {
		t.Fatalf("%+v %v", g, err)
	}
	g, err = parseGenfens(strings.Fields("3 seed 1 book None standard plies 0"))
	if err != nil || g.mix.PctDFRC+g.mix.PctChess960 != 0 || g.mix.MaxPlies != 0 {
		t.Fatalf("%+v %v", g, err)
	}
	for _, bad := range []string{"", "seed 1", "x seed 1", "3 seed", "3 seed x", "3 4", "3 frobnicate",
		"3 plies 5-2", "3 plies 1-101", "3 book", "-1", "99999999"} {
		if _, err := parseGenfens(strings.Fields(bad)); err == nil {
			t.Errorf("genfens %s: no error", bad)
		}
	}
}

func TestBookFEN(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 17", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 17"},
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - c0 \"x\"; hmvc 2; fmvn 9;", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"},
		{"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge -", "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"},
	} {
		got, err := bookFEN(c.in)
		if err != nil || got != c.want {
			t.Errorf("bookFEN(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"x", "8/8/8/8/8/8/8/8 w - -", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"} {
		if _, err := bookFEN(bad); err == nil {
			t.Errorf("bookFEN(%q): no error", bad)
		}
	}
}

// TestGenfensSession runs genfens through Handle: N distinct legal
// openings, the same again for the same seed, others for another seed,
// and an error (no genfens line) for bad arguments and a missing book.
func TestGenfensSession(t *testing.T) {
	run := func(cmd string) []string {
		var out bytes.Buffer
		s := NewSession(&out, Config{})
		s.RunCommands([]string{cmd, "quit"})
		s.Close()
		return strings.Split(strings.TrimSpace(out.String()), "\n")
	}
	a := run("genfens 12 seed 5 book None")
	if len(a) != 12 {
		t.Fatalf("%d lines: %q", len(a), a)
	}
	seen := map[string]bool{}
	for _, l := range a {
		fen, ok := strings.CutPrefix(l, "info string genfens ")
		if !ok {
			t.Fatalf("line %q", l)
		}
		pos, err := v.ParseFEN(fen)
		if err != nil || !pos.HasLegalMove() || pos.FEN() != fen {
			t.Fatalf("%q: %v", fen, err)
		}
		k := strings.Join(strings.Fields(fen)[:4], " ")
		if seen[k] {
			t.Fatalf("%q twice", k)
		}
		seen[k] = true
	}
	if b := run("genfens 12 seed 5 book None"); strings.Join(b, "\n") != strings.Join(a, "\n") {
		t.Errorf("seed 5 twice gives\n%q\n%q", a, b)
	}
	if c := run("genfens 12 seed 6 book None"); strings.Join(c, "\n") == strings.Join(a, "\n") {
		t.Errorf("seeds 5 and 6 give the same openings")
	}
	for _, cmd := range []string{"genfens x seed 1 book None", "genfens 3 seed 1 book " + filepath.Join(t.TempDir(), "none.epd")} {
		out := run(cmd)
		if len(out) != 1 || !strings.HasPrefix(out[0], "info string error: genfens") {
			t.Errorf("%s: %q", cmd, out)
		}
	}
}

// TestGenfensBook: with plies 0 the openings are the book's positions,
// each once; asking for more than the book holds ends in an error after
// all of them.
func TestGenfensBook(t *testing.T) {
	lines := []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;",
		"# a comment",
		"",
		"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
	}
	path := filepath.Join(t.TempDir(), "book.epd")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	book, err := readBook(path)
	if err != nil || len(book) != 3 {
		t.Fatalf("%q %v", book, err)
	}
	g, err := parseGenfens(strings.Fields("4 seed 9 book " + path + " plies 0"))
	if err != nil {
		t.Fatal(err)
	}
	net := settings.evalNet(defaultSettings())
	fens, err := genfens(g, book, net, func(string) {})
	if err == nil || len(fens) != 3 {
		t.Fatalf("%q %v", fens, err)
	}
	for _, f := range fens {
		if !strings.Contains(strings.Join(book, "\n"), f) {
			t.Errorf("%q is not in the book", f)
		}
	}
	// With random plies: each opening is 2 plies past a book position.
	g.n, g.mix.MinPlies, g.mix.MaxPlies = 10, 2, 2
	fens, err = genfens(g, book, net, func(string) {})
	if err != nil || len(fens) != 10 {
		t.Fatalf("%q %v", fens, err)
	}
	for _, f := range fens {
		if n := strings.Fields(f)[5]; n != "2" && n != "3" {
			t.Errorf("%s: move number %s", f, n)
		}
	}
}
