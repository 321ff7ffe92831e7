// Bad options and input that attic-cuda-pipeline cannot compile for the GPU
// are errors (exit status 1), never host code that silently runs on the CPU.
// REQUIRES: libdevice
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_75 format=isa" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="format=bin toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="block-q=48 format=isa" 2>&1 | FileCheck %s --check-prefix=BLOCKQ
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="block-k=8 format=isa" 2>&1 | FileCheck %s --check-prefix=BLOCKK
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="kv-stages=4 format=isa" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="kv-stages=2 async-copies=false format=isa" 2>&1 | FileCheck %s --check-prefix=RINGSYNC
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_90 wgmma=true format=isa" 2>&1 | FileCheck %s --check-prefix=WGMMACHIP
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_90a wgmma=true async-copies=false format=isa" 2>&1 | FileCheck %s --check-prefix=WGMMASYNC
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_90a wgmma-overlap=true kv-stages=2 format=isa" 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_90a wgmma=true wgmma-overlap=true format=isa" 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_90a wgmma=true tma=true format=isa" 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_90a kv-stages=2 tma=true format=isa" 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_90a wgmma=true kv-stages=2 warp-specialize=true format=isa" 2>&1 | FileCheck %s --check-prefix=WS
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_90a wgmma=true kv-stages=2 tma=true warp-specialize=true ping-pong=true format=isa" 2>&1 | FileCheck %s --check-prefix=PP
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="format=isa" 2>&1 | FileCheck %s
// Without ptxas the default format is PTX, with the toolkit's libdevice
// linked (a toolkit of libdevice alone).
// RUN: rm -rf %t && mkdir -p %t/nvvm/libdevice && cp /usr/local/cuda/nvvm/libdevice/libdevice.10.bc %t/nvvm/libdevice/
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="toolkit=%t" 2>&1 | FileCheck %s --check-prefix=ISA
// Without libdevice, kernels that call it are an error (upstream's
// gpu-module-to-binary only reported it and wrote PTX with unresolved
// __nv_* calls, exit status 0, until 2026-11-30).
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=LIBDEVICE

// CHIP: error: attic-cuda-pipeline: chip must be sm_80, sm_90 or sm_90a, got 'sm_75'
// FORMAT: error: attic-cuda-pipeline: format must be isa (PTX), bin (cubin) or fatbin, got 'elf'
// TOOLKIT: error: attic-cuda-pipeline: format=bin needs ptxas, but /nonexistent/bin/ptxas is not there; use format=isa or toolkit=PATH
// BLOCKQ: error: attic-cuda-pipeline: block-q must be 16, 32, 64 or 128 (16 query rows per warp), got 48
// BLOCKK: error: attic-cuda-pipeline: block-k must be a multiple of 16 in [16, 128], got 8
// STAGES: error: attic-cuda-pipeline: kv-stages must be 1, 2 or 3, got 4
// RINGSYNC: error: attic-cuda-pipeline: kv-stages=2 needs async-copies (the ring is filled by cp.async)
// WGMMACHIP: error: attic-cuda-pipeline: wgmma needs chip=sm_90a (wgmma.mma_async is sm_90a's), got 'sm_90'
// WGMMASYNC: error: attic-cuda-pipeline: wgmma needs async-copies (the swizzled K and V tiles are filled by cp.async)
// OVERLAP: error: attic-cuda-pipeline: wgmma-overlap needs wgmma and kv-stages=2 or 3 (the deferred P V is a wgmma that reads one more V slot of the ring)
// TMA: error: attic-cuda-pipeline: tma needs wgmma and kv-stages=2 or 3 (TMA fills the rings' swizzled tiles that wgmma reads)
// WS: error: attic-cuda-pipeline: warp-specialize needs tma (the producer warpgroup issues the rings' TMA loads)
// PP: error: attic-cuda-pipeline: ping-pong needs warp-specialize and wgmma-overlap (each consumer warpgroup's turn issues a block's Q K^T and the deferred P V)

// LIBDEVICE: error: kernel module 'ok_kernel' calls libdevice (__nv_fmaxf), but /nonexistent/nvvm/libdevice/libdevice.10.bc does not exist: install the CUDA toolkit's nvvm/libdevice or pass toolkit=PATH to attic-cuda-pipeline
// LIBDEVICE-NOT: gpu.binary
// ISA-NOT: __nv_fmaxf
// ISA: gpu.binary @ok_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, properties = {{.*}}, assembly = "
func.func @ok(%q: tensor<1x1x32x64xf16>) -> tensor<1x1x32x64xf16> {
  %o = attic.attention %q, %q, %q : tensor<1x1x32x64xf16>, tensor<1x1x32x64xf16>, tensor<1x1x32x64xf16> -> tensor<1x1x32x64xf16>
  return %o : tensor<1x1x32x64xf16>
}

// -----

// A scalar computed on the device cannot come back to the host: only
// buffers do.
// CHECK: error: 'func.return' op uses a value that attic-gpu-offload computes in a kernel; only buffers pass between kernels and the host
func.func @host_compute(%a: f32, %b: f32) -> f32 {
  %c = arith.addf %a, %b : f32
  return %c : f32
}

// -----

// Trees cannot cross function boundaries (attic-expand-vcc).
// CHECK: error: 'func.func' op argument #0 has type '!attic.tree<1x8x4xf32, fanouts = [2, 4]>': attic-expand-vcc replaces !attic.tree values only inside a function body
func.func @tree_argument(%t: !attic.tree<1x8x4xf32, fanouts = [2, 4]>) -> tensor<1x8x4xf32> {
  %m = attic.tree_materialize %t : !attic.tree<1x8x4xf32, fanouts = [2, 4]> -> tensor<1x8x4xf32>
  return %m : tensor<1x8x4xf32>
}
