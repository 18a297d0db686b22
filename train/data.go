package train

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/internal/splitmix"
	v "github.com/rochade/rochade/variant960"
	"github.com/ulikunitz/xz"
)

// Dataset holds preprocessed positions compactly: the White-perspective
// feature indices of position i are Feat[Off[i]:Off[i+1]]; Score is the
// search score in cp and Result the game result (0 loss, 1 draw, 2 win),
// both from the side to move's point of view.
type Dataset struct {
	Feat   []uint16
	Off    []uint32
	Score  []int16
	Result []uint8
	STM    []uint8 // 0 White, 1 Black to move
}

// NewDataset returns an empty dataset.
func NewDataset() *Dataset { return &Dataset{Off: []uint32{0}} }

// Len is the number of positions.
func (d *Dataset) Len() int { return len(d.Score) }

// Features returns the White-perspective features of position i.
func (d *Dataset) Features(i int) []uint16 { return d.Feat[d.Off[i]:d.Off[i+1]] }

// Add appends a position with its score (cp) and result (1, 0.5, 0), both
// from White's point of view.
func (d *Dataset) Add(pos *v.Position, scoreWhite int, resultWhite float64) {
	d.Feat = Features(d.Feat, pos)
	d.Off = append(d.Off, uint32(len(d.Feat)))
	res := uint8(resultWhite*2 + 0.5)
	if pos.Side() == v.Black {
		scoreWhite, res = -scoreWhite, 2-res
	}
	d.Score = append(d.Score, int16(min(max(scoreWhite, -32000), 32000)))
	d.Result = append(d.Result, res)
	d.STM = append(d.STM, uint8(pos.Side()))
}

// AddFeatures appends a position given as White-perspective features and
// side-to-move-view score and result (0, 1, 2).
func (d *Dataset) AddFeatures(fw []uint16, whiteToMove bool, scoreSTM int, resultSTM uint8) {
	d.Feat = append(d.Feat, fw...)
	d.Off = append(d.Off, uint32(len(d.Feat)))
	d.Score = append(d.Score, int16(min(max(scoreSTM, -32000), 32000)))
	d.Result = append(d.Result, resultSTM)
	stm := uint8(0)
	if !whiteToMove {
		stm = 1
	}
	d.STM = append(d.STM, stm)
}

// Split moves the last n positions into a new dataset and returns it.
func (d *Dataset) Split(n int) *Dataset {
	n = min(n, d.Len())
	k := d.Len() - n
	tail := NewDataset()
	base := d.Off[k]
	tail.Feat = append([]uint16(nil), d.Feat[base:]...)
	for _, o := range d.Off[k+1:] {
		tail.Off = append(tail.Off, o-base)
	}
	tail.Score = append([]int16(nil), d.Score[k:]...)
	tail.Result = append([]uint8(nil), d.Result[k:]...)
	tail.STM = append([]uint8(nil), d.STM[k:]...)
	d.Feat = d.Feat[:base:base]
	d.Off = d.Off[: k+1 : k+1]
	d.Score = d.Score[:k:k]
	d.Result = d.Result[:k:k]
	d.STM = d.STM[:k:k]
	return tail
}

// Filter says which positions of a source are kept for training.
type Filter struct {
	MaxScore int `json:"max_score"` // skip |score| > MaxScore (mate scores are above any sane bound)
	MinPly   int `json:"min_ply"`   // skip positions before this ply (binary sources only)
}

// FilterRules describes the fixed filters (for manifests).
const FilterRules = "skip: in check; |score| > max_score; binary sources also: fake mate labels (datagen), ply < min_ply, move played is a capture, promotion or en passant"

// DefaultFilter is the training-time filter: quiet (binary sources: the
// move played is no capture, promotion or en passant), not in check,
// ply >= 8 (binary sources), |score| <= 3000.
var DefaultFilter = Filter{MaxScore: 3000, MinPly: 8}

// Stats counts what a source yielded and why positions were skipped.
type Stats struct {
	Path    string         `json:"path"`
	Read    int            `json:"read"`
	Kept    int            `json:"positions"`
	Skipped map[string]int `json:"skipped,omitempty"`
}

func (s *Stats) skip(why string) {
	if s.Skipped == nil {
		s.Skipped = map[string]int{}
	}
	s.Skipped[why]++
}

// A Record is one position as a source yields it. Pos is valid only during
// the callback. Score is in cp and Result is 1, 0.5 or 0, both from White's
// point of view. Move and Ply are set by sources that know them (Move is
// NoMove and Ply -1 otherwise). FakeMate marks a ±32000 score that is no
// mate but the label of a stopped search (binary sources; see
// datagen.Sample.FakeMate).
type Record struct {
	Pos      *v.Position
	Score    int
	Result   float64
	Move     v.Move
	Ply      int
	FakeMate bool
}

