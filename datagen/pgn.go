package datagen

// A PGN reader for games written by fastchess (and cutechess, whose move
// comments have the same form), as OpenBench's DATAGEN workloads make
// them. ImportPGN (pgnimport.go) turns the games into chunks.
//
// fastchess with `-pgnout ... seldepth=true nodes=true match_line=RE`
// writes one comment after every move:
//
//	{+0.35/12 0.012s, n=2000, sd=15}            score/depth time, nodes, seldepth
//	{-M3/9 0.001s, n=170, sd=9}                 a mate in 3 plies against the mover
//	{book}                                      a move of the opening book
//	{+0.10/7 0.001s, n=2000, sd=7, line="info string pgncomment ..."}
//	{0.00/11 0.000s, n=2000, sd=11, Draw by adjudication}   the last move
//
// The score is the mover's, in pawns (Mn: mate in n plies). Engine output
// lines that match match_line come as line="..." items.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rochade/rochade/variant960"
)

// PGN reader bounds: a longer tag, comment or token is an error.
const (
	maxPGNToken = 1 << 16
	maxPGNMoves = maxGameLen
)

// PGNGame is one game of a PGN file, its moves checked for legality.
type PGNGame struct {
	Line     int                  // the line its first tag (or move) is on
	Tags     [][2]string          // in file order
	Start    *variant960.Position // the start position ([FEN], else the standard one)
	Chess960 bool                 // [Variant] is Chess960 or fischerandom
	Moves    []PGNMove
	Result   string // the movetext's result token ("1-0", "0-1", "1/2-1/2", "*"; "" if none)
}

// Tag returns the value of a tag ("" if absent).
func (g *PGNGame) Tag(name string) string {
	for _, t := range g.Tags {
		if t[0] == name {
			return t[1]
		}
	}
	return ""
}

// PGNMove is one move with what its comment says.
type PGNMove struct {
	Move    variant960.Move
	Comment string // the comments after the move, joined by a space

	// From the comment (ParseMoveComment).
	Book   bool // {book}
	Scored bool // Score is set
	Mate   bool // Score is a mate score: +MateScore or -MateScore
	Score  int  // cp for the side that played the move (mates ±MateScore)
	Depth  int
	Lines  []string // engine output lines that fastchess's match_line kept
}

// ParseMoveComment reads a fastchess move comment into m (Book, Scored,
// Mate, Score, Depth, Lines). A comment without a readable score leaves
// Scored false.
func ParseMoveComment(m *PGNMove, c string) {
	c = strings.TrimSpace(c)
	m.Book, m.Scored, m.Mate, m.Score, m.Depth, m.Lines = false, false, false, 0, 0, nil
	if c == "book" {
		m.Book = true
		return
	}
	// line="..." items: their text runs to the next `"` that ends the
	// comment or is followed by a comma (fastchess does not escape).
	for rest := c; ; {
		i := strings.Index(rest, `line="`)
		if i < 0 {
			break
		}
		rest = rest[i+len(`line="`):]
		end := len(rest)
		if j := strings.Index(rest, `", `); j >= 0 {
			end = j
		} else if strings.HasSuffix(rest, `"`) {
			end = len(rest) - 1
		}
		m.Lines = append(m.Lines, rest[:end])
		rest = rest[end:]
	}
	first := c
	if i := strings.IndexAny(first, " ,"); i >= 0 {
		first = first[:i]
	}
	score, depth, ok := strings.Cut(first, "/")
	if !ok {
		return
	}
	if d, err := strconv.Atoi(depth); err == nil {
		m.Depth = d
	}
	neg := strings.HasPrefix(score, "-")
	body := strings.TrimLeft(score, "+-")
	if len(body) == 0 || len(score)-len(body) > 1 {
		return
	}
	if body[0] == 'M' || body[0] == '#' {
		if _, err := strconv.ParseUint(body[1:], 10, 16); err != nil {
			return
		}
		m.Scored, m.Mate, m.Score = true, true, MateScore
		if neg {
			m.Score = -MateScore
		}
		return
	}
	if body[0] < '0' || body[0] > '9' {
		return // no "Inf", "NaN", ".5"
	}
	p, err := strconv.ParseFloat(body, 64)
	if err != nil || p > 1e6 {
		return
	}
	cp := min(int(math.Round(p*100)), MateScore-1) // a mate only when it says M
	if neg {
		cp = -cp
	}
	m.Scored, m.Score = true, cp
}

// PGNError is an error in one game; the reader goes on with the next.
type PGNError struct {
	Line int // the line of the error
	Msg  string
}

func (e *PGNError) Error() string { return fmt.Sprintf("pgn line %d: %s", e.Line, e.Msg) }

// PGNReader reads games from a PGN stream.
type PGNReader struct {
	r      *bufio.Reader
	line   int
	peeked *pgnToken
	err    error // a read error, returned once the stream is used up
}

