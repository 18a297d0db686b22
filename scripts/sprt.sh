#!/usr/bin/env bash
# scripts/sprt.sh - play Rochade against Rochade (SPRT) or against any UCI
# engine (plain match) with fastchess.
#
# Usage:
#   scripts/sprt.sh BASE NEW [VAR=value ...]
#
# BASE and NEW are each either
#   - a git commit / branch / tag of this repository: it is built in a
#     temporary `git worktree add --detach` directory with
#     `make EXE=$WORK/rochade-<shortsha>` (CGO_ENABLED=0), or
#   - a path to an existing engine binary (anything executable, e.g.
#     /usr/games/stockfish or ./zahak).
# fastchess reports the result and runs the SPRT for its first engine, so
# NEW is passed first: every figure printed (Elo, W/D/L, LLR) is NEW's
# against BASE.
#
# Settings are environment variables, or VAR=value arguments after BASE NEW
# (both forms are equivalent; arguments win):
#   MODE=sprt        sprt (default): run an SPRT, stop when it decides or
#                    after ROUNDS rounds.  match: play a fixed number of
#                    GAMES, no SPRT (ladder matches vs other engines).
#   VARIANT=960      960 (default): -variant fischerandom with
#                    chess960.epd.  std: standard chess with std_openings.epd.
#   BOOK=path        opening EPD file overriding the variant's default. The
#                    defaults are looked up in $DATA_DIR, which defaults to
#                    <repo>/tests/testdata (chess960.epd: all 960 start
#                    positions; std_openings.epd: 990 standard openings).
#   TC=5+0.05        time control (cutechess format), used unless NODES set.
#   NODES=N          fixed nodes per move for both engines (replaces TC).
#   NODES_BASE=N     nodes for BASE only / NODES_NEW=N for NEW only (for
#                    speed-adjusted node counts); each falls back to NODES.
#   ELO0=0 ELO1=5    SPRT bounds; ALPHA=0.05 BETA=0.05; SPRT_MODEL=normalized
#                    (fastchess: normalized|logistic|bayesian).
#   ROUNDS=20000     maximum rounds in sprt mode (2 games per round, each
#                    opening played with both colours via -repeat).
#   GAMES=N          match mode: number of games (rounded up to even);
#                    rounds = GAMES/2.  In sprt mode, if set, caps the games.
#   CONCURRENCY=1    games played at once.
#   OPTS="..."       extra fastchess engine args for both engines,
#                    e.g. OPTS="option.Hash=16 option.Threads=1".
#   OPTS_BASE="..."  extra args for BASE only; OPTS_NEW="..." for NEW only,
#                    e.g. OPTS_NEW="option.UCI_LimitStrength=true option.UCI_Elo=1800".
#   NAME_BASE, NAME_NEW  engine names (default: rochade-<sha> or file name).
#   PGN=path         PGN output (default $WORK/games.pgn, under /tmp).
#   WORK=dir         scratch dir (default: mktemp -d /tmp/sprt.XXXXXX);
#                    binaries, PGN, fastchess config.json and log land here.
#   FASTCHESS=fastchess  fastchess binary.
#   EXTRA="..."      extra raw fastchess arguments (e.g. "-srand 42").
#   KEEP=0           1: keep the temporary build worktrees ($WORK/src-<sha>);
#                    by default each is removed right after its build.
# A commit already built in $WORK is not rebuilt (reuse WORK=... to skip builds).
#
# UCI_Chess960 is set by fastchess itself for -variant fischerandom; the
# opponent must support it (stockfish, fairy-stockfish, ethereal do; Toga II,
# Zahak and Counter do not - use VARIANT=std with those).
#
# fastchess runs with -recover, -repeat (= -games 2) and pentanomial
# reporting (its default); the final result block (Elo, LOS, pentanomial
# counts, SPRT LLR) is printed when the run ends or is interrupted (Ctrl-C
# once lets fastchess print the summary).
#
# Examples:
#   scripts/sprt.sh main tools                      # 960 SPRT [0,5] at 5+0.05
#   NODES=20000 scripts/sprt.sh main HEAD CONCURRENCY=2 ELO0=-5 ELO1=0
#   scripts/sprt.sh main /usr/games/stockfish MODE=match GAMES=100 \
#       NODES_BASE=20000 NODES_NEW=20000 \
#       OPTS_NEW="option.UCI_LimitStrength=true option.UCI_Elo=1800"
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

if [[ $# -lt 2 || "$1" == "-h" || "$1" == "--help" ]]; then
    usage
    exit 2
fi
BASE=$1
NEW=$2
shift 2
for kv in "$@"; do
    case "$kv" in
        [A-Z_]*=*) export "${kv%%=*}=${kv#*=}" ;;
        *) echo "sprt.sh: unknown argument '$kv' (expected VAR=value)" >&2; exit 2 ;;
    esac
done

MODE=${MODE:-sprt}
VARIANT=${VARIANT:-960}
TC=${TC:-5+0.05}
ELO0=${ELO0:-0}
ELO1=${ELO1:-5}
ALPHA=${ALPHA:-0.05}
BETA=${BETA:-0.05}
SPRT_MODEL=${SPRT_MODEL:-normalized}
CONCURRENCY=${CONCURRENCY:-1}
FASTCHESS=${FASTCHESS:-fastchess}
KEEP=${KEEP:-0}

REPO=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)

