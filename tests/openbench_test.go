package tests

// The build, bench and genfens as OpenBench's client runs them, and
// `make release`. OpenBench builds from a GitHub zip of the commit (no
// .git) with `make -j EXE=<name> CC=go EVALFILE=<absolute net path>`,
// runs `./<name> bench` (60 s at most) and scans its output bottom-up for
// `N nodes` and `N nps`, and for DATAGEN runs
// `./<name> "genfens N seed S book <None|path> [extra]" "quit"`.

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rochade/rochade/eval"
	v "github.com/rochade/rochade/variant960"
)

// repoRoot is the repository's root, seen from tests/.
const repoRoot = ".."

// exportedTree is the working tree as a commit of it would be, exported
// as `git archive` exports it: tracked and untracked files that git does
// not ignore, and no .git. It is removed when the test ends.
func exportedTree(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "Rochade-tmp")
	if err := gitExport(tmp, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func gitExport(tmp, dst string) error {
	git := func(env []string, args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repoRoot
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return strings.TrimSpace(string(out)), nil
	}
	// A tree object of the working tree, through a copy of the index so
	// that the real one is left alone.
	index, err := git(nil, "rev-parse", "--git-path", "index")
	if err != nil {
		return err
	}
	if !filepath.IsAbs(index) {
		index = filepath.Join(repoRoot, index)
	}
	tmpIndex := filepath.Join(tmp, "index")
	if data, err := os.ReadFile(index); err == nil {
		if err := os.WriteFile(tmpIndex, data, 0o644); err != nil {
			return err
		}
	}
	env := []string{"GIT_INDEX_FILE=" + tmpIndex}
	if _, err := git(env, "add", "-A", "."); err != nil {
		return err
	}
	tree, err := git(env, "write-tree")
	if err != nil {
		return err
	}
	archive := filepath.Join(tmp, "tree.tar")
	if _, err := git(nil, "archive", "--format=tar", "-o", archive, tree); err != nil {
		return err
	}
	os.Remove(tmpIndex)
	return untar(archive, dst)
}

func untar(archive, dst string) error {
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return os.Remove(archive)
		}
		if err != nil {
			return err
		}
		path := filepath.Join(dst, filepath.FromSlash(h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(path, 0o755)
		case tar.TypeReg:
			if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				var data []byte
				if data, err = io.ReadAll(tr); err == nil {
					err = os.WriteFile(path, data, fs.FileMode(h.Mode)&0o777)
				}
			}
		case tar.TypeSymlink:
			err = os.Symlink(h.Linkname, path)
		}
		if err != nil {
			return err
		}
	}
}

// openBenchMake runs make in dir as OpenBench's client does.
func openBenchMake(t *testing.T, dir, exe, evalfile string) {
	t.Helper()
	cmd := exec.Command("make", "-j", "EXE="+exe, "CC=go", "EVALFILE="+evalfile)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -j EXE=%s CC=go EVALFILE=%s: %v\n%s", exe, evalfile, err, out)
	}
}

var (
	obNonAlnum = regexp.MustCompile(`[^a-zA-Z0-9 ]+`)
	obNPS      = regexp.MustCompile(`(?i)(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)`)
	obBench    = regexp.MustCompile(`(?i)(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)`)
	obDigits   = regexp.MustCompile(`\d+`)
)

// openBenchParse reads bench output as OpenBench's client does: lines
// from the last up, every run of characters that are not letters, digits
// or spaces turned into one space, the first `N nodes` and `N nps` found.
func openBenchParse(out string) (bench, nps int64, ok bool) {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var b, n string
	for i := len(lines) - 1; i >= 0; i-- {
		line := obNonAlnum.ReplaceAllString(lines[i], " ")
		if m := obNPS.FindString(line); m != "" && n == "" {
			n = m
		}
		if m := obBench.FindString(line); m != "" && b == "" {
			b = m
		}
	}
	if b == "" || n == "" {
		return 0, 0, false
	}
	bench, _ = strconv.ParseInt(obDigits.FindString(b), 10, 64)
	nps, _ = strconv.ParseInt(obDigits.FindString(n), 10, 64)
	return bench, nps, true
}