// NewPGNReader reads PGN from r.
func NewPGNReader(r io.Reader) *PGNReader {
	return &PGNReader{r: bufio.NewReaderSize(r, 64<<10), line: 1}
}

type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokTag             // text: the name; val: the value
	tokComment         // text
	tokSymbol          // a move, a move number, a result
	tokOther           // NAGs, annotations, variations (skipped)
)

type pgnToken struct {
	kind      tokKind
	text, val string
	line      int
}

// Next returns the next game. It returns io.EOF after the last one; a
// *PGNError for a game it could not read in full, with the game as far as
// it was read when there was one (the next call reads the game after
// it); and the reader's error when it fails (a corrupt or truncated
// compressed file), without the game it cut.
func (pr *PGNReader) Next() (*PGNGame, error) {
	for {
		t, err := pr.token()
		if err != nil {
			return nil, err
		}
		switch t.kind {
		case tokEOF:
			return nil, io.EOF
		case tokTag, tokSymbol:
			pr.peeked = t
			return pr.game()
		}
		// A comment or annotation between games: skip it.
	}
}

// game reads one game: tags, then movetext up to a result or the next
// game's tags.
func (pr *PGNReader) game() (*PGNGame, error) {
	g := &PGNGame{Line: pr.peeked.line}
	var perr *PGNError
	fail := func(line int, format string, args ...any) {
		if perr == nil {
			perr = &PGNError{Line: line, Msg: fmt.Sprintf(format, args...)}
		}
	}
	var pos *variant960.Position
	setup := func() {
		pos = variant960.NewStartPosition()
		variant := strings.ToLower(strings.ReplaceAll(g.Tag("Variant"), " ", ""))
		switch variant {
		case "", "standard":
		case "chess960", "fischerandom", "fischerrandom", "frc":
			g.Chess960 = true
		default:
			fail(g.Line, "variant %q", g.Tag("Variant"))
		}
		if fen := g.Tag("FEN"); fen != "" {
			p, err := variant960.ParseFEN(fen)
			if err != nil {
				fail(g.Line, "%v", err)
			} else {
				pos = p
			}
		}
		g.Start = pos.Copy()
	}
	var ml variant960.MoveList
	inMoves := false
	for {
		t, err := pr.token()
		var te *PGNError
		if errors.As(err, &te) {
			fail(te.Line, "%s", te.Msg) // read on to the game's end
			continue
		}
		if err != nil {
			return nil, err
		}
		if t.kind == tokEOF {
			break
		}
		if t.kind == tokTag {
			if inMoves {
				pr.peeked = t // the next game's first tag
				break
			}
			g.Tags = append(g.Tags, [2]string{t.text, t.val})
			continue
		}
		if !inMoves {
			inMoves = true
			setup()
		}
		switch t.kind {
		case tokComment:
			if n := len(g.Moves); n > 0 {
				m := &g.Moves[n-1]
				if m.Comment != "" {
					m.Comment += " "
				}
				m.Comment += t.text
			}
			continue
		case tokOther:
			continue
		}
		s := t.text
		if s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*" {
			g.Result = s
			break
		}
		if digits := strings.TrimLeft(s, "0123456789"); len(digits) < len(s) && strings.HasPrefix(digits, ".") {
			// A move number, "12." or "12...", maybe with the move
			// written on to it ("12.e4").
			if s = strings.TrimLeft(digits, "."); s == "" {
				continue
			}
		}
		if perr != nil {
			continue // read on to the game's end
		}
		if len(g.Moves) >= maxPGNMoves {
			fail(t.line, "more than %d moves", maxPGNMoves)
			continue
		}
		m, err := pos.ParseSAN(s)
		if err == nil {
			// ParseSAN checks legality; check again, cheaply, to be sure
			// that no malformed move reaches Make.
			pos.GenerateLegal(&ml)
			if !ml.Contains(m) {
				err = fmt.Errorf("illegal move %q", s)
			}
		}
		if err != nil {
			fail(t.line, "move %d: %v in %s", len(g.Moves)+1, err, pos.ShredderFEN())
			continue
		}
		pos.Make(m)
		g.Moves = append(g.Moves, PGNMove{Move: m})
	}
	if !inMoves {
		setup()
	}
	for i := range g.Moves {
		ParseMoveComment(&g.Moves[i], g.Moves[i].Comment)
	}
	if perr != nil {
		return g, perr
	}
	return g, nil
}

// token returns the next token, or the reader's error once it failed:
// whatever the failure cut short (a token, a comment, a tag) is not
// returned as read.
func (pr *PGNReader) token() (*pgnToken, error) {
	t, err := pr.scan()
	if pr.err != nil {
		return nil, pr.err
	}
	return t, err
}

