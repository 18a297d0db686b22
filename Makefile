# Rochade build and test targets. OpenBench and fastchess build with
# `make EXE=path`.
EXE ?= rochade
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/rochade/rochade/uci.Version=$(VERSION)

.PHONY: all build test test-race test-long bench bench-perft vet fmt clean fuzz forfeit-check

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

# Fuzzing: each target for FUZZTIME (go test alone runs their seeds only).
# New crashers land in <package>/testdata/fuzz/<target>/; keep them as
# regression seeds.
FUZZTIME ?= 30s
FUZZFLAGS ?= -parallel 2
FUZZ_TARGETS := ./variant960:FuzzParseFEN ./variant960:FuzzParseMove ./variant960:FuzzParseSAN \
	./variant960:FuzzRandomGame ./uci:FuzzSession
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name in $$pkg for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) $$pkg; \
	done

# Time losses and illegal moves in fast Chess960 games (fastchess).
forfeit-check: build
	scripts/forfeit-check.sh

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)

clean:
	rm -f $(EXE)
