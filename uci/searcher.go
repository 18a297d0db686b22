package uci

import (
	"github.com/rochade/rochade/search"
	v "github.com/rochade/rochade/variant960"
)

// Searcher is what the protocol loop needs from a search engine;
// *search.Engine implements it. Tests may substitute their own.
type Searcher interface {
	SetOptions(search.Options)
	Clear()
	// SearchWith runs one search; stop and ponderhit reach it through ctl,
	// which the session makes before the search goroutine starts.
	SearchWith(ctl *search.Control, pos *v.Position, limits search.Limits, cb search.Callbacks) search.Result
	HashFull() int
}

func newSearcher(o search.Options) Searcher { return search.NewEngine(o) }
