# Rochade build and test targets. OpenBench and fastchess build with
# `make EXE=path`.
EXE ?= rochade
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/rochade/rochade/uci.Version=$(VERSION)

.PHONY: all build test test-race test-long bench bench-perft vet fmt clean

all: build

build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(EXE) ./cmd/engine

# The default suite (what CI runs): well under 10 minutes on 2 cores.
test:
	$(GO) test ./...

# The same suite under the race detector (deep perft is trimmed there).
test-race:
	$(GO) test -race ./...

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

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)

clean:
	rm -f $(EXE)
