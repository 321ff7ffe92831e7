// REQUIRES: libdevice
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa merge-kernels=false" | FileCheck %s
// (merge-kernels=false: a gpu.binary per kernel, read one after the other
// below; the default, one binary, is checked at MERGED.)
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa" | FileCheck %s --check-prefix=MERGED
// MERGED: gpu.binary @attention_f16_kernel
// MERGED-SAME: .entry attention_f16_kernel(
// MERGED-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MERGED-SAME: .entry attention_bf16_causal_kernel(
// MERGED-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// MERGED-NOT: gpu.binary
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_90 format=isa merge-kernels=false block-q=128 block-k=32" | FileCheck %s --check-prefix=SM90
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa merge-chains=false" | FileCheck %s --check-prefix=STEPS
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_90 format=isa merge-kernels=false kv-stages=2" | FileCheck %s --check-prefix=RING
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_90a format=isa merge-kernels=false wgmma=true" -o %t.wgmma.mlir
// RUN: FileCheck %s --input-file=%t.wgmma.mlir --check-prefix=WGMMA
// RUN: python3 %cuda_inputs/cuda_extract_binary.py attention_f16_kernel < %t.wgmma.mlir | FileCheck %s --check-prefix=WGMMA-PTX
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa" -o %t.default.mlir
// RUN: python3 %cuda_inputs/cuda_extract_binary.py attention_f16_kernel < %t.default.mlir | FileCheck %s --check-prefix=STATIC
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa inline-kernel-constants=false" -o %t.noinline.mlir
// RUN: python3 %cuda_inputs/cuda_extract_binary.py attention_f16_kernel < %t.noinline.mlir | FileCheck %s --check-prefix=NOINLINE

// attic.attention on tensors -> host code in the LLVM dialect calling the
// mgpu* functions (same signature as the input: memrefs in host memory) and
// one gpu.binary per function with the PTX of the tensor-core kernel. The
// inputs go to device buffers (attic-gpu-offload), the kernel runs on them,
// the result comes back to a host buffer, all on one stream that the host
// synchronizes once, before it returns (attic-gpu-merge-chains; with
// merge-chains=false each step is a stream of its own, created,
// synchronized and destroyed). In the kernel (the PTX in LLVM's block
// order, the key-block loop rotated): K and V copied with cp.async (16
// bytes, the source size in a register for the zero fill past Nk), the
// wait for K (wait_group 1) before Q K^T, the wait for V (wait_group 0)
// before P V, and the next block's K copied during P V.
// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: llvm.func @attention_f16
// CHECK: %[[S:[0-9]+]] = llvm.call @mgpuStreamCreate()
// CHECK-NOT: mgpuStream
// CHECK: llvm.call @mgpuMemAlloc(%{{[0-9]+}}, %[[S]], %{{[0-9]+}})
// CHECK-NOT: mgpuStream
// CHECK: llvm.call @mgpuMemcpy(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[S]])
// CHECK-NOT: mgpuStream
// CHECK: gpu.launch_func <%[[S]] : !llvm.ptr> @attention_f16_kernel::@attention_f16_kernel blocks in
// CHECK-NOT: mgpuStream
// CHECK: llvm.call @mgpuMemcpy(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[S]])
// CHECK-NOT: mgpuStream
// CHECK: llvm.call @mgpuMemFree(%{{[0-9]+}}, %[[S]])
// CHECK-NOT: mgpuStream
// CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[S]])
// CHECK-NEXT: llvm.return
// CHECK: gpu.binary @attention_f16_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">
// CHECK-SAME: assembly = "
// CHECK-SAME: .target sm_80
// CHECK-SAME: .entry attention_f16_kernel(
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-SAME: .minnctapersm 1
// CHECK-SAME: .shared .align 16 .b8 __wg_attention_f16_kernel_0
// CHECK-SAME: .shared .align 16 .b8 __wg_attention_f16_kernel_1
// CHECK-SAME: cp.async.commit_group;
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-SAME: bar.sync
// CHECK-SAME: cp.async.wait_group \090;
// CHECK-SAME: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// CHECK-SAME: cp.async.commit_group;
// CHECK-SAME: cp.async.wait_group \091;
// CHECK-SAME: bar.sync
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: ex2.approx.ftz.f32
// CHECK-SAME: cp.async.wait_group \090;
// CHECK-SAME: bar.sync
// CHECK-SAME: cp.async.cg.shared.global
// CHECK-NOT: bf16.bf16
// CHECK-LABEL: llvm.func @attention_bf16_causal
// Nq and Nk are dynamic: the operands' sizes are compared in front of the
// attention (the value's and the mask's Nk against the key's), reported
// from a one-thread kernel (the runtime's error record is on the device).
// CHECK: gpu.binary @attention_bf16_causal_kernel
// CHECK-NOT: mma.sync
// CHECK: gpu.binary @attention_bf16_causal_kernel_0
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-SAME: cp.async.cg.shared.global
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-DAG: llvm.func @mgpuStreamCreate() -> !llvm.ptr
// CHECK-DAG: llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK-DAG: llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuStreamSynchronize(!llvm.ptr)
// CHECK-DAG: llvm.func @mgpuStreamDestroy(!llvm.ptr)

