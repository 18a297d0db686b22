package train

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/rochade/rochade/eval"
)

// Parameter layout of the flat parameter, gradient and Adam vectors: W
// at offW, then B, O (Buckets*2*Hidden) and OB (Buckets) at the offsets
// of the net's shape (offB, offO, offOB).
const offW = 0

// Config holds the training hyper-parameters.
type Config struct {
	Epochs   int     // passes over the training data
	Batch    int     // positions per optimiser step
	LR       float64 // peak learning rate
	Schedule string  // "cosine" (to LR*LRFinal) or "step" (x LRGamma every LRStep epochs)
	LRFinal  float64 // cosine: final LR as a fraction of LR
	LRStep   int     // step: epochs between drops
	LRGamma  float64 // step: factor per drop
	WD       float64 // AdamW decoupled weight decay (W and O only)
	// BucketWD, when positive, is the weight decay of the king buckets'
	// own blocks of a factorised net instead of WD (the factoriser and O
	// keep WD): a larger one holds each bucket near the factoriser, the
	// weights all king squares share.
	BucketWD float64
	Lambda   float64 // target = Lambda*sigmoid(score/K) + (1-Lambda)*result
	K        float64 // score scale of the win-probability sigmoid (cp)
	Threads  int
	Seed     uint64
	// FreezeOutput keeps the output weights O as they are (used to fine-tune
	// the first layer after rounding O to the file's resolution).
	FreezeOutput bool
}

// DefaultConfig holds the settings of the embedded net: on a few million
// positions, batches of 4096 at lr 0.002 for 8 cosine epochs, weight decay
// 0.1 (1 underfits, 0.01 overfits) and the search score alone as the
// target (lambda 1: the game results of a few ten thousand games are
// memorised rather than learnt).
func DefaultConfig() Config {
	return Config{
		Epochs: 8, Batch: 4096, LR: 0.002, Schedule: "cosine", LRFinal: 0.02,
		LRStep: 8, LRGamma: 0.3, WD: 0.1, Lambda: 1.0, K: 200, Threads: 2, Seed: 1,
	}
}

// LRAt is the learning rate at fractional epoch e (0 <= e < Epochs).
func (c *Config) LRAt(e float64) float64 {
	switch c.Schedule {
	case "step":
		if c.LRStep <= 0 {
			return c.LR
		}
		return c.LR * math.Pow(c.LRGamma, math.Floor(e/float64(c.LRStep)))
	default:
		lo := c.LR * c.LRFinal
		return lo + 0.5*(c.LR-lo)*(1+math.Cos(math.Pi*min(e/float64(max(c.Epochs, 1)), 1)))
	}
}

// Trainer optimises a Net with AdamW on mean squared error between
// sigmoid(eval/K) and the blended target.
type Trainer struct {
	Cfg   Config
	Net   *Net      // aliases P
	P     []float32 // all parameters, flat (see offW..offOB)
	M, V  []float32 // Adam moments
	Step  int64     // optimiser steps taken
	Epoch int       // epochs completed

	workers []*worker
}

type worker struct {
	g        []float32 // gradient, NumParam
	loss     float64
	loss2    float64
	acS, acO [eval.NetMaxHidden]float32 // the first Hidden are used
	gS, gO   [eval.NetMaxHidden]float32
	stm, opp [eval.NetMaxActive]uint16
}

// NewTrainer takes over net (its slices are re-pointed into the trainer's
// flat parameter vector).
func NewTrainer(net *Net, cfg Config) *Trainer {
	sh := net.shape()
	np := sh.params()
	t := &Trainer{Cfg: cfg, P: make([]float32, np), M: make([]float32, np), V: make([]float32, np)}
	copy(t.P[offW:], net.W)
	copy(t.P[sh.offB():], net.B)
	copy(t.P[sh.offO():], net.O)
	copy(t.P[sh.offOB():], net.OB)
	t.Net = net
	t.alias(sh)
	t.syncFactor()
	return t
}

// syncFactor makes the net's merged rows from P (Net.syncFactor), on all
// threads.
func (t *Trainer) syncFactor() {
	if t.Net.Factor {
		t.Net.allocEff()
		t.parallel(eval.NetInputs*t.Net.Hidden, func(_, lo, hi int) { t.Net.syncFactor(lo, hi) })
	}
}

