package datagen

import (
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rochade/rochade/internal/atomicfile"
	"github.com/rochade/rochade/variant960"
)

// ImportOptions configure ImportPGN.
type ImportOptions struct {
	Out        string   // output directory (chunks and manifest); must hold no manifest yet
	Files      []string // PGN files, read in order (.gz and .bz2 ones decompressed)
	ChunkGames int      // games read per chunk (skipped ones included); 0: 250
	Engine     string   // engine identity for the manifest; "": "pgn"
}

// ImportStats counts what ImportPGN read and wrote.
type ImportStats struct {
	Games     uint64            // games read
	Imported  uint64            // games written to chunks
	Positions uint64            // positions written
	Results   [3]uint64         // imported games by result for White (loss, draw, win)
	Skipped   map[string]uint64 // games left out, by reason
	Errors    []string          // the first few PGN errors ("unreadable" games), with file and line

	// Failed: the import stopped at an error and wrote nothing; Imported,
	// Positions and Results are 0, Games, Skipped and Errors tell what
	// was read before the error.
	Failed bool
}

const maxImportErrors = 10

func (s *ImportStats) skip(why string) {
	if s.Skipped == nil {
		s.Skipped = map[string]uint64{}
	}
	s.Skipped[why]++
}

// fail marks the statistics of an import that wrote nothing.
func (s *ImportStats) fail() {
	s.Failed = true
	s.Imported, s.Positions, s.Results = 0, 0, [3]uint64{}
}

