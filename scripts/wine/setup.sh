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
# Idempotent: it installs wine64 and the MinGW-w64 compiler if missing
# (apt-get, as root or through sudo), creates and initialises the prefix
# once (wineboot, about a minute), and rebuilds the DLL when processprng.c
# is newer.
#
# ROCHADE_WINEPREFIX names the prefix (default /tmp/rochade-wine); the
# tests read the same variable.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
prefix=${ROCHADE_WINEPREFIX:-/tmp/rochade-wine}
cc=x86_64-w64-mingw32-gcc

need=
command -v wine >/dev/null 2>&1 || need="$need wine64"
command -v $cc >/dev/null 2>&1 || need="$need gcc-mingw-w64-x86-64"
if [ -n "$need" ]; then
	echo "installing:$need"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $need
fi
command -v wine >/dev/null 2>&1 || {
	# wine64 alone installs wine64 but not always the `wine` launcher
	echo "no wine command after installing wine64" >&2
	exit 1
}

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
