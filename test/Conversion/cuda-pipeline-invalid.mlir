// Bad options and input that attic-cuda-pipeline cannot compile for the GPU
// are errors (exit status 1), never host code that silently runs on the CPU.
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_75 format=isa" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="format=bin toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="block-q=48 format=isa" 2>&1 | FileCheck %s --check-prefix=BLOCKQ
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="block-k=8 format=isa" 2>&1 | FileCheck %s --check-prefix=BLOCKK
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="format=isa" 2>&1 | FileCheck %s
// Without a usable toolkit the default format is PTX.
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=ISA

// CHIP: error: attic-cuda-pipeline: chip must be sm_80 or sm_90, got 'sm_75'
// FORMAT: error: attic-cuda-pipeline: format must be isa (PTX), bin (cubin) or fatbin, got 'elf'
// TOOLKIT: error: attic-cuda-pipeline: format=bin needs ptxas, but /nonexistent/bin/ptxas is not there; use format=isa or toolkit=PATH
// BLOCKQ: error: attic-cuda-pipeline: block-q must be 16, 32, 64 or 128 (16 query rows per warp), got 48
// BLOCKK: error: attic-cuda-pipeline: block-k must be a multiple of 16 in [16, 128], got 8

// ISA: gpu.binary @ok_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, properties = {{.*}}, assembly = "
func.func @ok(%q: tensor<1x1x32x64xf16>) -> tensor<1x1x32x64xf16> {
  %o = attic.attention %q, %q, %q : tensor<1x1x32x64xf16>, tensor<1x1x32x64xf16>, tensor<1x1x32x64xf16> -> tensor<1x1x32x64xf16>
  return %o : tensor<1x1x32x64xf16>
}

// -----

// f32 has no CUDA kernel yet.
// CHECK: error: 'attic.block_attention' op cannot be lowered to the CUDA kernel: query element type must be f16 or bf16 (tensor-core mma.sync), got f32
func.func @f32(%q: tensor<1x1x32x64xf32>) -> tensor<1x1x32x64xf32> {
  %o = attic.attention %q, %q, %q : tensor<1x1x32x64xf32>, tensor<1x1x32x64xf32>, tensor<1x1x32x64xf32> -> tensor<1x1x32x64xf32>
  return %o : tensor<1x1x32x64xf32>
}

// -----

// D = 256 is not supported.
// CHECK: error: 'attic.block_attention' op cannot be lowered to the CUDA kernel: query head dim D must be static and a multiple of 16 in [16, 128] (e.g. 64 or 128), got 256
func.func @d256(%q: tensor<1x1x32x256xf16>) -> tensor<1x1x32x256xf16> {
  %o = attic.attention %q, %q, %q : tensor<1x1x32x256xf16>, tensor<1x1x32x256xf16>, tensor<1x1x32x256xf16> -> tensor<1x1x32x256xf16>
  return %o : tensor<1x1x32x256xf16>
}

// -----

// Compute outside attention would run on the host CPU.
// CHECK: error: 'arith.addf' op cannot be compiled by attic-cuda-pipeline: only attic.attention / attic.block_attention run on the GPU, and host code may only move data (this op would run on the CPU)
func.func @host_compute(%a: f32, %b: f32) -> f32 {
  %c = arith.addf %a, %b : f32
  return %c : f32
}

// -----

// Elementwise tensor code (bufferized to linalg) would run on the CPU.
// CHECK: error: 'linalg.map' op cannot be compiled by attic-cuda-pipeline
func.func @tensor_compute(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.map { math.exp } ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>)
  return %r : tensor<16xf32>
}

// -----

// The VCC ops and trees are CPU-only.
// CHECK: error: 'attic.tree_build' op is not supported by attic-cuda-pipeline: the VCC ops and !attic.tree values are CPU-only (use attic-cpu-pipeline)
func.func @tree(%c: tensor<2x8x4xf32>, %valid: tensor<2x8xi1>) -> tensor<2x8x4xf32> {
  %t = attic.tree_build %c, %valid : tensor<2x8x4xf32>, tensor<2x8xi1> -> !attic.tree<2x8x4xf32, fanouts = [2, 4]>
  %m = attic.tree_materialize %t : !attic.tree<2x8x4xf32, fanouts = [2, 4]> -> tensor<2x8x4xf32>
  return %m : tensor<2x8x4xf32>
}
