#!/usr/bin/env bash
# forfeit-check: play fast Chess960 games with fastchess, with every core
# busy, and count the games Rochade lost on time, by an illegal move, by
# a crash (disconnect) or by not answering (stall). Every count must be 0;
# the script exits 1 otherwise.
#
#   scripts/forfeit-check.sh                  # 200 games at 1+0.01, 100 at 10+0.1
#   PARTS="1+0.01:200" scripts/forfeit-check.sh   # only the fast part
#
# Settings (environment):
#   ENGINE       engine binary (default ./rochade; `make forfeit-check` builds it)
#   OPPONENT     self (default: Rochade against itself, so both sides count),
#                stockfish (Stockfish with UCI_LimitStrength, UCI_Elo ELO),
#                or the path of another UCI engine (named after its file;
#                its forfeits are counted too, for comparison)
#   STOCKFISH    Stockfish binary (default /usr/games/stockfish); ELO (default 2000)
#   FASTCHESS    fastchess binary (default /usr/local/bin/fastchess)
#   OPENINGS     EPD file (default tests/testdata/chess960.epd, from the repo root)
#   VARIANT      fischerandom (default) or standard (for an opponent without
#                Chess960, with standard openings such as std_openings.epd)
#   PARTS        "TC:GAMES ..." (default "1+0.01:200 10+0.1:100")
#   CONCURRENCY  games at once (default: the number of cores, so all are busy)
#   OUTDIR       where the PGNs and logs go (default forfeit-check-out/)
#   LOAD         a command run over and over beside the games, to check the
#                clock under load (e.g. "go build -a -o /tmp/x ./cmd/engine");
#                LOADDIR is where it runs (default: the repo root). Its runs
#                are counted in OUTDIR/load.log.
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE=${ENGINE:-./rochade}
OPPONENT=${OPPONENT:-self}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
ELO=${ELO:-2000}
FASTCHESS=${FASTCHESS:-/usr/local/bin/fastchess}
OPENINGS=${OPENINGS:-tests/testdata/chess960.epd}
VARIANT=${VARIANT:-fischerandom}
PARTS=${PARTS:-"1+0.01:200 10+0.1:100"}
CONCURRENCY=${CONCURRENCY:-$(nproc 2>/dev/null || echo 2)}
OUTDIR=${OUTDIR:-forfeit-check-out}

for f in "$ENGINE" "$FASTCHESS"; do
	[ -x "$f" ] || { echo "forfeit-check: $f is not an executable" >&2; exit 2; }
done
[ -r "$OPENINGS" ] || { echo "forfeit-check: no openings file $OPENINGS (set OPENINGS)" >&2; exit 2; }
mkdir -p "$OUTDIR"
# fastchess runs inside OUTDIR (it leaves a config.json where it runs).
ENGINE=$(realpath "$ENGINE")
OPENINGS=$(realpath "$OPENINGS")
OUTDIR=$(realpath "$OUTDIR")

case "$OPPONENT" in
self) other=(-engine "cmd=$ENGINE" name=rochade-b) ;;
stockfish) other=(-engine "cmd=$STOCKFISH" name=stockfish option.UCI_LimitStrength=true "option.UCI_Elo=$ELO") ;;
*)
	[ -x "$OPPONENT" ] || { echo "forfeit-check: OPPONENT must be self, stockfish or an engine binary" >&2; exit 2; }
	other=(-engine "cmd=$(realpath "$OPPONENT")" "name=$(basename "$OPPONENT")")
	;;
esac
case "$VARIANT" in
fischerandom) variant=(-variant fischerandom) ;;
standard) variant=() ;;
*) echo "forfeit-check: VARIANT must be fischerandom or standard" >&2; exit 2 ;;
esac

