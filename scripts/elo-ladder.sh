#!/usr/bin/env bash
# scripts/elo-ladder.sh - measure Rochade's UCI_Elo levels against
# Stockfish's: at each rung E, Rochade with UCI_LimitStrength=true
# UCI_Elo=E plays Stockfish with UCI_LimitStrength=true UCI_Elo=E
# (fastchess, standard chess, openings in random order, each opening with
# both colours). A rung where Rochade scores 50% is calibrated; the Elo
# column is Rochade's level minus Stockfish's (docs/strength.md).
#
# Usage:
#   scripts/elo-ladder.sh [VAR=value ...]
#
# Settings are environment variables or VAR=value arguments (arguments win):
#   RUNGS="1320 1700 2100 2400 2600"   the UCI_Elo levels to play (the anchors)
#   GAMES=100          games per rung (rounded up to even)
#   CONCURRENCY=1      games played at once
#   TC=10+0.1          time control (cutechess format)
#   ENGINE=<repo>/rochade   the Rochade binary; built with `make` if missing
#   STOCKFISH=/usr/games/stockfish
#   BOOK=<repo>/tests/testdata/std_openings.epd   (format epd, order random)
#   OPTS="option.Hash=16 option.Threads=1"    options for both engines
#   FASTCHESS=fastchess   (the fastchess binary; default: the one on PATH)
#   STARTUP_MS=60000   how long fastchess waits for uciok (a loaded machine
#                      needs more than its default 10 s for Stockfish)
#   MARGIN_MS=N        fastchess timemargin for both engines (unset: none); a
#                      level is only measured fairly on a machine with a core
#                      per game to spare, where no engine loses on time
#   WORK=dir           logs and PGNs (default: mktemp -d /tmp/elo-ladder.XXXXXX)
#   EXTRA="..."        extra raw fastchess arguments (e.g. "-srand 42")
#
# Output: one fastchess log and PGN per rung in $WORK, then a table:
#   rung  games  W/D/L  score  Elo +/- error
# (fastchess's Elo line, Rochade's view; "inf"/"nan" when a side scored
# everything). The table is also written to $WORK/ladder.txt.
#
# Example (the full ladder takes hours):
#   scripts/elo-ladder.sh RUNGS="1500 2000" GAMES=200 CONCURRENCY=2
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

for kv in "$@"; do
    case "$kv" in
        -h|--help) usage; exit 0 ;;
        [A-Z_]*=*) export "${kv%%=*}=${kv#*=}" ;;
        *) echo "elo-ladder.sh: unknown argument '$kv' (expected VAR=value)" >&2; exit 2 ;;
    esac
done

REPO=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
RUNGS=${RUNGS:-1320 1700 2100 2400 2600}
GAMES=${GAMES:-100}
CONCURRENCY=${CONCURRENCY:-1}
TC=${TC:-10+0.1}
ENGINE=${ENGINE:-$REPO/rochade}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
BOOK=${BOOK:-$REPO/tests/testdata/std_openings.epd}
OPTS=${OPTS:-option.Hash=16 option.Threads=1}
STARTUP_MS=${STARTUP_MS:-60000}
FASTCHESS=${FASTCHESS:-fastchess}

command -v "$FASTCHESS" >/dev/null || { echo "elo-ladder.sh: fastchess not found ($FASTCHESS)" >&2; exit 2; }
[[ -x "$STOCKFISH" ]] || { echo "elo-ladder.sh: Stockfish not found ($STOCKFISH)" >&2; exit 2; }
[[ -f "$BOOK" ]] || { echo "elo-ladder.sh: opening book '$BOOK' not found" >&2; exit 2; }
if [[ ! -x "$ENGINE" ]]; then
    echo "elo-ladder.sh: building $ENGINE" >&2
    (cd "$REPO" && CGO_ENABLED=0 nice -n 5 make --no-print-directory build EXE="$ENGINE" >&2)
fi
ENGINE=$(readlink -f "$ENGINE")
BOOK=$(readlink -f "$BOOK")
ROUNDS=$(( (GAMES + 1) / 2 ))

WORK=${WORK:-$(mktemp -d /tmp/elo-ladder.XXXXXX)}
mkdir -p "$WORK"
WORK=$(readlink -f "$WORK")
echo "elo-ladder.sh: work dir $WORK; $ENGINE vs $STOCKFISH, $TC, $((ROUNDS * 2)) games per rung"

# rung_result LOG: prints "games W/D/L score elo err" from the last result
# block of a fastchess log (- for each figure it lacks).
rung_result() {
    awk '
        /^Elo: / { s = $0; sub(/^Elo: /, "", s); split(s, a, ","); e = a[1]
                   n = split(e, b, " "); elo = b[1]; err = (n >= 3 ? b[3] : "-") }
        /^Games: / { g = $0; gsub(/[,()%]/, "", g); split(g, c, " ")
                     games = c[2]; w = c[4]; l = c[6]; d = c[8]; score = c[11] }
        END { if (games == "") { print "- - - - -"; exit }
              printf "%s %s/%s/%s %s%% %s %s\n", games, w, d, l, score, elo, err }
    ' "$1"
}

TABLE=$WORK/ladder.txt
printf '%-6s %6s %-12s %8s %s\n' rung games W/D/L score "Elo +/- error" >"$TABLE"
rc=0
for E in $RUNGS; do
    log=$WORK/rung-$E.log
    # shellcheck disable=SC2206
    CMD=("$FASTCHESS"
        -engine cmd="$ENGINE" name="rochade-$E" option.UCI_LimitStrength=true option.UCI_Elo="$E"
        -engine cmd="$STOCKFISH" name="stockfish-$E" option.UCI_LimitStrength=true option.UCI_Elo="$E"
        -each tc="$TC" ${MARGIN_MS:+timemargin=$MARGIN_MS} $OPTS
        -openings file="$BOOK" format=epd order=random
        -games 2 -rounds "$ROUNDS" -repeat
        -concurrency "$CONCURRENCY"
        -recover
        -startup-ms "$STARTUP_MS"
        -pgnout file="$WORK/rung-$E.pgn"
        ${EXTRA:-})
    echo "elo-ladder.sh: rung $E: $(printf '%q ' "${CMD[@]}")"
    set +e
    # From $WORK, where fastchess saves its config.json.
    (cd "$WORK" && "${CMD[@]}") 2>&1 | tee "$log" | grep --line-buffered -E '^(Finished game|Elo:|Games:)'
    frc=${PIPESTATUS[0]}
    set -e
    [[ $frc == 0 ]] || { echo "elo-ladder.sh: rung $E: fastchess exit $frc" >&2; rc=$frc; }
    read -r games wdl score elo err < <(rung_result "$log")
    printf '%-6s %6s %-12s %8s %s +/- %s\n' "$E" "$games" "$wdl" "$score" "$elo" "$err" >>"$TABLE"
done
echo
cat "$TABLE"
exit $rc
