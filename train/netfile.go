package train

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/internal/atomicfile"
	v "github.com/rochade/rochade/variant960"
)

// QuantNet is a quantised net as the file holds it, in the trainer's flat
// layout (QA and QB are eval.NetQA and eval.NetQB).
type QuantNet struct {
	W        []int16 // [Kings.N*eval.NetInputs][Hidden], round(W*QA)
	B        []int16 // [Hidden], round(B*QA)
	O        []int16 // [Buckets][2*Hidden], side to move first, round(O*QB)
	OB       []int32 // [Buckets], round(ob*QA*QB)
	Manifest []byte  // UTF-8 JSON

	Hidden int              // accumulator width
	Kings  eval.KingBuckets // king input buckets
}

// Buckets is the number of output buckets.
func (q *QuantNet) Buckets() int { return len(q.OB) }

func roundClamp16(x float64) int16 {
	r := math.Round(x)
	return int16(min(max(r, math.MinInt16), math.MaxInt16))
}

// Quantise converts float weights to the file's integers. The weights must
// be within MaxSize (Clip does that) for the values to be exact roundings.
// A factorised net is merged first (Merged).
func (n *Net) Quantise() *QuantNet {
	n = n.Merged()
	q := &QuantNet{
		W:      make([]int16, len(n.W)),
		B:      make([]int16, len(n.B)),
		O:      make([]int16, len(n.O)),
		OB:     make([]int32, len(n.OB)),
		Hidden: n.Hidden,
		Kings:  n.Kings,
	}
	for i, w := range n.W {
		q.W[i] = roundClamp16(float64(w) * eval.NetQA)
	}
	for i, w := range n.B {
		q.B[i] = roundClamp16(float64(w) * eval.NetQA)
	}
	for i, w := range n.O {
		q.O[i] = roundClamp16(float64(w) * eval.NetQB)
	}
	for i, w := range n.OB {
		q.OB[i] = int32(math.Round(float64(w) * eval.NetQA * eval.NetQB))
	}
	return q
}

// EngineNet returns q as the engine's net (package eval), which
// implements the file format.
func (q *QuantNet) EngineNet() (*eval.Net, error) {
	nb, h := q.Buckets(), q.Hidden
	if eval.CheckHidden(h) != nil || q.Kings.Check() != nil || nb < 1 || nb > eval.NetMaxBuckets ||
		len(q.W) != q.Kings.N*eval.NetInputs*h || len(q.B) != h || len(q.O) != nb*2*h {
		return nil, errors.New("net has the wrong shape")
	}
	n, err := eval.NewNet(h, q.Kings, nb)
	if err != nil {
		return nil, err
	}
	n.Manifest = string(q.Manifest)
	copy(n.W, q.W)
	copy(n.B, q.B)
	copy(n.O, q.O)
	copy(n.OB[:], q.OB)
	return n, nil
}

// QuantNetOf is the trainer's copy of an engine net (package eval reads
// and writes the file format: eval.LoadNet, eval.WriteNet).
func QuantNetOf(n *eval.Net) *QuantNet {
	nb, h := n.Buckets(), n.Hidden()
	return &QuantNet{
		W:        slices.Clone(n.W),
		B:        slices.Clone(n.B),
		O:        slices.Clone(n.O[:nb*2*h]),
		OB:       slices.Clone(n.OB[:nb]),
		Manifest: []byte(n.Manifest),
		Hidden:   h,
		Kings:    n.Kings(),
	}
}

// SaveNetFile writes q to path in the net file format (eval.WriteNet),
// atomically: a crash leaves the old file or the new one, never a part.
func SaveNetFile(path string, q *QuantNet) error {
	n, err := q.EngineNet()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := eval.WriteNet(&buf, n, string(q.Manifest)); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}

// LoadNetFile reads the net file at path with eval.LoadNetFile, which
// checks it as the engine does.
func LoadNetFile(path string) (*QuantNet, error) {
	n, err := eval.LoadNetFile(path)
	if err != nil {
		return nil, err
	}
	return QuantNetOf(n), nil
}

