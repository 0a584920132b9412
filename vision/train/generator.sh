# Sourced by make-model.sh and make-pose.sh: what both set up.
#
# PyTorch's convolutions (oneDNN) pick their kernels by the CPU's
# instructions, and each kernel sums in its own order, so that a CPU
# with AVX-512 may train other bytes than one without. Both scripts cap
# the kernels at AVX2. Measured on two machines (an Intel Xeon and an
# AMD EPYC, both with AVX-512; vision/train/README.md, twenty-fifth,
# twenty-sixth and twenty-eighth stops): capped, both write the same
# two files, the pose network the committed one byte for byte, the
# classifier 35216a60..., not the committed file's (trained at the
# eleventh stop, before the cap).
export DNNL_MAX_CPU_ISA=AVX2 ONEDNN_MAX_CPU_ISA=AVX2 ATEN_CPU_CAPABILITY=avx2

# generator prints the fingerprint of the POV-Ray generator
# (vision/render and dicewide, and the split's fonts and surfaces): the
# pictures of an earlier run are kept only when it is the same.
generator() {
	cat vision/render/*.go vision/render/cmd/dicewide/main.go vision/render/wide.yaml | sha256sum | cut -c1-16
}
