package eval

import (
	"embed"
	"os"
	"sync"
)

// UseNetByDefault tells whether the engine evaluates with the embedded
// net unless told otherwise (UCI "Use NNUE", the command line's --hce and
// --nnue). It is off while the embedded net is weaker than the
// hand-written evaluation in matches (README.md, "Evaluation: the net").
const UseNetByDefault = false

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
