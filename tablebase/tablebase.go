// Package tablebase probes Syzygy endgame tablebases (.rtbw WDL and .rtbz
// DTZ files) in pure Go. Files are memory-mapped (mmap on Unix systems,
// golang.org/x/exp/mmap elsewhere) and their headers checked when the
// folders are opened; a damaged file is left out and named. Probes read the
// mapped files in place: the tables take no heap, and a probe allocates
// nothing. Any number of goroutines may probe at once. Tables that are no
// longer referenced are unmapped by the garbage collector.
//
// A file that is truncated or rewritten after it was mapped makes reads of
// its mapping fault (SIGBUS) or give inconsistent data. A probe turns
// either into a failed probe (ok false: no tablebase result), leaves the
// file out from then on and tells the function set with OnFailure, once
// for each file (see guard.go).
//
// Scores are from the side to move's view: 2 win, 1 win that the 50-move
// rule turns into a draw ("cursed"), 0 draw, -1 loss saved by the 50-move
// rule ("blessed"), -2 loss.
package tablebase

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"

	v "github.com/rochade/rochade/variant960"
)

// WDL values.
const (
	Loss        = -2
	BlessedLoss = -1
	Draw        = 0
	CursedWin   = 1
	Win         = 2
)

// Tablebases is a set of table files found under one or more folders.
type Tablebases struct {
	wdl       map[uint64]*table
	dtz       map[uint64]*table
	all       []*table
	numWDL    int
	numDTZ    int
	maxPieces int
	hits      atomic.Uint64

	onFailure func(msg string) // see OnFailure
	failedAny atomic.Bool      // a failure no file could be blamed for was told
}

// ListSeparator separates folders in a path list: ';' on Windows, ':'
// elsewhere.
func ListSeparator() string {
	if runtime.GOOS == "windows" {
		return ";"
	}
	return ":"
}

// Open finds the table files in the folders of paths (separated by
// ListSeparator; empty or "<empty>" for none), maps each and checks its
// size and header. The warnings name the folders that cannot be read and
// the files that cannot be read or are damaged (empty, truncated, not a
// table, or not the table their name says); those are left out and not
// counted, and the others are used. A file found in an earlier folder
// hides one of the same name in a later folder, unless it is damaged.
func Open(paths string) (tb *Tablebases, warnings []string) {
	tb = &Tablebases{wdl: map[uint64]*table{}, dtz: map[uint64]*table{}}
	paths = strings.TrimSpace(paths)
	if paths == "" || paths == "<empty>" {
		return tb, nil
	}
	seen := map[string]bool{}
	for _, dir := range strings.Split(paths, ListSeparator()) {
		dir = strings.TrimSpace(dir)
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("cannot read tablebase folder %s: %v", dir, err))
			continue
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			if !e.IsDir() {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, name := range names {
			ext := filepath.Ext(name)
			isDTZ := ext == ".rtbz"
			if ext != ".rtbw" && !isDTZ {
				continue
			}
			base := strings.TrimSuffix(name, ext)
			if seen[name] {
				continue // the first folder that has a table wins
			}
			t, ok := newTable(base, filepath.Join(dir, name), isDTZ)
			if !ok {
				continue
			}
			t.owner = tb
			if err := t.load(); err != nil {
				warnings = append(warnings, fmt.Sprintf("tablebase file not used: %v", err))
				continue
			}
			seen[name] = true
			m := tb.wdl
			if isDTZ {
				m = tb.dtz
				tb.numDTZ++
			} else {
				tb.numWDL++
				tb.maxPieces = max(tb.maxPieces, t.pieces)
			}
			m[t.key] = t
			m[t.key2] = t
			tb.all = append(tb.all, t)
		}
	}
	return tb, warnings
}

// Count returns the number of good table files found.
func (tb *Tablebases) Count() int {
	if tb == nil {
		return 0
	}
	return tb.numWDL + tb.numDTZ
}

// CountWDL and CountDTZ return the numbers of WDL and DTZ files found.
func (tb *Tablebases) CountWDL() int { return tb.numWDL }

// CountDTZ returns the number of DTZ files found.
func (tb *Tablebases) CountDTZ() int { return tb.numDTZ }

// MaxPieces returns the largest number of pieces (kings included) of the
// WDL tables found, 0 if none.
func (tb *Tablebases) MaxPieces() int {
	if tb == nil {
		return 0
	}
	return tb.maxPieces
}

// Hits returns the number of successful probes so far.
func (tb *Tablebases) Hits() uint64 { return tb.hits.Load() }

// Close releases the mapped files. No probe may run during or after it;
// probes after it fail.
func (tb *Tablebases) Close() {
	if tb == nil {
		return
	}
	for _, t := range tb.all {
		t.release()
	}
}

// probeable reports whether the tables can answer for pos at all.
func (tb *Tablebases) probeable(pos *v.Position) bool {
	if tb == nil || tb.maxPieces == 0 || pos.CastlingRights() != 0 {
		return false
	}
	return pos.Occupied().Count() <= tb.maxPieces
}

// isCapture reports whether m takes a piece (castling, a king taking its
// own rook, is not a capture).
func isCapture(pos *v.Position, m v.Move) bool {
	if m.Kind() == v.KindEnPassant {
		return true
	}
	if m.Kind() == v.KindCastling {
		return false
	}
	pc := pos.PieceOn(m.To())
	return pc != v.NoPiece && pc.Color() != pos.Side()
}

