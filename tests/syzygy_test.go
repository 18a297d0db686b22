package tests

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/tablebase"
	v "github.com/rochade/rochade/variant960"
)

// The 3-4-piece tables (all 70 files) and their WDL list are kept once,
// in the tablebase package's testdata (see its README.md).
const (
	syzygyTestdata = "../tablebase/testdata/syzygy"
	syzygyWDLList  = "../tablebase/testdata/syzygy_wdl.tsv"
)

// syzygyDir is the absolute path of the test tables.
func syzygyDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(syzygyTestdata)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "KQvK.rtbw")); err != nil {
		t.Fatalf("no Syzygy tables at %s: %v", dir, err)
	}
	return dir
}

// tbRows reads the first n rows of the WDL list.
func tbRows(t testing.TB, n int) (fens []string, wdls []int) {
	t.Helper()
	f, err := os.Open(syzygyWDLList)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() && len(fens) < n {
		c := strings.Split(sc.Text(), "\t")
		w, err := strconv.Atoi(c[1])
		if err != nil {
			t.Fatal(err)
		}
		fens = append(fens, c[0])
		wdls = append(wdls, w)
	}
	return fens, wdls
}

// lastScore returns the cp or mate score of the last info line with one.
func lastScore(t testing.TB, lines []string) (cp int, mate int, ok bool) {
	for _, l := range lines {
		f := strings.Fields(l)
		for i := 0; i+2 < len(f); i++ {
			if f[i] == "score" {
				n, err := strconv.Atoi(f[i+2])
				if err != nil {
					t.Fatalf("bad score in %q", l)
				}
				if f[i+1] == "cp" {
					cp, mate, ok = n, 0, true
				} else {
					cp, mate, ok = 0, n, true
				}
			}
		}
	}
	return cp, mate, ok
}

// scoreWDL reads a score as a tablebase result: a mate or a score beyond
// 1000 cp is a win or loss, anything else a draw.
func scoreWDL(cp, mate int) int {
	switch {
	case mate > 0 || cp > 1000:
		return 2
	case mate < 0 || cp < -1000:
		return -2
	}
	return 0
}

// TestSyzygyOptions checks the advertised options and what SyzygyPath
// reports for good, missing and empty paths.
func TestSyzygyOptions(t *testing.T) {
	dir := syzygyDir(t)
	e := startEngine(t)
	e.send("uci")
	lines := e.until("uciok", 10*time.Second)
	want := []string{
		"option name SyzygyPath type string default <empty>",
		"option name SyzygyProbeDepth type spin default 1 min 1 max 100",
		"option name SyzygyProbeLimit type spin default 7 min 0 max 7",
		"option name Syzygy50MoveRule type check default true",
	}
	for _, w := range want {
		found := false
		for _, l := range lines {
			found = found || l == w
		}
		if !found {
			t.Errorf("missing %q", w)
		}
	}
	e.send("setoption name SyzygyPath value " + dir)
	if got := e.sync(); len(got) != 1 || got[0] != "info string found 70 tablebases" {
		t.Errorf("good path: got %q", got)
	}
	e.send("setoption name SyzygyPath value ./no-such-folder/" + string(filepath.ListSeparator) + dir)
	got := e.sync()
	if len(got) != 2 || !strings.HasPrefix(got[0], "info string cannot read tablebase folder ./no-such-folder/") ||
		got[1] != "info string found 70 tablebases" {
		t.Errorf("missing folder: got %q", got)
	}
	// SyzygyProbeLimit 0 turns probing off, 7 on again.
	for _, c := range []struct {
		limit string
		hits  bool
	}{{"0", false}, {"7", true}} {
		e.send("setoption name SyzygyProbeLimit value "+c.limit, "position fen 8/8/8/1n5k/8/8/3K1Q2/8 w - - 0 1")
		_, _, lines := e.search("go depth 4", 10*time.Second)
		last := lines[len(lines)-1]
		if hits := !strings.Contains(last, " tbhits 0 "); hits != c.hits {
			t.Errorf("SyzygyProbeLimit %s: %q", c.limit, last)
		}
	}
	e.send("setoption name SyzygyPath value <empty>")
	if got := e.sync(); len(got) != 1 || got[0] != "info string found 0 tablebases" {
		t.Errorf("empty path: got %q", got)
	}
	e.send("quit")
	e.waitExit(10 * time.Second)
	e.checkProtocol()
}

