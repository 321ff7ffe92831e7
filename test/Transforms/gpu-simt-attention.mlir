// RUN: attic-opt %s --split-input-file --attic-gpu-simt-attention | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-gpu-simt-attention="all=true" | FileCheck %s --check-prefix=ALL
// RUN: attic-opt %s --split-input-file --attic-gpu-simt-attention="chunk=8" | FileCheck %s --check-prefix=CHUNK8
// RUN: attic-opt %s --split-input-file --attic-gpu-simt-attention="all=true chunk=3" | FileCheck %s --check-prefix=NOSCRATCH

// Everything is lowered with all=true, and nothing allocates memory (the
// loops become GPU kernels): no attic op, no memref.alloc or alloca.
// NOSCRATCH-NOT: attic.
// NOSCRATCH-NOT: memref.alloc
// NOSCRATCH: func.func @dense_f32
// NOSCRATCH-NOT: attic.
// NOSCRATCH-NOT: memref.alloc

// Dense f32 (the tensor-core kernel has no f32 path), Dv = 16 = one chunk:
// a parallel loop over (batch, head, query row); per chunk of value columns
// a key loop carrying (m, l, acc_0..acc_15) in f32 iter_args around the dot
// product over D; admissible keys (logit != -inf) update the online softmax;
// the row is normalized with 0 for l == 0. No scratch memory, no attic op.
// CHECK-LABEL: func.func @dense_f32
// CHECK-SAME: (%[[Q:.*]]: memref<2x3x100x32xf32>, %[[K:.*]]: memref<2x3x70x32xf32>, %[[V:.*]]: memref<2x3x70x16xf32>, %[[O:.*]]: memref<2x3x100x16xf32>)
// CHECK-NOT: attic.block_attention
// CHECK-NOT: memref.alloc
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C70:.*]] = arith.constant 70 : index
// CHECK-DAG: %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.parallel (%[[B:.*]], %[[H:.*]], %[[I:.*]]) = (%[[C0]], %[[C0]], %[[C0]]) to (%{{.*}}, %{{.*}}, %[[C100]]) step (%[[C1]], %[[C1]], %[[C1]]) {
// CHECK: scf.for %[[COL:.*]] = %[[C0]] to %[[C16]] step %[[C16]] {
// CHECK: %[[ROW:.*]]:18 = scf.for %[[J:.*]] = %[[C0]] to %[[C70]] step %[[C1]] iter_args(%[[M:[a-z0-9_]+]] = %[[NEGINF]], %[[L:[a-z0-9_]+]] = %[[ZERO]], %[[ACC0:[a-z0-9_]+]] = %[[ZERO]], {{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK: %[[DOT:.*]] = scf.for %[[D:.*]] = %[[C0]] to %[[C32]] step %[[C1]] iter_args(%[[SUM:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: memref.load %[[Q]][%[[B]], %[[H]], %[[I]], %[[D]]]
// CHECK: memref.load %[[K]][%[[B]], %[[H]], %[[J]], %[[D]]]
// CHECK: arith.mulf
// CHECK: arith.addf %[[SUM]]
// CHECK: %[[S:.*]] = arith.mulf %[[DOT]], %[[SCALE]] : f32
// CHECK: %[[OK:.*]] = arith.cmpf une, %[[S]], %[[NEGINF]] : f32
// CHECK: scf.if %[[OK]] -> (f32, {{.*}}) {
// CHECK: %[[MNEW:.*]] = arith.maximumf %[[M]], %[[S]] : f32
// CHECK: %[[DM:.*]] = arith.subf %[[M]], %[[MNEW]] : f32
// CHECK: %[[ALPHA:.*]] = math.exp %[[DM]] : f32
// CHECK: %[[DS:.*]] = arith.subf %[[S]], %[[MNEW]] : f32
// CHECK: %[[P:.*]] = math.exp %[[DS]] : f32
// CHECK: %[[LA:.*]] = arith.mulf %[[L]], %[[ALPHA]] : f32
// CHECK: %[[LNEW:.*]] = arith.addf %[[LA]], %[[P]] : f32
// CHECK: %[[V0:.*]] = memref.load %[[V]][%[[B]], %[[H]], %[[J]], %[[COL]]]
// CHECK: %[[A0:.*]] = arith.mulf %[[ACC0]], %[[ALPHA]] : f32
// CHECK: %[[PV0:.*]] = arith.mulf %[[P]], %[[V0]] : f32
// CHECK: %[[ACC0NEW:.*]] = arith.addf %[[A0]], %[[PV0]] : f32
// CHECK: scf.yield %[[MNEW]], %[[LNEW]], %[[ACC0NEW]],
// CHECK: } else {
// CHECK: scf.yield %[[M]], %[[L]], %[[ACC0]],
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[ROW]]#1, %[[ZERO]] : f32
// CHECK: %[[DIV:.*]] = arith.divf %[[ROW]]#2, %[[ROW]]#1 : f32
// CHECK: %[[OUT0:.*]] = arith.select %[[POS]], %[[DIV]], %[[ZERO]] : f32
// CHECK: memref.store %[[OUT0]], %[[O]][%[[B]], %[[H]], %[[I]], %[[COL]]] : memref<2x3x100x16xf32>
// CHECK-NOT: scf.if
// CHECK: memref.store
// CHECK: scf.reduce
// CHECK-NOT: memref.alloca
// CHECK: return