func isZeroing(pos *v.Position, m v.Move) bool {
	return isCapture(pos, m) || pos.PieceOn(m.From()).Type() == v.Pawn
}

// wdlTable probes the WDL table for pos as it stands.
func (tb *Tablebases) wdlTable(pos *v.Position) (int, int) {
	if pos.Occupied().Count() == 2 {
		return Draw, stOK
	}
	t := tb.wdl[positionKey(pos)]
	if t == nil {
		return 0, stFail
	}
	return t.probeTable(pos, 0)
}

// Result states of the capture search.
const (
	resOK      = iota
	resZeroing // the best move is a capture (or pawn move)
	resFail
)

// search resolves captures (and, with zeroing, pawn moves) before asking
// the table: the table's value may be wrong where a capture is best, and
// it knows nothing of en passant.
func (tb *Tablebases) search(pos *v.Position, zeroing bool) (int, int) {
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	best := Loss
	moveCount := 0
	for _, m := range ml.Slice() {
		if !isCapture(pos, m) && (!zeroing || pos.PieceOn(m.From()).Type() != v.Pawn) {
			continue
		}
		moveCount++
		pos.Make(m)
		val, res := tb.search(pos, false)
		pos.Unmake()
		if res == resFail {
			return 0, resFail
		}
		val = -val
		if val > best {
			best = val
			if val >= Win {
				return val, resZeroing
			}
		}
	}
	noMoreMoves := moveCount > 0 && moveCount == ml.N
	var val int
	if noMoreMoves {
		val = best
	} else {
		var st int
		val, st = tb.wdlTable(pos)
		if st != stOK {
			return 0, resFail
		}
	}
	if best >= val {
		if best > Draw || noMoreMoves {
			return best, resZeroing
		}
		return best, resOK
	}
	return val, resOK
}

// ProbeWDL returns the WDL score of pos for the side to move. ok is false
// when pos has castling rights, too many pieces, or no table answers.
func (tb *Tablebases) ProbeWDL(pos *v.Position) (wdl int, ok bool) {
	if !tb.probeable(pos) {
		return 0, false
	}
	defer tb.endProbe(pos, pos.GamePly(), debug.SetPanicOnFault(true), &ok)
	val, res := tb.search(pos, false)
	if res == resFail {
		return 0, false
	}
	tb.hits.Add(1)
	return val, true
}

// dtzBeforeZeroing is the DTZ of a position whose best move zeroes the
// 50-move counter.
func dtzBeforeZeroing(wdl int) int {
	switch wdl {
	case Win:
		return 1
	case CursedWin:
		return 101
	case BlessedLoss:
		return -101
	case Loss:
		return -1
	}
	return 0
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// ProbeDTZ returns the distance to zeroing in plies: positive when the
// side to move wins, negative when it loses, 0 for a draw. A win that
// needs more than 100 plies (a cursed win) is 100 more than its DTZ (and
// likewise for losses). The value may be one ply too long where the table
// stores moves, not plies.
func (tb *Tablebases) ProbeDTZ(pos *v.Position) (dtz int, ok bool) {
	if !tb.probeable(pos) {
		return 0, false
	}
	defer tb.endProbe(pos, pos.GamePly(), debug.SetPanicOnFault(true), &ok)
	dtz, ok = tb.probeDTZ(pos)
	if ok {
		tb.hits.Add(1)
	}
	return dtz, ok
}

func (tb *Tablebases) probeDTZ(pos *v.Position) (int, bool) {
	wdl, res := tb.search(pos, true)
	if res == resFail {
		return 0, false
	}
	if wdl == Draw {
		return 0, true
	}
	if res == resZeroing {
		return dtzBeforeZeroing(wdl), true
	}
	if pos.Occupied().Count() == 2 {
		return 0, true
	}
	t := tb.dtz[positionKey(pos)]
	if t == nil {
		return 0, false
	}
	dtz, st := t.probeTable(pos, wdl)
	if st == stFail {
		return 0, false
	}
	if st == stOK {
		if wdl == CursedWin || wdl == BlessedLoss {
			dtz += 100
		}
		return dtz * sign(wdl), true
	}
	// The table holds the other side to move: search one ply.
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	minDTZ := 0xFFFF
	for _, m := range ml.Slice() {
		zero := isZeroing(pos, m)
		pos.Make(m)
		var d int
		if zero {
			w, r := tb.search(pos, false)
			if r == resFail {
				pos.Unmake()
				return 0, false
			}
			d = -dtzBeforeZeroing(w)
		} else {
			dd, ok := tb.probeDTZ(pos)
			if !ok {
				pos.Unmake()
				return 0, false
			}
			d = -dd
		}
		if d == 1 && pos.InCheck() && !pos.HasLegalMove() {
			minDTZ = 1
		}
		if !zero {
			d += sign(d)
		}
		if d < minDTZ && sign(d) == sign(wdl) {
			minDTZ = d
		}
		pos.Unmake()
	}
	if minDTZ == 0xFFFF {
		return -1, true
	}
	return minDTZ, true
}
