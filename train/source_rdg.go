package train

import (
	"github.com/rochade/rochade/datagen"
)

// Binary self-play chunks written by package datagen. The filters of
// Dataset.Load apply: fake mate labels (datagen.Sample.FakeMate), in
// check, a capture, promotion or en passant played from the position,
// ply < Filter.MinPly and |score| > Filter.MaxScore (mate scores
// included) are skipped.
func init() {
	openers = append(openers, opener{suffix: ".rdg", open: DatagenFile}, opener{suffix: ".rdg.zst", open: DatagenFile})
}

// DatagenFile is a source over a datagen binary file.
func DatagenFile(path string) Source {
	return func(fn func(*Record) error) error {
		rec := Record{}
		return datagen.ReadFile(path, func(s *datagen.Sample) error {
			rec.Pos, rec.Move, rec.Score, rec.Ply, rec.FakeMate = s.Pos, s.Move, s.Score, s.Ply, s.FakeMate
			rec.Result = float64(s.Result) / 2
			return fn(&rec)
		})
	}
}
