package eval

import v "github.com/rochade/rochade/variant960"

// The search tells the evaluator about every move it makes and takes
// back, so that incremental state (the network's accumulators) can follow
// the position. Reset starts a new root; Push is called before a move is
// made on the position, PushNull before a null move, and Pop after either
// is taken back.

// Reset makes p the root of the evaluator's move stack.
func (e *Evaluator) Reset(p *v.Position) {}

// Push records that m is about to be made on p.
func (e *Evaluator) Push(p *v.Position, m v.Move) {}

// PushNull records that a null move is about to be made.
func (e *Evaluator) PushNull() {}

// Pop records that the last pushed move was taken back.
func (e *Evaluator) Pop() {}
