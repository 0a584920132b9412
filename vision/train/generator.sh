# Sourced by make-model.sh and make-pose.sh: what both set up.
#
# PyTorch's convolutions (oneDNN) pick their kernels by the CPU's
# instructions, and each kernel sums in its own order, so that a network
# trained on a CPU with AVX-512 is not the bytes of one trained without.
# Both scripts cap the kernels at AVX2. Measured on one machine only (an
# AVX-512 Xeon, twenty-fifth stop of vision/train/README.md): capped, the
# pose network came out the committed file byte for byte; the classifier
# came out another file than the committed one, which was trained before
# the cap, on another machine.
export DNNL_MAX_CPU_ISA=AVX2 ONEDNN_MAX_CPU_ISA=AVX2 ATEN_CPU_CAPABILITY=avx2

# generator prints the fingerprint of the POV-Ray generator (vision/render and dicewide, and
# the split's fonts and surfaces): the pictures of an earlier run are
# kept only when it is the same.
generator() {
	cat vision/render/*.go vision/render/cmd/dicewide/main.go vision/render/wide.yaml | sha256sum | cut -c1-16
}
