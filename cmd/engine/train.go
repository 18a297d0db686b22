package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/train"
	"github.com/rochade/rochade/uci"
)

const trainUsage = `Usage: rochade train --data FILE[,FILE...] [flags]

Trains the (K*768)->Hx2->1 SCReLU evaluation net, with --buckets output
buckets chosen by the number of pieces on the board, on scored positions
and writes the quantised net file. H is --hidden (256 by default); K is
the number of king buckets of --king-buckets (1 by default: the plain
net), a block of 768 inputs chosen by each side's own king square, with
the board reflected a <-> h while that king is on files e-h unless
--king-mirror=false. The plain net of width 256 is written in format
RCHDNNUE v2, which every build reads; any other in v3.

--factorise adds a factoriser to a net with king buckets: one more
block of 768 inputs that every position uses beside its king bucket's,
so that what all king squares share is learnt from every position. The
file holds each bucket's block plus the factoriser's, so the engine sees
a plain king-bucketed net and plays it at the same speed.

--init starts a new run from a trained plain net (a net file or a
checkpoint): its first layer goes into every king bucket's block, or
into the factoriser's with every bucket's own block at zero, so that the
buckets learn only how a king square differs. Without king mirroring the
run starts from the plain net's own function.

King bucket layouts: 1 (none), 4 (rank 1 wing a-b | rank 1 centre c-d |
rank 2 | ranks 3-8), 8 (a1-b1 | c1 | d1 | a2-b2 | c2-d2 | ranks 3-4 wing
| ranks 3-4 centre | ranks 5-8), or 32 comma-separated bucket numbers for
a1 b1 c1 d1 a2 ... d8 (the king's own side's view, files e-h folded onto
d-a). With king mirroring, --mirror only repeats every position: a
reflected position has the same inputs.

Data files: datagen chunks (.rdg, .rdg.zst), or text lines
"<FEN> | <score cp, White's view> | <1.0|0.5|0.0>" (plain, or xz-compressed
with a .xz suffix). Skipped: fake mate labels, positions in check, noisy
best moves, |score| above --max-score, and (in chunks) plies before
--min-ply.

Loss: mean squared error between sigmoid(eval/K) and the target
lambda*sigmoid(score/K) + (1-lambda)*result (side to move's view). K is
fitted on the training data unless --k is given.

Flags:
`

// manifest is the JSON stored in the net file.
type manifest struct {
	Format       string        `json:"format"`
	Trainer      string        `json:"trainer"`
	Date         string        `json:"date"`
	Data         []train.Stats `json:"data"`
	Val          []train.Stats `json:"val,omitempty"`
	ValLast      int           `json:"val_last,omitempty"`
	Mirror       bool          `json:"mirror,omitempty"`
	Dedup        bool          `json:"dedup,omitempty"`
	Repeats      int           `json:"dedup_repeats,omitempty"`
	InVal        int           `json:"dedup_in_val,omitempty"`
	Buckets      int           `json:"buckets"`
	Hidden       int           `json:"hidden"`
	KingBuckets  int           `json:"king_buckets"`
	KingMap      []int         `json:"king_map,omitempty"`
	KingMirror   bool          `json:"king_mirror,omitempty"`
	Factorised   bool          `json:"factorised,omitempty"`
	Init         string        `json:"init,omitempty"`
	TrainCount   int           `json:"train_positions"`
	ValCount     int           `json:"val_positions"`
	Filters      train.Filter  `json:"filters"`
	FilterRules  string        `json:"filter_rules"`
	Epochs       int           `json:"epochs"`
	FinishEpochs int           `json:"finish_epochs"`
	EpochsDone   int           `json:"epochs_done"`
	Batch        int           `json:"batch"`
	K            float64       `json:"K"`
	Lambda       float64       `json:"lambda"`
	LR           float64       `json:"lr"`
	Schedule     string        `json:"schedule"`
	WD           float64       `json:"weight_decay"`
	BucketWD     float64       `json:"bucket_weight_decay,omitempty"`
	Seed         uint64        `json:"seed"`
	TrainLoss    float64       `json:"train_loss,omitempty"`
	ValLoss      *float64      `json:"val_loss,omitempty"`
	QuantValLoss *float64      `json:"val_loss_quantised,omitempty"`
}

