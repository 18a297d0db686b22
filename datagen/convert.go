package datagen

import (
	"bufio"
	"io"
	"strconv"

	"github.com/rochade/rochade/variant960"
)

// Filter thresholds of the converter's --filter.
const (
	FilterMinPly   = 8
	FilterMaxScore = 3000
)

// Skip reports whether the converter's filter drops a sample: the side
// to move is in check, the move played is noisy (a capture, en passant or
// a promotion), the position is one of the game's first FilterMinPly
// recorded plies, or |score| > FilterMaxScore (mates included).
func Skip(s *Sample) bool {
	if s.Ply < FilterMinPly || s.Score > FilterMaxScore || s.Score < -FilterMaxScore || s.Pos.InCheck() {
		return true
	}
	m := s.Move
	switch m.Kind() {
	case variant960.KindPromotion, variant960.KindEnPassant:
		return true
	case variant960.KindCastling:
		return false
	}
	return s.Pos.PieceOn(m.To()) != variant960.NoPiece
}

var resultText = [3]string{" | 0.0\n", " | 0.5\n", " | 1.0\n"}

// Convert writes the samples of the chunk files as text, one line per
// position: "<FEN> | <score, White's view> | <1.0|0.5|0.0>" (the result
// for White). With filter, samples that Skip drops are left out.
func Convert(w io.Writer, paths []string, filter bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	for _, path := range paths {
		err := ReadFile(path, func(s *Sample) error {
			if filter && Skip(s) {
				return nil
			}
			line = append(line[:0], s.Pos.FEN()...)
			line = append(line, " | "...)
			line = strconv.AppendInt(line, int64(s.Score), 10)
			line = append(line, resultText[s.Result]...)
			_, err := bw.Write(line)
			return err
		})
		if err != nil {
			bw.Flush()
			return err
		}
	}
	return bw.Flush()
}
