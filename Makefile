# Rochade build and test targets. OpenBench and fastchess build with
# `make EXE=path`; OpenBench adds CC=<compiler> (CC=go for a Go engine)
# and EVALFILE=<absolute path of a net>, from a tree without .git
# (docs/openbench.md).
EXE ?= rochade
GO ?= go

# The version: `git describe` in a git checkout; in a tree without .git
# (a GitHub zip, a `git archive` export) "dev-nogit", with the binary's
# name when EXE is given (OpenBench names it <engine>-<commit>).
ifneq ($(wildcard .git),)
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
else ifeq ($(origin EXE),command line)
VERSION ?= dev-nogit-$(notdir $(EXE))
else
VERSION ?= dev-nogit
endif
LDFLAGS := -s -w -X github.com/rochade/rochade/uci.Version=$(VERSION)

# Build tags. `make tune` builds rochade-tune with TAGS=tune: the search
# parameters become UCI options, for SPSA (docs/openbench.md). An OpenBench
# SPSA branch sets `TAGS ?= tune` here, as OpenBench cannot pass it.
TAGS ?=
TAGFLAGS := $(if $(TAGS),-tags $(TAGS))

.PHONY: all build tune release test test-race test-long bench bench-perft vet vet-cross fmt clean fuzz fuzz-list forfeit-check

all: build

# The engine needs no cgo. With cgo on, go would take $(CC) as its C
# compiler, and OpenBench's CC=go fails (`flag provided but not defined:
# -E`); CC is never used.
#
# EVALFILE=<net> embeds that net in place of eval/nets/default.nnue,
# through a build overlay: the tree is not changed. bench then fails if
# the net cannot be read.
build: export CGO_ENABLED = 0
build:
ifneq ($(EVALFILE),)
	$(if $(wildcard $(EVALFILE)),,$(error EVALFILE $(EVALFILE) not found))
	$(file >$(EXE).overlay.json,{"Replace":{"eval/nets/default.nnue":"$(EVALFILE)"}})
	$(GO) build -trimpath $(TAGFLAGS) -overlay $(EXE).overlay.json -ldflags "$(LDFLAGS)" -o $(EXE) ./cmd/engine
	rm -f $(EXE).overlay.json
else
	$(GO) build -trimpath $(TAGFLAGS) -ldflags "$(LDFLAGS)" -o $(EXE) ./cmd/engine
endif

# The tuning build: every parameter of search.TunableParams is a UCI spin
# option, and `rochade-tune spsa` prints them as OpenBench SPSA input.
TUNE_EXE ?= rochade-tune
tune:
	$(MAKE) --no-print-directory build EXE=$(TUNE_EXE) TAGS=tune

# Release binaries, version-stamped, with their SHA-256 sums in
# $(DIST)/SHA256SUMS (check with `sha256sum -c SHA256SUMS`). amd64 builds
# for the baseline CPU (GOAMD64=v1); the net's AVX2 kernels are chosen at
# run time (eval/simd_amd64.go), so one binary serves every x86-64 CPU.
DIST ?= dist
RELEASE_TARGETS ?= windows/amd64 linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
release:
	rm -f $(DIST)/rochade-* $(DIST)/SHA256SUMS
	mkdir -p $(DIST)
	@set -e; for t in $(RELEASE_TARGETS); do \
		os=$${t%/*}; arch=$${t#*/}; ext=; \
		if [ $$os = windows ]; then ext=.exe; fi; \
		out=$(DIST)/rochade-$(VERSION)-$$os-$$arch$$ext; \
		echo "$$out"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch GOAMD64=v1 GOARM64=v8.0 \
			$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $$out ./cmd/engine; \
	done
	cd $(DIST) && if command -v sha256sum >/dev/null; then sha256sum rochade-*; \
		else shasum -a 256 rochade-*; fi > SHA256SUMS
	cat $(DIST)/SHA256SUMS

# The default suite (what CI runs): well under 10 minutes on 2 cores.
# It is `go test ./...`, run through scripts/testcheck, which prints what
# go test prints, then lists the skipped tests and fails on a skip that
# scripts/skips-allowed.txt does not allow (with its reason).
TESTCHECK = $(GO) run ./scripts/testcheck
test:
	$(TESTCHECK) $(GO) test -json ./...

# The same suite under the race detector (deep perft is trimmed there).
test-race:
	$(TESTCHECK) $(GO) test -race -json ./...

# Long runs: perft depth 5 of all 960 start positions and thousands of
# oracle games (variant960), longer self-play and more hostile input
# (tests); each package has its own -long flag. Then the windows/amd64
# build under Wine (tests/wine_test.go, build tag wine; they skip without
# Wine and MinGW-w64; scripts/wine/setup.sh installs them and prepares the
# prefix, docs/reliability.md "Windows under Wine").
test-long:
	$(GO) test -timeout 60m ./variant960/ ./tests/ -long
	$(GO) test -timeout 30m -tags wine ./tests/ -run Wine

# Search signature: `<nodes> nodes <nps> nps` on the last line.
bench: build
	./$(EXE) bench

# Perft speed: start position depth 6 and kiwipete depth 5, with the
# ratio to Stockfish when `stockfish` is installed.
bench-perft:
	$(GO) test -run '^$$' -bench 'Perft' -benchtime 1x ./variant960/

# Fuzzing: each target for FUZZTIME (go test alone runs their seeds only).
# The targets are every `func FuzzXxx` in the module's test files
# (`make fuzz-list` prints them). New crashers land in
# <package>/testdata/fuzz/<target>/; keep them as regression seeds.
FUZZTIME ?= 30s
FUZZFLAGS ?= -parallel 2
FUZZ_TARGETS ?= $(shell grep -rE --include='*_test.go' -o '^func Fuzz[A-Za-z0-9_]+' . | \
	sed -E 's,^\./(.+)/[^/]+_test\.go:func (Fuzz.+)$$,./\1:\2,' | sort)
fuzz:
	@test -n "$(FUZZ_TARGETS)" || (echo "no fuzz targets found"; exit 1)
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name in $$pkg for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) $$pkg; \
	done

fuzz-list:
	@for t in $(FUZZ_TARGETS); do echo $$t; done

# Time losses and illegal moves in fast Chess960 games (fastchess).
forfeit-check: build
	scripts/forfeit-check.sh

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)

# The code for Windows and macOS (tablebase mapping, memory probes) is
# never compiled on Linux otherwise: build and vet it for both. The 386
# build too: its run (tests/TestHugeHash32Bit) needs a kernel with 32-bit
# compatibility, which not every CI machine has. Then the trainer's AVX2
# kernels (train/kernels_simd.go, built only with GOEXPERIMENT=simd, as the
# trainer is in docs/training.md): vetted, and tested against the scalar
# kernels.
vet-cross:
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOOS=linux GOARCH=386 $(GO) build ./...
	GOOS=linux GOARCH=386 $(GO) vet ./...
	GOEXPERIMENT=simd $(GO) vet ./train/
	GOEXPERIMENT=simd $(GO) test -count=1 -run 'MatchesScalar|MatchScalar' ./train/

clean:
	rm -f $(EXE) $(EXE).overlay.json $(TUNE_EXE)
	rm -rf $(DIST)
