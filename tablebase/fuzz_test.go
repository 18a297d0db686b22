package tablebase

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	v "github.com/rochade/rochade/variant960"
)

// fuzzNames are the tables the fuzzer may pretend a file is.
var fuzzNames = []string{"KQvK", "KRvK", "KPvK", "KRvKP", "KNvKN", "KPvKP", "KBNvK"}

// tableFromBytes writes data to a new file in dir, maps it and parses it
// as the named table. Unlike load it does not check the file's size first,
// so that the parser sees cut files of every length. The mapping is
// released when the test ends.
func tableFromBytes(tt testing.TB, dir, name string, dtz bool, data []byte) (*table, error) {
	tt.Helper()
	f, err := os.CreateTemp(dir, name)
	if err == nil {
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		tt.Fatal(err)
	}
	t, ok := newTable(name, f.Name(), dtz)
	if !ok {
		return nil, errors.New("bad name")
	}
	m, err := mapFile(f.Name())
	if err != nil {
		tt.Fatal(err)
	}
	t.mm = m
	tt.Cleanup(t.release)
	return t, t.parse()
}

// randomFEN places the table's pieces on distinct random squares, pawns
// on ranks 2-7, with the given side to move.
func randomFEN(r *rand.Rand, name string, side string) string {
	var board [64]byte
	color := 0
	for _, ch := range name {
		if ch == 'v' {
			color = 1
			continue
		}
		c := byte(ch)
		if color == 1 {
			c += 'a' - 'A'
		}
		for {
			s := r.IntN(64)
			if (ch == 'P') && (s < 8 || s >= 56) {
				continue
			}
			if board[s] == 0 {
				board[s] = c
				break
			}
		}
	}
	// Empty squares as single 1s: the FEN reader adds them up, so no
	// second writer of FEN placement is needed here.
	ranks := make([]string, 8)
	for rank := range 8 {
		row := []byte("11111111")
		for f := range 8 {
			if c := board[rank*8+f]; c != 0 {
				row[f] = c
			}
		}
		ranks[7-rank] = string(row)
	}
	return strings.Join(ranks, "/") + " " + side + " - - 0 1"
}

// FuzzTable feeds arbitrary bytes to the table reader and probes the
// result: it may fail, never crash or hang.
func FuzzTable(f *testing.F) {
	for _, s := range []struct {
		file string
		name uint8
	}{{"KQvK.rtbw", 0}, {"KRvK.rtbw", 1}, {"KPvK.rtbw", 2}, {"KPvK.rtbz", 2}, {"KQvK.rtbz", 0}} {
		data, err := os.ReadFile(filepath.Join(tablesPath, s.file))
		if err != nil {
			f.Fatal(err)
		}
		dtz := strings.HasSuffix(s.file, "z")
		f.Add(s.name, dtz, data)
		f.Add(s.name, dtz, data[:len(data)/2])
		f.Add(s.name, dtz, data[:5])
	}
	f.Fuzz(func(t *testing.T, name uint8, dtz bool, data []byte) {
		tname := fuzzNames[int(name)%len(fuzzNames)]
		tab, err := tableFromBytes(t, t.TempDir(), tname, dtz, data)
		if err != nil {
			return
		}
		r := rand.New(rand.NewPCG(uint64(len(data)), uint64(name)))
		for i := 0; i < 50; i++ {
			side := "w"
			if i&1 == 1 {
				side = "b"
			}
			pos, err := v.ParseFEN(randomFEN(r, tname, side))
			if err != nil {
				continue
			}
			for wdl := -2; wdl <= 2; wdl++ {
				tab.failed.Store(false) // keep reading a table found inconsistent
				tab.probeTable(pos, wdl)
			}
		}
	})
}

// Every truncation and many byte flips of a real file are read without a
// crash; truncations are errors.
func TestDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	for _, file := range []string{"KQvK.rtbw", "KPvK.rtbw", "KPvK.rtbz"} {
		data, err := os.ReadFile(filepath.Join(tablesPath, file))
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(file, filepath.Ext(file))
		dtz := strings.HasSuffix(file, "z")
		r := rand.New(rand.NewPCG(1, 2))
		probe := func(tab *table) {
			for i := 0; i < 20; i++ {
				pos, err := v.ParseFEN(randomFEN(r, name, "wb"[i&1:i&1+1]))
				if err == nil {
					tab.failed.Store(false) // keep reading a table found inconsistent
					tab.probeTable(pos, 2)
				}
			}
		}
		step := max(1, len(data)/300)
		for n := 0; n < len(data); n += step {
			tab, err := tableFromBytes(t, dir, name, dtz, data[:n])
			// Whatever parses must still probe safely (the data blocks
			// may be cut where the header does not notice).
			if err == nil {
				probe(tab)
			}
		}
		for i := 0; i < 300; i++ {
			bad := append([]byte(nil), data...)
			for j := 0; j < 1+i%4; j++ {
				bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
			}
			if tab, err := tableFromBytes(t, dir, name, dtz, bad); err == nil {
				probe(tab)
			}
		}
		if _, err := tableFromBytes(t, dir, name, dtz, data); err != nil {
			t.Fatalf("%s: the intact file fails: %v", file, err)
		}
	}
}

