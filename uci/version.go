// Package uci is Rochade's UCI front end: the protocol loop, the options,
// move notation for standard chess and Chess960, and the debug log. It
// turns input into variant960 positions and starts the search; it is the
// only part of the engine that writes to stdout.
package uci

import "runtime/debug"

// defaultVersion is the version of a build that neither sets Version nor
// carries version-control information.
const defaultVersion = "0.1.0"

// Version is the engine version printed in `id name` and written into
// datagen manifests. It is a variable so that builds can set it:
// go build -ldflags "-X github.com/rochade/rochade/uci.Version=1.2.3"
// (make sets it to `git describe --tags --always --dirty`). A plain
// `go build` leaves it unset; it then becomes the commit Go recorded in
// the binary, in the same short form.
var Version = defaultVersion

func init() {
	if Version != defaultVersion {
		return
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		Version = versionFrom(bi.Settings, defaultVersion)
	}
}

// versionFrom is the short commit (and "-dirty" for a modified tree) in
// a binary's build settings, or def when there is none.
func versionFrom(settings []debug.BuildSetting, def string) string {
	var rev string
	dirty := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return def
	}
	rev = rev[:min(len(rev), 7)]
	if dirty {
		rev += "-dirty"
	}
	return rev
}

// Name and Author are printed by the `uci` handshake.
const (
	Name   = "Rochade"
	Author = "The Rochade authors"
)
