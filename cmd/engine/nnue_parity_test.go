package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/rochade/rochade/eval"
	"github.com/rochade/rochade/train"
	v "github.com/rochade/rochade/variant960"
)

// parityPositions plays random Chess960 games, preferring captures, and
// returns positions of every piece count from 32 down to a few.
func parityPositions(r *rand.Rand) []*v.Position {
	var out []*v.Position
	for g := 0; g < 40; g++ {
		p, _ := v.Chess960Position(r.IntN(960))
		for ply := 0; ply < 300; ply++ {
			var ml v.MoveList
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[r.IntN(ml.N)]
			for _, c := range ml.Slice() {
				if p.PieceOn(c.To()) != v.NoPiece && !c.IsCastling() && r.IntN(2) == 0 {
					m = c
				}
			}
			p.Make(m)
			if r.IntN(4) == 0 {
				out = append(out, p.Copy())
			}
		}
	}
	return out
}

// TestNetParity: the engine's inference (package eval) and the trainer's
// reference integer inference (train.QuantEval) give the same score on
// every position, for a trainer-written net with eight output buckets and
// for the embedded net (file format version 2, 8 output buckets).
func TestNetParity(t *testing.T) {
	n := train.NewNet(5, 8)
	for i := range n.O {
		n.O[i] *= 20 // output weights of a trained net's size
	}
	for i := range n.OB {
		n.OB[i] = 0.05 * float32(i-4)
	}
	q, err := n.Quantise().EngineNet()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := eval.WriteNet(&buf, q, ""); err != nil {
		t.Fatal(err)
	}
	emb, err := os.ReadFile("../../eval/nets/default.nnue")
	if err != nil {
		t.Fatal(err)
	}
	pos := parityPositions(rand.New(rand.NewPCG(3, 4)))
	for _, c := range []struct {
		name    string
		data    []byte
		buckets int
	}{{"8 buckets", buf.Bytes(), 8}, {"embedded", emb, 0}} { // 0: as the file says
		en, err := eval.LoadNet(c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		tq := train.QuantNetOf(en)
		if c.buckets == 0 {
			c.buckets = en.Buckets()
		}
		if en.Buckets() != c.buckets || tq.Buckets() != c.buckets {
			t.Fatalf("%s: buckets %d (eval), %d (train)", c.name, en.Buckets(), tq.Buckets())
		}
		seen := map[int]bool{}
		for _, p := range pos {
			seen[en.Bucket(p.Occupied().Count())] = true
			if a, b := eval.EvaluateNet(en, p), tq.QuantEval(p); a != b {
				t.Fatalf("%s: %s: eval %d, train %d", c.name, p.ShredderFEN(), a, b)
			}
		}
		if len(seen) != c.buckets {
			t.Errorf("%s: %d positions cover buckets %v", c.name, len(pos), seen)
		}
	}
}