// A Source yields records.
type Source func(fn func(*Record) error) error

// opener opens a data file of some format as a source; sources register
// the file name suffixes they handle (see source_rdg.go).
type opener struct {
	suffix string
	open   func(path string) Source
}

var openers []opener

// OpenSource returns the source for a data file, chosen by its name:
// text (any name, optionally .xz) unless a registered binary suffix matches.
func OpenSource(path string) Source {
	for _, o := range openers {
		if strings.HasSuffix(path, o.suffix) {
			return o.open(path)
		}
	}
	if strings.HasSuffix(path, ".rdg.xz") {
		return func(func(*Record) error) error {
			return fmt.Errorf("%s: xz-compressed chunks are not read; decompress them, or compress with zstd (.rdg.zst)", path)
		}
	}
	return TextFile(path)
}

// TextFile reads a text data file, plain or xz-compressed (by the .xz
// suffix): one position per line, `<FEN> | <score cp, White's view> |
// <1.0|0.5|0.0 result for White>`. Blank lines and lines starting with #
// are ignored.
func TextFile(path string) Source {
	return func(fn func(*Record) error) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		var r io.Reader = bufio.NewReaderSize(f, 1<<20)
		if strings.HasSuffix(path, ".xz") {
			xr, err := xz.NewReader(r)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			r = xr
		}
		return readText(r, path, fn)
	}
}

// TextReader is a text source over r (see TextFile).
func TextReader(r io.Reader, name string) Source {
	return func(fn func(*Record) error) error { return readText(r, name, fn) }
}

// textChunk is a run of lines parsed by one worker of readText.
type textChunk struct {
	lines []string
	first int // line number of lines[0]
	recs  []Record
	err   error
	done  chan struct{}
}

// TextParseThreads is how many goroutines parse FENs of text sources.
var TextParseThreads = runtime.NumCPU()

func readText(r io.Reader, name string, fn func(*Record) error) error {
	// FEN parsing is the slow part: chunks of lines are parsed in parallel
	// and handed to fn in file order.
	const chunkLines = 256
	th := max(TextParseThreads, 1)
	work := make(chan *textChunk, th)
	order := make(chan *textChunk, 2*th)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range th {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				c.parse(name)
			}
		}()
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(order)
		defer close(work)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		line := 0
		c := &textChunk{first: 1, done: make(chan struct{})}
		send := func() bool {
			select {
			case order <- c:
			case <-stop:
				return false
			}
			work <- c
			return true
		}
		for sc.Scan() {
			line++
			c.lines = append(c.lines, sc.Text())
			if len(c.lines) == chunkLines {
				if !send() {
					readErr <- nil
					return
				}
				c = &textChunk{first: line + 1, done: make(chan struct{})}
			}
		}
		if len(c.lines) > 0 {
			send()
		}
		readErr <- sc.Err()
	}()
	var err error
	for c := range order {
		<-c.done
		if err == nil {
			err = c.err
			for i := range c.recs {
				if err != nil {
					break
				}
				err = fn(&c.recs[i])
			}
			if err != nil {
				close(stop)
			}
		}
	}
	wg.Wait()
	if rerr := <-readErr; err == nil && rerr != nil {
		err = fmt.Errorf("%s: %w", name, rerr)
	}
	return err
}

func (c *textChunk) parse(name string) {
	defer close(c.done)
	c.recs = make([]Record, 0, len(c.lines))
	for i, l := range c.lines {
		l = strings.TrimSpace(l)
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		pos, score, res, err := ParseTextLine(l)
		if err != nil {
			c.err = fmt.Errorf("%s:%d: %w", name, c.first+i, err)
			return
		}
		c.recs = append(c.recs, Record{Pos: pos, Score: score, Result: res, Ply: -1})
	}
	c.lines = nil
}

// ParseTextLine parses `<FEN> | <score> | <result>` (White's view; the
// result is 1.0, 0.5 or 0.0, and 1-0, 1/2-1/2, 0-1 are accepted too). The
// FEN may be standard, X-FEN or Shredder-FEN.
func ParseTextLine(s string) (*v.Position, int, float64, error) {
	parts := strings.Split(s, "|")
	if len(parts) != 3 {
		return nil, 0, 0, errors.New("want `<FEN> | <score> | <result>`")
	}
	pos, err := v.ParseFEN(strings.TrimSpace(parts[0]))
	if err != nil {
		return nil, 0, 0, err
	}
	score, err := strconv.Atoi(strings.TrimSpace(parts[1]))
	if err != nil {
		return nil, 0, 0, fmt.Errorf("bad score %q", strings.TrimSpace(parts[1]))
	}
	var res float64
	switch r := strings.TrimSpace(parts[2]); r {
	case "1.0", "1", "1-0":
		res = 1
	case "0.5", "1/2-1/2":
		res = 0.5
	case "0.0", "0", "0-1":
		res = 0
	default:
		return nil, 0, 0, fmt.Errorf("bad result %q", r)
	}
	return pos, score, res, nil
}

