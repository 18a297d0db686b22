package eval

import (
	"unsafe"

	v "github.com/rochade/rochade/variant960"
)

// The search tells the evaluator about every move it makes and takes
// back, so that the network's accumulators follow the position. Reset
// starts a new root; Push is called before a move is made on the
// position, PushNull before a null move, and Pop after either is taken
// back. Accumulators are brought up to date lazily, when an evaluation
// needs them: from the nearest computed ancestor, applying each move's
// removed and added pieces.

// maxStack bounds the plies the evaluator follows; deeper positions are
// refreshed from scratch.
const maxStack = 256

// AccumulatorBytes is the memory of one evaluator's accumulator stack,
// allocated on the first Reset with a net.
const AccumulatorBytes = int64(maxStack * unsafe.Sizeof(accEntry{}))

type pieceSq struct {
	pc v.Piece
	sq v.Square
}

type accEntry struct {
	acc      [2][NetHidden]int16 // by perspective: White, Black
	computed bool
	nSub     int
	nAdd     int
	sub      [2]pieceSq // removed by the move that led here
	add      [2]pieceSq // added by it
}

// Reset makes p the root of the evaluator's move stack.
func (e *Evaluator) Reset(p *v.Position) {
	e.top = 0
	if e.net == nil {
		return
	}
	if e.stack == nil {
		e.stack = make([]accEntry, maxStack)
	}
	root := &e.stack[0]
	e.net.refresh(&root.acc[v.White], p, v.White)
	e.net.refresh(&root.acc[v.Black], p, v.Black)
	root.computed = true
	e.rooted = true
}

// Push records that m is about to be made on p.
func (e *Evaluator) Push(p *v.Position, m v.Move) {
	e.top++
	if e.net == nil || e.top >= maxStack {
		return
	}
	en := &e.stack[e.top]
	en.computed = false
	from, to := m.From(), m.To()
	pc := p.PieceOn(from)
	switch m.Kind() {
	case v.KindCastling:
		// The king's and rook's squares may overlap in Chess960; as sums
		// of rows, removals and additions commute.
		rook := p.PieceOn(to)
		en.nSub, en.nAdd = 2, 2
		en.sub[0], en.sub[1] = pieceSq{pc, from}, pieceSq{rook, to}
		en.add[0], en.add[1] = pieceSq{pc, m.CastlingKingTo()}, pieceSq{rook, m.CastlingRookTo()}
		return
	case v.KindEnPassant:
		capSq := v.SquareOf(to.File(), from.Rank())
		en.nSub, en.nAdd = 2, 1
		en.sub[0], en.sub[1] = pieceSq{pc, from}, pieceSq{p.PieceOn(capSq), capSq}
		en.add[0] = pieceSq{pc, to}
		return
	case v.KindPromotion:
		en.add[0] = pieceSq{v.MakePiece(pc.Color(), m.Promotion()), to}
	default:
		en.add[0] = pieceSq{pc, to}
	}
	en.nAdd = 1
	en.sub[0] = pieceSq{pc, from}
	en.nSub = 1
	if cap := p.PieceOn(to); cap != v.NoPiece {
		en.sub[1] = pieceSq{cap, to}
		en.nSub = 2
	}
}

// PushNull records that a null move is about to be made.
func (e *Evaluator) PushNull() {
	e.top++
	if e.net == nil || e.top >= maxStack {
		return
	}
	en := &e.stack[e.top]
	en.computed = false
	en.nSub, en.nAdd = 0, 0
}

// Pop records that the last pushed move was taken back.
func (e *Evaluator) Pop() { e.top-- }

// accumulators brings the top entry up to date and returns it; nil when
// the stack is too deep to follow (the caller refreshes).
func (e *Evaluator) accumulators() *accEntry {
	if e.top >= maxStack || e.top < 0 {
		return nil
	}
	i := e.top
	for !e.stack[i].computed {
		i--
	}
	for ; i < e.top; i++ {
		prev, cur := &e.stack[i], &e.stack[i+1]
		for persp := v.White; persp <= v.Black; persp++ {
			var adds, subs [2]*int16
			for k := 0; k < cur.nAdd; k++ {
				a := cur.add[k]
				adds[k] = &e.net.W[FeatureIndex(persp, a.pc.Color(), a.pc.Type(), a.sq)*NetHidden]
			}
			for k := 0; k < cur.nSub; k++ {
				s := cur.sub[k]
				subs[k] = &e.net.W[FeatureIndex(persp, s.pc.Color(), s.pc.Type(), s.sq)*NetHidden]
			}
			accUpdate(&cur.acc[persp], &prev.acc[persp], &adds, cur.nAdd, &subs, cur.nSub)
		}
		cur.computed = true
	}
	return &e.stack[e.top]
}

// evaluateNNUE is the network's score for the side to move, from the
// incrementally kept accumulators.
func (e *Evaluator) evaluateNNUE(p *v.Position) int {
	en := e.accumulators()
	if en == nil {
		return EvaluateNet(e.net, p)
	}
	us := p.Side()
	return e.net.output(&en.acc[us], &en.acc[us.Other()], p.Occupied().Count())
}