// runTrain is the train subcommand; it returns the exit status.
func runTrain(args []string, stdout, stderr io.Writer) int {
	if err := trainMain(args, stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "rochade train: %v\n", err)
		return 1
	}
	return 0
}

// trainOpts is the command line of rochade train.
type trainOpts struct {
	cfg                                train.Config
	data, valFiles                     string
	valLast, finish, buckets, hidden   int
	k                                  float64
	flt                                train.Filter
	outPath, bestPath, ckptDir, resume string
	init                               string // --init: the plain net to start from
	initPath                           string // init resolved: the checkpoint or net file, absolute
	mirror, kingMirror, dedup, factor  bool
	kingLayout, cpuProfile             string
	kings                              eval.KingBuckets // --king-buckets and --king-mirror
	set                                map[string]bool  // the flags given
}

func trainMain(args []string, out, errOut io.Writer) error {
	o, err := parseTrainFlags(args, errOut)
	if err == nil && o.cpuProfile != "" {
		f, ferr := os.Create(o.cpuProfile)
		if ferr != nil {
			return ferr
		}
		defer f.Close()
		if ferr := pprof.StartCPUProfile(f); ferr != nil {
			return ferr
		}
		defer pprof.StopCPUProfile()
	}
	if err != nil {
		return err
	}
	start := time.Now()
	man := manifest{
		Trainer: "rochade train " + uci.Version,
		Filters: o.flt, FilterRules: train.FilterRules, Epochs: o.cfg.Epochs, FinishEpochs: o.finish, Batch: o.cfg.Batch,
		LR: o.cfg.LR, Schedule: o.cfg.Schedule, WD: o.cfg.WD, BucketWD: o.cfg.BucketWD, Seed: o.cfg.Seed,
	}
	trainSet, valSet, err := loadTrainData(o, &man, out)
	if err != nil {
		return err
	}
	tr, err := startTrainer(o, trainSet, out)
	if err != nil {
		return err
	}
	cfg := tr.Cfg
	man.K, man.Lambda, man.Buckets = cfg.K, cfg.Lambda, tr.Net.Buckets()
	man.Hidden, man.KingBuckets, man.KingMirror = tr.Net.Hidden, tr.Net.Kings.N, tr.Net.Kings.Mirror
	man.Factorised = tr.Net.Factor
	if o.init != "" {
		man.Init = o.initPath // a resumed run's nets no longer say it
	}
	if tr.Net.Kings.N > 1 {
		for _, b := range tr.Net.Kings.Map {
			man.KingMap = append(man.KingMap, int(b))
		}
	}
	version := 2
	if tr.Net.Hidden != eval.NetHidden || !tr.Net.Kings.Plain() {
		version = 3
	}
	man.Format = fmt.Sprintf("RCHDNNUE v%d", version)
	if o.mirror && tr.Net.Kings.Mirror {
		fmt.Fprintln(out, "note: with king mirroring a reflected position has the same inputs; --mirror only repeats every position")
	}
	if o.ckptDir != "" {
		if err := os.MkdirAll(o.ckptDir, 0o755); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "epochs %d + %d finishing, batch %d, lr %g (%s), wd %g, lambda %.2f, K %.1f, buckets %d, hidden %d, king buckets %d (mirror %v, factoriser %v), threads %d\n",
		cfg.Epochs, o.finish, cfg.Batch, cfg.LR, cfg.Schedule, cfg.WD, cfg.Lambda, cfg.K, tr.Net.Buckets(), tr.Net.Hidden, tr.Net.Kings.N, tr.Net.Kings.Mirror, tr.Net.Factor, cfg.Threads)
	var startVal float64 // the starting net's validation loss (a new run with a validation set)
	if tr.Epoch == 0 && valSet.Len() > 0 {
		var vs float64
		startVal, vs = tr.Evaluate(valSet)
		fmt.Fprintf(out, "epoch   0  val %.6f (score %.6f)\n", startVal, vs)
	}
	var best *train.BestNet
	if o.bestPath != "" {
		// A resumed run keeps the best net it has: the loss to beat is
		// that net's, not +Inf (a worse epoch once replaced it).
		if best, err = train.NewBestNet(o.bestPath, o.resume != "", tr, valSet); err != nil {
			return err
		}
		if !math.IsInf(best.Loss, 1) {
			fmt.Fprintf(out, "best net so far: %s, quantised val %.6f\n", o.bestPath, best.Loss)
		}
	}
	switch total := o.cfg.Epochs + o.finish; {
	case tr.Epoch < total:
		for tr.Epoch < total {
			if err := trainEpoch(o, tr, trainSet, valSet, best, &man, start, out); err != nil {
				return err
			}
		}
	case o.resume != "":
		fmt.Fprintf(out, "nothing to train: the run has done its %d epochs; %s left as it is\n", tr.Epoch, o.outPath)
		return nil
	default: // a new run of no epochs (--epochs 0 --finish-epochs 0): the starting net, kept as every epoch's is
		if err := saveEpoch(o, tr, valSet, best, &man, 0, startVal, out); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "wrote %s (%v)\n", o.outPath, time.Since(start).Round(time.Second))
	return nil
}

