package datagen

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rochade/rochade/variant960"
)

// The testdata PGNs were written by fastchess alpha 1.8.2 (74deac23) on 2026-11-24: Rochade
// d220579 against itself at nodes=2000, with `-pgnout file=...
// seldepth=true nodes=true match_line='^info string pgncomment .*'`.
//
//	fastchess_standard.pgn  6 games, -variant standard, std_openings.epd, with
//	                        -resign movecount=3 score=1000 -draw movenumber=40 movecount=8 score=8
//	fastchess_chess960.pgn  6 games, -variant fischerandom, chess960.epd
//	fastchess_book.pgn      2 games, -variant standard, PGN openings
//	                        (1. e4 e5 2. Nf3 Nc6 and 1. d4 Nf6 2. c4 e6 3. Nc3: {book} moves)
var pgnTestFiles = []struct {
	name    string
	results []string
	book    []int // leading book moves per game
}{
	{"fastchess_standard.pgn", []string{"1/2-1/2", "1-0", "0-1", "1-0", "1-0", "0-1"}, nil},
	{"fastchess_chess960.pgn", []string{"0-1", "1-0", "0-1", "0-1", "1-0", "1/2-1/2"}, nil},
	{"fastchess_book.pgn", []string{"1-0", "1/2-1/2"}, []int{4, 5}},
}

// refGame is a game read from a fastchess PGN with regular expressions,
// apart from the PGN reader: the positions before every move and the
// scores, White's view.
type refGame struct {
	result int
	fens   []string
	moves  []variant960.Move
	scores []int // White's view; NaN-free: -1<<31 for book moves
	book   int   // leading book moves
}

var (
	reTag     = regexp.MustCompile(`(?m)^\[(\w+) "([^"]*)"\]$`)
	reMove    = regexp.MustCompile(`([A-Za-z][^\s{}]*)\s*\{([^}]*)\}`)
	reScore   = regexp.MustCompile(`^([+-]?)(M?)(\d+(?:\.\d+)?)/\d+ `)
	noScore   = math.MinInt32
	resultMap = map[string]int{"1-0": ResultWin, "1/2-1/2": ResultDraw, "0-1": ResultLoss}
)

func readRefGames(t *testing.T, path string) []refGame {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var games []refGame
	for _, text := range strings.Split(string(data), "[Event ")[1:] {
		tags := map[string]string{}
		for _, m := range reTag.FindAllStringSubmatch("[Event "+text, -1) {
			tags[m[1]] = m[2]
		}
		pos := variant960.NewStartPosition()
		if tags["FEN"] != "" {
			pos = variant960.MustParseFEN(tags["FEN"])
		}
		g := refGame{result: resultMap[tags["Result"]]}
		movetext := text[strings.Index(text, "\n\n"):]
		for _, m := range reMove.FindAllStringSubmatch(movetext, -1) {
			mv, err := pos.ParseSAN(m[1])
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			score := noScore
			if s := reScore.FindStringSubmatch(m[2]); s != nil {
				if s[2] == "M" {
					score = MateScore
				} else {
					f, _ := strconv.ParseFloat(s[3], 64)
					score = int(math.Round(f * 100))
				}
				if s[1] == "-" {
					score = -score
				}
				if pos.Side() == variant960.Black {
					score = -score
				}
			} else if m[2] == "book" {
				g.book++
			}
			g.fens = append(g.fens, pos.FEN())
			g.moves = append(g.moves, mv)
			g.scores = append(g.scores, score)
			// Chess960 castling: the king lands on g or c, the rook on f or d.
			if strings.HasPrefix(m[1], "O-O") {
				if !mv.IsCastling() {
					t.Fatalf("%s: %s read as %v", path, m[1], mv)
				}
				kf, rf := 6, 5
				if m[1] == "O-O-O" || m[1] == "O-O-O+" {
					kf, rf = 2, 3
				}
				side := pos.Side()
				pos.Make(mv)
				if k := pos.KingSquare(side); k.File() != kf || pos.PieceOn(mv.CastlingRookTo()).Type() != variant960.Rook || mv.CastlingRookTo().File() != rf {
					t.Fatalf("%s: %s: king on %v, rook to %v", path, m[1], k, mv.CastlingRookTo())
				}
				continue
			}
			pos.Make(mv)
		}
		games = append(games, g)
	}
	return games
}