// Load reads a source into d, applying the filter, and returns its stats.
func (d *Dataset) Load(path string, src Source, flt Filter) (Stats, error) {
	st := Stats{Path: path}
	err := src(func(r *Record) error {
		st.Read++
		switch {
		case r.FakeMate:
			st.skip("fake mate")
		case r.Pos.InCheck():
			st.skip("in check")
		case flt.MaxScore > 0 && (r.Score > flt.MaxScore || r.Score < -flt.MaxScore):
			st.skip("score")
		case r.Ply >= 0 && r.Ply < flt.MinPly:
			st.skip("ply")
		case r.Move != v.NoMove && !quietMove(r.Pos, r.Move):
			st.skip("noisy move")
		case (r.Pos.Occupied()).Count() > eval.NetMaxActive:
			st.skip("too many pieces")
		default:
			st.Kept++
			d.Add(r.Pos, r.Score, r.Result)
		}
		return nil
	})
	return st, err
}

// quietMove reports whether m (played from pos) is no capture, promotion
// or en passant. Castling "captures" the own rook and is quiet.
func quietMove(pos *v.Position, m v.Move) bool {
	switch m.Kind() {
	case v.KindPromotion, v.KindEnPassant:
		return false
	case v.KindCastling:
		return true
	}
	return pos.PieceOn(m.To()) == v.NoPiece
}

// mirrorFeature reflects a feature's square across the board's vertical
// axis (file a <-> file h); piece, colour and perspective stay.
func mirrorFeature(f uint16) uint16 { return f ^ 7 }

// AddMirrored appends a copy of every position with the board reflected
// file-wise (a <-> h). The net sees piece squares only, not castling rights,
// and a Chess960 or DFRC position's value hardly depends on which wing is
// which, so the reflection is a second, nearly free sample of the same
// judgement. Call it on the training set only, after the validation split.
func (d *Dataset) AddMirrored() {
	n := d.Len()
	d.Feat = slices.Grow(d.Feat, len(d.Feat))
	for i := range n {
		lo, hi := d.Off[i], d.Off[i+1]
		for _, f := range d.Feat[lo:hi] {
			d.Feat = append(d.Feat, mirrorFeature(f))
		}
		d.Off = append(d.Off, uint32(len(d.Feat)))
	}
	d.Score = append(d.Score, d.Score[:n]...)
	d.Result = append(d.Result, d.Result[:n]...)
	d.STM = append(d.STM, d.STM[:n]...)
}

// inputKey is a 64-bit key of position i's net inputs: its features, in
// any order, and the side to move. Positions the net cannot tell apart
// (the same pieces on the same squares, whatever the castling rights,
// en passant square or move counters) share it.
func (d *Dataset) inputKey(i int) uint64 {
	h := splitmix.Mix(uint64(d.STM[i]) + 1<<20)
	for _, f := range d.Features(i) {
		h += splitmix.Mix(uint64(f))
	}
	return splitmix.Mix(h)
}

// Dedup removes every position whose net inputs (features and side to
// move) equal those of an earlier position of d or of any position of
// other (the validation set; nil for none), keeping the first of each and
// the order of the rest. It returns how many it removed as repeats within
// d and how many as positions of other. Positions are compared by a
// 64-bit key: among 40M positions a false match has a chance of about
// 1 in 20,000 per run.
func (d *Dataset) Dedup(other *Dataset) (repeats, inOther int) {
	n := d.Len()
	otherN := 0
	if other != nil {
		otherN = other.Len()
	}
	fromOther := make(map[uint64]struct{}, otherN)
	for i := range otherN {
		fromOther[other.inputKey(i)] = struct{}{}
	}
	seen := make(map[uint64]struct{}, n)
	k := 0 // positions kept so far; Feat[:Off[k]] holds theirs
	for i := range n {
		key := d.inputKey(i)
		if _, ok := fromOther[key]; ok {
			inOther++
			continue
		}
		if _, ok := seen[key]; ok {
			repeats++
			continue
		}
		seen[key] = struct{}{}
		if k != i {
			lo, hi := d.Off[i], d.Off[i+1]
			w := d.Off[k]
			copy(d.Feat[w:], d.Feat[lo:hi])
			d.Off[k+1] = w + (hi - lo)
			d.Score[k], d.Result[k], d.STM[k] = d.Score[i], d.Result[i], d.STM[i]
		}
		k++
	}
	d.Feat = d.Feat[:d.Off[k]]
	d.Off = d.Off[:k+1]
	d.Score, d.Result, d.STM = d.Score[:k], d.Result[:k], d.STM[:k]
	return repeats, inOther
}
