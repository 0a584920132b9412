// Package buildinfo tells which build of Comptoir runs: the module's
// version and the commit it was built from, as the Go toolchain records
// them in the binary (runtime/debug.ReadBuildInfo, the vcs.* settings of
// a build made in a git checkout).
package buildinfo

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Info is a build's identity.
type Info struct {
	// Version is the module's version: a tag, or "(devel)" for a build of
	// a checkout.
	Version string
	// Commit is the git commit (full hash), empty when unknown (a build
	// outside a checkout, or with -buildvcs=false).
	Commit string
	// Time is the commit's time, as git gives it (RFC 3339).
	Time string
	// Modified is true when the checkout had uncommitted changes.
	Modified bool
	// GoVersion is the toolchain that built it.
	GoVersion string
}

// Read returns the running binary's build.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "unknown"}
	}
	return FromBuildInfo(bi)
}

// FromBuildInfo returns the build that bi describes.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: bi.Main.Version, GoVersion: bi.GoVersion}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Commit = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// String is the line a version command prints, for example
// "(devel) commit 0dc3b4d1e2f3 (2026-11-25T13:13:35Z, modified) go1.24.1".
func (in Info) String() string {
	var b strings.Builder
	b.WriteString(in.Version)
	if in.Commit != "" {
		fmt.Fprintf(&b, " commit %s", in.Commit)
		var notes []string
		if in.Time != "" {
			notes = append(notes, in.Time)
		}
		if in.Modified {
			notes = append(notes, "modified")
		}
		if len(notes) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(notes, ", "))
		}
	} else {
		b.WriteString(" commit unknown")
	}
	if in.GoVersion != "" {
		fmt.Fprintf(&b, " %s", in.GoVersion)
	}
	return b.String()
}
