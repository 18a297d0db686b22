package datagen

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/rochade/rochade/internal/atomicfile"
	"github.com/rochade/rochade/variant960"
)

// ManifestName is the manifest's file name in the output directory.
const ManifestName = "manifest.tsv"

const manifestHeader = "# chunk\tengine\teval\tnodes\thard_nodes\tseed\tfirst_game\tend_game\tgames\tpositions\tsha256"

// manifestMixColumn is the header's twelfth column, written only by runs
// whose opening mix is not the default (MixID).
const manifestMixColumn = "\tmix"

// Options configure a generation run.
type Options struct {
	Out        string // output directory (chunks and manifest)
	Seed       uint64
	Threads    int    // worker goroutines, each with its own engine; 0: 1
	Games      uint64 // stop once this many game indices are done (0: no limit)
	Positions  uint64 // stop once this many positions are written (0: no limit)
	ChunkGames int    // game indices per chunk; 0: 250
	Play       PlayConfig
	Engine     string // engine identity for the manifest; "": "dev"

	Progress      io.Writer     // progress lines; nil: none
	ProgressEvery time.Duration // 0: 10 s
}

// ManifestEntry is one line of the manifest: one chunk.
type ManifestEntry struct {
	Chunk      string // file name, relative to the output directory
	Engine     string
	Eval       string
	Nodes      uint64
	HardNodes  uint64
	Seed       uint64
	FirstGame  uint64 // the first game index in the chunk
	EndGame    uint64 // one past the last game index (games dropped as duplicates count)
	Games      uint64 // games stored
	Positions  uint64
	SHA256     string // of the chunk file
	Mix        string // the opening mix (MixID); "": the default, and no twelfth column
	lineNumber int
}

func (m ManifestEntry) line() string {
	return strings.Join([]string{m.Chunk, m.Engine, m.Eval,
		strconv.FormatUint(m.Nodes, 10), strconv.FormatUint(m.HardNodes, 10), strconv.FormatUint(m.Seed, 10),
		strconv.FormatUint(m.FirstGame, 10), strconv.FormatUint(m.EndGame, 10),
		strconv.FormatUint(m.Games, 10), strconv.FormatUint(m.Positions, 10), m.SHA256}, "\t") + m.mixColumn()
}

func (m ManifestEntry) mixColumn() string {
	if m.Mix == "" {
		return ""
	}
	return "\t" + m.Mix
}

