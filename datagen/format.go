// Package datagen generates self-play training data for Rochade's NNUE
// and reads it back. A chunk file holds whole games: each game is a start
// position (a FEN) followed by the moves played and the search score of
// every position, so a position costs about four bytes before
// compression. The format is documented in docs/training-data.md
// ("Chunk format"); this file is its reference implementation.
//
// The package sits beside the engine: no engine package imports it.
package datagen

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
	"github.com/rochade/rochade/variant960"
)

// Format constants.
const (
	Magic   = "RDGF" // the first four bytes of an uncompressed chunk
	Version = 1      // the byte after the magic

	// MateScore is the stored score of a mate (for White: +MateScore,
	// for Black: -MateScore), whatever its distance.
	MateScore = 32000

	maxFENLen   = 255     // a header's FEN is at most this long
	maxGameLen  = 1 << 14 // positions per game, a sanity bound
	bytesPerPos = 4
)

// Results, for White.
const (
	ResultLoss = 0
	ResultDraw = 1
	ResultWin  = 2
)

// Termination tells how a game ended. It is stored per game but not
// passed to Sample; it is there for statistics and debugging.
type Termination uint8

// Terminations.
const (
	TermUnknown      Termination = iota
	TermCheckmate                // the side to move after the last move is mated
	TermStalemate                // the side to move after the last move is stalemated
	TermFiftyMoves               // fifty-move rule
	TermRepetition               // threefold repetition
	TermInsufficient             // insufficient material
	TermAdjudWin                 // win adjudication
	TermAdjudDraw                // draw adjudication
	TermMaxLength                // the game length cap (scored a draw)
	termCount
)

var termNames = [...]string{"unknown", "checkmate", "stalemate", "fifty-moves", "repetition",
	"insufficient", "adjudicated-win", "adjudicated-draw", "max-length"}

func (t Termination) String() string {
	if int(t) < len(termNames) {
		return termNames[t]
	}
	return fmt.Sprintf("termination(%d)", t)
}

// Sample is one recorded position. Pos is valid only during the callback.
type Sample struct {
	Pos    *variant960.Position
	Move   variant960.Move // the move played from Pos
	Score  int             // search score in cp, White's view (mates clamped to ±32000)
	Result int             // game result for White: 2 win, 1 draw, 0 loss
	Ply    int             // plies since the game's recorded start (0 = first recorded position)

	// FakeMate: Score is a ±MateScore label that the rest of the game does
	// not bear out (see labels.go); in chunks made before build 6f6374c,
	// mostly a search stopped by its node limit. Score keeps the stored
	// label.
	FakeMate bool
}

// zstdMagic starts every zstd frame.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrFormat wraps every error about malformed data.
var ErrFormat = errors.New("datagen: bad training data")

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
}

// ---------------------------------------------------------------------------
// Writing

// chunkWriter builds the uncompressed bytes of one chunk in memory.
type chunkWriter struct {
	buf       []byte
	games     uint64
	positions uint64
}

func (c *chunkWriter) reset() {
	c.buf = append(c.buf[:0], Magic...)
	c.buf = append(c.buf, Version)
	c.games, c.positions = 0, 0
}

// addGame appends one encoded game (from gameEncoder.bytes).
func (c *chunkWriter) addGame(g []byte, positions int) {
	c.buf = append(c.buf, g...)
	c.games++
	c.positions += uint64(positions)
}

// finish appends the trailer and returns the chunk's bytes.
func (c *chunkWriter) finish() []byte {
	c.buf = binary.AppendUvarint(c.buf, 0)
	c.buf = binary.AppendUvarint(c.buf, c.games)
	c.buf = binary.AppendUvarint(c.buf, c.positions)
	c.buf = binary.LittleEndian.AppendUint32(c.buf, crc32.Checksum(c.buf, crcTable))
	return c.buf
}

