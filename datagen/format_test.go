package datagen

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/rochade/rochade/variant960"
)

// want is one expected sample.
type want struct {
	fen    string
	move   variant960.Move
	score  int
	result int
	ply    int
}

// randomGames plays random games from the given start positions, castling
// whenever it can (to cover Chess960 castling), and returns the encoded
// chunk (uncompressed) and the samples it must read back as.
func randomGames(t testing.TB, starts []*variant960.Position, seed uint64) ([]byte, []want) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var cw chunkWriter
	cw.reset()
	var enc gameEncoder
	var wants []want
	castles := 0
	for gi, pos := range starts {
		fen := pos.ShredderFEN()
		enc.reset()
		result := gi % 3
		var ml variant960.MoveList
		var gw []want
		for ply := 0; ply < 60+r.IntN(60); ply++ {
			pos.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[r.IntN(ml.N)]
			for _, c := range ml.Slice() {
				if c.IsCastling() {
					m = c
					castles++
					break
				}
			}
			score := r.IntN(2001) - 1000
			switch r.IntN(20) {
			case 0:
				score = MateScore
			case 1:
				score = -MateScore
			}
			enc.add(m, score)
			gw = append(gw, want{fen: pos.FEN(), move: m, score: score, result: result, ply: ply})
			pos.Make(m)
		}
		cw.addGame(enc.appendTo(nil, fen, result, Termination(gi%int(termCount))), enc.positions())
		wants = append(wants, gw...)
	}
	if castles == 0 {
		t.Fatal("no castling move in the test games")
	}
	return cw.finish(), wants
}

func testStarts(t testing.TB) []*variant960.Position {
	t.Helper()
	var starts []*variant960.Position
	add := func(p *variant960.Position, err error) {
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, p)
	}
	add(variant960.Chess960Position(518)) // standard
	add(variant960.Chess960Position(0))   // BBQNNRKR
	add(variant960.Chess960Position(959)) // RKRNNQBB
	add(variant960.DFRCPosition(17, 901))
	add(variant960.DFRCPosition(440, 12))
	add(variant960.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"))
	add(variant960.ParseFEN("4k3/8/8/8/8/8/4P3/4K3 w - - 5 39"))
	return starts
}

func readAll(t testing.TB, data []byte) ([]want, error) {
	t.Helper()
	var got []want
	err := Read(bytes.NewReader(data), func(s *Sample) error {
		got = append(got, want{fen: s.Pos.FEN(), move: s.Move, score: s.Score, result: s.Result, ply: s.Ply})
		return nil
	})
	return got, err
}

func compress(t testing.TB, data []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

func TestRoundTrip(t *testing.T) {
	data, wants := randomGames(t, testStarts(t), 1)
	for _, c := range []struct {
		name string
		data []byte
	}{{"raw", data}, {"zstd", compress(t, data)}} {
		t.Run(c.name, func(t *testing.T) {
			got, err := readAll(t, c.data)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(wants) {
				t.Fatalf("read %d samples, want %d", len(got), len(wants))
			}
			for i := range got {
				if got[i] != wants[i] {
					t.Fatalf("sample %d: got %+v, want %+v", i, got[i], wants[i])
				}
			}
		})
	}
	t.Logf("%d positions, %.2f bytes/position raw, %.2f zstd", len(wants),
		float64(len(data))/float64(len(wants)), float64(len(compress(t, data)))/float64(len(wants)))
}

func TestReadFile(t *testing.T) {
	data, wants := randomGames(t, testStarts(t), 2)
	dir := t.TempDir()
	for name, d := range map[string][]byte{"a.rdg": data, "a.rdg.zst": compress(t, data)} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, d, 0o644); err != nil {
			t.Fatal(err)
		}
		n := 0
		if err := ReadFile(path, func(s *Sample) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		if n != len(wants) {
			t.Errorf("%s: %d samples, want %d", name, n, len(wants))
		}
	}
	if err := ReadFile(filepath.Join(dir, "missing.rdg"), func(*Sample) error { return nil }); err == nil {
		t.Error("missing file: no error")
	}
	// The callback's error stops reading and comes back.
	stop := errors.New("stop")
	n := 0
	err := ReadFile(filepath.Join(dir, "a.rdg"), func(*Sample) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("callback error: got %v after %d samples", err, n)
	}
}