// QuantEval is the reference integer inference of a quantised net: the
// engine's evaluation of pos in centipawns, side to move's point of view.
// Accumulators are int16 (sums are checked for overflow), the activation
// is clamp(acc, 0, QA)^2, the output bucket b is eval.NetBucket(pieces, Buckets)
// and
//
//	out = (sum/QA + ob[b]) * Scale / (QA*QB)
//
// with Go's truncating int64 division.
func (q *QuantNet) QuantEval(pos *v.Position) int {
	var buf [eval.NetMaxActive]uint16
	fw := Features(buf[:0], pos)
	return q.EvalFeatures(fw, pos.Side() == v.White)
}

// EvalFeatures is QuantEval on White-perspective features.
func (q *QuantNet) EvalFeatures(fw []uint16, whiteToMove bool) int {
	var stm, opp [eval.NetMaxActive]uint16
	perspectives(&q.Kings, fw, whiteToMove, &stm, &opp)
	h := q.Hidden
	b := eval.NetBucket(len(fw), q.Buckets())
	o := q.O[b*2*h : (b+1)*2*h]
	sum := q.half(stm[:len(fw)], o[:h]) + q.half(opp[:len(fw)], o[h:])
	out := (sum/eval.NetQA + int64(q.OB[b])) * eval.NetScale / (eval.NetQA * eval.NetQB)
	return int(out)
}

// half is sum over h of clamp(acc[h],0,QA)^2 * o[h] for one accumulator.
func (q *QuantNet) half(feats []uint16, o []int16) int64 {
	var buf [eval.NetMaxHidden]int16
	acc := buf[:q.Hidden]
	copy(acc, q.B)
	for _, f := range feats {
		row := q.W[int(f)*q.Hidden : (int(f)+1)*q.Hidden]
		for h, w := range row {
			s := int32(acc[h]) + int32(w)
			if s != int32(int16(s)) {
				panic(fmt.Sprintf("train: int16 accumulator overflow (unit %d)", h))
			}
			acc[h] = int16(s)
		}
	}
	var sum int64
	for h, a := range acc {
		x := int64(min(max(a, 0), eval.NetQA))
		sum += x * x * int64(o[h])
	}
	return sum
}

// Float returns the float net that q is the exact quantisation of
// (weights divided by their scales).
func (q *QuantNet) Float() *Net {
	n := &Net{
		W:      make([]float32, len(q.W)),
		B:      make([]float32, len(q.B)),
		O:      make([]float32, len(q.O)),
		OB:     make([]float32, len(q.OB)),
		Hidden: q.Hidden,
		Kings:  q.Kings,
	}
	for i, x := range q.W {
		n.W[i] = float32(x) / eval.NetQA
	}
	for i, x := range q.B {
		n.B[i] = float32(x) / eval.NetQA
	}
	for i, x := range q.O {
		n.O[i] = float32(x) / eval.NetQB
	}
	for i, x := range q.OB {
		n.OB[i] = float32(float64(x) / (eval.NetQA * eval.NetQB))
	}
	return n
}

// BestNet keeps, at Path, the net of the epoch with the lowest validation
// loss of the quantised net (rochade train --best).
type BestNet struct {
	Path string
	Loss float64 // the loss to beat; +Inf while no net is kept
}

// NewBestNet prepares to keep the best net at path. A resumed run goes on
// from the net already there: its loss on val, measured again with t's K
// and lambda, is the one to beat, so that a worse epoch after the resume
// cannot replace it. A fresh run (resumed false), or a resumed one with
// no file at path, starts from +Inf. A file at path that does not load is
// an error, not a net to overwrite.
func NewBestNet(path string, resumed bool, t *Trainer, val *Dataset) (*BestNet, error) {
	b := &BestNet{Path: path, Loss: math.Inf(1)}
	if !resumed || val == nil || val.Len() == 0 {
		return b, nil
	}
	q, err := LoadNetFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return b, nil
	}
	if err != nil {
		return nil, fmt.Errorf("best net so far: %w", err)
	}
	b.Loss = t.QuantLoss(q, val)
	return b, nil
}

// Offer writes q to Path if loss is below the best so far, and reports
// whether it did.
func (b *BestNet) Offer(q *QuantNet, loss float64) (bool, error) {
	if !(loss < b.Loss) {
		return false, nil
	}
	if err := SaveNetFile(b.Path, q); err != nil {
		return false, err
	}
	b.Loss = loss
	return true, nil
}
