package train

import (
	"testing"

	"github.com/rochade/rochade/datagen"
)

// TestDatagenFakeMates: the training filter drops the fake mate labels
// of a chunk made before the search fix even with no score bound, and
// keeps the genuine mates that pass the other filters.
func TestDatagenFakeMates(t *testing.T) {
	const path = "../data/hce-n5000-s1/chunk-000000.rdg.zst"
	fake, genuineKept := 0, 0
	if err := datagen.ReadFile(path, func(s *datagen.Sample) error {
		if s.FakeMate {
			fake++
		} else if (s.Score == datagen.MateScore || s.Score == -datagen.MateScore) && s.Ply >= DefaultFilter.MinPly &&
			!s.Pos.InCheck() && quietMove(s.Pos, s.Move) {
			genuineKept++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	d := NewDataset()
	st, err := d.Load(path, OpenSource(path), Filter{MinPly: DefaultFilter.MinPly})
	if err != nil {
		t.Fatal(err)
	}
	mates := 0
	for _, s := range d.Score {
		if s == 32000 || s == -32000 {
			mates++
		}
	}
	if fake < 1000 || st.Skipped["fake mate"] != fake || mates != genuineKept {
		t.Errorf("%d fake labels, %d skipped as fake; %d mates kept, want %d genuine", fake, st.Skipped["fake mate"], mates, genuineKept)
	}
}
