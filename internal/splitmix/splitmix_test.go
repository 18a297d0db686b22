package splitmix

import "testing"

// TestMix: the first outputs of the reference splitmix64 generator
// (state 0, each step adding the golden-ratio increment) are Mix of the
// state before the step.
func TestMix(t *testing.T) {
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := Mix(uint64(i) * 0x9e3779b97f4a7c15); got != want {
			t.Errorf("Mix step %d = %#x, want %#x", i, got, want)
		}
	}
}
