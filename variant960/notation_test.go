package variant960

import "testing"

// PlayMoves stops at the first bad move, says which one, and keeps the
// moves before it made.
func TestPlayMoves(t *testing.T) {
	e4, g1 := SquareOf(4, 3), SquareOf(6, 0)
	p := NewStartPosition()
	if i, err := p.PlayMoves("e2e4", "e7e5", "e1g1"); err == nil || i != 2 {
		t.Fatalf("PlayMoves with an illegal third move: index %d, error %v; want 2 and an error", i, err)
	}
	if p.GamePly() != 2 || p.PieceOn(e4) != MakePiece(White, Pawn) {
		t.Fatalf("after the two good moves: ply %d, position %s", p.GamePly(), p.FEN())
	}
	if i, err := p.PlayMoves("g1f3", "b8c6", "f1c4", "g8f6", "O-O"); err != nil || i != 5 {
		t.Fatalf("PlayMoves with castling as O-O: index %d, error %v", i, err)
	}
	if p.KingSquare(White) != g1 {
		t.Fatalf("castling not made: %s", p.FEN())
	}
}
