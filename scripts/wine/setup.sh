#!/bin/sh
# Prepares a Wine prefix that runs Rochade's Windows build (the tests with
# the build tag `wine`: go test -tags wine ./tests/ -run Wine).
#
# Debian's Wine 8 cannot start programs built with Go 1.22 or later: their
# runtime calls ProcessPrng in bcryptprimitives.dll, which Wine 8 lacks.
# This script builds a bcryptprimitives.dll that exports it
# (processprng.c) and puts it in the prefix's system32, where Go's runtime
# loads it from; wine runs with WINEDLLOVERRIDES="bcryptprimitives=n,b".
#
# Idempotent: it installs Wine and the MinGW-w64 compiler if missing
# (apt-get, as root or through sudo), creates and initialises the prefix
# once (wineboot, about a minute), and rebuilds the DLL when processprng.c
# is newer. Debian's Wine comes in two packages that both must be there:
# wine64 holds only the 64-bit loader and server (/usr/lib/wine/wine64,
# wineserver64), and wine the `wine`, `wineserver` and `wineboot`
# commands (through update-alternatives) that this script and the tests
# run.
#
# ROCHADE_WINEPREFIX names the prefix (default /tmp/rochade-wine); the
# tests read the same variable.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
prefix=${ROCHADE_WINEPREFIX:-/tmp/rochade-wine}
cc=x86_64-w64-mingw32-gcc

have() { command -v "$1" >/dev/null 2>&1; }

need=
have wine && have wineserver || need="$need wine wine64"
have $cc || need="$need gcc-mingw-w64-x86-64"
if [ -n "$need" ]; then
	echo "installing:$need"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $need
fi
for c in wine wineserver $cc; do
	have $c && continue
	echo "no $c command on PATH after installing:$need" >&2
	if [ "$c" != $cc ] && [ -x /usr/lib/wine/wine64 ]; then
		echo "(/usr/lib/wine/wine64 is there: the wine package, which adds the commands, is missing," \
			"or update-alternatives --config wine has no choice set)" >&2
	fi
	exit 1
done

export WINEPREFIX="$prefix" WINEDEBUG=-all WINEARCH=win64
if [ ! -f "$prefix/system.reg" ]; then
	echo "creating the Wine prefix $prefix (about a minute)"
	mkdir -p "$prefix"
	wineboot --init >/dev/null 2>&1 || wine wineboot --init >/dev/null 2>&1
	wineserver -w
fi
sys32="$prefix/drive_c/windows/system32"
[ -d "$sys32" ] || { echo "$sys32 missing: wineboot failed" >&2; exit 1; }

dll="$prefix/bcryptprimitives.dll"
if [ ! -f "$dll" ] || [ "$here/processprng.c" -nt "$dll" ]; then
	echo "building $dll"
	$cc -shared -O2 -o "$dll.tmp" "$here/processprng.c" -ladvapi32
	mv "$dll.tmp" "$dll"
fi
if ! cmp -s "$dll" "$sys32/bcryptprimitives.dll"; then
	cp "$dll" "$sys32/bcryptprimitives.dll"
fi
echo "Wine prefix ready: $prefix"
echo "run: WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES=bcryptprimitives=n,b wine rochade.exe"
