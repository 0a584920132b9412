//go:build !matprofile

package vision

// openMats is -1: Mats are counted only with -tags matprofile.
func openMats() int { return -1 }

func openMatStacks() string { return "" }
