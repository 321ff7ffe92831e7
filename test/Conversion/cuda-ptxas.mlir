// REQUIRES: ptxas
// ptxas -v on the PTX of the default tile configuration (block_q = 128, 8
// warps; block_k = 128, 64 at D = 128): f16 and bf16, D = 64 and 128,
// dense and causal, and a
// causal bf16 D = 128 kernel with a [B,Hq,Nk] bias and a key mask. No spills
// and no local memory (0-byte stack frame) for any of them, on sm_80 and sm_90.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_80 format=isa" -o %t.sm80.mlir
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90 format=isa" -o %t.sm90.mlir
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d64_dense_kernel < %t.sm80.mlir > %t.f16_d64_dense.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.f16_d64_dense.sm80.ptx -o %t.f16_d64_dense.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d64_dense_kernel < %t.sm90.mlir > %t.f16_d64_dense.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.f16_d64_dense.sm90.ptx -o %t.f16_d64_dense.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d64_causal_kernel < %t.sm80.mlir > %t.f16_d64_causal.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.f16_d64_causal.sm80.ptx -o %t.f16_d64_causal.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d64_causal_kernel < %t.sm90.mlir > %t.f16_d64_causal.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.f16_d64_causal.sm90.ptx -o %t.f16_d64_causal.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d128_dense_kernel < %t.sm80.mlir > %t.f16_d128_dense.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.f16_d128_dense.sm80.ptx -o %t.f16_d128_dense.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d128_dense_kernel < %t.sm90.mlir > %t.f16_d128_dense.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.f16_d128_dense.sm90.ptx -o %t.f16_d128_dense.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d128_causal_kernel < %t.sm80.mlir > %t.f16_d128_causal.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.f16_d128_causal.sm80.ptx -o %t.f16_d128_causal.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d128_causal_kernel < %t.sm90.mlir > %t.f16_d128_causal.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.f16_d128_causal.sm90.ptx -o %t.f16_d128_causal.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d64_dense_kernel < %t.sm80.mlir > %t.bf16_d64_dense.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.bf16_d64_dense.sm80.ptx -o %t.bf16_d64_dense.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d64_dense_kernel < %t.sm90.mlir > %t.bf16_d64_dense.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.bf16_d64_dense.sm90.ptx -o %t.bf16_d64_dense.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d64_causal_kernel < %t.sm80.mlir > %t.bf16_d64_causal.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.bf16_d64_causal.sm80.ptx -o %t.bf16_d64_causal.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d64_causal_kernel < %t.sm90.mlir > %t.bf16_d64_causal.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.bf16_d64_causal.sm90.ptx -o %t.bf16_d64_causal.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d128_dense_kernel < %t.sm80.mlir > %t.bf16_d128_dense.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.bf16_d128_dense.sm80.ptx -o %t.bf16_d128_dense.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d128_dense_kernel < %t.sm90.mlir > %t.bf16_d128_dense.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.bf16_d128_dense.sm90.ptx -o %t.bf16_d128_dense.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d128_causal_kernel < %t.sm80.mlir > %t.bf16_d128_causal.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.bf16_d128_causal.sm80.ptx -o %t.bf16_d128_causal.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d128_causal_kernel < %t.sm90.mlir > %t.bf16_d128_causal.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.bf16_d128_causal.sm90.ptx -o %t.bf16_d128_causal.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d128_bias_mask_kernel < %t.sm80.mlir > %t.bf16_d128_bias_mask.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.bf16_d128_bias_mask.sm80.ptx -o %t.bf16_d128_bias_mask.sm80.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL
// RUN: python3 %cuda_inputs/cuda_extract_binary.py bf16_d128_bias_mask_kernel < %t.sm90.mlir > %t.bf16_d128_bias_mask.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.bf16_d128_bias_mask.sm90.ptx -o %t.bf16_d128_bias_mask.sm90.cubin 2>&1 | FileCheck %s --check-prefix=NOSPILL

// NOSPILL: Compiling entry function '{{.*}}_kernel' for 'sm_{{80|90}}'
// NOSPILL-NEXT: Function properties for
// NOSPILL-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NEXT: Used {{[0-9]+}} registers, used 1 barriers, {{[0-9]+}} bytes smem
// NOSPILL-NOT: lmem

// The same 9 kernels with K and V rings of two slots (kv-stages=2: dynamic
// shared memory, which ptxas does not count) on both chips: every kernel
// accepted, none spilling.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_80 format=isa kv-stages=2" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_80 | FileCheck %s --check-prefix=RING
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90 format=isa kv-stages=2" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90 | FileCheck %s --check-prefix=RING
// RING: kernels: 9, rejected: 0, spilling: 0
// Three-slot rings (kv-stages=3; two slots where three do not fit in 99
// KiB): the same.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_80 format=isa kv-stages=3" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_80 | FileCheck %s --check-prefix=RING
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90 format=isa kv-stages=3" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90 | FileCheck %s --check-prefix=RING

