package uci

import (
	"runtime/debug"
	"testing"

	"github.com/rochade/rochade/internal/membudget"
	"github.com/rochade/rochade/search"
)

// TestGoMemoryLimitTable: the garbage collector's limit is the budget
// less what the resident set holds outside the Go runtime's memory: the
// code pages, and the table where it lives outside the Go heap.
func TestGoMemoryLimitTable(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	const budget, hash = 4096, 1024
	setMemoryLimit(membudget.Budget{MB: budget}, hash, 1)
	want := int64(budget-16) << 20
	if search.TableOutsideHeap {
		want -= hash << 20
	}
	if got := debug.SetMemoryLimit(-1); got != want {
		t.Errorf("Hash %d MB in a budget of %d MB: Go memory limit %d MB, want %d MB (table outside the heap: %v)",
			hash, budget, got>>20, want>>20, search.TableOutsideHeap)
	}
}
