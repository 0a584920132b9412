# Sourced by make-model.sh and make-pose.sh. generator prints the
# fingerprint of the POV-Ray generator (vision/render and dicewide, and
# the split's fonts and surfaces): the pictures of an earlier run are
# kept only when it is the same.
generator() {
	cat vision/render/*.go vision/render/cmd/dicewide/main.go vision/render/wide.yaml | sha256sum | cut -c1-16
}