// gameEncoder records one game. Reuse it: after the first games it does
// not allocate.
type gameEncoder struct {
	moves []byte // bytesPerPos per position
}

func (g *gameEncoder) reset() { g.moves = g.moves[:0] }

// add records a position: the move played and the score, White's view.
func (g *gameEncoder) add(m variant960.Move, whiteScore int) {
	s := max(-MateScore, min(MateScore, whiteScore))
	g.moves = binary.LittleEndian.AppendUint16(g.moves, uint16(m))
	g.moves = binary.LittleEndian.AppendUint16(g.moves, uint16(int16(s)))
}

func (g *gameEncoder) positions() int { return len(g.moves) / bytesPerPos }

// appendTo appends the game record to dst.
func (g *gameEncoder) appendTo(dst []byte, fen string, result int, term Termination) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(fen)))
	dst = append(dst, fen...)
	dst = append(dst, byte(result), byte(term))
	dst = binary.AppendUvarint(dst, uint64(g.positions()))
	return append(dst, g.moves...)
}

// ---------------------------------------------------------------------------
// Reading

// game is one game as stored, before its moves are replayed.
type game struct {
	fen    string
	result int
	term   Termination
	moves  []byte // bytesPerPos per position; valid until the next game
}

// scanner reads the games of an uncompressed chunk stream and checks the
// trailer and checksum.
type scanner struct {
	r   *bufio.Reader
	crc hash.Hash32
	buf []byte
	g   game

	games, positions uint64
}

func (s *scanner) read(n int) ([]byte, error) {
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	b := s.buf[:n]
	if _, err := io.ReadFull(s.r, b); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, formatErr("truncated")
		}
		// A decompression error means corrupt data; keep the cause.
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	s.crc.Write(b)
	return b, nil
}

func (s *scanner) uvarint() (uint64, error) {
	var x uint64
	for shift := uint(0); ; shift += 7 {
		if shift > 63 {
			return 0, formatErr("varint overflow")
		}
		b, err := s.read(1)
		if err != nil {
			return 0, err
		}
		x |= uint64(b[0]&0x7f) << shift
		if b[0] < 0x80 {
			return x, nil
		}
	}
}

// next reads the next game. It returns io.EOF after the last chunk's
// valid trailer.
func (s *scanner) next() (*game, error) {
	n, err := s.uvarint()
	for err == nil && n == 0 {
		// The end mark; then the end, or the next chunk.
		if err = s.trailer(); err == nil {
			n, err = s.uvarint()
		}
	}
	if err != nil {
		return nil, err
	}
	if n > maxFENLen {
		return nil, formatErr("FEN length %d", n)
	}
	b, err := s.read(int(n))
	if err != nil {
		return nil, err
	}
	s.g.fen = string(b)
	b, err = s.read(2)
	if err != nil {
		return nil, err
	}
	if b[0] > ResultWin {
		return nil, formatErr("result %d", b[0])
	}
	if b[1] >= byte(termCount) {
		return nil, formatErr("termination %d", b[1])
	}
	s.g.result, s.g.term = int(b[0]), Termination(b[1])
	n, err = s.uvarint()
	if err != nil {
		return nil, err
	}
	if n > maxGameLen {
		return nil, formatErr("game of %d positions", n)
	}
	if s.g.moves, err = s.read(int(n) * bytesPerPos); err != nil {
		return nil, err
	}
	s.games++
	s.positions += n
	return &s.g, nil
}

