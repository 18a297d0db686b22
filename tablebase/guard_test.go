//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package tablebase

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	v "github.com/rochade/rochade/variant960"
)

// copyTables copies both files of the named tables into a new folder.
func copyTables(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		for _, ext := range []string{".rtbw", ".rtbz"} {
			data, err := os.ReadFile(filepath.Join(tablesPath, n+ext))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, n+ext), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// failures records what OnFailure is told.
type failures struct {
	mu   sync.Mutex
	msgs []string
}

func (f *failures) add(msg string) {
	f.mu.Lock()
	f.msgs = append(f.msgs, msg)
	f.mu.Unlock()
}

func (f *failures) get() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.msgs)
}

func openWatched(t *testing.T, dir string) (*Tablebases, *failures) {
	t.Helper()
	tb, warn := Open(dir)
	if len(warn) > 0 {
		t.Fatalf("warnings: %q", warn)
	}
	f := &failures{}
	tb.OnFailure(f.add)
	t.Cleanup(tb.Close)
	return tb, f
}

// The KBNvK position with black to move and the knight next to the
// black king: the WDL probe first takes the knight (a KBvK probe) and
// then reads KBNvK itself.
const kbnFEN = "8/8/8/8/8/1k6/2N5/K6B b - - 0 1"

// A table cut to 0 bytes, or to a third, after it was mapped: the probe
// that reads it faults, fails (ok false) and leaves the position as it
// was; OnFailure names the file once, and later probes fail at once.
func TestTruncatedWhileMapped(t *testing.T) {
	for _, frac := range []int64{0, 3} {
		dir := copyTables(t, "KBNvK", "KBvK", "KNvK")
		tb, fails := openWatched(t, dir)
		pos := v.MustParseFEN(kbnFEN)
		if w, ok := tb.ProbeWDL(pos); !ok || w != Draw {
			t.Fatalf("intact tables: %d %v", w, ok)
		}
		for _, ext := range []string{".rtbw", ".rtbz"} {
			p := filepath.Join(dir, "KBNvK"+ext)
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			size := int64(0)
			if frac > 0 {
				size = fi.Size() / frac
			}
			if err := os.Truncate(p, size); err != nil {
				t.Fatal(err)
			}
		}
		for _, fen := range []string{kbnFEN, "8/8/8/8/3k4/8/8/KBN5 w - - 0 1", "8/8/8/4k3/8/8/8/KBN5 w - - 0 1"} {
			pos := v.MustParseFEN(fen)
			if w, ok := tb.ProbeWDL(pos); ok {
				t.Errorf("cut to 1/%d: %s: WDL %d from a cut table", frac, fen, w)
			}
			if d, ok := tb.ProbeDTZ(pos); ok {
				t.Errorf("cut to 1/%d: %s: DTZ %d from a cut table", frac, fen, d)
			}
			var ml v.MoveList
			pos.GenerateLegal(&ml)
			if ranks, _, ok := tb.RankRoot(pos, ml.Slice(), true); ok || ranks != nil {
				t.Errorf("cut to 1/%d: %s: root ranked %v from a cut table", frac, fen, ranks)
			}
			if pos.FEN() != fen || pos.GamePly() != v.MustParseFEN(fen).GamePly() {
				t.Errorf("cut to 1/%d: the failed probes left the position at %s", frac, pos.FEN())
			}
		}
		got := fails.get()
		if len(got) != 1 || !strings.Contains(got[0], filepath.Join(dir, "KBNvK.rtbw")+": ") ||
			!strings.Contains(got[0], "not used from now on") {
			t.Errorf("cut to 1/%d: failures %q, want one naming KBNvK.rtbw", frac, got)
		}
		// The other tables still answer.
		if w, ok := tb.ProbeWDL(v.MustParseFEN("8/8/8/8/8/2k5/8/KB6 w - - 0 1")); !ok || w != Draw {
			t.Errorf("KBvK after the failure: %d %v", w, ok)
		}
	}
}

