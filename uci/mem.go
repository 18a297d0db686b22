package uci

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// availableMB returns the memory the system can still give us, in MB,
// from /proc/meminfo (MemAvailable), or 0 when it cannot be told.
func availableMB() int {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return int(kb / 1024)
		}
	}
	return 0
}

// hashLimitMB is the largest table we dare allocate: the Hash option
// goes up to HashMax, but a table larger than three quarters of the free
// memory would make the process die (Go cannot recover from running out
// of memory), so larger requests are cut down, with an info string.
func hashLimitMB() int {
	avail := availableMB()
	if avail <= 0 {
		return HashMax
	}
	return max(1, min(HashMax, avail*3/4))
}