// A table file that is empty, truncated, not a table or not the table its
// name says is left out when the folder is opened: it is not counted, a
// warning names it, and a probe that needs it says it cannot answer. A
// good copy in a later folder is used instead.
func TestBadFilesInFolder(t *testing.T) {
	dir, dir2 := t.TempDir(), t.TempDir()
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(tablesPath, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	write := func(dir, name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kqk := read("KQvK.rtbw")
	random := make([]byte, len(read("KRvK.rtbw"))) // a table's size, random bytes
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	dtz := read("KQvK.rtbz")
	write(dir, "KQvK.rtbw", kqk)
	write(dir, "KRvK.rtbw", random)
	write(dir, "KPvK.rtbw", nil)                        // empty
	write(dir, "KQvK.rtbz", dtz[:64*(len(dtz)/128)+16]) // cut, at a size a table can have
	write(dir, "KBvK.rtbw", kqk[:100])                  // cut anywhere
	write(dir, "KNvK.rtbw", kqk)                        // another table
	write(dir, "README.txt", []byte("hello"))           // ignored
	write(dir2, "KRvK.rtbw", read("KRvK.rtbw"))
	write(dir2, "KNvK.rtbw", random)

	tb, warn := Open(dir + ListSeparator() + filepath.Join(dir, "missing"))
	want := []string{
		"KBvK.rtbw: file truncated: 100 bytes, not 64n+16",
		"KNvK.rtbw: file corrupt: piece list does not match the name",
		"KPvK.rtbw: file empty",
		"KQvK.rtbz: file truncated",
		"KRvK.rtbw: file corrupt: bad magic",
		"cannot read tablebase folder",
	}
	if len(warn) != len(want) {
		t.Errorf("warnings %q", warn)
	}
	for i, w := range want {
		if i >= len(warn) || !strings.Contains(warn[i], w) {
			t.Errorf("warning %d: want one with %q in %q", i, w, warn)
		}
	}
	if tb.Count() != 1 || tb.CountWDL() != 1 || tb.CountDTZ() != 0 || tb.MaxPieces() != 3 {
		t.Fatalf("found %d tables (%d WDL, %d DTZ, %d pieces), want the one good KQvK.rtbw",
			tb.Count(), tb.CountWDL(), tb.CountDTZ(), tb.MaxPieces())
	}
	kq := v.MustParseFEN("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")
	if w, ok := tb.ProbeWDL(kq); !ok || w != Win {
		t.Errorf("KQvK: %d %v", w, ok)
	}
	if _, ok := tb.ProbeDTZ(kq); ok {
		t.Error("the cut KQvK.rtbz answered")
	}
	for _, fen := range []string{"8/8/8/8/8/2k5/8/KR6 w - - 0 1", "8/8/8/8/8/2k5/P7/K7 w - - 0 1", "8/8/8/8/8/2k5/8/K6N w - - 0 1"} {
		if _, ok := tb.ProbeWDL(v.MustParseFEN(fen)); ok {
			t.Errorf("%s: a bad table answered", fen)
		}
	}
	tb.Close()
	if _, ok := tb.ProbeWDL(kq); ok {
		t.Error("a closed table answered")
	}

	// The good KRvK.rtbw of the second folder stands in for the damaged one.
	tb, warn = Open(dir + ListSeparator() + dir2)
	if tb.CountWDL() != 2 || len(warn) != 6 {
		t.Errorf("two folders: %d WDL tables, warnings %q", tb.CountWDL(), warn)
	}
	if w, ok := tb.ProbeWDL(v.MustParseFEN("8/8/8/8/8/2k5/8/KR6 w - - 0 1")); !ok || w != Win {
		t.Errorf("KRvK from the second folder: %d %v", w, ok)
	}
}
