package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"checkout", debug.BuildInfo{GoVersion: "go1.24.1", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0dc3b4d1e2f3"}, {Key: "vcs.time", Value: "2026-11-25T13:13:35Z"}, {Key: "vcs.modified", Value: "false"},
		}}, "(devel) commit 0dc3b4d1e2f3 (2026-11-25T13:13:35Z) go1.24.1"},
		{"modified", debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"},
		}}, "v1.2.0 commit abc (modified)"},
		{"no vcs", debug.BuildInfo{GoVersion: "go1.24.1"}, "(devel) commit unknown go1.24.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FromBuildInfo(&tc.bi).String(); got != tc.want {
				t.Errorf("FromBuildInfo(%s).String() = %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}

func TestRead(t *testing.T) {
	if in := Read(); in.Version == "" || in.GoVersion == "" {
		t.Errorf("Read() = %+v: no version or Go version", in)
	}
}
