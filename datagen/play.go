package datagen

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/internal/splitmix"
	"github.com/rochade/rochade/search"
	"github.com/rochade/rochade/variant960"
)

// EvalID names the evaluation that scores the data, for the manifest:
// "hce" for the hand-written evaluation, "nnue-<hash>" for a net (the
// first 16 hex digits of the net file's SHA-256).
func EvalID(net *eval.Net) string {
	if net == nil {
		return "hce"
	}
	return "nnue-" + net.Hash
}

// Play settings. Scores are centipawns; plies count both sides.
const (
	// The openings are PlayConfig.Mix (variant960.DatagenMix unless
	// set): a random start position (DFRC, Chess960 or standard) and then
	// 8 or 9 random legal plies, kept when a short search finds them
	// balanced.

	// Win adjudication: |score| >= adjWinScore, for the same side, in
	// adjWinPlies consecutive searches (both sides' reports).
	adjWinScore = 1250
	adjWinPlies = 4
	// Draw adjudication: once the game (counted from its real start, the
	// random plies included) has reached move adjDrawMove, |score| <=
	// adjDrawScore in adjDrawPlies consecutive searches.
	adjDrawMove  = 30
	adjDrawScore = 10
	adjDrawPlies = 8
)

// DefaultNodes is the soft node limit per move when none is given: at
// equal CPU time, 2,500 made a better net than 5,000 (docs/search-tests.md).
const DefaultNodes = 2500

// PlayConfig is what a game depends on besides its seed and index.
type PlayConfig struct {
	Nodes     uint64    // soft node limit per move (search.Limits.SoftNodes)
	HardNodes uint64    // hard node limit per move (search.Limits.Nodes); 0: 4 × Nodes
	MaxPlies  int       // recorded plies before a game is scored a draw; 0: 400
	HashMB    int       // per worker; 0: 16
	Net       *eval.Net // evaluation net; nil: the hand-written evaluation
	// Mix is the opening mix; the zero value means variant960.DatagenMix.
	Mix variant960.OpeningMix
}

func (c PlayConfig) withDefaults() PlayConfig {
	if c.Nodes == 0 {
		c.Nodes = DefaultNodes
	}
	if c.HardNodes == 0 {
		c.HardNodes = 4 * c.Nodes
	}
	if c.MaxPlies == 0 {
		c.MaxPlies = 400
	}
	if c.HashMB == 0 {
		c.HashMB = 16
	}
	if c.Mix == (variant960.OpeningMix{}) {
		c.Mix = variant960.DatagenMix
	}
	return c
}

// MixID names an opening mix for the manifest: "" for
// variant960.DatagenMix (so that the manifests of default runs keep their
// eleven columns), else "DFRC/Chess960/standard" in percent, with
// "+A-B" when the random plies differ from the default.
func MixID(m variant960.OpeningMix) string {
	d := variant960.DatagenMix
	if m == (variant960.OpeningMix{}) || m == d {
		return ""
	}
	id := m.Percents()
	if m.MinPlies != d.MinPlies || m.MaxPlies != d.MaxPlies {
		id += fmt.Sprintf("+%d-%d", m.MinPlies, m.MaxPlies)
	}
	return id
}

// player plays games with its own single-threaded engine.
type player struct {
	cfg PlayConfig
	eng *search.Engine
	enc gameEncoder
	ml  variant960.MoveList
}

func newPlayer(cfg PlayConfig) *player {
	cfg = cfg.withDefaults()
	return &player{cfg: cfg, eng: search.NewEngine(search.Options{HashMB: cfg.HashMB, Threads: 1, MultiPV: 1, Net: cfg.Net})}
}

// gameRand is game index's random source: a function of (seed, index)
// alone, so a run is reproducible whatever the thread count.
func gameRand(seed, index uint64) *rand.Rand {
	a := splitmix.Mix(seed ^ splitmix.Mix(index))
	b := splitmix.Mix(a ^ 0x6a09e667f3bcc909 ^ index)
	return rand.New(rand.NewPCG(a, b))
}

