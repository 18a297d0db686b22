package datagen

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/variant960"
)

// fast is a cheap play configuration for tests.
var fast = PlayConfig{Nodes: 300, MaxPlies: 40, HashMB: 1}

func TestGameRandDiffers(t *testing.T) {
	seen := map[uint64]bool{}
	for seed := uint64(0); seed < 4; seed++ {
		for i := uint64(0); i < 256; i++ {
			x := gameRand(seed, i).Uint64()
			if seen[x] {
				t.Fatalf("seed %d game %d: repeated first draw", seed, i)
			}
			seen[x] = true
		}
	}
}

func TestOpeningMix(t *testing.T) {
	r := gameRand(1, 0)
	var kinds [3]int
	for range 2000 {
		pos, kind, err := variant960.DatagenMix.DrawStart(r)
		if err != nil {
			t.Fatal(err)
		}
		kinds[kind]++
		w, b, err := variant960.StartPositionNumbers(pos.FEN())
		if err != nil {
			t.Fatal(err)
		}
		if kind == variant960.StartStandard && w != 518 || kind == variant960.StartChess960 && w != b {
			t.Fatalf("kind %d: %s", kind, pos.FEN())
		}
	}
	t.Logf("standard %d, Chess960 %d, DFRC %d of 2000", kinds[variant960.StartStandard], kinds[variant960.StartChess960], kinds[variant960.StartDFRC])
	mix := variant960.DatagenMix
	for k, pct := range [3]int{100 - mix.PctDFRC - mix.PctChess960, mix.PctChess960, mix.PctDFRC} {
		if n := kinds[k] * 100 / 2000; n < pct-3 || n > pct+3 {
			t.Errorf("kind %d: %d%%, want %d%%", k, n, pct)
		}
	}

	p := newPlayer(fast)
	for i := range uint64(10) {
		pos, fen, err := p.opening(gameRand(1, i))
		if err != nil {
			t.Fatal(err)
		}
		if pos.ShredderFEN() != fen {
			t.Fatalf("FEN %q re-reads as %q", fen, pos.ShredderFEN())
		}
		if ply := pos.GamePly(); ply < mix.MinPlies || ply > mix.MaxPlies {
			t.Errorf("%s: %d random plies", fen, ply)
		}
	}
}

func TestPlayDeterministic(t *testing.T) {
	a, b := newPlayer(fast), newPlayer(fast)
	g1, err := a.play(7, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A used player (dirty hash and histories) must give the same game.
	if _, err := b.play(7, 9, nil); err != nil {
		t.Fatal(err)
	}
	g2, err := b.play(7, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g1.record, g2.record) {
		t.Fatal("same seed and index, different games")
	}
	g3, _ := a.play(7, 4, nil)
	g4, _ := a.play(8, 3, nil)
	if bytes.Equal(g1.record, g3.record) || bytes.Equal(g1.record, g4.record) {
		t.Fatal("different index or seed, same game")
	}
	if g1.positions == 0 || g1.positions > fast.MaxPlies {
		t.Errorf("game of %d positions", g1.positions)
	}
}

func TestGameOver(t *testing.T) {
	for _, c := range []struct {
		fen    string
		result int
		term   Termination
	}{
		{"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", ResultWin, TermCheckmate},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ResultDraw, TermStalemate},
		{"6rk/8/8/8/8/8/5PPP/6K1 w - - 0 1", -1, 0},
		{"6k1/8/8/8/8/8/5PPP/r5K1 w - - 0 1", ResultLoss, TermCheckmate},
		{"7k/8/8/8/8/8/8/R5K1 w - - 100 80", ResultDraw, TermFiftyMoves},
		{"7k/8/8/8/8/8/8/5NK1 w - - 0 1", ResultDraw, TermInsufficient},
	} {
		pos := variant960.MustParseFEN(c.fen)
		r, term, over := gameOver(pos)
		if c.result < 0 {
			if over {
				t.Errorf("%s: over (%d, %v)", c.fen, r, term)
			}
			continue
		}
		if !over || r != c.result || term != c.term {
			t.Errorf("%s: got %v %d %v, want %d %v", c.fen, over, r, term, c.result, c.term)
		}
	}
	// Threefold: shuffle the knights twice.
	pos := variant960.NewStartPosition()
	for range 2 {
		for _, s := range []string{"g1f3", "g8f6", "f3g1", "f6g8"} {
			m, err := pos.ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, over := gameOver(pos); over {
				t.Fatalf("over before %s", s)
			}
			pos.Make(m)
		}
	}
	if r, term, over := gameOver(pos); !over || r != ResultDraw || term != TermRepetition {
		t.Errorf("threefold: %v %d %v", over, r, term)
	}
}

