package uci

import (
	"fmt"
	"strings"

	v "github.com/rochade/rochade/variant960"
)

// cmdPosition sets up a position. If the FEN or any move is bad, the
// command is rejected as a whole and no position is set: until a later
// position command is accepted, go searches nothing (see goNoPosition).
// Searching the previous position instead would play a move of another
// game. Castling rights that the board cannot have (no rook for them)
// are dropped, as Stockfish does, with one info string naming them.
func (s *Session) cmdPosition(args []string) {
	pos, dropped, refused := parsePosition(args)
	if refused != "" {
		s.posError = clip(refused)
		s.errorf("%s; no position is set, and go answers bestmove 0000 until a position is accepted", refused)
		return
	}
	s.pos, s.posError = pos, ""
	if len(dropped) > 0 {
		names := make([]string, len(dropped))
		for i, d := range dropped {
			names[i] = d.String()
		}
		s.info("%s", clip("position: castling rights the board cannot have were dropped from the FEN: "+strings.Join(names, ", ")))
	}
}

// parsePosition reads the arguments of position: the position and the
// castling rights dropped from its FEN, or the message for a refused
// command.
func parsePosition(args []string) (pos *v.Position, dropped []v.DroppedRight, refused string) {
	if len(args) == 0 {
		return nil, nil, "position: expected 'startpos' or 'fen'"
	}
	var rest []string
	switch args[0] {
	case "startpos":
		pos = v.NewStartPosition()
		rest = args[1:]
	case "fen":
		end := len(args)
		for i := 1; i < len(args); i++ {
			if args[i] == "moves" {
				end = i
				break
			}
		}
		fen := strings.Join(args[1:end], " ")
		p, d, err := v.ParseFENDropped(fen)
		if err != nil {
			return nil, nil, fmt.Sprintf("position: %v (FEN %q)", err, fen)
		}
		pos, dropped, rest = p, d, args[end:]
	default:
		return nil, nil, fmt.Sprintf("position: expected 'startpos' or 'fen', got %q", args[0])
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return nil, nil, fmt.Sprintf("position: expected 'moves', got %q", rest[0])
		}
		if i, err := pos.PlayMoves(rest[1:]...); err != nil {
			return nil, nil, fmt.Sprintf("position: move %d %q: %v", i+1, rest[1+i], err)
		}
	}
	return pos, dropped, ""
}

// goNoPosition answers a go sent while no position is set (the last
// position command was refused): it searches nothing and says why in an
// info string, then answers bestmove 0000, the protocol's null move, at
// once, also for go infinite and go ponder, which have nothing to wait
// for. A go perft gets the info string only. A search still running is
// stopped first, as a go does.
func (s *Session) goNoPosition(args []string) {
	if s.searching() {
		s.stop()
		s.wait(0)
		s.applyPending()
	}
	s.errorf("go: no position is set (%s); not searching", s.posError)
	for _, a := range args {
		if a == "perft" {
			return
		}
	}
	s.send("bestmove 0000")
}