// parseTrainFlags reads and checks the command line.
func parseTrainFlags(args []string, errOut io.Writer) (*trainOpts, error) {
	o := &trainOpts{cfg: train.DefaultConfig(), set: map[string]bool{}}
	cfg := &o.cfg
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.Usage = func() {
		fmt.Fprint(errOut, trainUsage)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.data, "data", "", "training data files, comma-separated")
	fs.StringVar(&o.valFiles, "val", "", "validation data files, comma-separated")
	fs.IntVar(&o.valLast, "val-last", -1, "hold out the last N training positions for validation (default: 2% when --val is not given)")
	fs.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "epochs")
	fs.IntVar(&o.finish, "finish-epochs", 1, "extra epochs after rounding the output layer to the file's resolution and freezing it (at the final LR)")
	fs.IntVar(&cfg.Batch, "batch", cfg.Batch, "positions per optimiser step")
	fs.Float64Var(&cfg.LR, "lr", cfg.LR, "peak learning rate (AdamW)")
	fs.StringVar(&cfg.Schedule, "schedule", cfg.Schedule, "LR schedule: cosine (to lr*lr-final) or step (x lr-gamma every lr-step epochs)")
	fs.Float64Var(&cfg.LRFinal, "lr-final", cfg.LRFinal, "cosine: final LR as a fraction of --lr")
	fs.IntVar(&cfg.LRStep, "lr-step", cfg.LRStep, "step: epochs between LR drops")
	fs.Float64Var(&cfg.LRGamma, "lr-gamma", cfg.LRGamma, "step: LR factor per drop")
	fs.Float64Var(&cfg.WD, "wd", cfg.WD, "AdamW decoupled weight decay (first-layer and output weights)")
	fs.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "weight of the score in the target (1-lambda: the game result)")
	fs.Float64Var(&o.k, "k", 0, "sigmoid scale K in cp (0: fit on the training data)")
	fs.IntVar(&cfg.Threads, "threads", runtime.NumCPU(), "worker threads")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed for initialisation and shuffling")
	fs.IntVar(&o.flt.MaxScore, "max-score", train.DefaultFilter.MaxScore, "skip positions with |score| above this (cp)")
	fs.IntVar(&o.flt.MinPly, "min-ply", train.DefaultFilter.MinPly, "skip positions before this ply (sources that record the ply)")
	fs.StringVar(&o.outPath, "out", "net.nnue", "net file to write (after every epoch)")
	fs.StringVar(&o.bestPath, "best", "", "also write the net of the epoch with the lowest validation loss of the quantised net here")
	fs.StringVar(&o.ckptDir, "checkpoint", "", "directory for float checkpoints and per-epoch nets")
	fs.StringVar(&o.resume, "resume", "", "checkpoint file (or checkpoint directory) to continue from")
	fs.StringVar(&o.init, "init", "", "start a new run from this plain net (a net file, checkpoint or checkpoint directory): its weights in every king bucket, or in the factoriser with --factorise; width and output buckets are its own; Adam state and schedule start afresh")
	fs.BoolVar(&o.dedup, "dedup", false, "drop a training position whose net inputs (pieces and side to move) repeat an earlier training position or any validation position")
	fs.BoolVar(&o.mirror, "mirror", false, "also train on every training position reflected file-wise (a <-> h); validation positions are not reflected")
	fs.IntVar(&o.buckets, "buckets", train.DefaultBuckets, fmt.Sprintf("output buckets by piece count, 1..%d (1: no buckets); a resumed run keeps its checkpoint's, a run from --init its net's", eval.NetMaxBuckets))
	fs.IntVar(&o.hidden, "hidden", eval.NetHidden, fmt.Sprintf("accumulator width: a multiple of %d up to %d; a resumed run keeps its checkpoint's, a run from --init its net's", eval.NetHiddenStep, eval.NetMaxHidden))
	fs.StringVar(&o.kingLayout, "king-buckets", "1", "king input buckets: a layout (1: none, 4, 8) or 32 comma-separated bucket numbers (see above); a resumed run keeps its checkpoint's")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	fs.BoolVar(&o.kingMirror, "king-mirror", false, "reflect a side's inputs a <-> h while its king is on files e-h (default: on for every king bucket layout but 1)")
	fs.Float64Var(&cfg.BucketWD, "bucket-wd", 0, "with --factorise: weight decay of the king buckets' own blocks (0: --wd), to hold each bucket near the shared factoriser")
	fs.BoolVar(&o.factor, "factorise", false, "train a factoriser beside the king buckets (needs --king-buckets other than 1; merged into the file's weights); a resumed run keeps its checkpoint's")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.data == "" {
		fs.Usage()
		return nil, errors.New("--data is required")
	}
	if cfg.Batch < 1 || cfg.Epochs < 0 || o.finish < 0 || cfg.Threads < 1 {
		return nil, errors.New("--batch and --threads must be positive, --epochs and --finish-epochs not negative")
	}
	if o.buckets < 1 || o.buckets > eval.NetMaxBuckets {
		return nil, fmt.Errorf("--buckets %d: want 1..%d", o.buckets, eval.NetMaxBuckets)
	}
	if err := eval.CheckHidden(o.hidden); err != nil {
		return nil, fmt.Errorf("--hidden: %w", err)
	}
	var err error
	if o.kings, err = train.ParseKingBuckets(o.kingLayout); err != nil {
		return nil, fmt.Errorf("--king-buckets: %w", err)
	}
	if o.set["king-mirror"] {
		o.kings.Mirror = o.kingMirror
	}
	if cfg.BucketWD > 0 && !o.factor && o.resume == "" {
		return nil, errors.New("--bucket-wd needs --factorise")
	}
	if o.factor && o.kings.N < 2 && o.resume == "" {
		return nil, errors.New("--factorise needs king buckets (--king-buckets 4, 8 or a map of two or more)")
	}
	if cfg.Schedule != "cosine" && cfg.Schedule != "step" {
		return nil, fmt.Errorf("unknown --schedule %q", cfg.Schedule)
	}
	if err := checkTrainNumbers(o); err != nil {
		return nil, err
	}
	if o.init != "" && o.resume != "" {
		return nil, errors.New("--init starts a new run and --resume continues one: give one of them")
	}
	if o.init != "" {
		o.initPath = absPath(ckptPath(o.init))
		src := o.initPath
		if src == absPath(o.outPath) || (o.bestPath != "" && src == absPath(o.bestPath)) ||
			(o.ckptDir != "" && filepath.Dir(src) == absPath(o.ckptDir)) {
			return nil, fmt.Errorf("--init %s would be overwritten by this run's --out, --best or --checkpoint", o.init)
		}
	}
	return o, nil
}

