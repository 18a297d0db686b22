# Rochade build and test targets. OpenBench and fastchess build with
# `make EXE=path`.
EXE ?= rochade
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/rochade/rochade/uci.Version=$(VERSION)

.PHONY: all build test test-race test-long bench bench-perft vet vet-cross fmt clean fuzz fuzz-list forfeit-check

all: build

build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(EXE) ./cmd/engine

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

# Long runs: perft depth 5 of all 960 start positions, thousands of
# oracle games, longer self-play.
test-long:
	$(GO) test -timeout 60m ./tests/ -long

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
# never compiled on Linux otherwise: build and vet it for both.
vet-cross:
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...

clean:
	rm -f $(EXE)
