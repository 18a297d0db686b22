package datagen

import (
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"sort"
	"strings"

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
}

const maxImportErrors = 10

func (s *ImportStats) skip(why string) {
	if s.Skipped == nil {
		s.Skipped = map[string]uint64{}
	}
	s.Skipped[why]++
}

// Write prints the statistics.
func (s *ImportStats) Write(w io.Writer) {
	fmt.Fprintf(w, "games read %d, imported %d (white wins %d, draws %d, black wins %d), positions %d\n",
		s.Games, s.Imported, s.Results[ResultWin], s.Results[ResultDraw], s.Results[ResultLoss], s.Positions)
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
	case g.Result != "" && g.Result != res:
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

// ImportPGN converts the games of PGN files (as fastchess writes them for
// OpenBench's DATAGEN) into chunks and a manifest in opt.Out, the format
// of Run's output. Games that cannot be read or are not worth learning
// from are skipped and counted (importGame tells which); a game identical
// to an earlier one (start, moves, scores and result) is skipped too.
func ImportPGN(opt ImportOptions) (*ImportStats, error) {
	if opt.ChunkGames <= 0 {
		opt.ChunkGames = 250
	}
	if opt.Engine == "" {
		opt.Engine = "pgn"
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return nil, err
	}
	removeTemps(opt.Out)
	if entries, err := ReadManifest(opt.Out); err != nil {
		return nil, err
	} else if len(entries) > 0 {
		return nil, fmt.Errorf("datagen: %s already holds chunks (%s); import into a new directory", opt.Out, ManifestName)
	}
	co, err := newChunkOut(opt.Out, 0)
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
		f, err := os.Open(path)
		if err != nil {
			return st, err
		}
		var r io.Reader = f
		switch {
		case strings.HasSuffix(path, ".bz2"):
			r = bzip2.NewReader(f)
		case strings.HasSuffix(path, ".gz"):
			if r, err = gzip.NewReader(f); err != nil {
				f.Close()
				return st, fmt.Errorf("%s: %w", path, err)
			}
		}
		pr := NewPGNReader(r)
		for {
			g, err := pr.Next()
			if err == io.EOF {
				break
			}
			var perr *PGNError
			if err != nil && !errors.As(err, &perr) {
				f.Close()
				return st, fmt.Errorf("%s: %w", path, err)
			}
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
				if err := flush(); err != nil {
					f.Close()
					return st, err
				}
			}
		}
		f.Close()
	}
	return st, flush()
}