func runOpts(dir string, games uint64) Options {
	return Options{Out: dir, Seed: 5, Threads: 2, Games: games, ChunkGames: 2, Play: fast, Engine: "test"}
}

// forEachChunk calls fn with every chunk that dir's manifest lists, in
// order, and the chunk's path.
func forEachChunk(t *testing.T, dir string, fn func(e ManifestEntry, path string)) {
	t.Helper()
	es, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		fn(e, filepath.Join(dir, e.Chunk))
	}
}

// readSamples passes every sample of the chunk at path to fn; a read
// error ends the test.
func readSamples(t *testing.T, path string, fn func(*Sample)) {
	t.Helper()
	if err := ReadFile(path, func(s *Sample) error { fn(s); return nil }); err != nil {
		t.Fatal(err)
	}
}

func manifestSums(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	forEachChunk(t, dir, func(e ManifestEntry, path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != e.SHA256 {
			t.Errorf("%s: checksum differs from the manifest", e.Chunk)
		}
		if e.Engine != "test" || e.Eval != EvalID(nil) || e.Nodes != fast.Nodes || e.HardNodes != 4*fast.Nodes || e.Seed != 5 {
			t.Errorf("manifest entry %+v", e)
		}
		var games, positions uint64
		readSamples(t, path, func(s *Sample) {
			if s.Ply == 0 {
				games++
			}
			positions++
		})
		if games != e.Games || positions != e.Positions {
			t.Errorf("%s: %d games, %d positions; manifest says %d, %d", e.Chunk, games, positions, e.Games, e.Positions)
		}
		out = append(out, e.Chunk+" "+strconv.FormatUint(e.FirstGame, 10)+"-"+strconv.FormatUint(e.EndGame, 10)+" "+e.SHA256)
	})
	return out
}