// checkTrainNumbers refuses the numeric flags a run cannot use, before
// any data is read: a negative learning rate trained a net that scored
// the start position -19000, a lambda of 2 or a negative K trained on
// targets outside 0..1, and a NaN learning rate or decay trained the whole
// run and then failed to write its manifest.
func checkTrainNumbers(o *trainOpts) error {
	cfg := &o.cfg
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	for _, c := range []struct {
		name string
		x    float64
		ok   bool
		want string
	}{
		{"lr", cfg.LR, cfg.LR > 0, "a positive number"},
		{"lr-final", cfg.LRFinal, cfg.LRFinal >= 0 && cfg.LRFinal <= 1, "a fraction from 0 to 1"},
		{"lr-gamma", cfg.LRGamma, cfg.LRGamma > 0, "a positive number"},
		{"wd", cfg.WD, cfg.WD >= 0, "0 or more"},
		{"bucket-wd", cfg.BucketWD, cfg.BucketWD >= 0, "0 or more"},
		{"lambda", cfg.Lambda, cfg.Lambda >= 0 && cfg.Lambda <= 1, "a weight from 0 to 1"},
		{"k", o.k, o.k >= 0, "0 (fit it) or a positive scale in cp"},
	} {
		if !finite(c.x) || !c.ok {
			return fmt.Errorf("--%s %v: want %s", c.name, c.x, c.want)
		}
	}
	if cfg.LRStep < 1 {
		return fmt.Errorf("--lr-step %d: want 1 or more epochs", cfg.LRStep)
	}
	if o.flt.MaxScore < 1 {
		return fmt.Errorf("--max-score %d: want a positive score in cp", o.flt.MaxScore)
	}
	if o.flt.MinPly < 0 {
		return fmt.Errorf("--min-ply %d: want 0 or more", o.flt.MinPly)
	}
	return nil
}