// scan reads the next token.
func (pr *PGNReader) scan() (*pgnToken, error) {
	if t := pr.peeked; t != nil {
		pr.peeked = nil
		return t, nil
	}
	for {
		c, ok := pr.byte()
		if !ok {
			return &pgnToken{kind: tokEOF, line: pr.line}, nil
		}
		line := pr.line
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			continue
		case c == '%':
			pr.skipLine() // an escape line (the spec wants it in column 1)
		case c == ';':
			pr.skipLine()
		case c == '[':
			return pr.tag(line)
		case c == '{':
			text, err := pr.until('}')
			if err != nil {
				return nil, err
			}
			return &pgnToken{kind: tokComment, text: text, line: line}, nil
		case c == '(':
			if err := pr.variation(); err != nil {
				return nil, err
			}
			return &pgnToken{kind: tokOther, line: line}, nil
		case c == '<':
			if _, err := pr.until('>'); err != nil {
				return nil, err
			}
			return &pgnToken{kind: tokOther, line: line}, nil
		case isSymbolByte(c) || c == '*':
			var sb strings.Builder
			sb.WriteByte(c)
			for c != '*' {
				b, ok := pr.byte()
				if !ok {
					break
				}
				if !isSymbolByte(b) {
					pr.unread(b)
					break
				}
				if sb.Len() >= maxPGNToken {
					return nil, &PGNError{Line: line, Msg: "token too long"}
				}
				sb.WriteByte(b)
			}
			return &pgnToken{kind: tokSymbol, text: sb.String(), line: line}, nil
		default:
			// NAGs ($n), annotations (!, ?), periods, stray ')' and
			// anything else: not part of a move.
			if c == '$' {
				for {
					b, ok := pr.byte()
					if !ok {
						break
					}
					if b < '0' || b > '9' {
						pr.unread(b)
						break
					}
				}
			}
			return &pgnToken{kind: tokOther, line: line}, nil
		}
	}
}

// isSymbolByte: the characters of a move, move number or result (the
// PGN symbol set, with '/' for 1/2-1/2 and '.' for "12." and "12...").
func isSymbolByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("_+#=:-/.", c) >= 0
}

func (pr *PGNReader) byte() (byte, bool) {
	c, err := pr.r.ReadByte()
	if err != nil {
		if err != io.EOF && pr.err == nil {
			pr.err = err
		}
		return 0, false
	}
	if c == '\n' {
		pr.line++
	}
	return c, true
}

func (pr *PGNReader) unread(c byte) {
	pr.r.UnreadByte()
	if c == '\n' {
		pr.line--
	}
}

func (pr *PGNReader) skipLine() {
	for {
		c, ok := pr.byte()
		if !ok || c == '\n' {
			return
		}
	}
}

// until reads up to the byte end (consumed, not returned).
func (pr *PGNReader) until(end byte) (string, error) {
	start := pr.line
	var sb strings.Builder
	for {
		c, ok := pr.byte()
		if !ok {
			return "", &PGNError{Line: start, Msg: fmt.Sprintf("no closing %q", end)}
		}
		if c == end {
			return sb.String(), nil
		}
		if sb.Len() >= maxPGNToken {
			return "", &PGNError{Line: start, Msg: "comment too long"}
		}
		sb.WriteByte(c)
	}
}

// variation skips a (recursive annotation variation), comments included.
func (pr *PGNReader) variation() error {
	start := pr.line
	depth := 1
	for depth > 0 {
		c, ok := pr.byte()
		if !ok {
			return &PGNError{Line: start, Msg: "unclosed variation"}
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case '{':
			if _, err := pr.until('}'); err != nil {
				return err
			}
		case ';':
			pr.skipLine()
		}
	}
	return nil
}

// tag reads a tag pair after its '['.
func (pr *PGNReader) tag(line int) (*pgnToken, error) {
	bad := func(msg string) (*pgnToken, error) {
		pr.skipLine()
		return nil, &PGNError{Line: line, Msg: msg}
	}
	var name strings.Builder
	c, ok := pr.byte()
	for ok && (c == ' ' || c == '\t') {
		c, ok = pr.byte()
	}
	for ok && isSymbolByte(c) && name.Len() < 256 {
		name.WriteByte(c)
		c, ok = pr.byte()
	}
	for ok && (c == ' ' || c == '\t') {
		c, ok = pr.byte()
	}
	if !ok || c != '"' || name.Len() == 0 {
		return bad("malformed tag")
	}
	var val strings.Builder
	for {
		c, ok = pr.byte()
		if !ok || c == '\n' {
			return bad("unterminated tag value")
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c, ok = pr.byte(); !ok || c == '\n' {
				return bad("unterminated tag value")
			}
		}
		if val.Len() >= maxPGNToken {
			return bad("tag value too long")
		}
		val.WriteByte(c)
	}
	for {
		c, ok = pr.byte()
		if !ok || c == '\n' {
			return bad("tag without ']'")
		}
		if c == ']' {
			return &pgnToken{kind: tokTag, text: name.String(), val: val.String(), line: line}, nil
		}
		if c != ' ' && c != '\t' {
			return bad("tag without ']'")
		}
	}
}
