package train

import (
	"testing"

	"github.com/rochade/rochade/datagen"
)

// TestDatagenSource loads a committed self-play chunk through the
// binary source: every recorded position is read, the training filters
// drop noisy moves, checks and early plies, and what is kept agrees with
// the datagen reader's own filter.
func TestDatagenSource(t *testing.T) {
	const path = "../data/hce-n5000-s1/chunk-000000.rdg.zst"
	all, kept := 0, 0
	if err := datagen.ReadFile(path, func(s *datagen.Sample) error {
		all++
		if !datagen.Skip(s) {
			kept++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	d := NewDataset()
	st, err := d.Load(path, OpenSource(path), DefaultFilter)
	if err != nil {
		t.Fatal(err)
	}
	if st.Read != all || all < 10000 {
		t.Fatalf("read %d of %d positions", st.Read, all)
	}
	if st.Skipped["noisy move"] == 0 || st.Skipped["in check"] == 0 || st.Skipped["ply"] == 0 {
		t.Errorf("filters did not apply: %+v", st.Skipped)
	}
	if st.Kept != kept || d.Len() != kept {
		t.Errorf("kept %d (dataset %d), datagen.Skip keeps %d", st.Kept, d.Len(), kept)
	}
}
