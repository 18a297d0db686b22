package search

import (
	"time"

	"github.com/rochade/rochade/eval"

	v "github.com/rochade/rochade/variant960"
)

// BenchPositions are the fixed positions of `rochade bench`: standard
// chess, Chess960 and Double Fischer Random, openings to endgames.
var BenchPositions = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
	"r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/R4RK1 w - - 4 11",
	"2r2rk1/pp3ppp/2n1b3/3pP3/3P4/P1N2N2/1P3PPP/R4RK1 b - - 2 18",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"8/8/1p2k3/p1p1p3/P1P1P3/1P2K3/8/8 w - - 0 40",
	"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
	"8/5k2/8/3K4/8/8/1B6/1N6 w - - 0 60",
	"4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
	// Chess960 start positions and middlegames.
	"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
	"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
	"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1",
	"rk5r/pppbqppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPBQPPP/RK5R w HAha - 0 1",
	"1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
	"qbbnrkr1/p1pppppp/1p4n1/8/2P5/6N1/PPNPPPPP/1BRKBRQ1 w FCge - 1 3",
	// Double Fischer Random.
	"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1",
	"nqbrkbrn/pppppppp/8/8/8/8/PPPPPPPP/RNKBBQRN w GAgd - 0 1",
}

// DefaultBenchDepth is the depth of `rochade bench` without an argument.
const DefaultBenchDepth = 11

// Bench searches every bench position to a fixed depth with a fresh
// 16 MB, one-thread engine. The node count is deterministic: it is the
// engine's signature. The time is that of the searches alone, without
// clearing the table between positions. net is the evaluation network
// (nil: the hand-written evaluation).
func Bench(depth int, net *eval.Net) (nodes uint64, elapsed time.Duration) {
	if depth <= 0 {
		depth = DefaultBenchDepth
	}
	e := NewEngine(Options{HashMB: 16, Threads: 1, MultiPV: 1, Net: net})
	for _, fen := range BenchPositions {
		pos, err := v.ParseFEN(fen)
		if err != nil {
			panic("bench position: " + err.Error())
		}
		e.Clear() // not timed: clearing the table is no search work
		start := time.Now()
		res := e.Search(pos, Limits{Depth: depth}, Callbacks{})
		elapsed += time.Since(start)
		nodes += res.Nodes
	}
	return nodes, elapsed
}
