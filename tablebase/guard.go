package tablebase

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	v "github.com/rochade/rochade/variant960"
)

// A table file can change under its mapping: truncated, cut to 0 bytes,
// or rewritten in place while the engine runs (a download or a copy into
// the folder). Reading a page of the mapping past the file's new end
// raises SIGBUS, which kills a Go program unless the reading goroutine has
// asked for a panic instead (debug.SetPanicOnFault). So every probe entry
// point (ProbeWDL, ProbeDTZ, RankRoot) runs with faults turned into
// panics and defers endProbe, which recovers a runtime error (a fault, or
// an index out of range from inconsistent data), takes back the moves the
// probe had made on the position, and makes the probe fail. The file the
// error came from (the one whose mapping holds the fault address, else
// the one being read: probeTable defers blame, which passes the error on
// with its table) is left out from then on and reported once. Data that
// decodes to nonsense (a pair tree leading nowhere, a value out of range)
// is treated the same way by the decoder itself, without a panic.
//
// The cost on the probe path is one deferred call and two runtime calls
// that set a flag of the goroutine: see docs/tablebases.md for the
// measured ratio.

// OnFailure sets the function told, once for each file, that a table file
// failed during a probe (it was truncated or changed after it was mapped);
// the message names the file. It is called from the probing goroutine, in
// the middle of a search: it must be quick and safe to call from any
// goroutine. Set it before the tables are used.
func (tb *Tablebases) OnFailure(f func(msg string)) {
	if tb != nil {
		tb.onFailure = f
	}
}

func (tb *Tablebases) report(msg string) {
	if tb != nil && tb.onFailure != nil {
		tb.onFailure(msg)
	}
}

// endProbe ends a probe begun with debug.SetPanicOnFault(true), which
// returned fault; ply is the position's game ply when the probe began. It
// must be deferred directly, so that its recover sees the probe's panic.
func (tb *Tablebases) endProbe(pos *v.Position, ply int, fault bool, ok *bool) {
	debug.SetPanicOnFault(fault)
	r := recover()
	if r == nil {
		return
	}
	var reading *table
	if f, isTable := r.(tableError); isTable {
		r, reading = f.Error, f.t
	}
	err, isRuntime := r.(runtime.Error)
	if !isRuntime {
		panic(r)
	}
	for pos.GamePly() > ply {
		pos.Unmake()
	}
	*ok = false
	tb.probeFailed(err, reading)
}

// tableError is a runtime error raised while a table was read (probeTable
// and what it calls), passed on to endProbe with the table.
type tableError struct {
	runtime.Error
	t *table
}

// blame is deferred by probeTable: a runtime error raised while the table
// is read goes on to endProbe as a tableError naming it.
func (t *table) blame() {
	r := recover()
	if r == nil {
		return
	}
	if err, isRuntime := r.(runtime.Error); isRuntime {
		r = tableError{err, t}
	}
	panic(r)
}

// probeFailed finds the file a runtime error came from: for a fault, the
// one whose mapping holds the fault address; else the table being read
// (reading, nil if none was); else, for a fault (where the mapping's
// address is not known), those whose size on disk no longer matches
// their mapping. Each is left out and reported once. An error that no
// file can be blamed for is reported once, without a file.
func (tb *Tablebases) probeFailed(err runtime.Error, reading *table) {
	var blamed []*table
	why := err.Error()
	a, isFault := err.(interface{ Addr() uintptr })
	if isFault {
		why = fmt.Sprintf("fault reading the mapped file at %#x", a.Addr())
		for _, t := range tb.all {
			if m := t.mm; m != nil && m.contains(a.Addr()) {
				blamed = append(blamed, t)
				break
			}
		}
	}
	if len(blamed) == 0 && reading != nil {
		if isFault {
			why = err.Error() + " while reading the file"
		}
		blamed = append(blamed, reading)
	}
	if len(blamed) == 0 && isFault {
		for _, t := range tb.all {
			if !t.failed.Load() && t.changedOnDisk() != "" {
				blamed = append(blamed, t)
			}
		}
	}
	if len(blamed) == 0 {
		if tb.failedAny.CompareAndSwap(false, true) {
			tb.report(fmt.Sprintf("tablebase probe failed: %s; the search goes on without that result", why))
		}
		return
	}
	for _, t := range blamed {
		t.fail(why)
	}
}

// changedOnDisk says how the file at the table's path differs from its
// mapping ("" if it looks the same): gone, not a regular file, or another
// size.
func (t *table) changedOnDisk() string {
	m := t.mm
	if m == nil {
		return ""
	}
	fi, err := os.Stat(t.path)
	switch {
	case err != nil:
		return err.Error()
	case !fi.Mode().IsRegular():
		return "not a regular file any more"
	case fi.Size() != int64(m.Len()):
		return fmt.Sprintf("now %d bytes, %d when it was opened", fi.Size(), m.Len())
	}
	return ""
}

// fail leaves the table out of all later probes and reports it, the first
// time only. why tells what went wrong.
func (t *table) fail(why string) {
	if !t.failed.CompareAndSwap(false, true) {
		return
	}
	if c := t.changedOnDisk(); c != "" {
		why += " (the file changed after it was opened: " + c + ")"
	}
	t.owner.report(fmt.Sprintf("tablebase file failed: %s: %s; not used from now on", t.path, why))
}
