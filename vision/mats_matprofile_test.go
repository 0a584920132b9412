//go:build matprofile

package vision

import (
	"bytes"

	"gocv.io/x/gocv"
)

// openMats is the number of gocv.Mats open now.
func openMats() int { return gocv.MatProfile.Count() }

// openMatStacks says where the open Mats were made.
func openMatStacks() string {
	var b bytes.Buffer
	gocv.MatProfile.WriteTo(&b, 1)
	return b.String()
}
