package variant960

import (
	"bufio"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// perftBenchCases are the positions `make bench-perft` times.
var perftBenchCases = []struct {
	name  string
	fen   string
	depth int
	nodes uint64
}{
	{"startpos", StartFEN, 6, 119060324},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690},
}

// stockfishPerft times Stockfish's `go perft` on one position, from the
// command to the "Nodes searched" line.
func stockfishPerft(path, fen string, depth int) (uint64, time.Duration, error) {
	cmd := exec.Command(path)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	send := func(s string) { fmt.Fprintln(in, s) }
	wait := func(prefix string) string {
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), prefix) {
				return sc.Text()
			}
		}
		return ""
	}
	send("uci")
	wait("uciok")
	send("setoption name Threads value 1")
	send("position fen " + fen)
	send("isready")
	wait("readyok")
	start := time.Now()
	send(fmt.Sprintf("go perft %d", depth))
	line := wait("Nodes searched")
	el := time.Since(start)
	send("quit")
	var n uint64
	fmt.Sscanf(strings.TrimPrefix(line, "Nodes searched:"), "%d", &n)
	return n, el, nil
}

func findStockfish() string {
	for _, p := range []string{"stockfish", "/usr/games/stockfish"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	return ""
}

// BenchmarkPerft prints our perft speed and, with Stockfish installed,
// Stockfish's on the same positions and the ratio (ours / Stockfish's).
func BenchmarkPerft(b *testing.B) {
	sf := findStockfish()
	for _, c := range perftBenchCases {
		b.Run(c.name, func(b *testing.B) {
			p := MustParseFEN(c.fen)
			var best time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				n := p.Perft(c.depth)
				el := time.Since(start)
				if n != c.nodes {
					b.Fatalf("perft %d = %d, want %d", c.depth, n, c.nodes)
				}
				if best == 0 || el < best {
					best = el
				}
			}
			ours := float64(c.nodes) / best.Seconds()
			b.ReportMetric(ours/1e6, "Mnps")
			line := fmt.Sprintf("perft %-8s depth %d: %d nodes in %v = %.1f Mnps", c.name, c.depth, c.nodes, best.Round(time.Millisecond), ours/1e6)
			if sf != "" {
				// Best of three, like ours over b.N.
				var sfBest time.Duration
				for i := 0; i < 3; i++ {
					n, el, err := stockfishPerft(sf, c.fen, c.depth)
					if err != nil || n != c.nodes {
						b.Logf("stockfish: %v (%d nodes)", err, n)
						break
					}
					if sfBest == 0 || el < sfBest {
						sfBest = el
					}
				}
				if sfBest > 0 {
					theirs := float64(c.nodes) / sfBest.Seconds()
					line += fmt.Sprintf("; stockfish %.1f Mnps; ratio %.2f", theirs/1e6, ours/theirs)
					b.ReportMetric(ours/theirs, "xStockfish")
				}
			}
			fmt.Println(line)
		})
	}
}