// kv-stages=2: the K and V rings in dynamic shared memory, 2 x 2 x 128
// keys x 72 halves = 73728 bytes at D = 64 (2 x 2 x 64 x 136 x 2 = 69632 at
// D = 128, block_k 64), passed to the launch; in the PTX an unsized
// `.extern .shared` array (attic-nvvm-extern-dynamic-shared) next to the
// static shared memory of the per-key term, and the ring's wait for all
// but the prefetch group.
// RING-LABEL: llvm.func @attention_f16(
// RING: %[[SMEM:.*]] = llvm.mlir.constant(73728 : i32) : i32
// RING: gpu.launch_func {{.*}} @attention_f16_kernel::@attention_f16_kernel {{.*}} dynamic_shared_memory_size %[[SMEM]] args(
// RING: gpu.binary @attention_f16_kernel
// RING-SAME: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// RING-SAME: cp.async.wait_group \091;
// RING-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// RING-NOT: .shared .align 16 .b8 __dynamic_shmem__0;
// RING-LABEL: llvm.func @attention_bf16_causal(
// RING: %[[SMEM2:.*]] = llvm.mlir.constant(69632 : i32) : i32
// RING: gpu.launch_func {{.*}} dynamic_shared_memory_size %[[SMEM2]] args(

// SM90: gpu.binary @attention_f16_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// SM90-SAME: .target sm_90
// SM90-SAME: .maxntid 256, 1, 1
// SM90-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SM90-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM90-SAME: cp.async.cg.shared.global
// SM90-SAME: cp.async.wait_group \091;
// SM90-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SM90-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// wgmma=true (sm_90a): Q K^T is wgmma.mma_async with A from registers and
// K through a descriptor (D/16 per key block, m64n128k16 for D = 64 with
// block_k 128, m64n64k16 on bf16 for D = 128 with block_k 64), after the
// copies' wait, fence.proxy.async and the barrier; P V too (block_k/16 per
// key block with V N-major, imm-trans-b 1: m64n64k16 for Dv = 64,
// m64n128k16 for Dv = 128).
// WGMMA: gpu.binary @attention_f16_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// WGMMA-SAME: .target sm_90a
// WGMMA-SAME: cp.async.wait_group \091;
// WGMMA-SAME: fence.proxy.async.shared::cta;
// WGMMA-SAME: bar.sync \090;
// WGMMA-SAME: wgmma.fence.sync.aligned;
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WGMMA-SAME: wgmma.commit_group.sync.aligned;
// WGMMA-SAME: wgmma.wait_group.sync.aligned 0;
// WGMMA: gpu.binary @attention_bf16_causal_kernel_0 
// WGMMA-SAME: .target sm_90a
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// WGMMA-SAME: wgmma.wait_group.sync.aligned 0;
// WGMMA-NOT: mma.sync.aligned
// The f16 kernel's PTX: the 8 P V steps (imm-trans-b 1) and no mma.sync.
// WGMMA-PTX-NOT: mma.sync.aligned
// WGMMA-PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}} p, 1, 1, 1; }
// WGMMA-PTX-NOT: mma.sync.aligned
// WGMMA-PTX-NOT: p, 1, 1, 1; }
func.func @attention_f16(%q: tensor<1x4x300x64xf16>, %k: tensor<1x4x300x64xf16>, %v: tensor<1x4x300x64xf16>) -> tensor<1x4x300x64xf16> {
  %o = attic.attention %q, %k, %v : tensor<1x4x300x64xf16>, tensor<1x4x300x64xf16>, tensor<1x4x300x64xf16> -> tensor<1x4x300x64xf16>
  return %o : tensor<1x4x300x64xf16>
}

func.func @attention_bf16_causal(%q: tensor<2x2x?x128xbf16>, %k: tensor<2x2x?x128xbf16>, %v: tensor<2x2x?x128xbf16>, %m: tensor<2x?xi1>) -> tensor<2x2x?x128xbf16> {
  %o = attic.attention %q, %k, %v causal mask(%m : tensor<2x?xi1>) : tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16> -> tensor<2x2x?x128xbf16>
  return %o : tensor<2x2x?x128xbf16>
}

// STEPS-LABEL: llvm.func @attention_f16
// STEPS: %[[A:[0-9]+]] = llvm.call @mgpuStreamCreate()
// STEPS: llvm.call @mgpuMemAlloc(%{{[0-9]+}}, %[[A]], %{{[0-9]+}})
// STEPS: llvm.call @mgpuStreamSynchronize(%[[A]])
// STEPS: gpu.launch_func <%[[S:[0-9]+]] : !llvm.ptr> @attention_f16_kernel::@attention_f16_kernel blocks in
// STEPS-NEXT: llvm.call @mgpuStreamSynchronize(%[[S]])
// STEPS-NEXT: llvm.call @mgpuStreamDestroy(%[[S]])
// STEPS: llvm.call @mgpuStreamCreate()
// STEPS: llvm.call @mgpuMemcpy

// The static-shape kernel is specialized on what the host computes from
// constants (attic-gpu-annotate-kernels): the check that the grid is not
// empty is no longer an i1 parameter (.u8) around the whole body, and the
// grid's size is a constant instead of a read of %nctaid. With
// inline-kernel-constants=false both stay, for the GPU A/B.
// STATIC: .entry attention_f16_kernel(
// STATIC-NOT: .param .u8
// STATIC-NOT: %nctaid
// STATIC: ex2.approx.ftz.f32
// STATIC-NOT: %nctaid
// NOINLINE: .entry attention_f16_kernel(
// NOINLINE: .param .u8
// NOINLINE: %nctaid.y