// A table cut while the probe has a move made on the position (the
// capture search took the rook, then read the cut KQvK): the failed probe
// takes the move back.
func TestTruncatedMidProbe(t *testing.T) {
	const fen = "k7/8/8/8/8/8/1r5Q/K7 w - - 0 1"
	dir := copyTables(t, "KQvKR", "KQvK", "KRvK")
	tb, fails := openWatched(t, dir)
	pos := v.MustParseFEN(fen)
	if _, ok := tb.ProbeWDL(pos); !ok {
		t.Fatal("intact tables do not answer")
	}
	if err := os.Truncate(filepath.Join(dir, "KQvK.rtbw"), 0); err != nil {
		t.Fatal(err)
	}
	if w, ok := tb.ProbeWDL(pos); ok {
		t.Errorf("WDL %d with the cut KQvK", w)
	}
	if pos.FEN() != fen || pos.GamePly() != v.MustParseFEN(fen).GamePly() {
		t.Errorf("the failed probe left the position at %s (ply %d)", pos.FEN(), pos.GamePly())
	}
	if err := pos.Validate(); err != nil {
		t.Errorf("position broken: %v", err)
	}
	if got := fails.get(); len(got) != 1 || !strings.Contains(got[0], "KQvK.rtbw") {
		t.Errorf("failures %q", got)
	}
}

// Many goroutines probe while the file is cut: none crashes, and the file
// is reported once.
func TestTruncatedUnderConcurrentProbes(t *testing.T) {
	dir := copyTables(t, "KBNvK", "KBvK", "KNvK")
	tb, fails := openWatched(t, dir)
	fens := []string{kbnFEN, "8/8/8/8/3k4/8/8/KBN5 w - - 0 1", "8/8/8/4k3/8/8/8/KBN5 b - - 0 1"}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			pos := v.MustParseFEN(fens[g%len(fens)])
			for {
				select {
				case <-stop:
					return
				default:
				}
				tb.ProbeWDL(pos)
				tb.ProbeDTZ(pos)
			}
		}(g)
	}
	time.Sleep(20 * time.Millisecond)
	for _, ext := range []string{".rtbw", ".rtbz"} {
		if err := os.Truncate(filepath.Join(dir, "KBNvK"+ext), 0); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	close(stop)
	wg.Wait()
	got := fails.get()
	if len(got) == 0 || len(got) > 2 {
		t.Fatalf("failures %q", got)
	}
	seen := map[string]bool{}
	for _, f := range got {
		if seen[f] || !strings.Contains(f, "KBNvK.rtb") {
			t.Errorf("failures %q", got)
		}
		seen[f] = true
	}
}

// A file rewritten in place with other bytes (same size): the probes may
// fail or answer wrongly, but never crash or hang, and a failure is
// reported at most once.
func TestRewrittenWhileMapped(t *testing.T) {
	dir := copyTables(t, "KBNvK", "KBvK", "KNvK")
	tb, fails := openWatched(t, dir)
	pos := v.MustParseFEN(kbnFEN)
	tb.ProbeWDL(pos)
	for _, ext := range []string{".rtbw", ".rtbz"} {
		p := filepath.Join(dir, "KBNvK"+ext)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := 64; i < len(data); i++ {
			data[i] = byte(i*131 + i*i*7 + 29)
		}
		if _, err := f.WriteAt(data[64:], 64); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for _, fen := range []string{kbnFEN, "8/8/8/8/3k4/8/8/KBN5 w - - 0 1", "8/8/8/4k3/8/8/8/KBN5 b - - 0 1",
		"8/8/8/8/2k5/8/8/KBN5 w - - 0 1", "8/8/2k5/8/8/8/8/KBN5 w - - 0 1"} {
		pos := v.MustParseFEN(fen)
		if w, ok := tb.ProbeWDL(pos); ok && (w < Loss || w > Win) {
			t.Errorf("%s: WDL %d", fen, w)
		}
		tb.ProbeDTZ(pos)
		if pos.FEN() != fen {
			t.Errorf("the probe left the position at %s", pos.FEN())
		}
	}
	got := fails.get()
	if len(got) > 2 || (len(got) == 2 && got[0] == got[1]) {
		t.Errorf("failures %q", got)
	}
	t.Logf("failures %q", got)
}

// A file replaced by another (renamed over it) while mapped: the mapping
// still holds the old file, so the probes go on answering from it.
func TestRenamedOverWhileMapped(t *testing.T) {
	dir := copyTables(t, "KBNvK", "KBvK", "KNvK")
	tb, fails := openWatched(t, dir)
	pos := v.MustParseFEN("8/8/8/8/3k4/8/8/KBN5 w - - 0 1")
	want, ok := tb.ProbeWDL(pos)
	if !ok {
		t.Fatal("intact tables do not answer")
	}
	for _, ext := range []string{".rtbw", ".rtbz"} {
		tmp := filepath.Join(dir, "new"+ext)
		if err := os.WriteFile(tmp, []byte("not a table"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "KBNvK"+ext)); err != nil {
			t.Fatal(err)
		}
	}
	if w, ok := tb.ProbeWDL(pos); !ok || w != want {
		t.Errorf("after the rename: %d %v, want %d", w, ok, want)
	}
	if _, ok := tb.ProbeDTZ(pos); !ok {
		t.Error("no DTZ after the rename")
	}
	if got := fails.get(); len(got) > 0 {
		t.Errorf("failures %q", got)
	}
}

// Things named like tables that are not regular files: a FIFO (opening
// it would wait for a writer), a folder, a link to a folder, a dangling
// link. Opening the folder does not hang, and each is named in a warning
// (the folder itself is skipped like any folder).
func TestSpecialFilesNamedLikeTables(t *testing.T) {
	dir := copyTables(t, "KQvK")
	if err := syscall.Mkfifo(filepath.Join(dir, "KRvK.rtbw"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "KBvK.rtbw"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "KBvK.rtbw"), filepath.Join(dir, "KNvK.rtbw")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "missing"), filepath.Join(dir, "KPvK.rtbw")); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var tb *Tablebases
	var warn []string
	go func() {
		tb, warn = Open(dir)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Open hangs")
	}
	defer tb.Close()
	want := []string{
		filepath.Join(dir, "KNvK.rtbw") + ": not a regular file: a folder",
		filepath.Join(dir, "KPvK.rtbw") + ": no such file",
		filepath.Join(dir, "KRvK.rtbw") + ": not a regular file: a FIFO",
	}
	if len(warn) != len(want) {
		t.Errorf("warnings %q", warn)
	}
	for i, w := range want {
		if i >= len(warn) || !strings.Contains(warn[i], w) {
			t.Errorf("warning %d: want one with %q in %q", i, w, warn)
		}
	}
	if tb.Count() != 2 {
		t.Errorf("%d tables, want the 2 of KQvK", tb.Count())
	}
	// mapFile itself refuses a FIFO without waiting for a writer.
	if _, err := mapFile(filepath.Join(dir, "KRvK.rtbw")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("mapFile of a FIFO: %v", err)
	}
}

