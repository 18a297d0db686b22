// Package regfile opens files without ever waiting on them: a FIFO, a
// device or a file swapped for one between a look and an open must not
// block the program that opens it. What was opened is checked on the open
// file itself (fstat), not on its name, and a read is bounded.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"
)

// OpenNoWait opens a file without ever waiting: on Unix with O_NONBLOCK
// (a FIFO then opens at once, or fails, instead of waiting for its other
// end) and O_NOCTTY, and returns the type of what was opened, taken from
// the open file, so that the caller can refuse what it cannot use.
func OpenNoWait(name string, flag int, perm os.FileMode) (*os.File, os.FileInfo, error) {
	if runtime.GOOS != "windows" {
		flag |= syscall.O_NONBLOCK | syscall.O_NOCTTY
	}
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		var errno syscall.Errno
		if errors.As(err, &errno) && errno == syscall.ENXIO {
			// A FIFO without a reader, or a socket, opened for writing.
			return nil, nil, fmt.Errorf("%s is not a regular file (a FIFO or socket: %v)", name, errno)
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// OpenRegular opens a regular file to read it, never waiting: anything
// else (a FIFO, a device, a directory) is refused.
func OpenRegular(name string) (*os.File, os.FileInfo, error) {
	f, fi, err := OpenNoWait(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file (%s)", name, Kind(fi.Mode()))
	}
	return f, fi, nil
}

// ErrTooLarge is the error of ReadRegular for a file over its limit.
var ErrTooLarge = errors.New("larger than the limit")

// ReadRegular reads the regular file name, of at most limit bytes, never
// waiting for it: a file that is larger, or grows past limit while it is
// read, is refused with an error wrapping ErrTooLarge.
func ReadRegular(name string, limit int64) ([]byte, error) {
	f, fi, err := OpenRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes: %w (%d)", name, fi.Size(), ErrTooLarge, limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s grew past %d bytes while read: %w", name, limit, ErrTooLarge)
	}
	return data, nil
}

// Kind names the type of a file that is not a regular one.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	}
	return "type " + m.Type().String()
}