// importedGames imports the PGN files and reads the chunks back, one
// slice of samples (FEN, move, score, result) per game.
type sampleRec struct {
	fen    string
	move   variant960.Move
	score  int
	result int
	skip   bool // datagen's filter (Skip) drops it
}

func importAndRead(t *testing.T, files ...string) ([][]sampleRec, *ImportStats, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := ImportPGN(ImportOptions{Out: dir, Files: files, ChunkGames: 5})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var games [][]sampleRec
	var sumGames, sumPos uint64
	for _, e := range entries {
		if e.Eval != importEval || e.Engine != "pgn" || e.Seed != 0 {
			t.Errorf("manifest entry %+v", e)
		}
		sumGames += e.Games
		sumPos += e.Positions
		err := ReadFile(filepath.Join(dir, e.Chunk), func(s *Sample) error {
			if s.Ply == 0 {
				games = append(games, nil)
			}
			g := &games[len(games)-1]
			*g = append(*g, sampleRec{s.Pos.FEN(), s.Move, s.Score, s.Result, Skip(s)})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if sumGames != st.Imported || sumPos != st.Positions || uint64(len(games)) != st.Imported {
		t.Errorf("manifest: %d games, %d positions; stats %+v; read %d games", sumGames, sumPos, st, len(games))
	}
	return games, st, dir
}

func TestImportFastchessPGN(t *testing.T) {
	for _, f := range pgnTestFiles {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join("testdata", f.name)
			ref := readRefGames(t, path)
			games, st, _ := importAndRead(t, path)
			if len(ref) != len(f.results) || st.Games != uint64(len(f.results)) || st.Imported != st.Games || len(st.Skipped) != 0 {
				t.Fatalf("%d games in the file, stats %+v, want %d imported", len(ref), st, len(f.results))
			}
			castles := 0
			for i, g := range games {
				r := ref[i]
				if want := resultMap[f.results[i]]; r.result != want {
					t.Fatalf("game %d: reference result %d, want %d", i, r.result, want)
				}
				book := 0
				if f.book != nil {
					book = f.book[i]
				}
				if r.book != book {
					t.Errorf("game %d: %d book moves, want %d", i, r.book, book)
				}
				if len(g) != len(r.moves)-book {
					t.Fatalf("game %d: %d positions, want %d", i, len(g), len(r.moves)-book)
				}
				for j, s := range g {
					k := j + book
					if s.fen != r.fens[k] || s.move != r.moves[k] || s.score != r.scores[k] || s.result != r.result {
						t.Fatalf("game %d ply %d: %s %v %d %d, want %s %v %d %d", i, j,
							s.fen, s.move, s.score, s.result, r.fens[k], r.moves[k], r.scores[k], r.result)
					}
					if s.move.IsCastling() {
						castles++
					}
				}
			}
			if f.name == "fastchess_chess960.pgn" && castles < 4 {
				t.Errorf("%d castling moves in the Chess960 games", castles)
			}
		})
	}
}

// TestImportCompressed: .gz files are read like plain ones.
func TestImportCompressed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "fastchess_book.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	path := filepath.Join(t.TempDir(), "book.pgn.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	plain, _, _ := importAndRead(t, filepath.Join("testdata", "fastchess_book.pgn"))
	games, _, _ := importAndRead(t, path)
	if len(games) != 2 || len(games[0]) != len(plain[0]) || games[1][7] != plain[1][7] {
		t.Errorf("gzip: %d games, plain %d", len(games), len(plain))
	}
}