func TestRunResume(t *testing.T) {
	one, two := t.TempDir(), t.TempDir()
	if err := Run(context.Background(), runOpts(one, 5)); err != nil {
		t.Fatal(err)
	}
	// In two steps, with a stale temporary file between them.
	if err := Run(context.Background(), runOpts(two, 3)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(two, "chunk-000002.rdg.zst.tmp"), []byte("junk"), 0o644)
	os.WriteFile(filepath.Join(two, "manifest.tsv.tmp"), []byte("junk"), 0o644)
	os.WriteFile(filepath.Join(two, "notes.tmp"), []byte("the user's"), 0o644)
	if err := Run(context.Background(), runOpts(two, 5)); err != nil {
		t.Fatal(err)
	}
	a, b := manifestSums(t, one), manifestSums(t, two)
	t.Logf("one run: %q", a)
	t.Logf("resumed: %q", b)
	// The first run's chunks: 0-2, 2-4, 4-5; the second's: 0-2, 2-3, 3-5.
	if len(a) != 3 || len(b) != 3 || a[0] != b[0] {
		t.Fatalf("chunks differ")
	}
	for _, stale := range []string{"chunk-000002.rdg.zst.tmp", "manifest.tsv.tmp"} {
		if _, err := os.Stat(filepath.Join(two, stale)); err == nil {
			t.Errorf("stale temporary file %s left", stale)
		}
	}
	// A file of the user's that only ends like ours is kept.
	if _, err := os.Stat(filepath.Join(two, "notes.tmp")); err != nil {
		t.Errorf("the user's notes.tmp was removed: %v", err)
	}
	// Same games in both, record for record (start, moves, scores,
	// result, termination), no duplicates.
	ga, gb := gameRecords(t, one), gameRecords(t, two)
	if len(ga) != 5 || len(gb) != len(ga) {
		t.Fatalf("%d and %d games, want 5", len(ga), len(gb))
	}
	for i := range ga {
		if ga[i] != gb[i] {
			t.Errorf("game %d differs after the resume:\n%s\n%s", i, ga[i], gb[i])
		}
	}
	fa := startFENs(t, one)
	seen := map[string]bool{}
	for _, f := range fa {
		if seen[f] {
			t.Errorf("duplicate game start %s", f)
		}
		seen[f] = true
	}
	// Done already: a rerun does nothing.
	if err := Run(context.Background(), runOpts(two, 5)); err != nil {
		t.Fatal(err)
	}
	if len(manifestSums(t, two)) != 3 {
		t.Error("rerun of a finished run wrote chunks")
	}
	// A chunk that does not match its checksum stops a resume.
	bad := t.TempDir()
	if err := Run(context.Background(), runOpts(bad, 2)); err != nil {
		t.Fatal(err)
	}
	chunk := filepath.Join(bad, "chunk-000000.rdg.zst")
	data, _ := os.ReadFile(chunk)
	os.WriteFile(chunk, append(data, 0), 0o644)
	if err := Run(context.Background(), runOpts(bad, 4)); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("resume over a changed chunk: %v", err)
	}
	// Another seed in the same directory is refused.
	o := runOpts(two, 7)
	o.Seed = 6
	if err := Run(context.Background(), o); err == nil {
		t.Error("resume with another seed: no error")
	}
	// So is another evaluation.
	net, err := eval.DefaultNet()
	if err != nil {
		t.Fatal("no embedded net:", err)
	}
	o = runOpts(two, 7)
	o.Play.Net = net
	if err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "eval") {
		t.Errorf("resume with a net over hand-written-eval chunks: %v", err)
	}
}

// TestRunWithNet: games scored by a net name it in the manifest.
func TestRunWithNet(t *testing.T) {
	net, err := eval.DefaultNet()
	if err != nil {
		t.Fatal("no embedded net:", err)
	}
	dir := t.TempDir()
	o := runOpts(dir, 2)
	o.Play.Net = net
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	es, err := ReadManifest(dir)
	if err != nil || len(es) != 1 {
		t.Fatalf("manifest: %v, %d entries", err, len(es))
	}
	if want := "nnue-" + net.Hash; es[0].Eval != want || len(net.Hash) != 16 {
		t.Errorf("manifest eval %q, want %q", es[0].Eval, want)
	}
	// The net changes the games (the same seed with the hand-written eval).
	hce := t.TempDir()
	if err := Run(context.Background(), runOpts(hce, 2)); err != nil {
		t.Fatal(err)
	}
	if a, b := manifestSums(t, hce), es[0].SHA256; len(a) != 1 || strings.HasSuffix(a[0], b) {
		t.Error("the net's games equal the hand-written eval's")
	}
}

// gameRecords returns the games of the chunks in dir, in order, each as
// its start FEN, result, termination and the hex of its moves and scores.
func gameRecords(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	forEachChunk(t, dir, func(_ ManifestEntry, path string) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		err = scanGames(f, func(g *game) error {
			out = append(out, fmt.Sprintf("%s %d %v %x", g.fen, g.result, g.term, g.moves))
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	})
	return out
}

func startFENs(t *testing.T, dir string) []string {
	t.Helper()
	var fens []string
	forEachChunk(t, dir, func(_ ManifestEntry, path string) {
		readSamples(t, path, func(s *Sample) {
			if s.Ply == 0 {
				fens = append(fens, s.Pos.ShredderFEN())
			}
		})
	})
	return fens
}

func TestRunPositionsLimit(t *testing.T) {
	dir := t.TempDir()
	o := runOpts(dir, 0)
	o.Positions = 50
	o.Threads = 1
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	es, _ := ReadManifest(dir)
	var n uint64
	for _, e := range es {
		n += e.Positions
	}
	if n < 50 || n > 50+uint64(fast.MaxPlies) {
		t.Errorf("%d positions written for a limit of 50", n)
	}
}

func TestRunCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Run(ctx, runOpts(dir, 4)); err == nil {
		t.Error("cancelled run: no error")
	}
	if es, _ := ReadManifest(dir); len(es) != 0 {
		t.Errorf("cancelled before the first game, yet %d chunks", len(es))
	}
}

