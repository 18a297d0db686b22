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
// removed and added pieces. A king move that changes its side's king
// bucket or reflection changes every input of that side's accumulator:
// that one is rebuilt instead, from the refresh cache.
//
// The refresh cache holds, for each perspective and each refresh state
// (king bucket and reflection), the accumulator last computed in that
// state and the pieces it was computed for; a rebuild applies only the
// pieces that differ, and leaves the result there for the next one.

// maxStack bounds the plies the evaluator follows; deeper positions are
// refreshed from scratch.
const maxStack = 256

// AccumulatorBytes bounds the memory of one evaluator's accumulator stack
// and refresh cache, allocated on the first Reset with a net: what the
// widest net (NetMaxHidden) with the most king buckets takes.
const AccumulatorBytes = int64(maxStack*(unsafe.Sizeof(accEntry{})+2*NetMaxHidden*2) +
	2*2*NetMaxKingBuckets*(unsafe.Sizeof(cacheEntry{})+NetMaxHidden*2))

// noRefresh marks an entry whose accumulators are both updated
// incrementally.
const noRefresh = 2

type pieceSq struct {
	pc v.Piece
	sq v.Square
}

// pieceSet is a position's pieces by colour and type (index type-1).
type pieceSet [2][6]v.Bitboard

type accEntry struct {
	acc      [2]*int16 // by perspective (White, Black): Hidden values in the evaluator's buffer
	computed bool
	refresh  uint8 // the perspective to rebuild (a king move changed its state), or noRefresh
	nSub     int
	nAdd     int
	sub      [2]pieceSq  // removed by the move that led here
	add      [2]pieceSq  // added by it
	ksq      [2]v.Square // each side's king square here
	pieces   pieceSet    // the pieces here, set when refresh is
}

// cacheEntry is one refresh state's last accumulator (Hidden values in
// the evaluator's cache buffer) and the pieces it sums.
type cacheEntry struct {
	pieces pieceSet
	acc    *int16
}

// prepare allocates the stack and the refresh cache for the evaluator's
// net, and empties the cache when the net changed.
func (e *Evaluator) prepare() {
	n := e.net
	if e.cacheNet == n {
		return
	}
	h := n.hidden
	if e.stack == nil {
		e.stack = make([]accEntry, maxStack)
	}
	if len(e.accs) != maxStack*2*h {
		e.accs = make([]int16, maxStack*2*h)
	}
	for i := range e.stack {
		for c := range 2 {
			e.stack[i].acc[c] = &e.accs[(2*i+c)*h]
		}
	}
	states := 2 * n.kings.N
	if len(e.cache) != 2*states || len(e.cacheAccs) != 2*states*h {
		e.cache = make([]cacheEntry, 2*states)
		e.cacheAccs = make([]int16, 2*states*h)
	}
	for i := range e.cache {
		c := &e.cache[i]
		c.pieces = pieceSet{}
		c.acc = &e.cacheAccs[i*h]
		copy(e.cacheAccs[i*h:(i+1)*h], n.B)
	}
	e.cacheNet = n
}

// accOf is perspective persp's accumulator of en.
func (e *Evaluator) accOf(en *accEntry, persp v.Color) []int16 {
	return unsafe.Slice(en.acc[persp], e.net.hidden)
}

// piecesOf is p's pieces.
func piecesOf(p *v.Position) pieceSet {
	var s pieceSet
	for c := v.White; c <= v.Black; c++ {
		for t := v.Pawn; t <= v.King; t++ {
			s[c][t-1] = p.Pieces(c, t)
		}
	}
	return s
}

// refreshCached sets the accumulator at dst to perspective persp's of the
// pieces ps with persp's king on ksq, through the refresh cache.
func (e *Evaluator) refreshCached(dst *int16, ps *pieceSet, persp v.Color, ksq v.Square) {
	n := e.net
	kv := n.view[persp][ksq&63]
	c := &e.cache[int(persp)*2*n.kings.N+int(kv.state)]
	var adds, subs [64]*int16
	na, ns := 0, 0
	for col := v.White; col <= v.Black; col++ {
		for t := v.Pawn; t <= v.King; t++ {
			old, now := c.pieces[col][t-1], ps[col][t-1]
			if old == now {
				continue
			}
			pc := v.MakePiece(col, t)
			for bb := now &^ old; bb != 0; bb &= bb - 1 {
				adds[na] = n.row(kv, persp, pc, bb.LSB())
				na++
			}
			for bb := old &^ now; bb != 0; bb &= bb - 1 {
				subs[ns] = n.row(kv, persp, pc, bb.LSB())
				ns++
			}
		}
	}
	c.pieces = *ps
	h := n.hidden
	if na+ns > 0 {
		accUpdate(c.acc, c.acc, &adds[0], na, &subs[0], ns, h)
	}
	copy(unsafe.Slice(dst, h), unsafe.Slice(c.acc, h))
}