// TestImportFilters: datagen's reading filters apply to imported games
// as to its own: checks, captures and early plies are dropped, quiet
// positions kept.
func TestImportFilters(t *testing.T) {
	games, _, _ := importAndRead(t, filepath.Join("testdata", "fastchess_standard.pgn"))
	var kept, dropped int
	for _, g := range games {
		for j, s := range g {
			pos := variant960.MustParseFEN(s.fen)
			noisy := s.move.Kind() == variant960.KindPromotion || s.move.Kind() == variant960.KindEnPassant ||
				(!s.move.IsCastling() && pos.PieceOn(s.move.To()) != variant960.NoPiece)
			want := j < FilterMinPly || pos.InCheck() || noisy || s.score > FilterMaxScore || s.score < -FilterMaxScore
			if s.skip != want {
				t.Fatalf("%s %v: Skip %v, want %v", s.fen, s.move, s.skip, want)
			}
			if s.skip {
				dropped++
			} else {
				kept++
			}
		}
	}
	if kept == 0 || dropped == 0 {
		t.Errorf("kept %d, dropped %d", kept, dropped)
	}
}

func TestParseMoveComment(t *testing.T) {
	for _, c := range []struct {
		in                   string
		book, scored, mate   bool
		score, depth, nlines int
	}{
		{"+0.35/12 0.012s, n=2000, sd=15", false, true, false, 35, 12, 0},
		{"-1.07/9 0.001s", false, true, false, -107, 9, 0},
		{"0.00/13 0.000s, n=2000, sd=13, Draw by 3-fold repetition", false, true, false, 0, 13, 0},
		{"+M5/9 0.000s, n=222, sd=9", false, true, true, MateScore, 9, 0},
		{"-M2/6 0.000s", false, true, true, -MateScore, 6, 0},
		{"+24.12/6 0.000s", false, true, false, 2412, 6, 0},
		{"+400.00/6 0.000s", false, true, false, MateScore - 1, 6, 0},
		{"book", true, false, false, 0, 0, 0},
		{"/0 0.000s", false, false, false, 0, 0, 0},
		{"+ERR/3 0.1s", false, false, false, 0, 3, 0},
		{"White mates", false, false, false, 0, 0, 0},
		{`+0.10/7 0.001s, n=2000, sd=7, line="info string pgncomment a b", line="info string pgncomment c", Draw by adjudication`, false, true, false, 10, 7, 2},
		{`+0.10/7 0.001s, line="info string pgncomment x"`, false, true, false, 10, 7, 1},
	} {
		var m PGNMove
		ParseMoveComment(&m, c.in)
		if m.Book != c.book || m.Scored != c.scored || m.Mate != c.mate || m.Score != c.score || m.Depth != c.depth || len(m.Lines) != c.nlines {
			t.Errorf("%q: %+v", c.in, m)
		}
	}
	var m PGNMove
	ParseMoveComment(&m, `+0.10/7 0.001s, line="info string pgncomment wdl 500", Draw by adjudication`)
	if len(m.Lines) != 1 || m.Lines[0] != "info string pgncomment wdl 500" {
		t.Errorf("lines %q", m.Lines)
	}
}