// TestRuntimeErrorInProbe: a runtime error while a table is read that is
// not a fault in its mapping (here a division by zero from a broken
// description) leaves that file out and names it, once; later probes skip
// it without reading it again.
func TestRuntimeErrorInProbe(t *testing.T) {
	dir := copyTables(t, "KQvK")
	tb, fails := openWatched(t, dir)
	const fen = "8/8/8/8/8/2k5/8/KQ6 b - - 0 1"
	pos := v.MustParseFEN(fen)
	if _, ok := tb.ProbeWDL(pos); !ok {
		t.Fatal("intact table does not answer")
	}
	for i := range tb.all[0].items {
		for f := range tb.all[0].items[i] {
			tb.all[0].items[i][f].span = 0
		}
	}
	for i := 0; i < 3; i++ {
		if w, ok := tb.ProbeWDL(pos); ok {
			t.Errorf("WDL %d from a broken table", w)
		}
		if pos.FEN() != fen {
			t.Fatalf("the failed probe left the position at %s", pos.FEN())
		}
		if !tb.all[0].failed.Load() {
			t.Fatalf("probe %d: the table is not left out", i)
		}
	}
	got := fails.get()
	if len(got) != 1 || !strings.Contains(got[0], "tablebase file failed: "+tb.all[0].path+": runtime error") ||
		!strings.Contains(got[0], "not used from now on") {
		t.Errorf("failures %q", got)
	}
}

// TestDecoderBounds: a Huffman description that does not end where it
// should makes the decoder give up (the data is inconsistent) rather than
// index past its tables.
func TestDecoderBounds(t *testing.T) {
	dir := copyTables(t, "KQvK")
	tb, fails := openWatched(t, dir)
	pos := v.MustParseFEN("8/8/8/8/8/2k5/8/KQ6 b - - 0 1")
	for i := range tb.all[0].items {
		for f := range tb.all[0].items[i] {
			tb.all[0].items[i][f].base64 = nil
		}
	}
	if w, ok := tb.ProbeWDL(pos); ok {
		t.Errorf("WDL %d from a broken table", w)
	}
	if got := fails.get(); len(got) != 1 || !strings.Contains(got[0], tb.all[0].path+": inconsistent data") {
		t.Errorf("failures %q", got)
	}
}
