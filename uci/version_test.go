package uci

import (
	"runtime/debug"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "7deeca6f1b2c3d4e5f60718293a4b5c6d7e8f901"}
	cases := []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{nil, "0.1.0"},
		{[]debug.BuildSetting{{Key: "GOARCH", Value: "amd64"}}, "0.1.0"},
		{[]debug.BuildSetting{rev}, "7deeca6"},
		{[]debug.BuildSetting{rev, {Key: "vcs.modified", Value: "false"}}, "7deeca6"},
		{[]debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, rev}, "7deeca6-dirty"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}, "abc"},
	}
	for _, c := range cases {
		if got := versionFrom(c.settings, "0.1.0"); got != c.want {
			t.Errorf("versionFrom(%v) = %q, want %q", c.settings, got, c.want)
		}
	}
}
