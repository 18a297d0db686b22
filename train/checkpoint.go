package train

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/internal/atomicfile"
)

const ckptMagic = "RCHDCKPT"

// ckptVersion is the checkpoint format: 2 added Buckets, 3 the hidden
// width and the king buckets (ckptShape), 4 the factoriser (a uint32
// after ckptShape, 1 with it). Version 2 checkpoints are read as width 256
// with one king bucket, version 3 ones as nets without the factoriser;
// version 1 checkpoints (written before output buckets) are refused.
const ckptVersion = 4

// A checkpoint is the magic, a uint32 version, a ckptHeader and (version
// 3) a ckptShape and (version 4) the factoriser's uint32, followed by P, M
// and V (NumParam float32 each), all little-endian.
type ckptHeader struct {
	NumParam uint32
	Buckets  uint32
	Epoch    uint32
	Step     uint64
	K        float64
	Lambda   float64
}

type ckptShape struct {
	Hidden      uint32
	KingBuckets uint32
	Mirror      uint32 // 1: the king buckets mirror
	KingMap     [32]uint8
}

// SaveCheckpoint writes the float weights, the Adam state, the step and
// epoch counters, K and lambda to path, atomically (internal/atomicfile:
// synced, then renamed).
func (t *Trainer) SaveCheckpoint(path string) error {
	h := ckptHeader{NumParam: uint32(len(t.P)), Buckets: uint32(t.Net.Buckets()),
		Epoch: uint32(t.Epoch), Step: uint64(t.Step), K: t.Cfg.K, Lambda: t.Cfg.Lambda}
	k := t.Net.Kings
	sh := ckptShape{Hidden: uint32(t.Net.Hidden), KingBuckets: uint32(k.N), KingMap: k.Map}
	if k.Mirror {
		sh.Mirror = 1
	}
	var factor uint32
	if t.Net.Factor {
		factor = 1
	}
	return atomicfile.WriteFunc(path, 0o644, func(w io.Writer) error {
		for _, x := range []any{[]byte(ckptMagic), uint32(ckptVersion), h, sh, factor, t.P, t.M, t.V} {
			if err := binary.Write(w, binary.LittleEndian, x); err != nil {
				return err
			}
		}
		return nil
	})
}

// Checkpoint is what LoadCheckpoint restores.
type Checkpoint struct {
	Buckets   int
	Hidden    int
	Kings     eval.KingBuckets
	Factor    bool // with the factoriser (Net.Factor)
	Epoch     int
	Step      int64
	K, Lambda float64
	P, M, V   []float32
}

// LoadCheckpoint reads a checkpoint written by SaveCheckpoint.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var magic [12]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil || string(magic[:8]) != ckptMagic {
		return nil, fmt.Errorf("%s: not a trainer checkpoint", path)
	}
	ver := binary.LittleEndian.Uint32(magic[8:])
	if ver < 2 || ver > ckptVersion {
		return nil, fmt.Errorf("%s: checkpoint format v%d, this trainer reads v2 to v%d (v1 was written before output buckets; start a new run)", path, ver, ckptVersion)
	}
	var h ckptHeader
	if err := binary.Read(r, binary.LittleEndian, &h); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if h.Buckets < 1 || h.Buckets > eval.NetMaxBuckets {
		return nil, fmt.Errorf("%s: %d output buckets, want 1..%d", path, h.Buckets, eval.NetMaxBuckets)
	}
	c := &Checkpoint{Buckets: int(h.Buckets), Hidden: eval.NetHidden, Kings: eval.PlainKings,
		Epoch: int(h.Epoch), Step: int64(h.Step), K: h.K, Lambda: h.Lambda}
	if ver >= 3 {
		var sh ckptShape
		if err := binary.Read(r, binary.LittleEndian, &sh); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if sh.Hidden > eval.NetMaxHidden || sh.KingBuckets > eval.NetMaxKingBuckets || sh.Mirror > 1 {
			return nil, fmt.Errorf("%s: width %d, %d king buckets, mirror %d: not a net this trainer makes", path, sh.Hidden, sh.KingBuckets, sh.Mirror)
		}
		c.Hidden = int(sh.Hidden)
		c.Kings = eval.KingBuckets{N: int(sh.KingBuckets), Map: sh.KingMap, Mirror: sh.Mirror == 1}
		if err := eval.CheckHidden(c.Hidden); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if err := c.Kings.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if ver >= 4 {
		var factor uint32
		if err := binary.Read(r, binary.LittleEndian, &factor); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if factor > 1 {
			return nil, fmt.Errorf("%s: factoriser %d, want 0 or 1", path, factor)
		}
		c.Factor = factor == 1
	}
	np := NumParams(c.Buckets, c.Hidden, c.Kings.N, c.Factor)
	if h.NumParam != uint32(np) {
		return nil, fmt.Errorf("%s: %d parameters, want %d for %d buckets, width %d, %d king buckets and factoriser %v", path, h.NumParam, np, h.Buckets, c.Hidden, c.Kings.N, c.Factor)
	}
	c.P, c.M, c.V = make([]float32, np), make([]float32, np), make([]float32, np)
	for _, x := range [][]float32{c.P, c.M, c.V} {
		if err := binary.Read(r, binary.LittleEndian, x); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return nil, errors.New(path + ": trailing data")
	}
	return c, nil
}

// Resume makes a trainer from a checkpoint: weights, Adam state and
// counters; cfg supplies the rest (its K and Lambda are used as given).
func Resume(c *Checkpoint, cfg Config) *Trainer {
	t := &Trainer{Cfg: cfg, P: c.P, M: c.M, V: c.V, Step: c.Step, Epoch: c.Epoch,
		Net: &Net{Hidden: c.Hidden, Kings: c.Kings, Factor: c.Factor}}
	t.alias(shape{c.Hidden, c.Kings.N, c.Buckets, c.Factor})
	t.syncFactor()
	return t
}
