package uci

import (
	"strconv"
	"strings"

	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// isLegal reports whether m is a legal move in pos.
func isLegal(pos *v.Position, m v.Move) bool {
	if m == v.NoMove {
		return false
	}
	var ml v.MoveList
	pos.GenerateLegal(&ml)
	return ml.Contains(m)
}

// moveString writes a move of pos in the notation of the mode.
func moveString(pos *v.Position, m v.Move, chess960 bool) string {
	return pos.MoveToUCI(m, chess960)
}

// pvStrings writes a PV move by move, each in the position it is played
// in, so castling comes out right in both modes. It stops at the first
// move that is not legal there.
func pvStrings(root *v.Position, pv []v.Move, chess960 bool) []string {
	if len(pv) == 0 {
		return nil
	}
	pos := root.Copy()
	out := make([]string, 0, len(pv))
	for _, m := range pv {
		if !isLegal(pos, m) {
			break
		}
		out = append(out, pos.MoveToUCI(m, chess960))
		pos.Make(m)
	}
	return out
}

// formatInfo writes one `info depth ...` line.
func formatInfo(root *v.Position, in search.Info, chess960, showWDL bool) string {
	var b strings.Builder
	b.Grow(128)
	num := func(key string, n int64) {
		b.WriteByte(' ')
		b.WriteString(key)
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteString("info")
	num("depth", int64(in.Depth))
	num("seldepth", int64(max(in.SelDepth, in.Depth)))
	num("multipv", int64(max(in.MultiPV, 1)))
	if search.IsMate(in.Score) {
		num("score mate", int64(search.MateIn(in.Score)))
	} else {
		num("score cp", int64(in.Score))
	}
	switch in.Bound {
	case search.BoundLower:
		b.WriteString(" lowerbound")
	case search.BoundUpper:
		b.WriteString(" upperbound")
	}
	if showWDL {
		b.WriteString(" wdl ")
		b.WriteString(strconv.Itoa(in.WDL[0]))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(in.WDL[1]))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(in.WDL[2]))
	}
	num("nodes", int64(in.Nodes))
	num("nps", int64(in.NPS))
	num("hashfull", int64(in.HashFull))
	num("tbhits", int64(in.TBHits))
	num("time", in.Time.Milliseconds())
	if pv := pvStrings(root, in.PV, chess960); len(pv) > 0 {
		b.WriteString(" pv ")
		b.WriteString(strings.Join(pv, " "))
	}
	return b.String()
}

// formatBestMove writes the `bestmove` line for a search result.
func formatBestMove(root *v.Position, res search.Result, chess960 bool) string {
	if !isLegal(root, res.Best) {
		var ml v.MoveList
		root.GenerateLegal(&ml)
		if ml.N == 0 {
			return "bestmove (none)"
		}
		// Never send an illegal move: fall back to the first legal one.
		res.Best, res.Ponder = ml.Moves[0], v.NoMove
	}
	line := "bestmove " + root.MoveToUCI(res.Best, chess960)
	if res.Ponder != v.NoMove {
		pos := root.Copy()
		pos.Make(res.Best)
		if isLegal(pos, res.Ponder) {
			line += " ponder " + pos.MoveToUCI(res.Ponder, chess960)
		}
	}
	return line
}
