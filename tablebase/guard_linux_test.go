package tablebase

import (
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"
	"unsafe"

	v "github.com/rochade/rochade/variant960"
)

// threadCPU is the CPU time of the calling thread
// (CLOCK_THREAD_CPUTIME_ID).
func threadCPU(b *testing.B) time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		b.Fatal(e)
	}
	return time.Duration(ts.Nano())
}

// BenchmarkProbeGuard measures what the fault guard costs a probe: each
// iteration probes the list positions once with and once without it, in
// turn (and in alternating order), timing each pass by the thread's CPU
// time, so that the load of a busy machine (other processes taking the
// cores) falls on neither. It reports guarded/unguarded CPU time for WDL
// and for DTZ probes.
func BenchmarkProbeGuard(b *testing.B) {
	tb := openTables(b)
	ps := benchPositions(b)
	for _, c := range []struct {
		name      string
		guarded   func(*v.Position) (int, bool)
		unguarded func(*v.Position) (int, bool)
		n         int // positions a pass
	}{
		{"WDL", tb.ProbeWDL, tb.probeWDLUnguarded, len(ps)},
		{"DTZ", tb.ProbeDTZ, tb.probeDTZUnguarded, len(ps) / 10},
	} {
		b.Run(c.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var tg, tu time.Duration
			pass := func(f func(*v.Position) (int, bool)) time.Duration {
				start := threadCPU(b)
				for _, p := range ps[:c.n] {
					f(p)
				}
				return threadCPU(b) - start
			}
			for i := 0; i < b.N; i++ {
				if i&1 == 0 {
					tu += pass(c.unguarded)
					tg += pass(c.guarded)
				} else {
					tg += pass(c.guarded)
					tu += pass(c.unguarded)
				}
			}
			b.ReportMetric(float64(tg)/float64(tu), "guarded/unguarded")
			b.ReportMetric(float64(tu.Nanoseconds())/float64(b.N*c.n), "ns/unguarded-probe")
			b.ReportMetric(float64(tg.Nanoseconds())/float64(b.N*c.n), "ns/guarded-probe")
		})
	}
}

//go:noinline
func (tb *Tablebases) guardOnly(pos *v.Position) (ok bool) {
	defer tb.endProbe(pos, pos.GamePly(), debug.SetPanicOnFault(true), &ok)
	return true
}

// BenchmarkGuardOnly is the guard alone, around no probe: its fixed cost,
// in thread CPU time per call.
func BenchmarkGuardOnly(b *testing.B) {
	tb := openTables(b)
	pos := v.MustParseFEN(kbnFEN)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU(b)
	for i := 0; i < b.N; i++ {
		tb.guardOnly(pos)
	}
	b.ReportMetric(float64((threadCPU(b)-start).Nanoseconds())/float64(b.N), "cpu-ns/guard")
}