// alias points the net's slices into P, for the shape sh.
func (t *Trainer) alias(sh shape) {
	b, o, ob, nb := sh.offB(), sh.offO(), sh.offOB(), sh.buckets
	t.Net.W = t.P[offW:b:b]
	t.Net.B = t.P[b:o:o]
	t.Net.O = t.P[o:ob:ob]
	t.Net.OB = t.P[ob : ob+nb : ob+nb]
}

func (t *Trainer) threads() int { return max(t.Cfg.Threads, 1) }

func (t *Trainer) ensureWorkers() {
	for len(t.workers) < t.threads() {
		t.workers = append(t.workers, &worker{g: make([]float32, len(t.P))})
	}
}

// parallel runs fn(k, lo, hi) on n items split into Threads contiguous parts.
func (t *Trainer) parallel(n int, fn func(k, lo, hi int)) {
	th := t.threads()
	if th == 1 || n < 2*th {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for k := range th {
		lo, hi := n*k/th, n*(k+1)/th
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(k, lo, hi)
		}()
	}
	wg.Wait()
}

// target is the training target for position i.
func (t *Trainer) target(d *Dataset, i int) float32 {
	s := sigmoid(float64(d.Score[i]) / t.Cfg.K)
	return float32(t.Cfg.Lambda*s + (1-t.Cfg.Lambda)*float64(d.Result[i])*0.5)
}

// forward computes both accumulators of a sample and returns the raw
// output and the output bucket used.
func (w *worker) forward(n *Net, fw []uint16, whiteToMove bool) (float32, int) {
	h := n.Hidden
	perspectives(&n.Kings, fw, whiteToMove, &w.stm, &w.opp)
	n.accumulate(w.acS[:h], w.stm[:len(fw)])
	n.accumulate(w.acO[:h], w.opp[:len(fw)])
	b := eval.NetBucket(len(fw), n.Buckets())
	return n.output(w.acS[:h], w.acO[:h], b), b
}

// sample adds the gradient of one sample's loss times scale to w.g and
// returns its squared error. Of the output layer only the sample's bucket
// gets a gradient.
func (w *worker) sample(n *Net, fw []uint16, whiteToMove bool, target, gain, scale float32) float32 {
	out, b := w.forward(n, fw, whiteToMove)
	p := float32(sigmoid(float64(out * gain)))
	e := p - target
	d := 2 * e * p * (1 - p) * gain * scale // dLoss/dout
	h, sh := n.Hidden, n.shape()
	g := w.g
	gw := g[offW:sh.offB():sh.offB()]
	gb := g[sh.offB() : sh.offB()+h]
	o := n.O[b*2*h : (b+1)*2*h]
	og := sh.offO() + b*2*h
	acS, acO, gS, gO := w.acS[:h], w.acO[:h], w.gS[:h], w.gO[:h]
	hiddenGrad(acS, o[:h], d, g[og:og+h], gS)
	hiddenGrad(acO, o[h:], d, g[og+h:og+2*h], gO)
	addRow(gb, gS)
	addRow(gb, gO)
	g[sh.offOB()+b] += d
	addRows(gw, w.stm[:len(fw)], gS)
	addRows(gw, w.opp[:len(fw)], gO)
	return e * e
}