// Reset makes p the root of the evaluator's move stack. The refresh cache
// outlives it (consecutive roots share most pieces): it is emptied when
// the net changes, and relies on a net's weights not changing in place.
func (e *Evaluator) Reset(p *v.Position) {
	e.top = 0
	if e.net == nil {
		return
	}
	e.prepare()
	root := &e.stack[0]
	ps := piecesOf(p)
	for c := v.White; c <= v.Black; c++ {
		root.ksq[c] = p.KingSquare(c)
		e.refreshCached(root.acc[c], &ps, c, root.ksq[c])
	}
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
	en.refresh = noRefresh
	en.ksq = e.stack[e.top-1].ksq
	from, to := m.From(), m.To()
	pc := p.PieceOn(from)
	kto := to
	switch m.Kind() {
	case v.KindCastling:
		// The king's and rook's squares may overlap in Chess960; as sums
		// of rows, removals and additions commute.
		rook := p.PieceOn(to)
		kto = m.CastlingKingTo()
		en.nSub, en.nAdd = 2, 2
		en.sub[0], en.sub[1] = pieceSq{pc, from}, pieceSq{rook, to}
		en.add[0], en.add[1] = pieceSq{pc, kto}, pieceSq{rook, m.CastlingRookTo()}
	case v.KindEnPassant:
		capSq := v.SquareOf(to.File(), from.Rank())
		en.nSub, en.nAdd = 2, 1
		en.sub[0], en.sub[1] = pieceSq{pc, from}, pieceSq{p.PieceOn(capSq), capSq}
		en.add[0] = pieceSq{pc, to}
		return
	default: // a plain move, or a promotion (a pawn move: never a king's)
		placed := pc
		if m.Kind() == v.KindPromotion {
			placed = v.MakePiece(pc.Color(), m.Promotion())
		}
		en.add[0] = pieceSq{placed, to}
		en.nAdd = 1
		en.sub[0] = pieceSq{pc, from}
		en.nSub = 1
		if cap := p.PieceOn(to); cap != v.NoPiece {
			en.sub[1] = pieceSq{cap, to}
			en.nSub = 2
		}
	}
	if pc.Type() != v.King {
		return
	}
	us := pc.Color()
	en.ksq[us] = kto
	if e.net.view[us][kto&63].state == e.net.view[us][from&63].state {
		return
	}
	// The mover's inputs all change: its accumulator is rebuilt, from the
	// pieces after the move.
	en.refresh = uint8(us)
	en.pieces = piecesOf(p)
	for k := 0; k < en.nSub; k++ {
		s := en.sub[k]
		en.pieces[s.pc.Color()][s.pc.Type()-1] &^= v.SquareBB(s.sq)
	}
	for k := 0; k < en.nAdd; k++ {
		a := en.add[k]
		en.pieces[a.pc.Color()][a.pc.Type()-1] |= v.SquareBB(a.sq)
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
	en.refresh = noRefresh
	en.ksq = e.stack[e.top-1].ksq
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
	n := e.net
	i := e.top
	for !e.stack[i].computed {
		i--
	}
	for ; i < e.top; i++ {
		prev, cur := &e.stack[i], &e.stack[i+1]
		for persp := v.White; persp <= v.Black; persp++ {
			if cur.refresh == uint8(persp) {
				e.refreshCached(cur.acc[persp], &cur.pieces, persp, cur.ksq[persp])
				continue
			}
			kv := n.view[persp][cur.ksq[persp]&63]
			var adds, subs [2]*int16
			for k := 0; k < cur.nAdd; k++ {
				a := cur.add[k]
				adds[k] = n.row(kv, persp, a.pc, a.sq)
			}
			for k := 0; k < cur.nSub; k++ {
				s := cur.sub[k]
				subs[k] = n.row(kv, persp, s.pc, s.sq)
			}
			accUpdate(cur.acc[persp], prev.acc[persp], &adds[0], cur.nAdd, &subs[0], cur.nSub, n.hidden)
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
	return e.net.output(en.acc[us], en.acc[us.Other()], p.Occupied().Count())
}