// loadDataset loads the comma-separated files of list with the filter.
func loadDataset(list string, flt train.Filter, out io.Writer) (*train.Dataset, []train.Stats, error) {
	d := train.NewDataset()
	var stats []train.Stats
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		t0 := time.Now()
		st, err := d.Load(p, train.OpenSource(p), flt)
		if err != nil {
			return nil, nil, err
		}
		fmt.Fprintf(out, "loaded %s: %d read, %d kept, skipped %v (%.1fs)\n", p, st.Read, st.Kept, st.Skipped, time.Since(t0).Seconds())
		stats = append(stats, st)
	}
	return d, stats, nil
}

// loadTrainData loads the training and validation sets (--val, or the
// last --val-last training positions) and adds the reflections
// (--mirror), noting what it did in man.
func loadTrainData(o *trainOpts, man *manifest, out io.Writer) (trainSet, valSet *train.Dataset, err error) {
	trainSet, man.Data, err = loadDataset(o.data, o.flt, out)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case o.valFiles != "":
		if valSet, man.Val, err = loadDataset(o.valFiles, o.flt, out); err != nil {
			return nil, nil, err
		}
		if o.valLast > 0 {
			trainSet.Split(o.valLast) // dropped: --val is the validation set
		}
	default:
		n := o.valLast
		if n < 0 {
			n = trainSet.Len() / 50
		}
		valSet = trainSet.Split(n)
		man.ValLast = n
	}
	if o.dedup {
		r, iv := trainSet.Dedup(valSet)
		man.Dedup, man.Repeats, man.InVal = true, r, iv
		fmt.Fprintf(out, "dedup: dropped %d repeated training positions and %d found in the validation set\n", r, iv)
	}
	if o.mirror {
		trainSet.AddMirrored()
		man.Mirror = true
	}
	man.TrainCount, man.ValCount = trainSet.Len(), valSet.Len()
	if trainSet.Len() == 0 {
		return nil, nil, errors.New("no training positions")
	}
	fmt.Fprintf(out, "training positions %d, validation positions %d\n", trainSet.Len(), valSet.Len())
	return trainSet, valSet, nil
}