// The same 9 kernels with S = Q K^T on wgmma (wgmma=true, chip sm_90a):
// every kernel accepted, none spilling, and none with a wgmma that ptxas
// serializes (its C75xx notes: a wait it injects or a pipeline it
// serializes). With wgmma-overlap (each block's P V in flight during the
// next block's softmax) the same; 194-254 registers on ptxas 13.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
// WGMMA: kernels: 9, rejected: 0, spilling: 0, serialized: 0
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=2 wgmma-overlap=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=3 wgmma-overlap=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
// A D = 128 attention with run-time block lists: no spills on sm_80 and
// sm_90, and wgmma on sm_90a (the lists' key block is 64, 2026-11-28).
// RUN: attic-opt %cuda_inputs/cuda_lists_d128.mlir --attic-cuda-pipeline="chip=sm_80 format=isa" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_80 | FileCheck %s --check-prefix=LISTS
// RUN: attic-opt %cuda_inputs/cuda_lists_d128.mlir --attic-cuda-pipeline="chip=sm_90 format=isa" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90 | FileCheck %s --check-prefix=LISTS
// RUN: attic-opt %cuda_inputs/cuda_lists_d128.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=2 wgmma-overlap=true" -o %t.lists.mlir
// RUN: python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a < %t.lists.mlir | FileCheck %s --check-prefix=LISTS
// RUN: FileCheck %s --check-prefix=LISTS-WGMMA < %t.lists.mlir
// LISTS: rejected: 0, spilling: 0, serialized: 0
// LISTS-WGMMA: wgmma.mma_async
// Attentions of one key block: wgmma-overlap is not applied (nothing to
// defer P V past); with it ptxas serialized one kernel's wgmmas and the
// other spilled 152 bytes (2026-11-28).
// RUN: attic-opt %cuda_inputs/cuda_one_key_block.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=3 wgmma-overlap=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=ONEBLOCK
// RUN: attic-opt %cuda_inputs/cuda_one_key_block.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=2 wgmma-overlap=true tma=true warp-specialize=true ping-pong=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=ONEBLOCK
// ONEBLOCK: kernels: 4, rejected: 0, spilling: 0, serialized: 0
// With TMA loads (cp.async.bulk.tensor into the rings, mbarriers): the same
// (168-242 registers on ptxas 13, against 178-222 with cp.async), and the
// host calls mgpuTensorMapEncodeTiledMemref for each map.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=2 tma=true" -o %t.tma.mlir
// RUN: python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a < %t.tma.mlir | FileCheck %s --check-prefix=WGMMA
// RUN: FileCheck %s --check-prefix=TMA-HOST < %t.tma.mlir
// TMA-HOST: llvm.call @mgpuTensorMapEncodeTiledMemref
// TMA-HOST: cp.async.bulk.tensor.4d.shared::cluster.global
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=3 wgmma-overlap=true tma=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
// Warp-specialized (warp-specialize=true): one more warpgroup, the
// producer, so 384 threads at block_q 128 and ptxas's budget at the entry
// 168 registers (65536 / 384); the consumers raise theirs to 240 with
// setmaxnreg, the producer lowers its own to 24. Every kernel accepted,
// none spilling or serialized: ptxas 13 reports 168 registers for each,
// and the causal kernels, which need 226-242 without a producer, do not
// spill, so the consumers' code is allocated above the entry's budget.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa merge-kernels=false wgmma=true kv-stages=2 tma=true warp-specialize=true" -o %t.ws.mlir
// RUN: python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a < %t.ws.mlir | FileCheck %s --check-prefix=WGMMA
// RUN: FileCheck %s --check-prefix=WS-PTX < %t.ws.mlir
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=3 tma=true warp-specialize=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
// With the deferred P V as well (the D = 64 causal kernels took 254
// registers without a producer): the same, within the consumers' 240.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=2 tma=true wgmma-overlap=true warp-specialize=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=3 tma=true wgmma-overlap=true warp-specialize=true" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
// And with the consumer warpgroups' ping-pong (bar.sync and bar.arrive on
// barriers 2 and 3 around each block's wgmmas): the same; the barrier id
// is a register (2 + warpgroup), so ptxas reserves all 16 of the block's
// named barriers.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=2 tma=true wgmma-overlap=true warp-specialize=true ping-pong=true" -o %t.pp.mlir
// RUN: python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a < %t.pp.mlir | FileCheck %s --check-prefix=WGMMA
// RUN: python3 %cuda_inputs/cuda_extract_binary.py f16_d64_causal_kernel < %t.pp.mlir > %t.pp.ptx
// RUN: %ptxas -arch=sm_90a -v %t.pp.ptx -o %t.pp.cubin 2>&1 | FileCheck %s --check-prefix=PP
// PP: Used 168 registers, used 16 barriers
// With block_q 64 (one consumer warpgroup, 256 threads) ptxas sets the
// entry's budget to the consumers' 240 registers: the same.
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=2 tma=true warp-specialize=true block-q=64" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
// The consumers' named barrier (bar.sync 1) orders the column tile of the
// bias and key mask kernel (the dense kernels have none).
// WS-PTX: gpu.binary @bf16_d128_bias_mask_kernel
// WS-PTX-SAME: .maxntid 384, 1, 1
// WS-PTX-SAME: setmaxnreg.inc.sync.aligned.u32 240;
// WS-PTX-SAME: bar.sync
// WS-PTX-SAME: mbarrier.arrive.expect_tx
// WS-PTX-SAME: setmaxnreg.dec.sync.aligned.u32 24;
// WS-PTX-SAME: cp.async.bulk.tensor.4d.shared::cluster.global
// The count of serialized kernels is not blind: a kernel whose wgmma
// ptxas serializes is counted.
// RUN: python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a < %cuda_inputs/wgmma_serialized.mlir | FileCheck %s --check-prefix=SERIAL
// SERIAL: k: {{[0-9]+}} registers, 0 spill bytes, wgmma serialized
// SERIAL: kernels: 1, rejected: 0, spilling: 0, serialized: 1
// RUN: attic-opt %cuda_inputs/cuda_configs.mlir --attic-cuda-pipeline="chip=sm_90a format=isa wgmma=true kv-stages=2" | python3 %cuda_inputs/cuda_ptxas_all.py %ptxas sm_90a | FileCheck %s --check-prefix=WGMMA