// TestSyzygyDamagedFiles sets SyzygyPath to a folder with one good table,
// one of random bytes (a table's size) and one empty file: the engine
// counts only the good one, names the other two, and probes the good one.
func TestSyzygyDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join(syzygyDir(t), "KQvK.rtbw"))
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 208) // the size of the real KRvK.rtbw
	for i := range random {
		random[i] = byte(i*131 + i*i*7 + 29)
	}
	for name, data := range map[string][]byte{"KQvK.rtbw": good, "KRvK.rtbw": random, "KPvK.rtbw": nil} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := startEngine(t)
	e.handshake()
	e.send("setoption name SyzygyPath value " + dir)
	want := []string{
		"info string tablebase file not used: " + filepath.Join(dir, "KPvK.rtbw") + ": file empty",
		"info string tablebase file not used: " + filepath.Join(dir, "KRvK.rtbw") + ": file corrupt: bad magic",
		"info string found 1 tablebases",
	}
	if got := e.sync(); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	for _, c := range []struct {
		fen  string
		hits bool
	}{{"8/8/8/8/8/2k5/8/KQ6 w - - 0 1", true}, {"8/8/8/8/8/2k5/8/KR6 w - - 0 1", false}} {
		e.send("position fen " + c.fen)
		best, _, lines := e.search("go depth 4", 10*time.Second)
		legalIn(t, v.MustParseFEN(c.fen), best)
		last := lines[len(lines)-1]
		if hits := !strings.Contains(last, " tbhits 0 "); hits != c.hits {
			t.Errorf("%s: tbhits %v wanted, got %q", c.fen, c.hits, last)
		}
	}
	e.send("quit")
	e.waitExit(10 * time.Second)
	e.checkProtocol()
}

// lichessBotGame drives the engine as python-chess does for lichess-bot's
// default configuration: uci, the options, isready, ucinewgame, position,
// go with clocks. It must answer each go with a legal move, and in a won
// 4-piece ending with one that keeps the win (checked against tb). It
// returns the info lines of that last search.
func lichessBotGame(t *testing.T, syzygyPath string, tb *tablebase.Tablebases) []string {
	t.Helper()
	e := startEngine(t)
	e.handshake()
	e.send("setoption name Move Overhead value 100",
		"setoption name Threads value 4",
		"setoption name Hash value 64",
		"setoption name SyzygyPath value "+syzygyPath,
		"setoption name UCI_ShowWDL value true")
	for _, l := range e.sync() {
		if strings.HasPrefix(l, "info string error") {
			t.Errorf("path %s: %q", syzygyPath, l)
		}
	}
	e.send("ucinewgame", "position startpos moves e2e4 e7e5")
	best, _, _ := e.search("go wtime 60000 btime 60000 winc 1000 binc 1000", 30*time.Second)
	pos := v.NewStartPosition()
	for _, m := range []string{"e2e4", "e7e5"} {
		pos.Make(legalIn(t, pos, m))
	}
	legalIn(t, pos, best)

	// A won 4-piece ending: the move must keep the win.
	fen := "8/8/8/1n5k/8/8/3K1Q2/8 w - - 0 1"
	e.send("position fen " + fen)
	best, _, lines := e.search("go wtime 5000 btime 5000 winc 100 binc 100", 30*time.Second)
	pos = v.MustParseFEN(fen)
	pos.Make(legalIn(t, pos, best))
	if w, ok := tb.ProbeWDL(pos); !ok || w != -2 {
		t.Errorf("path %s: %s throws the win away (WDL after %d, %v)", syzygyPath, best, w, ok)
	}
	e.send("quit")
	e.waitExit(10 * time.Second)
	e.checkProtocol()
	return lines
}

// TestLichessBotCommandOrder plays lichess-bot's command order with the
// bot's default SyzygyPath (./syzygy/, absent here): a missing folder must
// not stop the engine from playing.
func TestLichessBotCommandOrder(t *testing.T) {
	tb, _ := tablebase.Open(syzygyDir(t)) // the judge, not the engine's tables
	lichessBotGame(t, "./syzygy/", tb)
}

// TestSyzygyLichessBot plays the same order with real tables: the won
// ending is scored as a win and the tables are hit.
func TestSyzygyLichessBot(t *testing.T) {
	dir := syzygyDir(t)
	tb, _ := tablebase.Open(dir)
	lines := lichessBotGame(t, dir, tb)
	cp, mate, ok := lastScore(t, lines)
	if !ok || scoreWDL(cp, mate) != 2 {
		t.Errorf("won ending scored cp %d mate %d", cp, mate)
	}
	if !strings.Contains(lines[len(lines)-1], " tbhits ") || strings.Contains(lines[len(lines)-1], " tbhits 0 ") {
		t.Errorf("no tbhits in %q", lines[len(lines)-1])
	}
}