// ckptPath is the checkpoint file that path names: path itself, or
// last.ckpt in it when it is a directory.
func ckptPath(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, "last.ckpt")
	}
	return path
}

// absPath is path made absolute and clean (path itself if that fails).
func absPath(path string) string {
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
}

// initNet loads the plain net of --init, a checkpoint or a net file, and
// expands it to the run's king buckets (train.Net.Expand). The run takes
// its width and output buckets from it; --hidden and --buckets, if given,
// must match them.
func initNet(o *trainOpts) (*train.Net, error) {
	var n *train.Net
	path := o.initPath
	if c, cerr := train.LoadCheckpoint(path); cerr == nil {
		n = train.Resume(c, o.cfg).Net
	} else if q, qerr := train.LoadNetFile(path); qerr == nil {
		n = q.Float()
	} else {
		return nil, fmt.Errorf("--init %s: neither a checkpoint (%v) nor a net file (%v)", o.init, cerr, qerr)
	}
	if o.set["buckets"] && o.buckets != n.Buckets() {
		return nil, fmt.Errorf("--buckets %d, but --init %s has %d output buckets", o.buckets, o.init, n.Buckets())
	}
	if o.set["hidden"] && o.hidden != n.Hidden {
		return nil, fmt.Errorf("--hidden %d, but --init %s has width %d", o.hidden, o.init, n.Hidden)
	}
	e, err := n.Expand(o.kings, o.factor)
	if err != nil {
		return nil, fmt.Errorf("--init %s: %w", o.init, err)
	}
	return e, nil
}

// startTrainer resumes the checkpoint of --resume, or makes a new net
// with K given or fitted on trainSet.
func startTrainer(o *trainOpts, trainSet *train.Dataset, out io.Writer) (*train.Trainer, error) {
	cfg := o.cfg
	if o.resume == "" {
		if o.k > 0 {
			cfg.K = o.k
			fmt.Fprintf(out, "K %.1f (given)\n", cfg.K)
		} else {
			k, mse := train.FitK(trainSet)
			cfg.K = k
			fmt.Fprintf(out, "K %.1f fitted (MSE of sigmoid(score/K) vs result %.5f)\n", k, mse)
		}
		if o.init != "" {
			n, err := initNet(o)
			if err != nil {
				return nil, err
			}
			return train.NewTrainer(n, cfg), nil
		}
		if o.factor {
			return train.NewTrainer(train.NewFactorisedNet(cfg.Seed, o.buckets, o.hidden, o.kings), cfg), nil
		}
		return train.NewTrainer(train.NewShapedNet(cfg.Seed, o.buckets, o.hidden, o.kings), cfg), nil
	}
	path := ckptPath(o.resume)
	c, err := train.LoadCheckpoint(path)
	if err != nil {
		return nil, err
	}
	if o.set["buckets"] && o.buckets != c.Buckets {
		return nil, fmt.Errorf("--buckets %d, but %s has %d output buckets", o.buckets, path, c.Buckets)
	}
	if o.set["hidden"] && o.hidden != c.Hidden {
		return nil, fmt.Errorf("--hidden %d, but %s has width %d", o.hidden, path, c.Hidden)
	}
	if (o.set["king-buckets"] || o.set["king-mirror"]) && o.kings != c.Kings {
		return nil, fmt.Errorf("--king-buckets %s (mirror %v), but %s has %d king buckets %v (mirror %v)", o.kingLayout, o.kings.Mirror, path, c.Kings.N, c.Kings.Map, c.Kings.Mirror)
	}
	if o.set["factorise"] && o.factor != c.Factor {
		return nil, fmt.Errorf("--factorise=%v, but %s has factoriser %v", o.factor, path, c.Factor)
	}
	cfg.K = c.K
	if !o.set["lambda"] {
		cfg.Lambda = c.Lambda
	}
	if o.k > 0 {
		cfg.K = o.k
	}
	fmt.Fprintf(out, "resumed %s after epoch %d (step %d), K %.1f, lambda %.2f\n", path, c.Epoch, c.Step, cfg.K, cfg.Lambda)
	return train.Resume(c, cfg), nil
}

