//go:build !unix

package tablebase

import "os"

// loadFile reads a table file into memory (no memory mapping on this
// system).
func loadFile(path string) (data []byte, mapped bool, err error) {
	data, err = os.ReadFile(path)
	return data, false, err
}

func unmap([]byte) {}
