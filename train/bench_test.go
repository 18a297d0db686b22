package train

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGradient measures one thread's gradient throughput on random
// positions of about 26 pieces; it also reports samples per CPU second,
// which is steadier than wall time on a shared machine.
func BenchmarkGradient(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	d := NewDataset()
	for d.Len() < 16384 {
		pos := randomPositions(b, r, 1, 30)[0]
		if n := pos.Occupied().Count(); n >= 22 && n <= 30 {
			d.Add(pos, r.IntN(600)-300, 0.5)
		}
	}
	idx := make([]uint32, d.Len())
	for i := range idx {
		idx[i] = uint32(i)
	}
	cfg := DefaultConfig()
	cfg.Threads = 1
	tr := NewTrainer(NewNet(1), cfg)
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		tr.Gradient(d, idx)
	}
	cpu := cpuTime() - c0
	b.ReportMetric(float64(b.N*len(idx))/cpu.Seconds(), "samples/cpu-s")
	b.ReportMetric(float64(len(d.Feat))/float64(d.Len()), "pieces")
}
