package train

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

const ckptMagic = "RCHDCKPT"

// ckptHeader is the fixed part of a checkpoint, followed by P, M and V
// (NumParam float32 each), little-endian.
type ckptHeader struct {
	Magic    [8]byte
	Version  uint32
	NumParam uint32
	Epoch    uint32
	Step     uint64
	K        float64
	Lambda   float64
}

// SaveCheckpoint writes the float weights, the Adam state, the step and
// epoch counters, K and lambda to path (through a temporary file).
func (t *Trainer) SaveCheckpoint(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	h := ckptHeader{Version: 1, NumParam: NumParam, Epoch: uint32(t.Epoch), Step: uint64(t.Step), K: t.Cfg.K, Lambda: t.Cfg.Lambda}
	copy(h.Magic[:], ckptMagic)
	for _, x := range []any{h, t.P, t.M, t.V} {
		if err = binary.Write(w, binary.LittleEndian, x); err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// Checkpoint is what LoadCheckpoint restores.
type Checkpoint struct {
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
	var h ckptHeader
	if err := binary.Read(r, binary.LittleEndian, &h); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if string(h.Magic[:]) != ckptMagic || h.Version != 1 {
		return nil, fmt.Errorf("%s: not a trainer checkpoint (v1)", path)
	}
	if h.NumParam != NumParam {
		return nil, fmt.Errorf("%s: %d parameters, want %d", path, h.NumParam, NumParam)
	}
	c := &Checkpoint{Epoch: int(h.Epoch), Step: int64(h.Step), K: h.K, Lambda: h.Lambda,
		P: make([]float32, NumParam), M: make([]float32, NumParam), V: make([]float32, NumParam)}
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
	t := &Trainer{Cfg: cfg, P: c.P, M: c.M, V: c.V, Step: c.Step, Epoch: c.Epoch, Net: &Net{}}
	t.alias()
	return t
}
