// Package uci is Rochade's UCI front end: the protocol loop, the options,
// move notation for standard chess and Chess960, and the debug log. It
// turns input into variant960 positions and starts the search; it is the
// only part of the engine that writes to stdout.
package uci

// Version is the engine version printed in `id name`. It is a variable so
// that builds can set it: go build -ldflags "-X github.com/rochade/rochade/uci.Version=1.2.3".
var Version = "0.1.0"

// Name and Author are printed by the `uci` handshake.
const (
	Name   = "Rochade"
	Author = "The Rochade authors"
)