// TestSyzygyAgreesWithStockfish compares the root result of both engines
// on tablebase positions, both with the tables.
func TestSyzygyAgreesWithStockfish(t *testing.T) {
	const sfPath = "/usr/games/stockfish"
	if _, err := exec.LookPath(sfPath); err != nil {
		t.Skip("no stockfish")
	}
	dir := syzygyDir(t)
	n := 40
	if raceEnabled || testing.Short() {
		n = 10
	}
	fens, wdls := tbRows(t, n)
	engines := []*engine{startEngine(t), startProcess(t, sfPath)}
	for _, e := range engines {
		e.handshake()
		e.send("setoption name SyzygyPath value "+dir, "setoption name Hash value 16")
		e.sync()
	}
	for i, fen := range fens {
		pos := v.MustParseFEN(fen)
		if !pos.HasLegalMove() {
			continue
		}
		var got [2]int
		for j, e := range engines {
			e.send("ucinewgame", "position fen "+fen)
			e.sync()
			_, _, lines := e.search("go depth 6", 30*time.Second)
			cp, mate, ok := lastScore(t, lines)
			if !ok {
				t.Fatalf("%s: no score from engine %d", fen, j)
			}
			got[j] = scoreWDL(cp, mate)
		}
		if got[0] != got[1] || got[0] != wdls[i] {
			t.Errorf("%s: rochade %d, stockfish %d, list %d", fen, got[0], got[1], wdls[i])
		}
	}
	for _, e := range engines {
		e.send("quit")
		e.waitExit(10 * time.Second)
	}
}

// copyTables copies the named tables (both files of each) from the test
// tables into a new folder, writable, and returns the folder.
func copyTables(t *testing.T, names ...string) string {
	t.Helper()
	src, dir := syzygyDir(t), t.TempDir()
	for _, n := range names {
		for _, ext := range []string{".rtbw", ".rtbz"} {
			data, err := os.ReadFile(filepath.Join(src, n+ext))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, n+ext), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// tbFailures returns the info strings that report a table failing in a
// probe.
func tbFailures(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string tablebase file failed") {
			out = append(out, l)
		}
	}
	return out
}

// TestSyzygyTruncatedWhileMapped truncates a table's files after the
// engine has mapped and probed them. Reading the mapped pages past the new
// end of the file faults (SIGBUS); the probe must count as "no table",
// the search go on to a legal move, and one info string name the file.
// Then the same for a file cut to a smaller size and one rewritten in
// place with other bytes.
func TestSyzygyTruncatedWhileMapped(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows refuses to cut a mapped file")
	}
	type damage struct {
		name string
		do   func(t *testing.T, path string)
	}
	cut := func(size func(int64) int64) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, size(fi.Size())); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, d := range []damage{
		{"empty", cut(func(int64) int64 { return 0 })},
		{"cut", cut(func(n int64) int64 { return n / 3 })},
		{"rewritten", func(t *testing.T, path string) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Keep the header, scramble everything after it.
			for i := 64; i < len(data); i++ {
				data[i] = byte(i*131 + i*i*7 + 29)
			}
			if _, err := f.WriteAt(data[64:], 64); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}},
	} {
		t.Run(d.name, func(t *testing.T) {
			dir := copyTables(t, "KBNvK", "KBvK", "KNvK")
			e := startEngine(t)
			e.handshake()
			e.send("setoption name SyzygyPath value " + dir)
			if got := e.sync(); len(got) != 1 || got[0] != "info string found 6 tablebases" {
				t.Fatalf("got %q", got)
			}
			fen := "8/8/8/8/3k4/8/8/KBN5 w - - 0 1"
			e.send("position fen " + fen)
			best, _, lines := e.search("go depth 6", 20*time.Second)
			legalIn(t, v.MustParseFEN(fen), best)
			if last := lines[len(lines)-1]; strings.Contains(last, " tbhits 0 ") {
				t.Fatalf("the intact tables were not probed: %q", last)
			}
			for _, ext := range []string{".rtbw", ".rtbz"} {
				d.do(t, filepath.Join(dir, "KBNvK"+ext))
			}
			var all []string
			for _, fen := range []string{"8/8/8/4k3/8/8/8/KBN5 w - - 0 1", "8/8/8/8/2k5/8/8/KBN5 w - - 0 1",
				"8/8/8/4k3/8/8/8/KBN5 b - - 0 1"} {
				e.send("ucinewgame", "position fen "+fen)
				best, _, lines := e.search("go depth 6", 20*time.Second)
				if best == "0000" {
					t.Fatalf("%s: bestmove 0000, lines %q", fen, lines)
				}
				legalIn(t, v.MustParseFEN(fen), best)
				all = append(all, lines...)
			}
			// The rewritten file may go unnoticed (its values are only
			// wrong); a truncated one faults and must be named, once.
			fails := tbFailures(all)
			if d.name != "rewritten" && len(fails) == 0 {
				t.Errorf("no info string names the failed file: %q", all)
			}
			seen := map[string]bool{}
			for _, f := range fails {
				if !strings.Contains(f, filepath.Join(dir, "KBNvK.rtb")) {
					t.Errorf("the failure names another file: %q", f)
				}
				if seen[f] {
					t.Errorf("reported twice: %q", f)
				}
				seen[f] = true
			}
			e.send("quit")
			e.waitExit(10 * time.Second)
			e.checkProtocol()
		})
	}
}
