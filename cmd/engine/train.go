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
	"strings"
	"time"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/train"
	"github.com/rochade/rochade/uci"
)

const trainUsage = `Usage: rochade train --data FILE[,FILE...] [flags]

Trains the 768->256x2->1 SCReLU evaluation net, with --buckets output
buckets chosen by the number of pieces on the board, on scored positions
and writes the quantised net file (format RCHDNNUE v2; --buckets 1 is the
net without buckets, written as v2 with one bucket).

Data files: text lines "<FEN> | <score cp, White's view> | <1.0|0.5|0.0>"
(plain, or xz-compressed with a .xz suffix). Positions in check or with
|score| above --max-score are skipped.

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
	Buckets      int           `json:"buckets"`
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
	Seed         uint64        `json:"seed"`
	TrainLoss    float64       `json:"train_loss"`
	ValLoss      *float64      `json:"val_loss,omitempty"`
	QuantValLoss *float64      `json:"val_loss_quantised,omitempty"`
}

func runTrain(args []string) int {
	if err := trainMain(args, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(os.Stderr, "rochade train: %v\n", err)
		return 1
	}
	return 0
}

func trainMain(args []string, out, errOut io.Writer) error {
	cfg := train.DefaultConfig()
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.Usage = func() {
		fmt.Fprint(errOut, trainUsage)
		fs.PrintDefaults()
	}
	data := fs.String("data", "", "training data files, comma-separated")
	valFiles := fs.String("val", "", "validation data files, comma-separated")
	valLast := fs.Int("val-last", -1, "hold out the last N training positions for validation (default: 2% when --val is not given)")
	fs.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "epochs")
	finish := fs.Int("finish-epochs", 1, "extra epochs after rounding the output layer to the file's resolution and freezing it (at the final LR)")
	fs.IntVar(&cfg.Batch, "batch", cfg.Batch, "positions per optimiser step")
	fs.Float64Var(&cfg.LR, "lr", cfg.LR, "peak learning rate (AdamW)")
	fs.StringVar(&cfg.Schedule, "schedule", cfg.Schedule, "LR schedule: cosine (to lr*lr-final) or step (x lr-gamma every lr-step epochs)")
	fs.Float64Var(&cfg.LRFinal, "lr-final", cfg.LRFinal, "cosine: final LR as a fraction of --lr")
	fs.IntVar(&cfg.LRStep, "lr-step", cfg.LRStep, "step: epochs between LR drops")
	fs.Float64Var(&cfg.LRGamma, "lr-gamma", cfg.LRGamma, "step: LR factor per drop")
	fs.Float64Var(&cfg.WD, "wd", cfg.WD, "AdamW decoupled weight decay (first-layer and output weights)")
	fs.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "weight of the score in the target (1-lambda: the game result)")
	kFlag := fs.Float64("k", 0, "sigmoid scale K in cp (0: fit on the training data)")
	fs.IntVar(&cfg.Threads, "threads", runtime.NumCPU(), "worker threads")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed for initialisation and shuffling")
	maxScore := fs.Int("max-score", train.DefaultFilter.MaxScore, "skip positions with |score| above this (cp)")
	minPly := fs.Int("min-ply", train.DefaultFilter.MinPly, "skip positions before this ply (sources that record the ply)")
	outPath := fs.String("out", "net.nnue", "net file to write (after every epoch)")
	bestPath := fs.String("best", "", "also write the net of the epoch with the lowest validation loss of the quantised net here")
	ckptDir := fs.String("checkpoint", "", "directory for float checkpoints and per-epoch nets")
	resume := fs.String("resume", "", "checkpoint file (or checkpoint directory) to continue from")
	mirror := fs.Bool("mirror", false, "also train on every training position reflected file-wise (a <-> h); validation positions are not reflected")
	buckets := fs.Int("buckets", train.DefaultBuckets, fmt.Sprintf("output buckets by piece count, 1..%d (1: no buckets); a resumed run keeps its checkpoint's", eval.NetMaxBuckets))
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *data == "" {
		fs.Usage()
		return errors.New("--data is required")
	}
	if cfg.Batch < 1 || cfg.Epochs < 0 || *finish < 0 || cfg.Threads < 1 {
		return errors.New("--batch and --threads must be positive, --epochs and --finish-epochs not negative")
	}
	if *buckets < 1 || *buckets > eval.NetMaxBuckets {
		return fmt.Errorf("--buckets %d: want 1..%d", *buckets, eval.NetMaxBuckets)
	}
	if cfg.Schedule != "cosine" && cfg.Schedule != "step" {
		return fmt.Errorf("unknown --schedule %q", cfg.Schedule)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	start := time.Now()
	flt := train.Filter{MaxScore: *maxScore, MinPly: *minPly}
	man := manifest{
		Format: fmt.Sprintf("RCHDNNUE v%d", eval.NetVersion), Trainer: "rochade train " + uci.Version,
		Filters: flt, FilterRules: train.FilterRules, Epochs: cfg.Epochs, FinishEpochs: *finish, Batch: cfg.Batch,
		LR: cfg.LR, Schedule: cfg.Schedule, WD: cfg.WD, Seed: cfg.Seed,
	}

	load := func(list string) (*train.Dataset, []train.Stats, error) {
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
	trainSet, stats, err := load(*data)
	if err != nil {
		return err
	}
	man.Data = stats
	var valSet *train.Dataset
	switch {
	case *valFiles != "":
		if valSet, man.Val, err = load(*valFiles); err != nil {
			return err
		}
		if *valLast > 0 {
			trainSet.Split(*valLast) // dropped: --val is the validation set
		}
	default:
		n := *valLast
		if n < 0 {
			n = trainSet.Len() / 50
		}
		valSet = trainSet.Split(n)
		man.ValLast = n
	}
	if *mirror {
		trainSet.AddMirrored()
		man.Mirror = true
	}
	man.TrainCount, man.ValCount = trainSet.Len(), valSet.Len()
	if trainSet.Len() == 0 {
		return errors.New("no training positions")
	}
	fmt.Fprintf(out, "training positions %d, validation positions %d\n", trainSet.Len(), valSet.Len())

	var tr *train.Trainer
	if *resume != "" {
		path := *resume
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			path = filepath.Join(path, "last.ckpt")
		}
		c, err := train.LoadCheckpoint(path)
		if err != nil {
			return err
		}
		if set["buckets"] && *buckets != c.Buckets {
			return fmt.Errorf("--buckets %d, but %s has %d output buckets", *buckets, path, c.Buckets)
		}
		cfg.K = c.K
		if !set["lambda"] {
			cfg.Lambda = c.Lambda
		}
		if *kFlag > 0 {
			cfg.K = *kFlag
		}
		tr = train.Resume(c, cfg)
		fmt.Fprintf(out, "resumed %s after epoch %d (step %d), K %.1f, lambda %.2f\n", path, c.Epoch, c.Step, cfg.K, cfg.Lambda)
	} else {
		if *kFlag > 0 {
			cfg.K = *kFlag
			fmt.Fprintf(out, "K %.1f (given)\n", cfg.K)
		} else {
			k, mse := train.FitK(trainSet)
			cfg.K = k
			fmt.Fprintf(out, "K %.1f fitted (MSE of sigmoid(score/K) vs result %.5f)\n", k, mse)
		}
		tr = train.NewTrainer(train.NewNet(cfg.Seed, *buckets), cfg)
	}
	man.K, man.Lambda, man.Buckets = cfg.K, cfg.Lambda, tr.Net.Buckets()
	if *ckptDir != "" {
		if err := os.MkdirAll(*ckptDir, 0o755); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "epochs %d + %d finishing, batch %d, lr %g (%s), wd %g, lambda %.2f, K %.1f, buckets %d, threads %d\n",
		cfg.Epochs, *finish, cfg.Batch, cfg.LR, cfg.Schedule, cfg.WD, cfg.Lambda, cfg.K, tr.Net.Buckets(), cfg.Threads)
	if tr.Epoch == 0 && valSet.Len() > 0 {
		vl, vs := tr.Evaluate(valSet)
		fmt.Fprintf(out, "epoch   0  val %.6f (score %.6f)\n", vl, vs)
	}
	var best *train.BestNet
	if *bestPath != "" {
		// A resumed run keeps the best net it has: the loss to beat is
		// that net's, not +Inf (a worse epoch once replaced it).
		if best, err = train.NewBestNet(*bestPath, *resume != "", tr, valSet); err != nil {
			return err
		}
		if !math.IsInf(best.Loss, 1) {
			fmt.Fprintf(out, "best net so far: %s, quantised val %.6f\n", *bestPath, best.Loss)
		}
	}
	for tr.Epoch < cfg.Epochs+*finish {
		if tr.Epoch >= cfg.Epochs {
			tr.Cfg.FreezeOutput = true
			tr.RoundOutput()
		}
		st := tr.RunEpoch(trainSet, valSet, start, out)
		fmt.Fprintln(out, st)
		man.EpochsDone, man.TrainLoss, man.ValLoss, man.QuantValLoss = st.Epoch, st.TrainLoss, nil, nil
		ql := math.Inf(1)
		if valSet.Len() > 0 {
			vl := st.ValLoss
			ql = tr.QuantLoss(tr.Net.Quantise(), valSet)
			man.ValLoss, man.QuantValLoss = &vl, &ql
			fmt.Fprintf(out, "  quantised net: val %.6f\n", ql)
		}
		man.Date = time.Now().UTC().Format(time.RFC3339)
		if err := writeNet(*outPath, tr, &man); err != nil {
			return err
		}
		if best != nil {
			q, err := quantWithManifest(tr, &man)
			if err != nil {
				return err
			}
			if wrote, err := best.Offer(q, ql); err != nil {
				return err
			} else if wrote {
				fmt.Fprintf(out, "  best so far: wrote %s\n", *bestPath)
			}
		}
		if *ckptDir != "" {
			if err := tr.SaveCheckpoint(filepath.Join(*ckptDir, "last.ckpt")); err != nil {
				return err
			}
			if err := tr.SaveCheckpoint(filepath.Join(*ckptDir, fmt.Sprintf("epoch-%03d.ckpt", st.Epoch))); err != nil {
				return err
			}
			if err := writeNet(filepath.Join(*ckptDir, fmt.Sprintf("epoch-%03d.nnue", st.Epoch)), tr, &man); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(out, "wrote %s (%v)\n", *outPath, time.Since(start).Round(time.Second))
	return nil
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