// firstGame is the first game of fastchess_standard.pgn.
func firstGame(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join("testdata", "fastchess_standard.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	return s[:strings.Index(s[1:], "[Event ")+1]
}

// TestImportSkips: the games ImportPGN leaves out, and why.
func TestImportSkips(t *testing.T) {
	g := firstGame(t) // a draw by adjudication
	if !strings.Contains(g, `[Result "1/2-1/2"]`) || !strings.Contains(g, `[Termination "adjudication"]`) {
		t.Fatal("testdata changed")
	}
	sub := func(old, new string) string {
		if !strings.Contains(g, old) {
			t.Fatalf("no %q in the game", old)
		}
		return strings.Replace(g, old, new, 1)
	}
	cases := []struct {
		name, pgn, why string
	}{
		{"unfinished", strings.ReplaceAll(g, "1/2-1/2", "*"), "unfinished (no result)"},
		{"time", sub(`"adjudication"`, `"time forfeit"`), "termination time forfeit"},
		{"illegal", sub(`"adjudication"`, `"illegal move"`), "termination illegal move"},
		{"abandoned", sub(`"adjudication"`, `"abandoned"`), "termination abandoned"},
		{"mismatch", sub(`[Result "1/2-1/2"]`, `[Result "1-0"]`), "movetext result differs from [Result]"},
		{"badmove", sub("3. Bb2 {", "3. Ke4 {"), "unreadable"},
		{"variant", sub(`[Result "1/2-1/2"]`, `[Result "1/2-1/2"]`+"\n"+`[Variant "crazyhouse"]`), "unreadable"},
		{"duplicate", g + "\n" + g, "duplicate of an earlier game"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".pgn")
		if err := os.WriteFile(path, []byte(c.pgn), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := ImportPGN(ImportOptions{Out: filepath.Join(dir, c.name), Files: []string{path}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if st.Skipped[c.why] != 1 || len(st.Skipped) != 1 {
			t.Errorf("%s: skipped %v, want 1 %q", c.name, st.Skipped, c.why)
		}
	}
	// A checkmate scored as a draw contradicts the board.
	data, _ := os.ReadFile(filepath.Join("testdata", "fastchess_book.pgn"))
	mated := strings.Replace(string(data), `[Result "1-0"]`, `[Result "1/2-1/2"]`, 1)
	mated = strings.Replace(mated, "White mates} 1-0", "White mates} 1/2-1/2", 1)
	path := filepath.Join(dir, "mated.pgn")
	os.WriteFile(path, []byte(mated), 0o644)
	st, err := ImportPGN(ImportOptions{Out: filepath.Join(dir, "mated"), Files: []string{path}})
	if err != nil || st.Skipped["result contradicts the final position"] != 1 || st.Imported != 1 {
		t.Errorf("mated: %v %+v", err, st)
	}
	// An occupied output directory is refused.
	if _, err := ImportPGN(ImportOptions{Out: filepath.Join(dir, "mated"), Files: []string{path}}); err == nil {
		t.Error("import into a directory with chunks: no error")
	}
}

// TestImportGaps: leading book moves move the recorded start; an
// unscored move later ends the record; an engine's pgncomment lines do
// not disturb the scores.
func TestImportGaps(t *testing.T) {
	g := firstGame(t)
	// The 3rd move in: an unscored move (an engine that printed no score).
	i := strings.Index(g, "2. Nc3 {")
	if i < 0 {
		t.Fatal("testdata changed")
	}
	j := i + strings.Index(g[i:], "}")
	cut := g[:i] + "2. Nc3 {/0 0.001s, n=0, sd=0}" + g[j+1:]
	// Comments with engine lines.
	lines := strings.Replace(g, "sd=9}", `sd=9, line="info string pgncomment white 16"}`, -1)
	dir := t.TempDir()
	for name, text := range map[string]string{"cut": cut, "lines": lines, "orig": g} {
		os.WriteFile(filepath.Join(dir, name+".pgn"), []byte(text), 0o644)
	}
	orig, _, _ := importAndRead(t, filepath.Join(dir, "orig.pgn"))
	short, _, _ := importAndRead(t, filepath.Join(dir, "cut.pgn"))
	withLines, _, _ := importAndRead(t, filepath.Join(dir, "lines.pgn"))
	if len(orig) != 1 || len(short) != 1 || len(short[0]) != 2 || len(withLines) != 1 {
		t.Fatalf("games %d %d %d", len(orig), len(short), len(withLines))
	}
	if short[0][0] != orig[0][0] || short[0][1] != orig[0][1] || short[0][0].result != ResultDraw {
		t.Errorf("cut game %v, want the start of %v", short[0], orig[0][:2])
	}
	if len(withLines[0]) != len(orig[0]) || withLines[0][10] != orig[0][10] {
		t.Errorf("pgncomment lines changed the game")
	}
}

func TestPGNReader(t *testing.T) {
	// Spec features fastchess does not write: escapes, ; and % comments,
	// NAGs, variations, "1.e4" without a space, a game without tags.
	in := `% a comment line
[Event "a \"quoted\" event"]
[Result "1-0"]

1.e4 $1 {+0.20/5 1s} e5!? (1... c5 {sicilian} (1... e6)) 2. Qh5 ; rest of line
{+0.1/4 1s} 2... Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

1. d4 d5 *
`
	pr := NewPGNReader(strings.NewReader(in))
	g, err := pr.Next()
	if err != nil {
		t.Fatal(err)
	}
	if g.Tag("Event") != `a "quoted" event` || len(g.Moves) != 7 || g.Result != "1-0" || !g.Moves[0].Scored || g.Moves[0].Score != 20 || g.Moves[2].Score != 10 {
		t.Errorf("game 1: %+v", g)
	}
	g, err = pr.Next()
	if err != nil || len(g.Moves) != 2 || g.Result != "*" || len(g.Tags) != 0 {
		t.Errorf("game 2: %+v %v", g, err)
	}
	if _, err = pr.Next(); err != io.EOF {
		t.Errorf("after the last game: %v", err)
	}
	// An illegal move: that game is an error, the next one reads.
	pr = NewPGNReader(strings.NewReader("[Result \"*\"]\n\n1. e5 *\n\n[Result \"*\"]\n\n1. e4 *\n"))
	var perr *PGNError
	if _, err := pr.Next(); !errors.As(err, &perr) || perr.Line != 3 {
		t.Errorf("illegal move: %v", err)
	}
	if g, err := pr.Next(); err != nil || len(g.Moves) != 1 {
		t.Errorf("after the bad game: %+v %v", g, err)
	}
}

// FuzzPGN: the reader and the importer never panic, every move they
// return is legal, and every imported game reads back from a chunk.
func FuzzPGN(f *testing.F) {
	for _, tf := range pgnTestFiles {
		data, err := os.ReadFile(filepath.Join("testdata", tf.name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 4000)])
	}
	f.Add([]byte("[FEN \"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n[Variant \"Chess960\"]\n[Result \"1-0\"]\n\n1. O-O {+M3/4 0.1s} Kd7 {-5.00/3} 2. O-O-O 1-0\n"))
	f.Add([]byte("[Result \"0-1\"]\n{ {book} } 1. f3 {book} e5 {+0.1/1} 2. g4 {-M1/2} Qh4# {+M1/1} 0-1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pr := NewPGNReader(bytes.NewReader(data))
		var enc gameEncoder
		var ml variant960.MoveList
		for n := 0; n < 200; n++ { // enough: games are independent
			g, err := pr.Next()
			if err == io.EOF {
				return
			}
			var perr *PGNError
			if err != nil && !errors.As(err, &perr) {
				t.Fatal(err)
			}
			if err != nil {
				continue
			}
			pos := g.Start.Copy()
			for _, m := range g.Moves {
				pos.GenerateLegal(&ml)
				if !ml.Contains(m.Move) {
					t.Fatalf("illegal move %v in %s", m.Move, pos.FEN())
				}
				pos.Make(m.Move)
			}
			rec, _, why := importGame(g, &enc)
			if why != "" {
				continue
			}
			var cw chunkWriter
			cw.reset()
			cw.addGame(rec, enc.positions())
			read := 0
			if err := Read(bytes.NewReader(cw.finish()), func(*Sample) error { read++; return nil }); err != nil {
				t.Fatalf("imported game does not read back: %v", err)
			}
			if read != enc.positions() {
				t.Fatalf("read %d positions, wrote %d", read, enc.positions())
			}
		}
	})
}

// TestImportCutGame: a game whose movetext stops without a result token
// (cut before the next game's tags, or at the end of the file) is
// skipped and counted, not imported as a whole game.
func TestImportCutGame(t *testing.T) {
	g := firstGame(t)
	i := strings.Index(g, "10. ")
	if i < 0 || !strings.HasSuffix(strings.TrimSpace(g), "1/2-1/2") {
		t.Fatal("testdata changed")
	}
	cut := g[:i] + "\n\n"
	other := strings.Replace(g, `[Round "1"]`, `[Round "99"]`, 1) // not a duplicate
	dir := t.TempDir()
	for name, text := range map[string]string{
		"before-tags": cut + other, // the cut game, then a whole one
		"at-eof":      other + "\n" + strings.TrimSpace(cut),
	} {
		path := filepath.Join(dir, name+".pgn")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := ImportPGN(ImportOptions{Out: filepath.Join(dir, name), Files: []string{path}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		const why = "cut off (no result token)"
		if st.Games != 2 || st.Imported != 1 || st.Skipped[why] != 1 || len(st.Skipped) != 1 {
			t.Errorf("%s: %+v, want 2 games, 1 imported, 1 skipped as %q", name, st, why)
		}
	}
}

// gzipFile writes data gzipped to a temporary file, its compressed bytes
// changed by mangle, and returns the path.
func gzipFile(t *testing.T, name string, data []byte, mangle func([]byte) []byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, mangle(buf.Bytes()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImportReadError: a read error (a truncated or corrupt .gz) fails
// the import, which then writes nothing and reports nothing as written:
// the output directory is as before, and a rerun into it works.
func TestImportReadError(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "fastchess_standard.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join("testdata", "fastchess_book.pgn")
	bad := map[string]string{
		"truncated": gzipFile(t, "t.pgn.gz", data, func(b []byte) []byte { return b[:len(b)*3/4] }),
		"corrupt": gzipFile(t, "c.pgn.gz", data, func(b []byte) []byte {
			b[len(b)-6] ^= 0xff // the CRC-32 at the end
			return b
		}),
	}
	for name, path := range bad {
		t.Run(name, func(t *testing.T) {
			for _, existed := range []bool{false, true} {
				out := filepath.Join(t.TempDir(), "data")
				if existed {
					os.Mkdir(out, 0o755)
					os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644)
				}
				// The book file first: its chunk is flushed before the error.
				st, err := ImportPGN(ImportOptions{Out: out, Files: []string{plain, path}, ChunkGames: 1})
				if err == nil {
					t.Fatal("no error")
				}
				if st == nil || st.Imported != 0 || st.Positions != 0 || st.Results != [3]uint64{} || st.Games < 2 {
					t.Errorf("stats after the error: %+v", st)
				}
				var w strings.Builder
				st.Write(&w)
				if !strings.Contains(w.String(), "nothing written") || strings.Contains(w.String(), "positions") {
					t.Errorf("summary after the error:\n%s", w.String())
				}
				// The directory is as before: only the user's file, or
				// none if the import made it.
				entries, err := os.ReadDir(out)
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				if existed && (len(names) != 1 || names[0] != "notes.txt") || !existed && !errors.Is(err, os.ErrNotExist) {
					t.Errorf("output directory after the error: %q, %v", names, err)
				}
				// A rerun without the bad file, into the same directory.
				st, err = ImportPGN(ImportOptions{Out: out, Files: []string{plain}, ChunkGames: 1})
				if err != nil || st.Imported != 2 {
					t.Fatalf("rerun: %v %+v", err, st)
				}
				entries2, err := ReadManifest(out)
				if err != nil || len(entries2) != 2 || entries2[1].Positions+entries2[0].Positions != st.Positions {
					t.Errorf("rerun manifest %+v, %v; stats %+v", entries2, err, st)
				}
			}
		})
	}
}
