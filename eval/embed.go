package eval

import (
	"embed"
	"os"
	"sync"
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
func LoadNetFile(path string) (*Net, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return LoadNet(data)
}