// opening draws random openings until one is balanced enough and returns
// it, re-read from its Shredder-FEN so that the game depends on the FEN
// alone.
func (p *player) opening(r *rand.Rand) (*variant960.Position, string, error) {
	score := func(pos *variant960.Position) int {
		p.eng.Clear()
		return p.eng.Search(pos, search.Limits{Depth: variant960.OpeningSearchDepth, Nodes: p.cfg.HardNodes}, search.Callbacks{}).Score
	}
	pos, fen, err := p.cfg.Mix.Opening(r, &p.ml, nil, (*variant960.Position).ShredderFEN, nil, score)
	if err != nil {
		return nil, "", fmt.Errorf("datagen: %w", err)
	}
	return pos, fen, nil
}

// gameOut is a finished game.
type gameOut struct {
	index     uint64
	record    []byte // the encoded game (gameEncoder.appendTo)
	key       uint64 // Zobrist key of the start position
	positions int
	result    int
	term      Termination
	err       error
}

// play plays game index of a run with the given seed. stop is polled
// between moves; a stopped game returns nil.
func (p *player) play(seed, index uint64, stop func() bool) (*gameOut, error) {
	r := gameRand(seed, index)
	pos, fen, err := p.opening(r)
	if err != nil {
		return nil, err
	}
	key := pos.Key()
	p.eng.Clear()
	p.enc.reset()
	limits := search.Limits{SoftNodes: p.cfg.Nodes, Nodes: p.cfg.HardNodes}
	result, term := ResultDraw, TermMaxLength
	winRun, drawRun := 0, 0 // winRun > 0: White winning, < 0: Black
	for ply := 0; ; ply++ {
		if stop != nil && stop() {
			return nil, nil
		}
		if r, t, over := gameOver(pos); over {
			result, term = r, t
			break
		}
		if ply >= p.cfg.MaxPlies {
			break
		}
		res := p.eng.Search(pos, limits, search.Callbacks{})
		if res.Best == variant960.NoMove {
			return nil, errors.New("datagen: search returned no move in " + pos.FEN())
		}
		score := res.Score
		if search.IsMate(score) {
			score = MateScore
			if res.Score < 0 {
				score = -MateScore
			}
		}
		if pos.Side() == variant960.Black {
			score = -score
		}
		p.enc.add(res.Best, score)

		// Adjudication, on White's-view scores.
		switch {
		case score >= adjWinScore:
			winRun = max(winRun, 0) + 1
		case score <= -adjWinScore:
			winRun = min(winRun, 0) - 1
		default:
			winRun = 0
		}
		if pos.FullMove() >= adjDrawMove && score <= adjDrawScore && score >= -adjDrawScore {
			drawRun++
		} else {
			drawRun = 0
		}
		if winRun >= adjWinPlies {
			result, term = ResultWin, TermAdjudWin
			break
		}
		if winRun <= -adjWinPlies {
			result, term = ResultLoss, TermAdjudWin
			break
		}
		if drawRun >= adjDrawPlies {
			result, term = ResultDraw, TermAdjudDraw
			break
		}
		pos.Make(res.Best)
	}
	n := p.enc.positions()
	return &gameOut{
		index:     index,
		record:    p.enc.appendTo(make([]byte, 0, len(fen)+16+len(p.enc.moves)), fen, result, term),
		key:       key,
		positions: n,
		result:    result,
		term:      term,
	}, nil
}

// gameOver reports whether the game has ended by the rules (the PGN
// importer classifies a game's final position with it too).
func gameOver(pos *variant960.Position) (result int, term Termination, over bool) {
	if !pos.HasLegalMove() {
		if !pos.InCheck() {
			return ResultDraw, TermStalemate, true
		}
		if pos.Side() == variant960.White {
			return ResultLoss, TermCheckmate, true
		}
		return ResultWin, TermCheckmate, true
	}
	switch {
	case pos.Rule50() >= 100:
		return ResultDraw, TermFiftyMoves, true
	case pos.RepetitionCount() >= 2:
		return ResultDraw, TermRepetition, true
	case pos.InsufficientMaterial():
		return ResultDraw, TermInsufficient, true
	}
	return 0, 0, false
}