func (s *scanner) trailer() error {
	games, err := s.uvarint()
	if err != nil {
		return err
	}
	positions, err := s.uvarint()
	if err != nil {
		return err
	}
	if games != s.games || positions != s.positions {
		return formatErr("trailer counts %d games, %d positions; read %d, %d", games, positions, s.games, s.positions)
	}
	want := s.crc.Sum32()
	var b [4]byte
	if _, err := io.ReadFull(s.r, b[:]); err != nil {
		return formatErr("truncated checksum")
	}
	if got := binary.LittleEndian.Uint32(b[:]); got != want {
		return formatErr("checksum %08x, want %08x", got, want)
	}
	// The end, or another chunk after this one (concatenated files).
	if _, err := s.r.Peek(1); err != nil {
		if err == io.EOF {
			return io.EOF
		}
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return s.header()
}

// header reads a chunk's magic and version and starts its counts.
func (s *scanner) header() error {
	s.crc.Reset()
	s.games, s.positions = 0, 0
	b, err := s.read(len(Magic) + 1)
	if err != nil {
		return err
	}
	if string(b[:len(Magic)]) != Magic {
		return formatErr("not a Rochade training data chunk (magic %q)", b[:len(Magic)])
	}
	if b[len(Magic)] != Version {
		return formatErr("version %d, this reader knows %d", b[len(Magic)], Version)
	}
	return nil
}

// scanGames calls fn for every game in r (compressed or not) and checks
// the whole stream. The stream may hold several chunks one after the
// other (as `cat` makes them, compressed or not).
func scanGames(r io.Reader, fn func(*game) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(4)
	if err != nil {
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			return err // a read error (a directory, a failing disk), not the data's fault
		}
		return formatErr("truncated header")
	}
	if string(head) == string(zstdMagic) {
		dec, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(256<<20))
		if err != nil {
			return err
		}
		defer dec.Close()
		br = bufio.NewReaderSize(dec, 64<<10)
	}
	s := &scanner{r: br, crc: crc32.New(crcTable)}
	if err := s.header(); err != nil {
		return err
	}
	for {
		g, err := s.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(g); err != nil {
			return err
		}
	}
}

// Read calls fn for every position of a chunk stream (compressed with
// zstd or not; several chunks concatenated are read one after the other). It replays each game's moves from its start position and
// checks every move for legality, so malformed data yields an error, not
// a panic. An error from fn stops the reading and is returned. Data that
// fails the final checksum may have been passed to fn before the error.
func Read(r io.Reader, fn func(*Sample) error) error {
	var ml variant960.MoveList
	smp := &Sample{}
	var scores []int
	var fake []bool
	return scanGames(r, func(g *game) error {
		pos, err := variant960.ParseFEN(g.fen)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrFormat, err)
		}
		if pos.GamePly() < 0 || pos.GamePly() > 1<<20 {
			return formatErr("move number out of range in %q", g.fen)
		}
		if scores, err = gameScores(scores, g); err != nil {
			return err
		}
		fake = markFakeMates(fake, scores, pos.Side() == variant960.White, g.result)
		smp.Pos, smp.Result = pos, g.result
		for i := 0; i < len(g.moves); i += bytesPerPos {
			m := variant960.Move(binary.LittleEndian.Uint16(g.moves[i:]))
			pos.GenerateLegal(&ml)
			if !ml.Contains(m) {
				return formatErr("illegal move %04x in %s", uint16(m), pos.FEN())
			}
			ply := i / bytesPerPos
			smp.Move, smp.Score, smp.Ply, smp.FakeMate = m, scores[ply], ply, fake[ply]
			if err := fn(smp); err != nil {
				return err
			}
			pos.Make(m)
		}
		return nil
	})
}

// gameScores appends the scores of g to dst[:0] and checks their range.
func gameScores(dst []int, g *game) ([]int, error) {
	dst = dst[:0]
	for i := 0; i < len(g.moves); i += bytesPerPos {
		score := int(int16(binary.LittleEndian.Uint16(g.moves[i+2:])))
		if score < -MateScore || score > MateScore {
			return dst, formatErr("score %d", score)
		}
		dst = append(dst, score)
	}
	return dst, nil
}

// ReadFile calls fn for every position of a chunk file (.rdg or .rdg.zst).
func ReadFile(path string, fn func(*Sample) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := Read(f, fn); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