func TestOpenBenchParse(t *testing.T) {
	for _, c := range []struct {
		out        string
		bench, nps int64
	}{
		{"positions 20, time 957 ms\n765102 nodes 799036 nps\n", 765102, 799036},
		{"Nodes searched: 100\nNodes/second: 50\n", 100, 50},
		{"bench: 42 nodes 7 nps\nlater 9 nodes\n", 9, 7},
	} {
		b, n, ok := openBenchParse(c.out)
		if !ok || b != c.bench || n != c.nps {
			t.Errorf("%q: %d %d %v, want %d %d", c.out, b, n, ok, c.bench, c.nps)
		}
	}
	if _, _, ok := openBenchParse("rochade bench: the embedded net: checksum mismatch\n"); ok {
		t.Error("an error message parsed as a bench")
	}
}

// openBenchBench runs `./exe bench` in dir as OpenBench does (stderr into
// stdout) and parses it.
func openBenchBench(t *testing.T, dir, exe string) (bench, nps int64, elapsed time.Duration, out string, ok bool) {
	t.Helper()
	cmd := exec.Command("./"+exe, "bench")
	cmd.Dir = dir
	start := time.Now()
	b, err := cmd.CombinedOutput()
	elapsed = time.Since(start)
	bench, nps, ok = openBenchParse(string(b))
	return bench, nps, elapsed, string(b), ok && err == nil
}

// TestOpenBenchBuild builds a tree without .git as OpenBench does, with
// the default net as EVALFILE (the same bench as the embedded net), with
// another net (that net is embedded: its hash, another bench), and with a
// file that is no net (bench fails, so OpenBench reports the build).
func TestOpenBenchBuild(t *testing.T) {
	src := exportedTree(t)
	if _, err := os.Stat(filepath.Join(src, ".git")); !os.IsNotExist(err) {
		t.Fatalf("the export has .git (%v)", err)
	}
	before := treeFiles(t, src)
	nets := t.TempDir()
	defaultNet, err := os.ReadFile(filepath.Join(repoRoot, "eval", "nets", "default.nnue"))
	if err != nil {
		t.Fatal(err)
	}
	same := filepath.Join(nets, "same.nnue")
	if err := os.WriteFile(same, defaultNet, 0o644); err != nil {
		t.Fatal(err)
	}

	// The reference: the embedded net in an ordinary build.
	ref, err := exec.Command(plainBin(t), "bench").CombinedOutput()
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, ref)
	}
	refBench, _, ok := openBenchParse(string(ref))
	if !ok {
		t.Fatalf("OpenBench finds no bench in %q", ref)
	}

	openBenchMake(t, src, "Rochade-SAME", same)
	for i := range 2 { // OpenBench checks that benches agree
		bench, nps, elapsed, out, ok := openBenchBench(t, src, "Rochade-SAME")
		if !ok || bench != refBench || nps <= 0 {
			t.Fatalf("bench %d nodes %d nps (ok %v), want %d nodes:\n%s", bench, nps, ok, refBench, out)
		}
		if elapsed > 30*time.Second {
			t.Errorf("bench took %v; OpenBench allows 60 s, on slower cores too", elapsed)
		}
		if i == 0 {
			t.Logf("bench %d nodes %d nps, %v", bench, nps, elapsed.Round(time.Millisecond))
		}
	}
	ver, err := exec.Command(filepath.Join(src, "Rochade-SAME"), "version").Output()
	if err != nil || strings.TrimSpace(string(ver)) != "Rochade dev-nogit-Rochade-SAME" {
		t.Errorf("version %q %v", ver, err)
	}
	after := treeFiles(t, src)
	if d := slices.Compact(append(diffFiles(before, after), diffFiles(after, before)...)); !slices.Equal(d, []string{"Rochade-SAME"}) {
		t.Errorf("the build changed the tree: %q", d)
	}
	if got, _ := os.ReadFile(filepath.Join(src, "eval", "nets", "default.nnue")); !bytes.Equal(got, defaultNet) {
		t.Error("the build changed eval/nets/default.nnue")
	}

	// Another net: the default one with other output biases.
	n, err := eval.LoadNet(defaultNet)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n.OB {
		n.OB[i] += 20000
	}
	var buf bytes.Buffer
	if err := eval.WriteNet(&buf, n, `{"note":"test net"}`); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(nets, "other.nnue")
	if err := os.WriteFile(other, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	openBenchMake(t, src, "Rochade-OTHER", other)
	info, err := exec.Command(filepath.Join(src, "Rochade-OTHER"), "eval", "--info").Output()
	if err != nil || !strings.HasPrefix(string(info), "net "+hex.EncodeToString(sum[:8])+"\n") {
		t.Errorf("eval --info: %q %v, want net %x", info, err, sum[:8])
	}
	if bench, _, _, out, ok := openBenchBench(t, src, "Rochade-OTHER"); !ok || bench == refBench {
		t.Errorf("another net: bench %d (ok %v), the default net's %d:\n%s", bench, ok, refBench, out)
	}

	// A file that is no net: the build succeeds, the bench fails.
	bad := filepath.Join(nets, "bad.nnue")
	if err := os.WriteFile(bad, defaultNet[:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	openBenchMake(t, src, "Rochade-BAD", bad)
	if bench, _, _, out, ok := openBenchBench(t, src, "Rochade-BAD"); ok || !strings.Contains(out, "embedded net") {
		t.Errorf("a broken net benches (%d nodes):\n%s", bench, out)
	}
	// Over UCI such a build says so after uciok (it played with the
	// hand-written evaluation without a word).
	cmd := exec.Command(filepath.Join(src, "Rochade-BAD"))
	cmd.Stdin = strings.NewReader("uci\nisready\nquit\n")
	uciOut, err := cmd.Output()
	if err != nil || !strings.Contains(string(uciOut), "uciok\ninfo string error: the embedded net did not load") {
		t.Errorf("uci with a broken embedded net (%v):\n%s", err, uciOut)
	}
	for _, exe := range []string{"Rochade-SAME", "Rochade-OTHER", "Rochade-BAD"} {
		os.Remove(filepath.Join(src, exe))
	}
}

func treeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// WalkDir goes in lexical order within each folder, which is not the
	// order of the whole paths ("a-b/x" sorts before "a/x"); diffFiles
	// needs the latter.
	slices.Sort(files)
	return files
}

// diffFiles lists what b has and a has not (both sorted).
func diffFiles(a, b []string) []string {
	var d []string
	for _, f := range b {
		if _, found := slices.BinarySearch(a, f); !found {
			d = append(d, f)
		}
	}
	return d
}

// openBenchGenfens runs genfens as OpenBench's client does, in dir, and
// returns the FENs it reads back (lines starting "info string genfens ")
// and the whole output.
func openBenchGenfens(t *testing.T, dir string, n int, seed int64, book, extra string) ([]string, string) {
	t.Helper()
	cmd := exec.Command(plainBin(t), fmt.Sprintf("genfens %d seed %d book %s %s", n, seed, book, extra), "quit")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("genfens: %v\n%s", err, out)
	}
	var fens []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "info string genfens ") {
			fens = append(fens, strings.TrimRight(strings.SplitN(l, "genfens ", 2)[1], " \r\n\t"))
		}
	}
	return fens, string(out)
}

