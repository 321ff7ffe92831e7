// RUN: attic-opt %s --split-input-file --attic-gpu-block-attention | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-gpu-block-attention="block-q=32 block-k=32" | FileCheck %s --check-prefix=OPT
// RUN: attic-opt %s --split-input-file --attic-gpu-block-attention --gpu-kernel-outlining | FileCheck %s --check-prefix=OUTLINE

// Dense f16, D = Dv = 64, tails in both sequences (100 queries, 70 keys).
// Host: device buffers and copies on one async chain, the launch over
// (B*H, ceil(Nq/64)) blocks of 128 threads with the shared K tile, the
// transposed V tile and the key terms, then the result back and frees.
// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%[[Q:.*]]: memref<2x3x100x64xf16>, %[[K:.*]]: memref<2x3x70x64xf16>, %[[V:.*]]: memref<2x3x70x64xf16>, %[[O:.*]]: memref<2x3x100x64xf16>)
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[DQ:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<2x3x100x64xf16>
// CHECK: %[[T2:.*]] = gpu.memcpy async [%[[T1]]] %[[DQ]], %[[Q]]
// CHECK: %[[DK:.*]], %{{.*}} = gpu.alloc async
// CHECK: gpu.memcpy async [%{{.*}}] %[[DK]], %[[K]]
// CHECK: %[[DV:.*]], %{{.*}} = gpu.alloc async
// CHECK: gpu.memcpy async [%{{.*}}] %[[DV]], %[[V]]
// CHECK: %[[DO:.*]], %[[T3:.*]] = gpu.alloc async [%{{.*}}] () : memref<2x3x100x64xf16>
// CHECK-NOT: gpu.memcpy
// CHECK: %[[BH:.*]] = arith.muli
// CHECK: %[[L:.*]] = gpu.launch async [%[[T3]]] blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c128
// CHECK-SAME: workgroup(%[[KS:.*]] : memref<64x36xvector<2xf16>, #gpu.address_space<workgroup>>, %[[VT:.*]] : memref<64x36xvector<2xf16>, #gpu.address_space<workgroup>>, %[[TERM:.*]] : memref<32xvector<2xf32>, #gpu.address_space<workgroup>>)
// Q fragments from global memory (4 pairs per 16 columns of D).
// CHECK: vector.load %[[DQ]]{{.*}} {alignment = 4 : i64} : memref<2x3x100x64xf16>, vector<2xf16>
// CHECK: vector.insert {{.*}} : vector<2xf16> into vector<4x2xf16>
// Key-block loop: barrier, staging of K, V^T and the terms, barrier.
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: vector.load %[[DK]]
// CHECK: memref.store %{{.*}}, %[[KS]]
// CHECK: scf.for
// CHECK: vector.load %[[DV]]
// CHECK: vector.shuffle {{.*}} [0, 2]
// CHECK: vector.shuffle {{.*}} [1, 3]
// CHECK: memref.store %{{.*}}, %[[VT]]
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[TERM]]
// CHECK: gpu.barrier
// S = Q K^T on tensor cores.
// CHECK: memref.load %[[KS]]
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// Online softmax: quad max with shuffles, exp2 via ex2.approx.
// CHECK: memref.load %[[TERM]]
// CHECK: gpu.shuffle  xor
// CHECK: gpu.shuffle  xor
// CHECK: arith.cmpf oeq
// CHECK: llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f"
// P V on tensor cores, V^T tile as B operand.
// CHECK: arith.truncf {{.*}} : vector<2xf32> to vector<2xf16>
// CHECK: memref.load %[[VT]]
// CHECK: nvgpu.mma.sync
// CHECK: scf.yield
// Epilogue: quad sum of l, guarded 1/l, row guard, paired stores.
// CHECK: gpu.shuffle  xor
// CHECK: arith.cmpf ogt
// CHECK: scf.if
// CHECK: vector.store {{.*}}, %[[DO]]{{.*}} {alignment = 4 : i64} : memref<2x3x100x64xf16>, vector<2xf16>
// CHECK: gpu.terminator
// CHECK: %[[T4:.*]] = gpu.memcpy async [%[[L]]] %[[O]], %[[DO]]
// CHECK: gpu.dealloc async [%[[T4]]] %[[DQ]]
// CHECK: gpu.dealloc async
// CHECK: gpu.dealloc async
// CHECK: %[[T5:.*]] = gpu.dealloc async [%{{.*}}] %[[DO]]
// CHECK: gpu.wait [%[[T5]]]
// CHECK-NOT: attic.block_attention

// OPT-LABEL: func.func @dense
// OPT: gpu.launch async {{.*}} threads({{.*}}) in (%{{.*}} = %c64
// OPT-SAME: workgroup(%{{.*}} : memref<32x36xvector<2xf16>, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x20xvector<2xf16>, #gpu.address_space<workgroup>>, %{{.*}} : memref<16xvector<2xf32>, #gpu.address_space<workgroup>>)