func TestConcatenated(t *testing.T) {
	d1, w1 := randomGames(t, testStarts(t)[:3], 6)
	d2, w2 := randomGames(t, testStarts(t)[3:], 7)
	var empty chunkWriter
	empty.reset()
	d3 := bytes.Clone(empty.finish())
	wants := append(w1, w2...)
	for name, data := range map[string][]byte{
		"raw":  append(append(bytes.Clone(d1), d3...), d2...),
		"zstd": append(append(compress(t, d1), compress(t, d3)...), compress(t, d2)...),
	} {
		got, err := readAll(t, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(wants) || got[0] != wants[0] || got[len(got)-1] != wants[len(wants)-1] {
			t.Errorf("%s: %d samples, want %d", name, len(got), len(wants))
		}
		if _, err := readAll(t, data[:len(data)-1]); err == nil {
			t.Errorf("%s: truncated last chunk: no error", name)
		}
	}
}

func TestEmptyChunk(t *testing.T) {
	var cw chunkWriter
	cw.reset()
	got, err := readAll(t, cw.finish())
	if err != nil || len(got) != 0 {
		t.Fatalf("empty chunk: %d samples, %v", len(got), err)
	}
}

func TestTruncated(t *testing.T) {
	data, _ := randomGames(t, testStarts(t)[:3], 3)
	for n := 0; n < len(data); n++ {
		if _, err := readAll(t, data[:n]); !errors.Is(err, ErrFormat) {
			t.Fatalf("raw, cut at %d of %d: error %v", n, len(data), err)
		}
	}
	z := compress(t, data)
	for n := 0; n < len(z); n++ {
		if _, err := readAll(t, z[:n]); err == nil {
			t.Fatalf("zstd, cut at %d of %d: no error", n, len(z))
		}
	}
	if _, err := readAll(t, append(bytes.Clone(data), 0)); !errors.Is(err, ErrFormat) {
		t.Errorf("trailing byte: error %v", err)
	}
}

func TestCorrupt(t *testing.T) {
	data, _ := randomGames(t, testStarts(t)[:3], 4)
	for i := range data {
		bit := byte(1) << (i % 8)
		d := bytes.Clone(data)
		d[i] ^= bit
		if _, err := readAll(t, d); err == nil {
			t.Fatalf("byte %d ^ %#x: no error", i, bit)
		}
	}
	z := compress(t, data)
	for i := range z {
		d := bytes.Clone(z)
		d[i] ^= 0x20
		readAll(t, d) // must not panic; a flip in a zstd header field may go unnoticed
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"magic", []byte("RDGX\x01\x00\x00\x00")},
		{"version", []byte("RDGF\x09\x00\x00\x00")},
		{"text", []byte("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")},
	} {
		if _, err := readAll(t, c.data); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v", c.name, err)
		}
	}
}

// gameBytes builds a one-game chunk with a valid checksum from parts, so
// that the checks behind the checksum are tested too.
func gameBytes(fen string, result, term byte, moves []variant960.Move, scores []int) []byte {
	var enc gameEncoder
	for i, m := range moves {
		enc.moves = append(enc.moves, byte(m), byte(m>>8), byte(scores[i]), byte(scores[i]>>8))
	}
	var cw chunkWriter
	cw.reset()
	g := enc.appendTo(nil, fen, int(result), Termination(term))
	cw.addGame(g, len(moves))
	return cw.finish()
}

func TestInvalidContent(t *testing.T) {
	start := variant960.StartFEN
	e2e4 := variant960.NewMove(12, 28)
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"bad FEN", gameBytes("not a fen", 1, 0, nil, nil)},
		{"illegal move", gameBytes(start, 1, 0, []variant960.Move{variant960.NewMove(12, 36)}, []int{0})},
		{"no move", gameBytes(start, 1, 0, []variant960.Move{variant960.NoMove}, []int{0})},
		{"score", gameBytes(start, 1, 0, []variant960.Move{e2e4}, []int{32001})},
		{"result", gameBytes(start, 3, 0, []variant960.Move{e2e4}, []int{0})},
		{"termination", gameBytes(start, 1, byte(termCount), []variant960.Move{e2e4}, []int{0})},
		{"move number", gameBytes("4k3/8/8/8/8/8/4P3/4K3 w - - 0 99999999999", 1, 0, nil, nil)},
	} {
		if _, err := readAll(t, c.data); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v", c.name, err)
		}
	}
	// And a valid one built the same way reads.
	got, err := readAll(t, gameBytes(start, 2, 0, []variant960.Move{e2e4}, []int{-32000}))
	if err != nil || len(got) != 1 || got[0].score != -32000 || got[0].result != 2 {
		t.Errorf("valid game: %+v, %v", got, err)
	}
}

func TestEncoderAllocs(t *testing.T) {
	var enc gameEncoder
	m := variant960.NewMove(12, 28)
	for range 500 {
		enc.add(m, 1)
	}
	allocs := testing.AllocsPerRun(10, func() {
		enc.reset()
		for range 500 {
			enc.add(m, 1)
		}
	})
	if allocs != 0 {
		t.Errorf("gameEncoder.add allocates: %v per game", allocs)
	}
}

func FuzzRead(f *testing.F) {
	data, _ := randomGames(f, testStarts(f)[:2], 5)
	f.Add(data)
	f.Add(compress(f, data))
	f.Add(gameBytes(variant960.StartFEN, 1, 0, []variant960.Move{variant960.NewMove(12, 28)}, []int{5}))
	f.Fuzz(func(t *testing.T, b []byte) {
		Read(bytes.NewReader(b), func(s *Sample) error {
			_ = s.Pos.FEN()
			return nil
		})
	})
}
