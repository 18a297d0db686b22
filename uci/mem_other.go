//go:build !linux && !windows && !darwin

package uci

// systemMemory knows nothing on other systems: the budget assumes
// defaultMemoryMB and says so.
func systemMemory() sysMemory { return unknownMemory() }

// reserveTables: a new table is made resident when Hash is set
// (guardHash).
const reserveTables = true