// TestEndToEnd is the real thing, small: 2 games at 500 nodes with the
// default settings, then the converter.
func TestEndToEnd(t *testing.T) {
	dir := t.TempDir()
	var progress bytes.Buffer
	o := Options{Out: dir, Seed: 1, Games: 2, Play: PlayConfig{Nodes: 500}, Progress: &progress}
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "done: games 2") {
		t.Errorf("progress: %q", progress.String())
	}
	es, err := ReadManifest(dir)
	if err != nil || len(es) != 1 {
		t.Fatalf("manifest: %v, %v", es, err)
	}
	chunk := filepath.Join(dir, es[0].Chunk)
	size := fileSize(chunk)
	t.Logf("%d games, %d positions, %d bytes: %.2f bytes/position", es[0].Games, es[0].Positions, size,
		float64(size)/float64(es[0].Positions))

	st, err := ReadStats([]string{chunk})
	if err != nil || st.Games != es[0].Games || st.Positions != es[0].Positions || st.Bytes != size ||
		st.Results[0]+st.Results[1]+st.Results[2] != st.Games {
		t.Errorf("stats %+v, %v", st, err)
	}
	var sb strings.Builder
	st.Write(&sb)
	t.Log(sb.String())

	for _, filter := range []bool{false, true} {
		var out bytes.Buffer
		if err := Convert(&out, []string{chunk}, filter); err != nil {
			t.Fatal(err)
		}
		lines := checkLines(t, out.String())
		if !filter && uint64(lines) != es[0].Positions {
			t.Errorf("%d lines for %d positions", lines, es[0].Positions)
		}
		if filter && (lines == 0 || uint64(lines) >= es[0].Positions) {
			t.Errorf("filtered: %d lines of %d positions", lines, es[0].Positions)
		}
	}
}

// checkLines parses converter output and returns its line count.
func checkLines(t *testing.T, text string) int {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(text))
	n := 0
	for sc.Scan() {
		n++
		f := strings.Split(sc.Text(), " | ")
		if len(f) != 3 {
			t.Fatalf("line %q: %d fields", sc.Text(), len(f))
		}
		if _, err := variant960.ParseFEN(f[0]); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if s, err := strconv.Atoi(f[1]); err != nil || s < -MateScore || s > MateScore {
			t.Fatalf("line %q: score", sc.Text())
		}
		if f[2] != "1.0" && f[2] != "0.5" && f[2] != "0.0" {
			t.Fatalf("line %q: result", sc.Text())
		}
	}
	return n
}