// checkOpenings checks what OpenBench and fastchess need of genfens
// FENs: n of them, six fields (OpenBench writes the last two as EPD
// operations), distinct positions, each legal with a move to play.
func checkOpenings(t *testing.T, fens []string, n int, out string) {
	t.Helper()
	if len(fens) != n {
		t.Fatalf("%d openings, want %d:\n%s", len(fens), n, out)
	}
	seen := map[string]bool{}
	for _, fen := range fens {
		f := strings.Fields(fen)
		if len(f) != 6 {
			t.Fatalf("%q: %d fields", fen, len(f))
		}
		pos, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatalf("%q: %v", fen, err)
		}
		if !pos.HasLegalMove() || pos.InsufficientMaterial() {
			t.Errorf("%q: the game is over", fen)
		}
		epd := strings.Join(f[:4], " ")
		if seen[epd] {
			t.Errorf("%q twice", epd)
		}
		seen[epd] = true
	}
}

// TestOpenBenchGenfens: N distinct legal openings, 8 or 9 plies past a
// random DFRC, Chess960 or standard start (`mix`), the same for the same
// seed; `book None` alone gives standard openings;
// from a book (a relative path, as OpenBench gives Books/<name>) with the
// book's positions as starts.
func TestOpenBenchGenfens(t *testing.T) {
	dir := t.TempDir()
	const n = 60
	start := time.Now()
	fens, out := openBenchGenfens(t, dir, n, 1234567, "None", "mix")
	elapsed := time.Since(start)
	checkOpenings(t, fens, n, out)
	t.Logf("%d openings in %v", n, elapsed.Round(time.Millisecond))
	if elapsed > 15*time.Second {
		t.Errorf("%d openings took %v; OpenBench gives up after 15 s without one", n, elapsed)
	}
	shredder := 0
	for _, fen := range fens {
		if m := strings.Fields(fen)[5]; m != "5" { // 8 or 9 plies from move 1
			t.Errorf("%q: move %s, want 5", fen, m)
		}
		// Castling by rook files: rights that are not the standard
		// ones, from a Chess960 or DFRC start.
		if strings.Trim(strings.Fields(fen)[2], "KQkq-") != "" {
			shredder++
		}
	}
	// 90% of datagen's starts are Chess960 or DFRC ones; most keep a
	// castling right through 8 or 9 random plies.
	t.Logf("%d of %d with Chess960 castling rights", shredder, n)
	if shredder < n/2 {
		t.Errorf("%d of %d openings with Chess960 castling rights: not the datagen mix", shredder, n)
	}
	again, _ := openBenchGenfens(t, dir, n, 1234567, "None", "mix")
	if !slices.Equal(fens, again) {
		t.Error("the same seed gave other openings")
	}
	other, _ := openBenchGenfens(t, dir, n, 1234568, "None", "mix")
	if slices.Equal(fens, other) {
		t.Error("seeds 1234567 and 1234568 gave the same openings")
	}
	for _, extra := range []string{"standard", ""} {
		std, out := openBenchGenfens(t, dir, 20, 1, "None", extra)
		checkOpenings(t, std, 20, out)
		for _, fen := range std {
			if strings.Trim(strings.Fields(fen)[2], "KQkq-") != "" {
				t.Errorf("book None %q: %q is not a standard opening", extra, fen)
			}
		}
	}

	// A book, named as OpenBench names it, relative to where it runs.
	book := []string{
		"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - hmvc 0; fmvn 1;",
		"rbbqnnkr/pppppppp/8/8/8/8/PPPPPPPP/RBBQNNKR w HAha - hmvc 0; fmvn 1;",
		"nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/QRKRBBNN w DBfb - hmvc 0; fmvn 1;",
	}
	if err := os.MkdirAll(filepath.Join(dir, "Books"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Books", "Test_FRC.epd"), []byte(strings.Join(book, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fromBook, out := openBenchGenfens(t, dir, 30, 99, "Books/Test_FRC.epd", "")
	checkOpenings(t, fromBook, 30, out)
	backRanks := map[string]bool{}
	for _, l := range book {
		backRanks[strings.Split(strings.Fields(l)[0], "/")[7]] = true
	}
	for _, fen := range fromBook {
		// 8 or 9 plies past a book position (at move 1).
		if m := strings.Fields(fen)[5]; m != "5" {
			t.Errorf("%q: move %s, want 5", fen, m)
		}
	}
	plain, out := openBenchGenfens(t, dir, 3, 5, "Books/Test_FRC.epd", "plies 0")
	checkOpenings(t, plain, 3, out)
	for _, fen := range plain {
		if !backRanks[strings.Split(strings.Fields(fen)[0], "/")[7]] {
			t.Errorf("%q is none of the book's positions", fen)
		}
	}
	if fens, out := openBenchGenfens(t, dir, 3, 5, "Books/Missing.epd", ""); len(fens) != 0 || !strings.Contains(out, "info string error: genfens") {
		t.Errorf("a missing book: %q\n%s", fens, out)
	}
}

// TestRelease runs `make release`, in the repository (the version from
// git) and in an export without .git ("dev-nogit"): one binary for each
// target, named by version, OS and architecture, and SHA256SUMS that
// sha256sum -c accepts. The default suite builds linux/amd64 and one
// cross target, windows/amd64; -long builds all five.
func TestRelease(t *testing.T) {
	targets := []string{"linux/amd64", "windows/amd64"}
	if *long {
		targets = []string{"windows/amd64", "linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"}
	}
	version := "dev-nogit"
	if _, err := os.Stat(filepath.Join(repoRoot, ".git")); err == nil {
		out, err := exec.Command("git", "-C", repoRoot, "describe", "--tags", "--always", "--dirty").Output()
		if err != nil {
			t.Fatal(err)
		}
		version = strings.TrimSpace(string(out))
	}
	checkRelease(t, repoRoot, version, targets[:1])
	checkRelease(t, exportedTree(t), "dev-nogit", targets)
}

func checkRelease(t *testing.T, dir, version string, targets []string) {
	t.Helper()
	dist := t.TempDir()
	cmd := exec.Command("make", "release", "DIST="+dist, "RELEASE_TARGETS="+strings.Join(targets, " "))
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make release: %v\n%s", err, out)
	}
	t.Logf("make release (%d targets) in %v", len(targets), time.Since(start).Round(time.Millisecond))
	want := []string{"SHA256SUMS"}
	for _, tg := range targets {
		os, arch, _ := strings.Cut(tg, "/")
		name := "rochade-" + version + "-" + os + "-" + arch
		if os == "windows" {
			name += ".exe"
		}
		want = append(want, name)
	}
	slices.Sort(want)
	got := treeFiles(t, dist)
	if !slices.Equal(got, want) {
		t.Fatalf("dist holds %q, want %q", got, want)
	}
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(sums)), "\n")
	if len(lines) != len(targets) {
		t.Fatalf("SHA256SUMS has %d lines, want %d:\n%s", len(lines), len(targets), sums)
	}
	magic := map[string][]byte{
		"linux":   []byte("\x7fELF"),
		"windows": []byte("MZ"),
		"darwin":  {0xcf, 0xfa, 0xed, 0xfe}, // Mach-O, 64-bit
	}
	for _, l := range lines {
		hexSum, name, ok := strings.Cut(l, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", l)
		}
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		if s := sha256.Sum256(data); hex.EncodeToString(s[:]) != hexSum {
			t.Errorf("%s: SHA256SUMS says %s, the file is %x", name, hexSum, s)
		}
		goos := strings.Split(strings.TrimSuffix(name, ".exe"), "-")
		if m := magic[goos[len(goos)-2]]; !bytes.HasPrefix(data, m) {
			t.Errorf("%s starts %q, not an executable of its OS", name, data[:4])
		}
		t.Logf("%s: %d bytes", name, len(data))
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		out, err := exec.Command(filepath.Join(dist, "rochade-"+version+"-linux-amd64"), "version").Output()
		if err != nil || strings.TrimSpace(string(out)) != "Rochade "+version {
			t.Errorf("version: %q %v, want Rochade %s", out, err, version)
		}
	}
}