// Two chunks of 8 columns; Dv = 16 needs no column guards.
// CHUNK8-LABEL: func.func @dense_f32
// CHUNK8: scf.for %{{.*}} = %{{.*}} to %c16 step %c8 {
// CHUNK8: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHUNK8-NOT: arith.minsi
// CHUNK8-NOT: scf.if %{{[0-9]+}} {
// CHUNK8: scf.reduce
func.func @dense_f32(%q: memref<2x3x100x32xf32>, %k: memref<2x3x70x32xf32>, %v: memref<2x3x70x16xf32>, %o: memref<2x3x100x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<2x3x100x32xf32>, memref<2x3x70x32xf32>, memref<2x3x70x16xf32>) outs(%o : memref<2x3x100x16xf32>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// f16 with D = Dv = 64 is the tensor-core kernel's: left alone unless
// all=true, which lowers it with f16 -> f32 loads and an f32 -> f16 store.
// CHECK-LABEL: func.func @f16_tensor_core
// CHECK: attic.block_attention
// CHECK-NOT: scf.parallel
// ALL-LABEL: func.func @f16_tensor_core
// ALL-NOT: attic.block_attention
// ALL: scf.parallel
// ALL: memref.load %{{.*}} : memref<1x2x64x64xf16>
// ALL-NEXT: arith.extf %{{.*}} : f16 to f32
// ALL: math.exp
// ALL: arith.select
// ALL-NEXT: arith.truncf %{{.*}} : f32 to f16
// ALL-NEXT: memref.store %{{.*}} : memref<1x2x64x64xf16>
// ALL-NOT: attic.block_attention
func.func @f16_tensor_core(%q: memref<1x2x64x64xf16>, %k: memref<1x2x64x64xf16>, %v: memref<1x2x64x64xf16>, %o: memref<1x2x64x64xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x64xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>) outs(%o : memref<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// f16 with a head dim the kernel does not take (40): lowered without all.
// CHECK-LABEL: func.func @f16_head_dim_40
// CHECK-NOT: attic.block_attention
// CHECK: scf.parallel
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @f16_head_dim_40(%q: memref<1x2x64x40xf16>, %k: memref<1x2x64x40xf16>, %v: memref<1x2x64x64xf16>, %o: memref<1x2x64x64xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x40xf16>, memref<1x2x64x40xf16>, memref<1x2x64x64xf16>) outs(%o : memref<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Causal (top-left): query row i sees keys 0..min(i, Nk-1), so the key loop
// ends at min(i + 1, Nk).
// CHECK-LABEL: func.func @causal
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C70:.*]] = arith.constant 70 : index
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[I:.*]]) =
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[C1]] : index
// CHECK: %[[KEND:.*]] = arith.minsi %[[I1]], %[[C70]] : index
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KEND]] step %[[C1]] iter_args(
func.func @causal(%q: memref<1x2x100x16xf32>, %k: memref<1x2x70x16xf32>, %v: memref<1x2x70x16xf32>, %o: memref<1x2x100x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x16xf32>, memref<1x2x70x16xf32>, memref<1x2x70x16xf32>) outs(%o : memref<1x2x100x16xf32>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}

// -----

// [B,Nk] bias (f16, extended to f32) added to the scaled logit.
// CHECK-LABEL: func.func @bias_per_batch
// CHECK-SAME: %[[BIAS:[^:]*]]: memref<2x50xf16>
// CHECK: scf.parallel (%[[B:.*]], %{{.*}}, %{{.*}}) =
// CHECK: scf.for %[[J:.*]] = {{.*}} iter_args(
// CHECK: %[[DOT:[0-9]+]] = scf.for
// CHECK: %[[S:.*]] = arith.mulf %[[DOT]], %{{.*}} : f32
// CHECK-NEXT: %[[BV:.*]] = memref.load %[[BIAS]][%[[B]], %[[J]]] : memref<2x50xf16>
// CHECK: %[[BF:.*]] = arith.extf %[[BV]] : f16 to f32
// CHECK: %[[SB:.*]] = arith.addf %[[S]], %[[BF]] : f32
// CHECK: arith.cmpf une, %[[SB]]
func.func @bias_per_batch(%q: memref<2x2x40x24xf16>, %k: memref<2x2x50x24xf16>, %v: memref<2x2x50x24xf16>, %bias: memref<2x50xf16>, %o: memref<2x2x40x24xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<2x2x40x24xf16>, memref<2x2x50x24xf16>, memref<2x2x50x24xf16>) bias(%bias : memref<2x50xf16>) outs(%o : memref<2x2x40x24xf16>) {layout = #attic.dense, scale = 0.2 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}

// -----

// [B,Hq,Nk] bias and a [B,Nk] mask: a masked key or a -inf logit leaves the
// state unchanged.
// CHECK-LABEL: func.func @bias_per_head_mask
// CHECK-SAME: %[[BIAS:[^:]*]]: memref<2x3x50xf32>, %[[MASK:[^:]*]]: memref<2x50xi1>
// CHECK: scf.parallel (%[[B:.*]], %[[H:.*]], %{{.*}}) =
// CHECK: scf.for %[[J:.*]] = {{.*}} iter_args(%[[M:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[L:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[ACC0:[a-z0-9_]+]] =
// CHECK: %[[BV:.*]] = memref.load %[[BIAS]][%[[B]], %[[H]], %[[J]]] : memref<2x3x50xf32>
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[BV]] : f32
// CHECK: %[[FINITE:.*]] = arith.cmpf une, %[[S]], %{{.*}} : f32
// CHECK: %[[KEEP:.*]] = memref.load %[[MASK]][%[[B]], %[[J]]] : memref<2x50xi1>
// CHECK: %[[OK:.*]] = arith.andi %[[FINITE]], %[[KEEP]] : i1
// CHECK: scf.if %[[OK]] -> (
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[M]], %[[L]], %[[ACC0]],
func.func @bias_per_head_mask(%q: memref<2x3x40x8xbf16>, %k: memref<2x3x50x8xbf16>, %v: memref<2x3x50x8xbf16>, %bias: memref<2x3x50xf32>, %mask: memref<2x50xi1>, %o: memref<2x3x40x8xbf16>) {
  attic.block_attention ins(%q, %k, %v : memref<2x3x40x8xbf16>, memref<2x3x50x8xbf16>, memref<2x3x50x8xbf16>) bias(%bias : memref<2x3x50xf32>) mask(%mask : memref<2x50xi1>) outs(%o : memref<2x3x40x8xbf16>) {layout = #attic.causal, scale = 0.5 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}

// -----

// Every dim dynamic: sizes from memref.dim; the last chunk may be partial,
// so value columns past the first of a chunk are loaded at min(c, Dv - 1)
// and stored under c < Dv.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[Q:.*]]: memref<?x?x?x?xf32>, %[[K:.*]]: memref<?x?x?x?xf32>, %[[V:.*]]: memref<?x?x?x?xf32>, %[[O:.*]]: memref<?x?x?x?xf32>)
// CHECK-DAG: %[[BATCHES:.*]] = memref.dim %[[Q]], %c0
// CHECK-DAG: %[[HEADS:.*]] = memref.dim %[[Q]], %c1
// CHECK-DAG: %[[NQ:.*]] = memref.dim %[[Q]], %c2
// CHECK-DAG: %[[D:.*]] = memref.dim %[[Q]], %c3
// CHECK-DAG: %[[NK:.*]] = memref.dim %[[K]], %c2
// CHECK-DAG: %[[DV:.*]] = memref.dim %[[V]], %c3
// CHECK-DAG: %[[LAST:.*]] = arith.subi %[[DV]], %c1 : index
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%[[BATCHES]], %[[HEADS]], %[[NQ]])
// CHECK: scf.for %[[COL:.*]] = %c0 to %[[DV]] step %c16 {
// CHECK: %[[COL1:.*]] = arith.addi %[[COL]], %c1 : index
// CHECK: %[[LCOL1:.*]] = arith.minsi %[[COL1]], %[[LAST]] : index
// CHECK: scf.for %[[J:.*]] = %c0 to %[[NK]] step %c1 iter_args(
// CHECK: scf.for %{{.*}} = %c0 to %[[D]] step %c1 iter_args(
// CHECK: memref.load %[[V]][%{{.*}}, %{{.*}}, %[[J]], %[[COL]]]
// CHECK: memref.load %[[V]][%{{.*}}, %{{.*}}, %[[J]], %[[LCOL1]]]
// CHECK: memref.store %{{.*}}, %[[O]][%{{.*}}, %{{.*}}, %{{.*}}, %[[COL]]]
// CHECK: %[[IN1:.*]] = arith.cmpi slt, %[[COL1]], %[[DV]] : index
// CHECK-NEXT: scf.if %[[IN1]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[O]][%{{.*}}, %{{.*}}, %{{.*}}, %[[COL1]]]
func.func @dynamic(%q: memref<?x?x?x?xf32>, %k: memref<?x?x?x?xf32>, %v: memref<?x?x?x?xf32>, %o: memref<?x?x?x?xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%o : memref<?x?x?x?xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}

// -----

// Dv = 20 with chunks of 16: the second chunk has 4 columns, so loads are
// clamped to column 19 and stores guarded by c < 20. Dv = 5 < chunk: one
// chunk of exactly 5 columns (7 iter_args), no guards.
// CHECK-LABEL: func.func @partial_chunk
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C19:.*]] = arith.constant 19 : index
// CHECK-DAG: %[[C20:.*]] = arith.constant 20 : index
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %[[C20]] step %[[C16]] {
// CHECK: %[[COL15:.*]] = arith.addi %[[COL]], %c15 : index
// CHECK: %[[LCOL15:.*]] = arith.minsi %[[COL15]], %[[C19]] : index
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[LCOL15]]] : memref<1x2x30x20xf32>
// CHECK: %[[IN15:.*]] = arith.cmpi slt, %[[COL15]], %[[C20]] : index
// CHECK-NEXT: scf.if %[[IN15]] {
// CHECK-NEXT: memref.store %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[COL15]]] : memref<1x2x30x20xf32>
// CHECK-LABEL: func.func @narrow_value
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5 step %c5 {
// CHECK: iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NOT: arith.minsi
// CHECK-NOT: scf.if %{{[0-9]+}} {
// CHECK: scf.reduce
func.func @partial_chunk(%q: memref<1x2x30x8xf32>, %k: memref<1x2x30x8xf32>, %v: memref<1x2x30x20xf32>, %o: memref<1x2x30x20xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x30x8xf32>, memref<1x2x30x8xf32>, memref<1x2x30x20xf32>) outs(%o : memref<1x2x30x20xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}
func.func @narrow_value(%q: memref<1x2x30x8xf32>, %k: memref<1x2x30x8xf32>, %v: memref<1x2x30x5xf32>, %o: memref<1x2x30x5xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x30x8xf32>, memref<1x2x30x8xf32>, memref<1x2x30x5xf32>) outs(%o : memref<1x2x30x5xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}
