package variant960

import (
	"fmt"
	"strings"
)

// Game is a game record for PGN output: tags, the start position and the
// moves played from it.
type Game struct {
	Tags   [][2]string // extra tags in order (Event, Site, White, ...)
	Start  *Position   // nil means the standard start position
	Moves  []Move
	Result string // "1-0", "0-1", "1/2-1/2" or "*"
	// Chess960 forces the [Variant "Chess960"] tag; it is also set
	// whenever the start position's castling rights need Chess960 rules.
	Chess960 bool
}

// PGN writes the game in PGN with SAN moves. A game that does not start
// from the standard position gets [SetUp "1"] and [FEN "..."]; one whose
// castling is not standard (any Chess960 or DFRC start) also gets
// [Variant "Chess960"], with the FEN in Shredder form.
func (g *Game) PGN() (string, error) {
	start := g.Start
	if start == nil {
		start = NewStartPosition()
	}
	p := start.Copy()
	var sb strings.Builder
	result := g.Result
	if result == "" {
		result = "*"
	}
	seven := map[string]string{"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}
	var extra [][2]string
	for _, t := range g.Tags {
		if _, ok := seven[t[0]]; ok {
			seven[t[0]] = t[1]
		} else if t[0] != "Result" && t[0] != "FEN" && t[0] != "SetUp" && t[0] != "Variant" {
			extra = append(extra, t)
		}
	}
	tag := func(k, v string) {
		v = strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), `"`, `\"`)
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", k, v)
	}
	for _, k := range []string{"Event", "Site", "Date", "Round", "White", "Black"} {
		tag(k, seven[k])
	}
	tag("Result", result)
	chess960 := g.Chess960 || isChess960Setup(p)
	if chess960 {
		tag("Variant", "Chess960")
	}
	if fen := p.FEN(); fen != StartFEN || chess960 {
		if chess960 {
			fen = p.ShredderFEN()
		}
		tag("SetUp", "1")
		tag("FEN", fen)
	}
	for _, t := range extra {
		tag(t[0], t[1])
	}
	sb.WriteByte('\n')
	var line strings.Builder
	flush := func(tok string) {
		if line.Len()+len(tok)+1 > 79 {
			sb.WriteString(line.String())
			sb.WriteByte('\n')
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(tok)
	}
	for i, m := range g.Moves {
		var ml MoveList
		p.GenerateLegal(&ml)
		if !ml.Contains(m) {
			return "", fmt.Errorf("pgn: move %d (%s) is illegal in %s", i+1, m, p.ShredderFEN())
		}
		if p.side == White {
			flush(fmt.Sprintf("%d.", p.FullMove()))
		} else if i == 0 {
			flush(fmt.Sprintf("%d...", p.FullMove()))
		}
		flush(p.SAN(m))
		p.Make(m)
	}
	flush(result)
	sb.WriteString(line.String())
	sb.WriteByte('\n')
	return sb.String(), nil
}

// isChess960Setup reports whether the position's castling rights need
// Chess960 rules to be read: a right whose king is not on e1/e8 or whose
// rook is not on a corner (the KQkq form then falls back to file letters).
func isChess960Setup(p *Position) bool {
	return p.castlingField('k') != p.castlingField('x') || strings.ContainsAny(p.castlingField('k'), "ABCDEFGHabcdefgh")
}