func TestSkip(t *testing.T) {
	pos := variant960.MustParseFEN("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
	capture, _ := pos.ParseMove("e4d5")
	quiet, _ := pos.ParseMove("e4e5")
	s := &Sample{Pos: pos, Move: quiet, Score: 50, Ply: 10}
	if Skip(s) {
		t.Error("quiet move skipped")
	}
	for _, c := range []Sample{
		{Pos: pos, Move: capture, Score: 50, Ply: 10},
		{Pos: pos, Move: quiet, Score: 50, Ply: 7},
		{Pos: pos, Move: quiet, Score: 3001, Ply: 10},
		{Pos: pos, Move: quiet, Score: -MateScore, Ply: 10},
		{Pos: pos, Move: quiet, Score: -MateScore, Ply: 10, FakeMate: true},
		{Pos: variant960.MustParseFEN("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"), Move: variant960.NewMove(4, 12), Ply: 10},
	} {
		if !Skip(&c) {
			t.Errorf("not skipped: %+v", c)
		}
	}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}

// TestHardNodeLabels: self-play with a hard node limit far below the soft
// one, so that most searches are stopped inside an iteration, many of
// them during the first root move of an aspiration pass. Up to build
// 6f6374c^ such a search answered -32001 and the game recorded a mate
// against the side to move; read back, the labels must carry no fake
// mate, and no mate at all against the side to move unless the game
// ends in that mate's favour (what markFakeMates checks).
func TestHardNodeLabels(t *testing.T) {
	net, err := eval.DefaultNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		net  *eval.Net
	}{{"hce", nil}, {"net", net}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			o := Options{Out: dir, Seed: 11, Threads: 2, Games: 4, ChunkGames: 4, Engine: "test",
				Play: PlayConfig{Nodes: 4000, HardNodes: 700, MaxPlies: 40, HashMB: 1, Net: c.net}}
			if err := Run(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			es, err := ReadManifest(dir)
			if err != nil || len(es) != 1 {
				t.Fatalf("manifest: %v, %d entries", err, len(es))
			}
			path := filepath.Join(dir, es[0].Chunk)
			var positions, mates, fake int
			readSamples(t, path, func(s *Sample) {
				positions++
				if s.Score == MateScore || s.Score == -MateScore {
					mates++
				}
				if s.FakeMate {
					fake++
					t.Errorf("fake mate label %d at ply %d: %s", s.Score, s.Ply, s.Pos.FEN())
				}
			})
			st, err := ReadStats([]string{path})
			if err != nil {
				t.Fatal(err)
			}
			if st.Mates.Fake != uint64(fake) || st.Mates.Genuine+st.Mates.Fake != uint64(mates) {
				t.Errorf("stats count %+v; the reader %d mates, %d fake", st.Mates, mates, fake)
			}
			t.Logf("%d positions, %d mate labels, %d fake", positions, mates, fake)
			if positions < 40 {
				t.Errorf("only %d positions", positions)
			}
		})
	}
}

// TestRunMix: a run with an opening mix of its own draws its starts from
// it, names it in the manifest (a twelfth column, which default runs do not
// write) and refuses a resume with another mix.
func TestRunMix(t *testing.T) {
	if id := MixID(variant960.DatagenMix); id != "" {
		t.Errorf("MixID(DatagenMix) = %q, want \"\"", id)
	}
	if id := MixID(variant960.OpeningMix{PctDFRC: 40, PctChess960: 30, MinPlies: 8, MaxPlies: 9}); id != "40/30/30" {
		t.Errorf("MixID(40/30) = %q", id)
	}
	dir := t.TempDir()
	o := runOpts(dir, 4)
	// Standard starts only, one random ply: Black's back rank is untouched.
	o.Play.Mix = variant960.OpeningMix{MinPlies: 1, MaxPlies: 1}
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	fens := startFENs(t, dir)
	if len(fens) != 4 {
		t.Fatalf("%d games, want 4", len(fens))
	}
	for _, f := range fens {
		if !strings.HasPrefix(f, "rnbqkbnr/") || !strings.Contains(f, " b HAha ") {
			t.Errorf("start %s is not one ply from the standard start", f)
		}
	}
	es, err := ReadManifest(dir)
	if err != nil || len(es) != 2 {
		t.Fatalf("manifest: %v, %d chunks", err, len(es))
	}
	for _, e := range es {
		if e.Mix != "0/0/100+1-1" {
			t.Errorf("%s: mix %q", e.Chunk, e.Mix)
		}
	}
	raw, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	if !strings.HasPrefix(string(raw), manifestHeader+"\tmix\n") {
		t.Errorf("manifest header:\n%s", raw)
	}
	o = runOpts(dir, 6)
	if err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "mix 0/0/100+1-1") {
		t.Errorf("resume with the default mix: %v", err)
	}
	// A default run writes eleven columns.
	def := t.TempDir()
	if err := Run(context.Background(), runOpts(def, 2)); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(filepath.Join(def, ManifestName))
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if n := len(strings.Split(line, "\t")); n != 11 {
			t.Errorf("default run: %d columns in %q", n, line)
		}
	}
}
