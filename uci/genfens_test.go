package uci

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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
	fens, err := genfens(g, book, net, new(atomic.Bool), func(string) {})
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
	fens, err = genfens(g, book, net, new(atomic.Bool), func(string) {})
	if err != nil || len(fens) != 10 {
		t.Fatalf("%q %v", fens, err)
	}
	for _, f := range fens {
		if n := strings.Fields(f)[5]; n != "2" && n != "3" {
			t.Errorf("%s: move number %s", f, n)
		}
	}
}

// TestGenfensBookBOM: a book saved with a UTF-8 byte-order mark (as some
// Windows editors save) was refused: its first line was no FEN.
func TestGenfensBookBOM(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bom.epd")
	text := "\ufeffbqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - hmvc 0; fmvn 1;\r\n" +
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	book, err := readBook(path)
	if err != nil || len(book) != 2 || book[0] != "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1" {
		t.Fatalf("%q %v", book, err)
	}
	// A mark anywhere else is still an error.
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(text, "\r\nrnb", "\r\n\ufeffrnb")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readBook(path); err == nil {
		t.Error("a byte-order mark on the second line was accepted")
	}
}

// TestGenfensBookNotRegular: a directory or a device is no book.
func TestGenfensBookNotRegular(t *testing.T) {
	for _, path := range []string{t.TempDir(), os.DevNull} {
		if _, err := readBook(path); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// TestGenfensStops: genfens looks at its stop flag between tries.
func TestGenfensStops(t *testing.T) {
	g, err := parseGenfens(strings.Fields("1000 seed 3 book None"))
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	n := 0
	start := time.Now()
	fens, err := genfens(g, nil, nil, &stop, func(string) {
		if n++; n == 3 {
			stop.Store(true)
		}
	})
	if err != errGenfensStopped || len(fens) != 3 {
		t.Errorf("%d openings, %v; want 3, stopped", len(fens), err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
}

// TestGenfensSessionAnswers: during genfens the loop answers isready at
// once and stop ends it with one error line; the session then searches.
func TestGenfensSessionAnswers(t *testing.T) {
	var out syncBuffer
	s := NewSession(&out, Config{})
	defer s.Close()
	start := time.Now()
	s.Handle("genfens 1048576 seed 1 book None")
	s.Handle("isready")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("isready answered after %v", took)
	}
	if !strings.Contains(out.String(), "readyok") {
		t.Errorf("no readyok: %q", out.String())
	}
	s.Handle("stop")
	s.wait(0)
	if n := strings.Count(out.String(), "info string error: genfens: stopped after"); n != 1 {
		t.Errorf("%d stop lines: %q", n, out.String())
	}
}