// ReadManifest reads DIR/manifest.tsv. A missing manifest is no error.
func ReadManifest(dir string) ([]ManifestEntry, error) {
	f, err := os.Open(filepath.Join(dir, ManifestName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []ManifestEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 11 && len(f) != 12 {
			return nil, fmt.Errorf("%s line %d: %d fields, want 11 or 12", ManifestName, n, len(f))
		}
		var nums [7]uint64
		for i := range nums {
			if nums[i], err = strconv.ParseUint(f[3+i], 10, 64); err != nil {
				return nil, fmt.Errorf("%s line %d: %v", ManifestName, n, err)
			}
		}
		out = append(out, ManifestEntry{Chunk: f[0], Engine: f[1], Eval: f[2], Nodes: nums[0], HardNodes: nums[1],
			Seed: nums[2], FirstGame: nums[3], EndGame: nums[4], Games: nums[5], Positions: nums[6], SHA256: f[10], lineNumber: n})
		if len(f) == 12 {
			out[len(out)-1].Mix = f[11]
		}
	}
	return out, sc.Err()
}

// Run generates games into opt.Out until a limit is reached or ctx is
// cancelled. Games are numbered from 0; game i depends only on
// (opt.Seed, i) and the play settings. A run in a directory with a
// manifest resumes after the last chunk listed there (same seed and node
// limits required, checked; the same hash size, length cap and engine
// build are needed for the same games, not checked); a cancelled run
// loses only the chunk in progress.
func Run(ctx context.Context, opt Options) error {
	if opt.Games == 0 && opt.Positions == 0 {
		return errors.New("datagen: need a game or position limit")
	}
	opt.Play = opt.Play.withDefaults()
	opt.Threads = max(1, opt.Threads)
	if opt.ChunkGames <= 0 {
		opt.ChunkGames = 250
	}
	if opt.Engine == "" {
		opt.Engine = "dev"
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = 10 * time.Second
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return err
	}
	removeTemps(opt.Out)

	r := &run{opt: opt, seen: make(map[uint64]struct{})}
	if err := r.resume(); err != nil {
		return err
	}
	if r.done(r.next, r.donePositions) {
		return nil
	}
	r.ctx, r.cancel = context.WithCancel(ctx)
	defer r.cancel()
	results := r.startWorkers()
	co, err := newChunkOut(opt.Out, len(r.entries))
	if err != nil {
		return err
	}
	defer co.close()
	r.co = co
	return r.collect(results)
}

// run is one generation run: its settings, what the output directory
// holds, and the chunk being collected. Only the goroutine of Run
// touches it, but for stopped, ctx and stop (read by the workers).
type run struct {
	opt     Options
	ctx     context.Context
	cancel  context.CancelFunc
	stopped atomic.Bool // set once a limit is reached

	entries       []ManifestEntry     // the manifest's chunks, those of this run included
	seen          map[uint64]struct{} // the start positions' keys of the games kept
	next          uint64              // the next game index to collect
	doneGames     uint64              // games in the listed chunks
	donePositions uint64              // positions in the listed chunks

	co           *chunkOut
	cw           chunkWriter         // the chunk in progress
	chunkFirst   uint64              // its first game index
	pending      map[uint64]*gameOut // finished games that wait for earlier ones
	start        time.Time           // when collecting began
	runPositions uint64              // positions and games this run made
	runGames     uint64
}

// resume checks the chunks the manifest lists against this run's settings
// and their checksums, and takes up where they end: the next game index,
// the counts and the start positions used.
func (r *run) resume() error {
	opt := &r.opt
	entries, err := ReadManifest(opt.Out)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if mix := MixID(opt.Play.Mix); e.Seed != opt.Seed || e.Nodes != opt.Play.Nodes || e.HardNodes != opt.Play.HardNodes || e.Eval != EvalID(opt.Play.Net) || e.Mix != mix {
			return fmt.Errorf("datagen: %s holds chunks made with seed %d, nodes %d/%d, eval %s, mix %s; this run has seed %d, nodes %d/%d, eval %s, mix %s (use another --out)",
				opt.Out, e.Seed, e.Nodes, e.HardNodes, e.Eval, mixName(e.Mix), opt.Seed, opt.Play.Nodes, opt.Play.HardNodes, EvalID(opt.Play.Net), mixName(mix))
		}
		if e.FirstGame != r.next {
			return fmt.Errorf("datagen: %s line %d: chunk starts at game %d, want %d", ManifestName, e.lineNumber, e.FirstGame, r.next)
		}
		if err := startKeys(filepath.Join(opt.Out, e.Chunk), e.SHA256, r.seen); err != nil {
			return fmt.Errorf("datagen: resuming: %w", err)
		}
		r.next = e.EndGame
		r.doneGames += e.Games
		r.donePositions += e.Positions
	}
	r.entries = entries
	if opt.Progress != nil && len(entries) > 0 {
		fmt.Fprintf(opt.Progress, "resuming at game %d: %d chunks, %d games, %d positions\n", r.next, len(entries), r.doneGames, r.donePositions)
	}
	return nil
}

// done tells whether a limit is reached at game index idx with positions
// written.
func (r *run) done(idx, positions uint64) bool {
	return (r.opt.Games > 0 && idx >= r.opt.Games) || (r.opt.Positions > 0 && positions >= r.opt.Positions)
}

// stop tells the workers to stop: a limit is reached or ctx is done.
func (r *run) stop() bool { return r.stopped.Load() || r.ctx.Err() != nil }

