package tests

import "strings"

func splitFields(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Fields(s)
}
