//go:build !linux && !windows && !darwin

package membudget

// systemMemory knows nothing on other systems: the budget assumes
// DefaultMB (and uci says so).
func systemMemory() sysMemory { return unknownMemory() }

// ReserveTables: a new table is made resident when Hash is set
// (uci's guardHash).
const ReserveTables = true