// OUTLINE: module attributes {gpu.container_module}
// OUTLINE-LABEL: func.func @dense
// OUTLINE: gpu.launch_func async [%{{.*}}] @dense_kernel::@dense_kernel blocks in
// OUTLINE: gpu.module @dense_kernel
// OUTLINE: gpu.func @dense_kernel
// OUTLINE-SAME: workgroup(%{{.*}} : memref<64x36xvector<2xf16>, #gpu.address_space<workgroup>>
// OUTLINE-SAME: kernel
// OUTLINE: nvgpu.mma.sync
func.func @dense(%q: memref<2x3x100x64xf16>, %k: memref<2x3x70x64xf16>, %v: memref<2x3x70x64xf16>, %o: memref<2x3x100x64xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<2x3x100x64xf16>, memref<2x3x70x64xf16>, memref<2x3x70x64xf16>) outs(%o : memref<2x3x100x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// bf16 goes through nvvm.mma.sync (i32 operands: bf16 pairs); D = 128 and
// Dv = 64 differ; causal: the key loop ends at min(Nk, q0 + block_q) and
// keys past the row's diagonal get -inf; a [B,Hq,Nk] bias and a [B,Nk] mask
// are copied to the device and folded into the per-key terms.
// CHECK-LABEL: func.func @bf16_causal_bias_mask
// CHECK-SAME: %[[B:[a-z0-9]*]]: memref<?x2x?xf32>, %[[M:[a-z0-9]*]]: memref<?x?xi1>
// CHECK: %[[DB:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}, %{{.*}}) : memref<?x2x?xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[DB]], %[[B]]
// CHECK: %[[DM:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}, %{{.*}}) : memref<?x?xi1>
// CHECK: gpu.memcpy async [%{{.*}}] %[[DM]], %[[M]]
// CHECK: gpu.launch async
// CHECK-SAME: workgroup(%{{.*}} : memref<64x68xvector<2xbf16>, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x36xvector<2xbf16>, #gpu.address_space<workgroup>>
// CHECK: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: %[[END:.*]] = arith.minsi
// CHECK: %[[NKB:.*]] = arith.ceildivsi %[[END]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[NKB]]
// CHECK: memref.load %[[DB]]
// CHECK: arith.mulf
// CHECK: memref.load %[[DM]]
// CHECK: arith.andi
// CHECK: arith.select {{.*}}, %cst{{.*}} : f32
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: arith.index_cast {{.*}} : index to i32
// CHECK: arith.cmpi sle, %{{.*}}, %{{.*}} : i32
// CHECK: arith.truncf {{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: nvvm.mma.sync
// CHECK: gpu.wait [
func.func @bf16_causal_bias_mask(%q: memref<?x2x?x128xbf16>, %k: memref<?x2x?x128xbf16>, %v: memref<?x2x?x64xbf16>, %b: memref<?x2x?xf32>, %m: memref<?x?xi1>, %o: memref<?x2x?x64xbf16>) {
  attic.block_attention ins(%q, %k, %v : memref<?x2x?x128xbf16>, memref<?x2x?x128xbf16>, memref<?x2x?x64xbf16>) bias(%b : memref<?x2x?xf32>) mask(%m : memref<?x?xi1>) outs(%o : memref<?x2x?x64xbf16>) {layout = #attic.causal, scale = 0.088 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// A [B,Nk] f16 bias is extended to f32.
// CHECK-LABEL: func.func @bias_2d
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<1x40xf16>
// CHECK-NEXT: arith.extf {{.*}} : f16 to f32
func.func @bias_2d(%q: memref<1x1x16x16xf16>, %k: memref<1x1x40x16xf16>, %v: memref<1x1x40x16xf16>, %b: memref<1x40xf16>, %o: memref<1x1x16x16xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x16x16xf16>, memref<1x1x40x16xf16>, memref<1x1x40x16xf16>) bias(%b : memref<1x40xf16>) outs(%o : memref<1x1x16x16xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}

// -----

// 128 keys per tile with D = Dv = 128 would take 70144 bytes of shared
// memory, more than the 48 KiB of static shared memory: the key tile is
// halved to 64 (36096 bytes) instead of giving up on the tensor cores.
// CHECK-LABEL: func.func @halved_key_tile
// CHECK: gpu.launch async
// CHECK-SAME: threads({{.*}}) in (%{{.*}} = %c256
// CHECK-SAME: workgroup(%{{.*}} : memref<64x68xvector<2xf16>, #gpu.address_space<workgroup>>, %{{.*}} : memref<128x36xvector<2xf16>, #gpu.address_space<workgroup>>, %{{.*}} : memref<32xvector<2xf32>, #gpu.address_space<workgroup>>)
// CHECK: nvgpu.mma.sync
func.func @halved_key_tile(%q: memref<1x2x64x128xf16>, %k: memref<1x2x64x128xf16>, %v: memref<1x2x64x128xf16>, %o: memref<1x2x64x128xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x128xf16>, memref<1x2x64x128xf16>, memref<1x2x64x128xf16>) outs(%o : memref<1x2x64x128xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 128 : i64, block_k = 128 : i64}
  return
}