// Gradient computes the mean loss over the positions idx of d and leaves
// its gradient (with respect to P) in the returned slice, which is valid
// until the next call.
func (t *Trainer) Gradient(d *Dataset, idx []uint32) (float64, []float32) {
	t.ensureWorkers()
	gain := float32(eval.NetScale / t.Cfg.K)
	scale := 1 / float32(len(idx))
	t.parallel(len(idx), func(k, lo, hi int) {
		w := t.workers[k]
		clear(w.g)
		var loss float64
		for _, i := range idx[lo:hi] {
			loss += float64(w.sample(t.Net, d.Features(int(i)), d.STM[i] == 0, t.target(d, int(i)), gain, scale))
		}
		w.loss = loss
	})
	th := t.threads()
	if len(idx) < 2*th {
		th = 1
	}
	g0 := t.workers[0].g
	loss := t.workers[0].loss
	for k := 1; k < th; k++ {
		loss += t.workers[k].loss
	}
	if th > 1 {
		t.parallel(len(t.P), func(_, lo, hi int) {
			for k := 1; k < th; k++ {
				gk := t.workers[k].g[lo:hi]
				dst := g0[lo:hi:hi]
				for j := range dst {
					dst[j] += gk[j]
				}
			}
		})
	}
	if t.Net.Factor {
		// The samples' rows are the merged ones: each factoriser weight's
		// gradient is the sum of the gradients of the king buckets' copies.
		blk := eval.NetInputs * t.Net.Hidden
		kb := t.Net.Kings.N
		t.parallel(blk, func(_, lo, hi int) {
			fac := g0[kb*blk+lo : kb*blk+hi]
			clear(fac)
			for b := range kb {
				gb := g0[b*blk+lo : b*blk+hi]
				for j := range fac {
					fac[j] += gb[j]
				}
			}
		})
	}
	return loss / float64(len(idx)), g0
}

// adam applies one AdamW step with gradient g and learning rate lr.
func (t *Trainer) adam(g []float32, lr float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	t.Step++
	c1 := 1 - math.Pow(b1, float64(t.Step))
	c2 := 1 - math.Pow(b2, float64(t.Step))
	lrc := float32(lr / c1)
	sc2 := float32(1 / math.Sqrt(c2))
	decay := float32(1 - lr*t.Cfg.WD)
	sh := t.Net.shape()
	offB, offO, ob := sh.offB(), sh.offO(), sh.offOB()
	// The parts of P: the weights decay (W and O), the biases do not, and
	// frozen output weights keep their values (their moments still move).
	// A factor of 1 leaves x as it is.
	bdecay, fac := decay, offW
	if t.Net.Factor {
		fac = t.Net.Kings.N * eval.NetInputs * t.Net.Hidden
		if t.Cfg.BucketWD > 0 {
			bdecay = float32(1 - lr*t.Cfg.BucketWD)
		}
	}
	segs := [...]struct {
		lo, hi int
		decay  float32
		update bool
	}{
		{offW, fac, bdecay, true},
		{fac, offB, decay, true},
		{offB, offO, 1, true},
		{offO, ob, decay, !t.Cfg.FreezeOutput},
		{ob, len(t.P), 1, true},
	}
	t.parallel(len(t.P), func(_, lo, hi int) {
		for _, s := range segs {
			a, b := max(lo, s.lo), min(hi, s.hi)
			if a < b {
				adamStep(adamConsts{lrc, sc2, s.decay}, t.P[a:b:b], t.M[a:b:b], t.V[a:b:b], g[a:b:b], s.update)
			}
		}
	})
	t.syncFactor()
}

// Loss is the mean loss over d (no gradient).
func (t *Trainer) Loss(d *Dataset) float64 {
	loss, _ := t.Evaluate(d)
	return loss
}

// Evaluate returns the mean loss over d and the mean squared error of the
// prediction against the score part of the target alone, sigmoid(score/K)
// (comparable across lambdas).
func (t *Trainer) Evaluate(d *Dataset) (loss, scoreMSE float64) {
	t.ensureWorkers()
	gain := eval.NetScale / t.Cfg.K
	t.parallel(d.Len(), func(k, lo, hi int) {
		w := t.workers[k]
		var loss, sl float64
		for i := lo; i < hi; i++ {
			out, _ := w.forward(t.Net, d.Features(i), d.STM[i] == 0)
			p := sigmoid(float64(out) * gain)
			e := p - float64(t.target(d, i))
			loss += e * e
			e = p - sigmoid(float64(d.Score[i])/t.Cfg.K)
			sl += e * e
		}
		w.loss, w.loss2 = loss, sl
	})
	th := t.threads()
	if d.Len() < 2*th {
		th = 1
	}
	for _, w := range t.workers[:th] {
		loss += w.loss
		scoreMSE += w.loss2
	}
	n := float64(max(d.Len(), 1))
	return loss / n, scoreMSE / n
}

