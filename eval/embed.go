package eval

import (
	"embed"
	"errors"
	"fmt"
	"sync"

	"github.com/rochade/rochade/internal/regfile"
)

// UseNetByDefault tells whether the engine evaluates with the embedded
// net unless told otherwise (UCI "Use NNUE", the command line's --hce and
// --nnue). It is on since net h1 beat the hand-written evaluation by
// +200 Elo at 5+0.05 in Chess960 (docs/training.md, "Net history").
const UseNetByDefault = true

//go:embed nets
var netFS embed.FS

var (
	defaultOnce sync.Once
	defaultNet  *Net
	defaultErr  error
)

// DefaultNet is the net compiled into the binary (eval/nets/default.nnue),
// or nil with an error when the build has none.
func DefaultNet() (*Net, error) {
	defaultOnce.Do(func() {
		data, err := netFS.ReadFile("nets/default.nnue")
		if err != nil {
			defaultErr = err
			return
		}
		defaultNet, defaultErr = LoadNet(data)
	})
	return defaultNet, defaultErr
}

// LoadNetFile reads and checks the net file at path.
//
// Only a regular file of at most maxNetFileBytes is read: a wrong path to
// a large file must not take the process past its memory, and a FIFO or
// device must not block it for good.
func LoadNetFile(path string) (*Net, error) {
	// The file's type and size are those of the opened file, and the read
	// stops at the limit: a name swapped for a FIFO after a look, or a
	// file that grows, cannot block or flood the caller.
	data, err := regfile.ReadRegular(path, maxNetFileBytes)
	if errors.Is(err, regfile.ErrTooLarge) {
		return nil, fmt.Errorf("%s is larger than any net file (%d bytes)", path, maxNetFileBytes)
	}
	if err != nil {
		return nil, err
	}
	return LoadNet(data)
}

// maxNetFileBytes bounds a net file: the largest header, manifest and
// weights LoadNet accepts (version 3, the widest net with the most king
// and output buckets: about 51 MB).
const maxNetFileBytes = 80 + maxManifest + 2*(NetMaxKingBuckets*NetInputs*NetMaxHidden+NetMaxHidden+NetMaxBuckets*2*NetMaxHidden) + 4*NetMaxBuckets + 32