// startWorkers starts opt.Threads workers, each with its own player,
// which take game indices in order from r.next and send the finished
// games. The channel is closed when all of them have stopped.
func (r *run) startWorkers() <-chan *gameOut {
	var counter atomic.Uint64
	counter.Store(r.next)
	results := make(chan *gameOut, 2*r.opt.Threads)
	var wg sync.WaitGroup
	for range r.opt.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(&counter, results)
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	return results
}

// work plays the games of the indices it takes from counter until the
// run stops or the game limit is reached.
func (r *run) work(counter *atomic.Uint64, results chan<- *gameOut) {
	p := newPlayer(r.opt.Play)
	for !r.stop() {
		i := counter.Add(1) - 1
		if r.opt.Games > 0 && i >= r.opt.Games {
			return
		}
		g, err := p.play(r.opt.Seed, i, r.stop)
		if g == nil && err == nil {
			return // stopped
		}
		if err != nil {
			g = &gameOut{index: i, err: err}
		}
		select {
		case results <- g:
		case <-r.ctx.Done():
			return
		}
	}
}

// collect puts the workers' games in index order into chunks, and
// reports progress, until the workers are gone.
func (r *run) collect(results <-chan *gameOut) error {
	r.cw.reset()
	r.chunkFirst = r.next
	r.pending = make(map[uint64]*gameOut)
	r.start = time.Now()
	tick := time.NewTicker(r.opt.ProgressEvery)
	defer tick.Stop()
	for {
		select {
		case g, ok := <-results:
			if !ok {
				return r.finish()
			}
			if g.err != nil {
				r.cancel()
				return g.err
			}
			if err := r.add(g); err != nil {
				r.cancel()
				return err
			}
		case <-tick.C:
			r.progress(false)
		}
	}
}

// add takes a finished game, and stores it and the games after it that
// are waiting, in index order: a game whose start position an earlier one
// used is dropped. A chunk is written when it is full or a limit is
// reached.
func (r *run) add(g *gameOut) error {
	r.pending[g.index] = g
	for {
		g, ok := r.pending[r.next]
		if !ok || r.stopped.Load() {
			return nil
		}
		delete(r.pending, r.next)
		r.next++
		if _, dup := r.seen[g.key]; !dup {
			r.seen[g.key] = struct{}{}
			r.cw.addGame(g.record, g.positions)
			r.runPositions += uint64(g.positions)
			r.runGames++
		}
		finished := r.done(r.next, r.donePositions+r.cw.positions)
		if finished || r.next-r.chunkFirst >= uint64(r.opt.ChunkGames) {
			if err := r.flush(r.next); err != nil {
				return err
			}
		}
		if finished {
			r.stopped.Store(true)
		}
	}
}

// finish ends the run once the workers are gone (a limit was reached or
// ctx was cancelled): the last, partial chunk is written unless ctx was
// cancelled.
func (r *run) finish() error {
	if r.ctx.Err() == nil && r.next > r.chunkFirst {
		if err := r.flush(r.next); err != nil {
			return err
		}
	}
	r.progress(true)
	return r.ctx.Err()
}

// flush writes the chunk in progress, games up to index end, and lists it
// in the manifest.
func (r *run) flush(end uint64) error {
	opt := &r.opt
	e, err := r.co.write(&r.cw, ManifestEntry{
		Engine: opt.Engine, Eval: EvalID(opt.Play.Net),
		Nodes: opt.Play.Nodes, HardNodes: opt.Play.HardNodes, Seed: opt.Seed,
		FirstGame: r.chunkFirst, EndGame: end, Mix: MixID(opt.Play.Mix),
	})
	if err != nil {
		return err
	}
	r.entries = append(r.entries, e)
	r.doneGames += e.Games
	r.donePositions += e.Positions
	r.chunkFirst = end
	return nil
}

