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
	lineNumber int
}

func (m ManifestEntry) line() string {
	return strings.Join([]string{m.Chunk, m.Engine, m.Eval,
		strconv.FormatUint(m.Nodes, 10), strconv.FormatUint(m.HardNodes, 10), strconv.FormatUint(m.Seed, 10),
		strconv.FormatUint(m.FirstGame, 10), strconv.FormatUint(m.EndGame, 10),
		strconv.FormatUint(m.Games, 10), strconv.FormatUint(m.Positions, 10), m.SHA256}, "\t")
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
		if len(f) != 11 {
			return nil, fmt.Errorf("%s line %d: %d fields, want 11", ManifestName, n, len(f))
		}
		var nums [7]uint64
		for i := range nums {
			if nums[i], err = strconv.ParseUint(f[3+i], 10, 64); err != nil {
				return nil, fmt.Errorf("%s line %d: %v", ManifestName, n, err)
			}
		}
		out = append(out, ManifestEntry{Chunk: f[0], Engine: f[1], Eval: f[2], Nodes: nums[0], HardNodes: nums[1],
			Seed: nums[2], FirstGame: nums[3], EndGame: nums[4], Games: nums[5], Positions: nums[6], SHA256: f[10], lineNumber: n})
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

	// Resume: where the manifest ends, and the start positions so far.
	entries, err := ReadManifest(opt.Out)
	if err != nil {
		return err
	}
	seen := make(map[uint64]struct{})
	var next, doneGames, donePositions uint64
	for _, e := range entries {
		if e.Seed != opt.Seed || e.Nodes != opt.Play.Nodes || e.HardNodes != opt.Play.HardNodes || e.Eval != EvalID(opt.Play.Net) {
			return fmt.Errorf("datagen: %s holds chunks made with seed %d, nodes %d/%d, eval %s; this run has seed %d, nodes %d/%d, eval %s (use another --out)",
				opt.Out, e.Seed, e.Nodes, e.HardNodes, e.Eval, opt.Seed, opt.Play.Nodes, opt.Play.HardNodes, EvalID(opt.Play.Net))
		}
		if e.FirstGame != next {
			return fmt.Errorf("datagen: %s line %d: chunk starts at game %d, want %d", ManifestName, e.lineNumber, e.FirstGame, next)
		}
		if err := startKeys(filepath.Join(opt.Out, e.Chunk), e.SHA256, seen); err != nil {
			return fmt.Errorf("datagen: resuming: %w", err)
		}
		next = e.EndGame
		doneGames += e.Games
		donePositions += e.Positions
	}
	if opt.Progress != nil && len(entries) > 0 {
		fmt.Fprintf(opt.Progress, "resuming at game %d: %d chunks, %d games, %d positions\n", next, len(entries), doneGames, donePositions)
	}
	done := func(idx, positions uint64) bool {
		return (opt.Games > 0 && idx >= opt.Games) || (opt.Positions > 0 && positions >= opt.Positions)
	}
	if done(next, donePositions) {
		return nil
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stopped atomic.Bool
	stop := func() bool { return stopped.Load() || ctx.Err() != nil }

	// Workers take game indices in order and send finished games.
	var counter atomic.Uint64
	counter.Store(next)
	results := make(chan *gameOut, 2*opt.Threads)
	var wg sync.WaitGroup
	for range opt.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newPlayer(opt.Play)
			for !stop() {
				i := counter.Add(1) - 1
				if opt.Games > 0 && i >= opt.Games {
					return
				}
				g, err := p.play(opt.Seed, i, stop)
				if g == nil && err == nil {
					return // stopped
				}
				if err != nil {
					g = &gameOut{index: i, err: err}
				}
				select {
				case results <- g:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	// The collector: games in index order into chunks.
	co, err := newChunkOut(opt.Out, len(entries))
	if err != nil {
		return err
	}
	defer co.close()
	var cw chunkWriter
	cw.reset()
	chunkFirst := next
	pending := make(map[uint64]*gameOut)
	start := time.Now()
	var runPositions, runGames uint64
	tick := time.NewTicker(opt.ProgressEvery)
	defer tick.Stop()

	flush := func(end uint64) error {
		e, err := co.write(&cw, ManifestEntry{
			Engine: opt.Engine, Eval: EvalID(opt.Play.Net),
			Nodes: opt.Play.Nodes, HardNodes: opt.Play.HardNodes, Seed: opt.Seed,
			FirstGame: chunkFirst, EndGame: end,
		})
		if err != nil {
			return err
		}
		entries = append(entries, e)
		doneGames += e.Games
		donePositions += e.Positions
		chunkFirst = end
		return nil
	}
	progress := func(final bool) {
		if opt.Progress == nil {
			return
		}
		el := time.Since(start).Seconds()
		pps := float64(runPositions) / max(el, 1e-9)
		gps := float64(runGames) / max(el, 1e-9)
		games := doneGames + cw.games
		positions := donePositions + cw.positions
		eta := "?"
		if opt.Games > 0 && gps > 0 {
			eta = fmtDur(float64(opt.Games-min(opt.Games, next)) / gps)
		}
		if opt.Positions > 0 && pps > 0 {
			e := fmtDur(float64(opt.Positions-min(opt.Positions, positions)) / pps)
			if eta == "?" || opt.Games == 0 {
				eta = e
			}
		}
		word := "progress"
		switch {
		case final && ctx.Err() != nil:
			word = "stopped"
		case final:
			word = "done"
		}
		fmt.Fprintf(opt.Progress, "%s: games %d, positions %d, chunks %d, %.0f pos/s, %.2f games/s, elapsed %s, ETA %s\n",
			word, games, positions, len(entries), pps, gps, fmtDur(el), eta)
	}

	for {
		select {
		case g, ok := <-results:
			if !ok {
				// Workers are gone: a limit was reached or ctx was cancelled.
				if ctx.Err() == nil && next > chunkFirst {
					if err := flush(next); err != nil {
						return err
					}
				}
				progress(true)
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return nil
			}
			if g.err != nil {
				cancel()
				return g.err
			}
			pending[g.index] = g
			for {
				g, ok := pending[next]
				if !ok || stopped.Load() {
					break
				}
				delete(pending, next)
				next++
				if _, dup := seen[g.key]; !dup {
					seen[g.key] = struct{}{}
					cw.addGame(g.record, g.positions)
					runPositions += uint64(g.positions)
					runGames++
				}
				finished := done(next, donePositions+cw.positions)
				if finished || next-chunkFirst >= uint64(opt.ChunkGames) {
					if err := flush(next); err != nil {
						cancel()
						return err
					}
				}
				if finished {
					stopped.Store(true)
				}
			}
		case <-tick.C:
			progress(false)
		}
	}
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

func appendManifest(dir string, e ManifestEntry) error {
	path := filepath.Join(dir, ManifestName)
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	var b strings.Builder
	if errors.Is(statErr, os.ErrNotExist) {
		b.WriteString(manifestHeader + "\n")
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