// trainEpoch runs one epoch (a finishing one, with the output layer
// rounded and frozen, after --epochs) and writes its net, the best net
// and the checkpoints.
func trainEpoch(o *trainOpts, tr *train.Trainer, trainSet, valSet *train.Dataset, best *train.BestNet, man *manifest, start time.Time, out io.Writer) error {
	if tr.Epoch >= o.cfg.Epochs {
		tr.Cfg.FreezeOutput = true
		tr.RoundOutput()
	}
	st := tr.RunEpoch(trainSet, valSet, start, out)
	fmt.Fprintln(out, st)
	man.TrainLoss = st.TrainLoss
	return saveEpoch(o, tr, valSet, best, man, st.Epoch, st.ValLoss, out)
}

// saveEpoch writes the net after an epoch (epoch 0: the starting net of
// a run of none), whose validation loss is valLoss, the best net and the
// checkpoints. man.TrainLoss is the epoch's (0: none, left out of the file).
func saveEpoch(o *trainOpts, tr *train.Trainer, valSet *train.Dataset, best *train.BestNet, man *manifest, epoch int, valLoss float64, out io.Writer) error {
	man.EpochsDone, man.ValLoss, man.QuantValLoss = epoch, nil, nil
	ql := math.Inf(1)
	if valSet.Len() > 0 {
		vl := valLoss
		ql = tr.QuantLoss(tr.Net.Quantise(), valSet)
		man.ValLoss, man.QuantValLoss = &vl, &ql
		fmt.Fprintf(out, "  quantised net: val %.6f\n", ql)
	}
	man.Date = time.Now().UTC().Format(time.RFC3339)
	if err := writeNet(o.outPath, tr, man); err != nil {
		return err
	}
	if best != nil {
		q, err := quantWithManifest(tr, man)
		if err != nil {
			return err
		}
		if wrote, err := best.Offer(q, ql); err != nil {
			return err
		} else if wrote {
			fmt.Fprintf(out, "  best so far: wrote %s\n", o.bestPath)
		}
	}
	if o.ckptDir == "" {
		return nil
	}
	if err := tr.SaveCheckpoint(filepath.Join(o.ckptDir, "last.ckpt")); err != nil {
		return err
	}
	if err := tr.SaveCheckpoint(filepath.Join(o.ckptDir, fmt.Sprintf("epoch-%03d.ckpt", epoch))); err != nil {
		return err
	}
	return writeNet(filepath.Join(o.ckptDir, fmt.Sprintf("epoch-%03d.nnue", epoch)), tr, man)
}

func writeNet(path string, tr *train.Trainer, man *manifest) error {
	q, err := quantWithManifest(tr, man)
	if err != nil {
		return err
	}
	return train.SaveNetFile(path, q)
}

// quantWithManifest is the trainer's quantised net with the manifest.
func quantWithManifest(tr *train.Trainer, man *manifest) (*train.QuantNet, error) {
	q := tr.Net.Quantise()
	js, err := json.Marshal(man)
	if err != nil {
		return nil, err
	}
	q.Manifest = js
	return q, nil
}
