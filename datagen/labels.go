package datagen

// Fake mate labels.
//
// Up to build 6f6374c^, a search that the hard node limit stopped during
// the first root move of an aspiration pass answered -Infinity (-32001)
// for the side to move, and play stored it as a mate against the side to
// move: -MateScore if White was to move, +MateScore if Black was. Chunks
// made then keep these labels as they are; the reader recognises them
// with the rule of markFakeMates and sets Sample.FakeMate.
//
// The rule looks at the game around a mate label (±MateScore) at ply i
// that claims side W wins:
//
//   - If W is the side to move at ply i, the label is genuine: the
//     stopped search only ever claimed that the side to move loses.
//   - Otherwise it is genuine if the game was won by W and every later
//     label in the game is a score of at least adjWinScore for W (mates
//     included). A real mate is followed by the same verdict until the
//     game ends, in mate or in a win adjudication a few plies later.
//   - Otherwise it is fake: its sign disagrees with the result, or a
//     later search of the same game gave an ordinary score.
//
// A stopped search in a position that was lost anyway, inside the last
// plies of a won game, cannot be told from a real mate; such a label is
// kept as genuine (it names the right winner).
//
// From build 6f6374c on, no search stores such a label, but the rule
// still marks about 13 mates per million positions: a search of the losing
// side that saw its own mate while a later search of the winner gave an
// ordinary score, or a game that the winner then failed to win. They
// are real search results, yet the game does not confirm them, and
// dropping them costs nothing (nnue-n2500-s18, build 805daba: 42 of
// 3.1M positions).

// markFakeMates sets fake[i] for the fake mate labels of one game: scores
// are its labels in White's view, whiteFirst tells whether White is to
// move at the first one, result is the game's result for White. fake is
// resized to len(scores) and returned.
func markFakeMates(fake []bool, scores []int, whiteFirst bool, result int) []bool {
	n := len(scores)
	if cap(fake) < n {
		fake = make([]bool, n)
	}
	fake = fake[:n]
	// strong[i]: every label from i on is at least adjWinScore for the
	// winner (false for a draw).
	strongFrom := n // the first ply of the game's final run of strong labels
	if result != ResultDraw {
		sign := 1
		if result == ResultLoss {
			sign = -1
		}
		for strongFrom > 0 && sign*scores[strongFrom-1] >= adjWinScore {
			strongFrom--
		}
	}
	for i, s := range scores {
		fake[i] = false
		if s != MateScore && s != -MateScore {
			continue
		}
		whiteWins := s > 0
		whiteToMove := whiteFirst == (i%2 == 0)
		if whiteWins == whiteToMove {
			continue // the side to move wins: never a stopped search
		}
		won := (whiteWins && result == ResultWin) || (!whiteWins && result == ResultLoss)
		fake[i] = !won || i < strongFrom
	}
	return fake
}

// MateCounts counts the mate labels of chunk files.
type MateCounts struct {
	Genuine uint64 // ±MateScore labels the rule keeps
	Fake    uint64 // ±MateScore labels left by a stopped search (Sample.FakeMate)
}