LOAD=${LOAD:-}
LOADDIR=${LOADDIR:-.}
loadpid=
if [ -n "$LOAD" ]; then
	LOADDIR=$(realpath "$LOADDIR")
	(cd "$LOADDIR" && while :; do
		if sh -c "$LOAD" >/dev/null 2>&1; then echo "ok $(date +%T)"; else echo "failed $(date +%T)"; fi
	done) >"$OUTDIR/load.log" 2>&1 &
	loadpid=$!
	trap '[ -n "$loadpid" ] && kill "$loadpid" 2>/dev/null' EXIT
	echo "== load beside the games (pid $loadpid, in $LOADDIR): $LOAD"
fi

status=0
for part in $PARTS; do
	tc=${part%%:*}
	games=${part##*:}
	name="tc${tc}"
	log="$OUTDIR/$name.out"
	pgn="$OUTDIR/$name.pgn"
	rm -f "$pgn" "$log"
	echo "== $games games at $tc, $OPPONENT, concurrency $CONCURRENCY -> $log, $pgn"
	# Time losses mean little on an overloaded machine: say how busy it was.
	echo "   load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) on $(nproc) cores"
	(cd "$OUTDIR" && "$FASTCHESS" -engine "cmd=$ENGINE" name=rochade "${other[@]}" \
		-each "tc=$tc" proto=uci option.Hash=16 option.Threads=1 \
		"${variant[@]}" -openings "file=$OPENINGS" format=epd order=random \
		-games 2 -rounds $(((games + 1) / 2)) -repeat -concurrency "$CONCURRENCY" -recover \
		-pgnout "file=$pgn" -ratinginterval 0) >"$log" 2>&1 || true

	# "Finished game 7 (rochade vs rochade-b): 0-1 {White loses on time}"
	awk -v part="$tc" '
	/^Finished game/ {
		finished++
		match($0, /\([^)]* vs [^)]*\)/)
		split(substr($0, RSTART + 1, RLENGTH - 2), names, " vs ")
		loser = ""
		if ($0 ~ /\{White /) loser = names[1]
		if ($0 ~ /\{Black /) loser = names[2]
		# The result for rochade (against itself: the first engine).
		res = $0; sub(/^[^)]*\): /, "", res); sub(/ .*/, "", res)
		wi = names[1] == "rochade" ? "1-0" : "0-1"
		if (res == "1/2-1/2") draws++
		else if (res == wi) wins++
		else if (res == "1-0" || res == "0-1") losses++
		reason = ""
		if ($0 ~ /loses on time/) reason = "time"
		else if ($0 ~ /illegal move/) reason = "illegal"
		else if ($0 ~ /disconnects/) reason = "disconnect"
		else if ($0 ~ /stalls/) reason = "stall"
		if (reason != "" && loser ~ /^rochade/) { bad[reason]++; print "   " $0 }
		else if (reason != "") { other[loser " " reason]++; print "   (opponent) " $0 }
	}
	END {
		printf "   %s: %d games finished; rochade lost %d on time, %d by illegal moves, %d by disconnects, %d by stalls\n",
			part, finished, bad["time"], bad["illegal"], bad["disconnect"], bad["stall"]
		printf "   %s: rochade %d wins, %d draws, %d losses\n", part, wins, draws, losses
		for (k in other) printf "   %s: %d forfeits of %s\n", part, other[k], k
		if (finished == 0 || bad["time"] + bad["illegal"] + bad["disconnect"] + bad["stall"] > 0) exit 1
	}' "$log" || status=1
	echo "   load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	# fastchess's own warnings (illegal PV moves, time overruns it let pass).
	grep -E "Warning|Timeouts" "$log" | grep -v "Timeouts: 0" | sed 's/^/   /' | head -20 || true
	# The same from the PGN: games that ended by a forfeit, by reason.
	grep -h -o '{[^}]*}' "$pgn" 2>/dev/null | grep -Eio "loses on time|illegal move|disconnects|stalls" |
		sort | uniq -c | sed 's/^/   PGN: /' || true
done
if [ -n "$loadpid" ]; then
	kill "$loadpid" 2>/dev/null || true
	loadpid=
	echo "== load: $(grep -c '^ok' "$OUTDIR/load.log") runs completed, $(grep -c '^failed' "$OUTDIR/load.log") failed"
fi
exit $status