DATA_DIR=${DATA_DIR:-$REPO/tests/testdata}
case "$VARIANT" in
    960|frc|fischerandom|chess960)
        VARIANT_ARGS=(-variant fischerandom)
        BOOK=${BOOK:-$DATA_DIR/chess960.epd} ;;
    std|standard)
        VARIANT_ARGS=()
        BOOK=${BOOK:-$DATA_DIR/std_openings.epd} ;;
    *) echo "sprt.sh: VARIANT must be 960 or std" >&2; exit 2 ;;
esac
[[ -f "$BOOK" ]] || { echo "sprt.sh: opening book '$BOOK' not found (set BOOK or DATA_DIR)" >&2; exit 2; }
BOOK=$(readlink -f "$BOOK")

command -v "$FASTCHESS" >/dev/null || { echo "sprt.sh: fastchess not found ($FASTCHESS); see scripts/README.md" >&2; exit 2; }

WORK=${WORK:-$(mktemp -d /tmp/sprt.XXXXXX)}
mkdir -p "$WORK"
WORK=$(readlink -f "$WORK")
PGN=${PGN:-$WORK/games.pgn}

# resolve SPEC: prints the engine binary path; builds commits.
resolve() {
    local spec=$1
    if [[ -x "$spec" && -f "$spec" ]]; then
        readlink -f "$spec"
        return
    fi
    if command -v "$spec" >/dev/null 2>&1 && [[ "$spec" == */* ]]; then
        readlink -f "$(command -v "$spec")"
        return
    fi
    local sha
    sha=$(git -C "$REPO" rev-parse --verify --quiet "$spec^{commit}") ||
        { echo "sprt.sh: '$spec' is neither an executable nor a commit" >&2; return 1; }
    local short=${sha:0:9}
    local exe=$WORK/rochade-$short
    if [[ ! -x "$exe" ]]; then
        local tree=$WORK/src-$short
        git -C "$REPO" worktree add --detach --quiet "$tree" "$sha" >&2
        echo "sprt.sh: building $spec ($short) -> $exe" >&2
        local ok=0
        (cd "$tree" && CGO_ENABLED=0 nice -n 5 make --no-print-directory build EXE="$exe" >&2) || ok=$?
        if [[ "$KEEP" != 1 ]]; then
            git -C "$REPO" worktree remove --force "$tree" >&2 || true
        fi
        [[ $ok == 0 ]] || { echo "sprt.sh: build of $spec failed" >&2; return 1; }
    fi
    echo "$exe"
}

BASE_EXE=$(resolve "$BASE")
NEW_EXE=$(resolve "$NEW")

engine_name() {
    local exe=$1
    local n
    n=$(basename "$exe")
    echo "$n"
}
NAME_BASE=${NAME_BASE:-$(engine_name "$BASE_EXE")}
NAME_NEW=${NAME_NEW:-$(engine_name "$NEW_EXE")}
if [[ "$NAME_BASE" == "$NAME_NEW" ]]; then
    NAME_BASE="$NAME_BASE-base"
    NAME_NEW="$NAME_NEW-new"
fi

# Per-engine limits: nodes if any NODES* var is set, else time control.
limit_for() {
    local n=$1
    if [[ -n "$n" ]]; then
        # no clock: fastchess sends `go nodes N`
        echo "nodes=$n"
    else
        echo "tc=$TC"
    fi
}
NB=${NODES_BASE:-${NODES:-}}
NN=${NODES_NEW:-${NODES:-}}
if [[ -n "$NB" && -z "$NN" || -z "$NB" && -n "$NN" ]]; then
    echo "sprt.sh: set NODES (or both NODES_BASE and NODES_NEW)" >&2
    exit 2
fi
# shellcheck disable=SC2206
BASE_ARGS=(cmd="$BASE_EXE" name="$NAME_BASE" $(limit_for "$NB") ${OPTS:-} ${OPTS_BASE:-})
# shellcheck disable=SC2206
NEW_ARGS=(cmd="$NEW_EXE" name="$NAME_NEW" $(limit_for "$NN") ${OPTS:-} ${OPTS_NEW:-})

case "$MODE" in
    sprt)
        ROUNDS=${ROUNDS:-20000}
        if [[ -n "${GAMES:-}" ]]; then ROUNDS=$(( (GAMES + 1) / 2 )); fi
        MODE_ARGS=(-sprt elo0="$ELO0" elo1="$ELO1" alpha="$ALPHA" beta="$BETA" model="$SPRT_MODEL") ;;
    match)
        GAMES=${GAMES:-100}
        ROUNDS=$(( (GAMES + 1) / 2 ))
        MODE_ARGS=() ;;
    *) echo "sprt.sh: MODE must be sprt or match" >&2; exit 2 ;;
esac

# shellcheck disable=SC2206
CMD=("$FASTCHESS"
    -engine "${NEW_ARGS[@]}"
    -engine "${BASE_ARGS[@]}"
    "${VARIANT_ARGS[@]}"
    -openings file="$BOOK" format=epd order=random
    -games 2 -rounds "$ROUNDS" -repeat
    -concurrency "$CONCURRENCY"
    "${MODE_ARGS[@]}"
    -recover
    -report penta=true
    -pgnout file="$PGN" notation=san nodes=true
    -log file="$WORK/fastchess.log" level=warn
    ${EXTRA:-})

echo "sprt.sh: work dir $WORK"
echo "sprt.sh: BASE=$BASE_EXE NEW=$NEW_EXE"
printf 'sprt.sh:'; printf ' %q' "${CMD[@]}"; echo
# Run from $WORK so fastchess's config.json autosave lands there.
# fastchess prints the final summary itself when it finishes or on SIGINT.
set +e
(cd "$WORK" && "${CMD[@]}")
rc=$?
set -e
echo "sprt.sh: fastchess exit $rc; PGN: $PGN"
exit $rc