// EpochStats reports one epoch.
type EpochStats struct {
	Epoch     int // 1-based
	TrainLoss float64
	ValLoss   float64 // NaN without validation data
	ValScore  float64 // validation MSE against sigmoid(score/K) alone
	LR        float64 // at the epoch's start
	Samples   int
	Rate      float64 // samples per second
	Elapsed   time.Duration
}

func (s EpochStats) String() string {
	return fmt.Sprintf("epoch %3d  train %.6f  val %.6f (score %.6f)  lr %.2e  %8.0f samples/s  %v",
		s.Epoch, s.TrainLoss, s.ValLoss, s.ValScore, s.LR, s.Rate, s.Elapsed.Round(time.Second))
}

// Permutation returns the training order of epoch e (1-based): a shuffle
// of 0..n-1 seeded by (Seed, e), so a resumed run repeats it.
func (t *Trainer) Permutation(perm []uint32, e int) {
	for i := range perm {
		perm[i] = uint32(i)
	}
	r := rand.New(rand.NewPCG(t.Cfg.Seed, uint64(e)))
	r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
}

// RunEpoch trains one epoch on train and returns its stats (the validation
// loss when val is not nil). progress, if not nil, gets a line now and then.
func (t *Trainer) RunEpoch(train, val *Dataset, start time.Time, progress io.Writer) EpochStats {
	e := t.Epoch + 1
	n := train.Len()
	perm := make([]uint32, n)
	t.Permutation(perm, e)
	st := EpochStats{Epoch: e, LR: t.Cfg.LRAt(float64(e - 1)), ValLoss: math.NaN(), ValScore: math.NaN()}
	t0 := time.Now()
	var sum float64
	batch := max(t.Cfg.Batch, 1)
	nb := (n + batch - 1) / batch
	next := time.Now().Add(time.Minute)
	for b := 0; b < nb; b++ {
		idx := perm[b*batch : min((b+1)*batch, n)]
		loss, g := t.Gradient(train, idx)
		sum += loss * float64(len(idx))
		t.adam(g, t.Cfg.LRAt(float64(e-1)+float64(b)/float64(nb)))
		if progress != nil && time.Now().After(next) {
			next = time.Now().Add(time.Minute)
			done := (b + 1) * batch
			fmt.Fprintf(progress, "  epoch %d: %d/%d  loss %.6f  %.0f samples/s\n",
				e, min(done, n), n, sum/float64(min(done, n)), float64(min(done, n))/time.Since(t0).Seconds())
		}
	}
	st.Samples = n
	st.Rate = float64(n) / time.Since(t0).Seconds()
	st.TrainLoss = sum / float64(max(n, 1))
	if val != nil && val.Len() > 0 {
		st.ValLoss, st.ValScore = t.Evaluate(val)
	}
	st.Elapsed = time.Since(start)
	t.Epoch = e
	return st
}

// RoundOutput rounds the output weights O (all buckets) to the net file's
// resolution (multiples of 1/QB), so that a following FreezeOutput
// fine-tuning of the first layer can absorb their rounding error.
func (t *Trainer) RoundOutput() {
	sh := t.Net.shape()
	for i := sh.offO(); i < sh.offOB(); i++ {
		t.P[i] = float32(math.Round(float64(t.P[i])*eval.NetQB) / eval.NetQB)
	}
}

// QuantLoss is the mean loss over d of the quantised net q (evaluated with
// QuantEval's integer arithmetic): the loss of the net as the engine sees it.
func (t *Trainer) QuantLoss(q *QuantNet, d *Dataset) float64 {
	t.ensureWorkers()
	t.parallel(d.Len(), func(k, lo, hi int) {
		var loss float64
		for i := lo; i < hi; i++ {
			cp := q.EvalFeatures(d.Features(i), d.STM[i] == 0)
			e := sigmoid(float64(cp)/t.Cfg.K) - float64(t.target(d, i))
			loss += e * e
		}
		t.workers[k].loss = loss
	})
	th := t.threads()
	if d.Len() < 2*th {
		th = 1
	}
	var loss float64
	for _, w := range t.workers[:th] {
		loss += w.loss
	}
	return loss / float64(max(d.Len(), 1))
}
