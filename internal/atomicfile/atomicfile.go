// Package atomicfile writes files so that a crash or a full disk leaves
// either the old contents or the new ones, never a part: the data goes to
// a temporary file beside the target, which is synced to the disk, closed
// and renamed over the target, and then the directory is synced so that
// the rename itself survives a power cut. The tools (datagen, train) use
// it; engine packages write no files.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// TempSuffix ends the temporary file's name (the target's path plus
// TempSuffix). An interrupted write may leave one behind; the next write
// to the same path replaces it.
const TempSuffix = ".tmp"

// Write writes data to path atomically, with permissions perm for a new
// file.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc writes what write produces to path atomically, through a
// buffer; for files too large to build in memory first. If write fails,
// path is left as it was and the temporary file is removed.
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) error {
	tmp := path + TempSuffix
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// SyncDir makes renames into dir durable. Windows cannot sync a
// directory (its renames are durable once the call returns).
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
