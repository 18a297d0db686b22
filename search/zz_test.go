package search

import (
	"testing"

	v "github.com/rochade/rochade/variant960"
)

func TestZZProf(t *testing.T) {
	e := NewEngine(DefaultOptions())
	r := e.Search(v.MustParseFEN("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"), Limits{Depth: 17}, Callbacks{})
	t.Log(r)
}