// progress writes a progress line (the last one when final).
func (r *run) progress(final bool) {
	opt := &r.opt
	if opt.Progress == nil {
		return
	}
	el := time.Since(r.start).Seconds()
	pps := float64(r.runPositions) / max(el, 1e-9)
	gps := float64(r.runGames) / max(el, 1e-9)
	games := r.doneGames + r.cw.games
	positions := r.donePositions + r.cw.positions
	eta := "?"
	if opt.Games > 0 && gps > 0 {
		eta = fmtDur(float64(opt.Games-min(opt.Games, r.next)) / gps)
	}
	if opt.Positions > 0 && pps > 0 {
		e := fmtDur(float64(opt.Positions-min(opt.Positions, positions)) / pps)
		if eta == "?" || opt.Games == 0 {
			eta = e
		}
	}
	word := "progress"
	switch {
	case final && r.ctx.Err() != nil:
		word = "stopped"
	case final:
		word = "done"
	}
	fmt.Fprintf(opt.Progress, "%s: games %d, positions %d, chunks %d, %.0f pos/s, %.2f games/s, elapsed %s, ETA %s\n",
		word, games, positions, len(r.entries), pps, gps, fmtDur(el), eta)
}

// startKeys checks a chunk file against its manifest checksum and adds
// the Zobrist keys of its games' start positions to seen.
func startKeys(path, sha string, seen map[uint64]struct{}) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != sha {
		return fmt.Errorf("%s: sha256 differs from the manifest's", path)
	}
	err = scanGames(bytes.NewReader(data), func(g *game) error {
		pos, err := variant960.ParseFEN(g.fen)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrFormat, err)
		}
		seen[pos.Key()] = struct{}{}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// removeTemps removes stale temporary files of our own from an
// interrupted run (chunks and the manifest, written through atomicfile);
// other files in the directory are the user's.
func removeTemps(dir string) {
	tmps, _ := filepath.Glob(filepath.Join(dir, "chunk-*"+atomicfile.TempSuffix))
	tmps = append(tmps, filepath.Join(dir, ManifestName+atomicfile.TempSuffix))
	for _, t := range tmps {
		os.Remove(t)
	}
}

// chunkOut writes chunk files into a directory and lists each in the
// manifest once it is safely on disk. Both datagen runs and the PGN
// importer write through it.
type chunkOut struct {
	dir  string
	enc  *zstd.Encoder
	next int // the number of the next chunk file
}

// newChunkOut writes chunks into dir, numbered from next (the number of
// chunks the manifest already lists).
func newChunkOut(dir string, next int) (*chunkOut, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	return &chunkOut{dir: dir, enc: enc, next: next}, nil
}

func (o *chunkOut) close() { o.enc.Close() }

// write compresses the chunk of cw, writes it atomically and appends its
// manifest line: e with the chunk's name, counts and checksum filled in.
// cw is reset for the next chunk.
func (o *chunkOut) write(cw *chunkWriter, e ManifestEntry) (ManifestEntry, error) {
	e.Chunk = fmt.Sprintf("chunk-%06d.rdg.zst", o.next)
	e.Games, e.Positions = cw.games, cw.positions
	data := o.enc.EncodeAll(cw.finish(), nil)
	sum := sha256.Sum256(data)
	e.SHA256 = hex.EncodeToString(sum[:])
	if err := atomicfile.Write(filepath.Join(o.dir, e.Chunk), data, 0o644); err != nil {
		return e, err
	}
	if err := appendManifest(o.dir, e); err != nil {
		return e, err
	}
	o.next++
	cw.reset()
	return e, nil
}

// mixName is a MixID for messages.
func mixName(id string) string {
	if id == "" {
		return "default (" + variant960.DatagenMix.Percents() + ")"
	}
	return id
}

func appendManifest(dir string, e ManifestEntry) error {
	path := filepath.Join(dir, ManifestName)
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	var b strings.Builder
	if errors.Is(statErr, os.ErrNotExist) {
		b.WriteString(manifestHeader)
		if e.Mix != "" {
			b.WriteString(manifestMixColumn)
		}
		b.WriteString("\n")
	}
	b.WriteString(e.line() + "\n")
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fmtDur(sec float64) string {
	d := time.Duration(sec * float64(time.Second)).Round(time.Second)
	return d.String()
}
