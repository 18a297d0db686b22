package train

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rochade/rochade/eval"
)

// KingLayouts are the named king bucket layouts of rochade train
// --king-buckets. A map lists the buckets of files a-d, rank by rank from
// the perspective's own back rank (a1 b1 c1 d1 a2 ...); a king on files
// e-h takes the bucket of the square reflected onto a-d (eval.KingBuckets).
// Every layout but "1" mirrors.
//
//	"1": one bucket, no mirroring: the plain net.
//	"4": rank 1 on the wing (a-b) | rank 1 in the centre (c-d) | rank 2 |
//	     ranks 3-8.
//	"8": a1-b1 | c1 | d1 | a2-b2 | c2-d2 | ranks 3-4 wing (a-b) |
//	     ranks 3-4 centre (c-d) | ranks 5-8.
//
// In Chess960 the king starts on b1-g1 (b-d after the reflection), and
// castles to c1 or g1 (c1 or b1 reflected): the back rank gets most
// buckets, a king that has stepped up one rank (after castling, or with
// the queens off) its own, and a king out in the open few.
var KingLayouts = map[string]eval.KingBuckets{
	"1": eval.PlainKings,
	"4": {N: 4, Mirror: true, Map: [32]uint8{
		0, 0, 1, 1,
		2, 2, 2, 2,
		3, 3, 3, 3,
		3, 3, 3, 3,
		3, 3, 3, 3,
		3, 3, 3, 3,
		3, 3, 3, 3,
		3, 3, 3, 3,
	}},
	"8": {N: 8, Mirror: true, Map: [32]uint8{
		0, 0, 1, 2,
		3, 3, 4, 4,
		5, 5, 6, 6,
		5, 5, 6, 6,
		7, 7, 7, 7,
		7, 7, 7, 7,
		7, 7, 7, 7,
		7, 7, 7, 7,
	}},
}

// ParseKingBuckets reads a king bucket layout: a name of KingLayouts, or
// 32 comma-separated bucket numbers in KingLayouts' order (mirrored; the
// number of buckets is the largest number plus one, and every bucket up
// to it must be used).
func ParseKingBuckets(s string) (eval.KingBuckets, error) {
	if k, ok := KingLayouts[s]; ok {
		return k, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 32 {
		return eval.KingBuckets{}, fmt.Errorf("king buckets %q: want a layout (1, 4, 8) or 32 comma-separated bucket numbers", s)
	}
	k := eval.KingBuckets{Mirror: true}
	for i, p := range parts {
		b, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || b < 0 || b >= eval.NetMaxKingBuckets {
			return eval.KingBuckets{}, fmt.Errorf("king buckets: entry %d is %q, want 0..%d", i, p, eval.NetMaxKingBuckets-1)
		}
		k.Map[i] = uint8(b)
		k.N = max(k.N, b+1)
	}
	var used [eval.NetMaxKingBuckets]bool
	for _, b := range k.Map {
		used[b] = true
	}
	for b := range k.N {
		if !used[b] {
			return eval.KingBuckets{}, fmt.Errorf("king buckets: bucket %d is not used (number them 0..%d)", b, k.N-1)
		}
	}
	return k, k.Check()
}