// TestAMD64BuildsHaveAVX2Kernels: every amd64 release target compiles the
// AVX2 kernels and the run-time CPU check that picks them
// (eval/simd_amd64.go), not the generic-only file.
func TestAMD64BuildsHaveAVX2Kernels(t *testing.T) {
	for _, goos := range []string{"linux", "windows", "darwin"} {
		cmd := exec.Command("go", "list", "-f", "{{join .GoFiles \" \"}} {{join .SFiles \" \"}}", "./eval")
		cmd.Dir = repoRoot
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "GOAMD64=v1", "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: go list: %v", goos, err)
		}
		files := strings.Fields(string(out))
		if !slices.Contains(files, "simd_amd64.go") || !slices.Contains(files, "simd_amd64.s") || slices.Contains(files, "simd_other.go") {
			t.Errorf("%s/amd64 builds eval from %q", goos, files)
		}
	}
	src, err := os.ReadFile(filepath.Join(repoRoot, "eval", "simd_amd64.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("useAVX2 = cpu.X86.HasAVX2")) {
		t.Error("eval/simd_amd64.go no longer picks the kernels by the CPU check")
	}
}

// TestCommandLineCommands: arguments that are UCI commands run in order
// and the engine exits, without reading its input; a search given last
// runs to its end.
func TestCommandLineCommands(t *testing.T) {
	for _, c := range []struct {
		args []string
		last string
	}{
		{[]string{"uci", "quit"}, "uciok"},
		{[]string{"position startpos moves e2e4", "go depth 4"}, "bestmove "},
		{[]string{"setoption name UCI_Chess960 value true", "position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", "d"},
			"info string fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"},
	} {
		cmd := exec.Command(plainBin(t), c.args...)
		r, w, err := os.Pipe() // input that never ends
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = r
		done := make(chan struct{})
		timer := time.AfterFunc(30*time.Second, func() {
			select {
			case <-done:
			default:
				cmd.Process.Kill()
			}
		})
		out, err := cmd.Output()
		close(done)
		timer.Stop()
		r.Close()
		w.Close()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if err != nil || !strings.HasPrefix(lines[len(lines)-1], c.last) {
			t.Errorf("rochade %q: %v\n%s", c.args, err, out)
		}
	}
}