// Write prints the statistics.
func (s *ImportStats) Write(w io.Writer) {
	if s.Failed {
		fmt.Fprintf(w, "games read %d before the error; nothing written\n", s.Games)
	} else {
		fmt.Fprintf(w, "games read %d, imported %d (white wins %d, draws %d, black wins %d), positions %d\n",
			s.Games, s.Imported, s.Results[ResultWin], s.Results[ResultDraw], s.Results[ResultLoss], s.Positions)
	}
	reasons := make([]string, 0, len(s.Skipped))
	for r := range s.Skipped {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Fprintf(w, "skipped %d: %s\n", s.Skipped[r], r)
	}
	for _, e := range s.Errors {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

// Manifest values of imported chunks: no seed and no node limits (the
// games' own settings are in the PGN).
const importEval = "pgn"

// pgnTerminations are the [Termination] values of games worth learning
// from: fastchess writes "normal" (the rules ended the game) and
// "adjudication"; a game without the tag is taken as normal. Time
// forfeits, illegal moves, abandoned (disconnected or stalled engines)
// and unterminated games are skipped: their result says nothing about
// the positions.
var pgnTerminations = map[string]bool{"": true, "normal": true, "adjudication": true}

var pgnResults = map[string]int{"1-0": ResultWin, "1/2-1/2": ResultDraw, "0-1": ResultLoss}

// pgnCutOff is the skip reason of a game whose movetext stops without a
// result token (at the end of the file or before the next game's tags):
// a game cut short, whatever its [Result] tag says.
const pgnCutOff = "cut off (no result token)"

// importGame encodes a game for a chunk, or says why it is left out. It
// records the position before every move that has a search score, from
// the first such move on: leading book moves (and other unscored moves)
// only move the recorded start on, and the record stops at the first
// unscored move after it (the result still labels every position). The
// scores become White's view in cp, mates ±MateScore, as play stores
// them; the filters (check, noisy moves, early plies, large scores, fake
// mates) apply when the chunks are read, as for datagen's own games.
func importGame(g *PGNGame, enc *gameEncoder) (rec []byte, result int, skip string) {
	res := g.Tag("Result")
	result, ok := pgnResults[res]
	switch {
	case res == "" || res == "*":
		return nil, 0, "unfinished (no result)"
	case !ok:
		return nil, 0, fmt.Sprintf("result %q", res)
	case g.Result == "":
		return nil, 0, pgnCutOff
	case g.Result != res:
		return nil, 0, "movetext result differs from [Result]"
	}
	tt := strings.ToLower(g.Tag("Termination"))
	if !pgnTerminations[tt] {
		return nil, 0, "termination " + tt
	}
	pos := g.Start.Copy()
	first := -1 // the first recorded move
	var fen string
	enc.reset()
	for i, m := range g.Moves {
		if first < 0 && m.Scored {
			first, fen = i, pos.ShredderFEN()
		}
		if first >= 0 && first+enc.positions() == i && m.Scored {
			score := m.Score
			if pos.Side() == variant960.Black {
				score = -score
			}
			enc.add(m.Move, score)
		}
		pos.Make(m.Move)
	}
	if first < 0 {
		return nil, 0, "no scored moves"
	}
	if len(fen) > maxFENLen {
		return nil, 0, "FEN too long"
	}
	// How the game ended: by the rules on the board (pos is the final
	// position), else as the tag says.
	term := TermUnknown
	if r, t, over := gameOver(pos); over {
		if r != result {
			return nil, 0, "result contradicts the final position"
		}
		term = t
	} else if tt == "adjudication" {
		term = TermAdjudWin
		if result == ResultDraw {
			term = TermAdjudDraw
		}
	}
	return enc.appendTo(nil, fen, result, term), result, ""
}

// importStage is the directory in the output directory that an import
// writes its chunks and manifest into before it moves them out.
const importStage = ".import.tmp"

// ImportPGN converts the games of PGN files (as fastchess writes them for
// OpenBench's DATAGEN) into chunks and a manifest in opt.Out, the format
// of Run's output. Games that cannot be read or are not worth learning
// from are skipped and counted (importGame tells which); a game identical
// to an earlier one (start, moves, scores and result) is skipped too.
//
// An import is all or nothing. The chunks and manifest go to
// opt.Out/.import.tmp and move to opt.Out, the manifest last, once every
// file has been read; on an error (a file that cannot be opened or read
// to its end, a full disk) that directory is removed, opt.Out is left as
// it was (and removed again if the import made it), and the statistics
// say Failed. A stale .import.tmp of an import that was killed is
// removed.
func ImportPGN(opt ImportOptions) (st *ImportStats, err error) {
	if opt.ChunkGames <= 0 {
		opt.ChunkGames = 250
	}
	if opt.Engine == "" {
		opt.Engine = "pgn"
	}
	for _, path := range opt.Files { // a missing file fails before any work
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
	}
	_, statErr := os.Stat(opt.Out)
	made := errors.Is(statErr, os.ErrNotExist)
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return nil, err
	}
	stage := filepath.Join(opt.Out, importStage)
	defer func() {
		os.RemoveAll(stage)
		if err != nil {
			if st != nil {
				st.fail()
			}
			if made {
				os.Remove(opt.Out) // only if empty: nothing of the user's goes
			}
		}
	}()
	removeTemps(opt.Out)
	if entries, err := ReadManifest(opt.Out); err != nil {
		return nil, err
	} else if len(entries) > 0 {
		return nil, fmt.Errorf("datagen: %s already holds chunks (%s); import into a new directory", opt.Out, ManifestName)
	}
	if err := os.RemoveAll(stage); err != nil {
		return nil, err
	}
	if err := os.Mkdir(stage, 0o755); err != nil {
		return nil, err
	}
	if st, err = importFiles(opt, stage); err != nil {
		return st, err
	}
	return st, publish(stage, opt.Out)
}

// importFiles reads the files of opt and writes the chunks and manifest
// into dir.
func importFiles(opt ImportOptions, dir string) (*ImportStats, error) {
	co, err := newChunkOut(dir, 0)
	if err != nil {
		return nil, err
	}
	defer co.close()
	var cw chunkWriter
	cw.reset()
	var enc gameEncoder
	st := &ImportStats{}
	seen := map[uint64]struct{}{}
	var chunkFirst uint64
	flush := func() error {
		if st.Games == chunkFirst {
			return nil
		}
		_, err := co.write(&cw, ManifestEntry{Engine: opt.Engine, Eval: importEval, FirstGame: chunkFirst, EndGame: st.Games})
		chunkFirst = st.Games
		return err
	}
	for _, path := range opt.Files {
		if err := ReadPGNFile(path, func(g *PGNGame, perr *PGNError) error {
			st.Games++
			if perr != nil {
				st.skip("unreadable")
				if len(st.Errors) < maxImportErrors {
					st.Errors = append(st.Errors, path+": "+perr.Error())
				}
			} else if rec, result, why := importGame(g, &enc); why != "" {
				st.skip(why)
			} else {
				h := fnv.New64a()
				h.Write(rec)
				if _, dup := seen[h.Sum64()]; dup {
					st.skip("duplicate of an earlier game")
				} else {
					seen[h.Sum64()] = struct{}{}
					cw.addGame(rec, enc.positions())
					st.Imported++
					st.Positions += uint64(enc.positions())
					st.Results[result]++
				}
			}
			if st.Games-chunkFirst >= uint64(opt.ChunkGames) {
				return flush()
			}
			return nil
		}); err != nil {
			return st, err
		}
	}
	return st, flush()
}

// ReadPGNFile calls game for every game of the PGN file path (plain,
// .gz or .bz2; perr set for one it could not read, g then holds what was
// read of it, or is nil) until the file ends or game fails.
func ReadPGNFile(path string, game func(g *PGNGame, perr *PGNError) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	switch {
	case strings.HasSuffix(path, ".bz2"):
		r = bzip2.NewReader(f)
	case strings.HasSuffix(path, ".gz"):
		if r, err = gzip.NewReader(f); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	pr := NewPGNReader(r)
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return nil
		}
		var perr *PGNError
		if err != nil && !errors.As(err, &perr) {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := game(g, perr); err != nil {
			return err
		}
	}
}

// publish moves the chunks listed in stage's manifest into out, then the
// manifest. On an error the chunks moved so far are removed again.
func publish(stage, out string) error {
	entries, err := ReadManifest(stage)
	if err != nil || len(entries) == 0 {
		return err // no games: nothing to move
	}
	if _, err := os.Stat(filepath.Join(out, ManifestName)); err == nil {
		return fmt.Errorf("datagen: %s got a %s during the import; import into a new directory", out, ManifestName)
	}
	var moved []string
	err = func() error {
		for _, e := range entries {
			to := filepath.Join(out, e.Chunk)
			if err := os.Rename(filepath.Join(stage, e.Chunk), to); err != nil {
				return err
			}
			moved = append(moved, to)
		}
		if err := atomicfile.SyncDir(out); err != nil {
			return err
		}
		return os.Rename(filepath.Join(stage, ManifestName), filepath.Join(out, ManifestName))
	}()
	if err != nil {
		for _, m := range moved {
			os.Remove(m)
		}
		return err
	}
	return atomicfile.SyncDir(out)
}
