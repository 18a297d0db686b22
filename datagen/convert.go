package datagen

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rochade/rochade/variant960"
)

// Filter thresholds of the converter's --filter.
const (
	FilterMinPly   = 8
	FilterMaxScore = 3000
)

// Skip reports whether the converter's filter drops a sample: a fake
// mate label (Sample.FakeMate), the side to move is in check, the move played is noisy (a capture, en passant or
// a promotion), the position is one of the game's first FilterMinPly
// recorded plies, or |score| > FilterMaxScore (mates included).
func Skip(s *Sample) bool {
	if s.FakeMate || s.Ply < FilterMinPly || s.Score > FilterMaxScore || s.Score < -FilterMaxScore || s.Pos.InCheck() {
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

// Stats summarises chunk files.
type Stats struct {
	Files, Games, Positions uint64
	Bytes                   int64     // file sizes
	Results                 [3]uint64 // games by result for White (loss, draw, win)
	Terminations            [termCount]uint64
	Mates                   MateCounts // ±MateScore labels, genuine and fake
}

// ReadStats reads the games of chunk files (without replaying them) and
// counts them and their mate labels.
func ReadStats(paths []string) (*Stats, error) {
	st := &Stats{}
	var scores []int
	var fake []bool
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err == nil {
			st.Bytes += fi.Size()
		}
		err = scanGames(f, func(g *game) error {
			st.Games++
			st.Positions += uint64(len(g.moves) / bytesPerPos)
			st.Results[g.result]++
			st.Terminations[g.term]++
			pos, err := variant960.ParseFEN(g.fen)
			if err != nil {
				return fmt.Errorf("%w: %v", ErrFormat, err)
			}
			if scores, err = gameScores(scores, g); err != nil {
				return err
			}
			fake = markFakeMates(fake, scores, pos.Side() == variant960.White, g.result)
			for i, s := range scores {
				switch {
				case fake[i]:
					st.Mates.Fake++
				case s == MateScore || s == -MateScore:
					st.Mates.Genuine++
				}
			}
			return nil
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		st.Files++
	}
	return st, nil
}

// Write prints the statistics.
func (s *Stats) Write(w io.Writer) {
	fmt.Fprintf(w, "files %d, games %d, positions %d, %.1f positions/game, %.2f bytes/position\n",
		s.Files, s.Games, s.Positions, float64(s.Positions)/float64(max(s.Games, 1)),
		float64(s.Bytes)/float64(max(s.Positions, 1)))
	pct := func(n uint64) float64 { return 100 * float64(n) / float64(max(s.Games, 1)) }
	fmt.Fprintf(w, "results: white wins %.1f%%, draws %.1f%%, black wins %.1f%%\n",
		pct(s.Results[ResultWin]), pct(s.Results[ResultDraw]), pct(s.Results[ResultLoss]))
	fmt.Fprint(w, "terminations:")
	for t, n := range s.Terminations {
		if n > 0 {
			fmt.Fprintf(w, " %s %.1f%%", Termination(t), pct(n))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "mate labels: %d genuine, %d fake (not borne out by the rest of the game, see datagen/labels.go; skipped in training; %.2f%% of positions)\n",
		s.Mates.Genuine, s.Mates.Fake, 100*float64(s.Mates.Fake)/float64(max(s.Positions, 1)))
}
