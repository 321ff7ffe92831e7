// RUN: attic-opt %s --split-input-file --attic-decompose | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-decompose=parallel-scans | FileCheck %s --check-prefix=PAR
// RUN: attic-opt %s --split-input-file --attic-decompose=iteration-loops=false | FileCheck %s --check-prefix=UNROLLED

// Skeinformer: the pilot rows are constants shared by the heads; the pilot
// queries attend to every key in the shared core with an lse destination;
// the pilot logits for the column norms by batch matmul; the Gumbel noise
// inline (Philox's multiplier 0xD2511F53); the top 16 keys per head in
// loops; the sampled keys and values gathered; one attention over the 16
// sampled keys and the fill key (bias ln(64 - 16) on key 16); the pilot
// rows selected in.
// CHECK-LABEL: func.func @skeinformer
// CHECK: %[[PILOT:.*]] = arith.constant dense<{{\[\[}}15, 40, 46, 55, 37, 45, 58, 13, 46, 61, 31, 0, 33, 21, 55, 54], [15, 40, 46, 55, 37, 45, 58, 13, 46, 61, 31, 0, 33, 21, 55, 54]]> : tensor<2x16xi64>
// CHECK: attic.gather_rows %{{.*}}[%[[PILOT]]] : tensor<2x64x16xf32>, tensor<2x16xi64> -> tensor<2x16x16xf32>
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x16x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32>) outs(%{{.*}} : tensor<1x2x16x8xf32>, lse %{{.*}} : tensor<1x2x16xf32>)
// CHECK: linalg.batch_matmul {{.*}} -> tensor<2x16x64xf32>
// CHECK: arith.mului_extended %{{.*}}, %c-766435501_i32 : i32
// CHECK: %[[PICKS:.*]] = scf.for {{.*}} -> (tensor<2x16xi64>)
// CHECK: attic.gather_rows %{{.*}}[%[[PICKS]]] : tensor<2x64x16xf32>, tensor<2x16xi64> -> tensor<2x16x16xf32>
// CHECK: attic.gather_rows %{{.*}}[%[[PICKS]]] : tensor<2x64x8xf32>, tensor<2x16xi64> -> tensor<2x16x8xf32>
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x17x16xf32>, tensor<1x2x17x8xf32>) bias(%{{.*}} : tensor<1x17xf32>)
// CHECK: linalg.generic
// CHECK-NOT: attic.skeinformer_attention
func.func @skeinformer(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) -> tensor<1x2x64x8xf32> {
  %o = attic.skeinformer_attention %q, %k, %v {samples = 16 : i64, seed = 7 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}

// -----

// The ablations: uniform sampling has no pilot (no lse attention), simple
// normalization no fill key; with every key sampled, no fill key either.
// CHECK-LABEL: func.func @skeinformer_ablations
// CHECK-NOT: lse
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x8xf32>) outs
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32>) outs
func.func @skeinformer_ablations(%q: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) -> (tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) {
  %a = attic.skeinformer_attention %q, %q, %v sampling uniform normalization simple {samples = 16 : i64, seed = 7 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
  %b = attic.skeinformer_attention %q, %q, %v sampling uniform {samples = 64 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
  return %a, %b : tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>
}

// -----

// Informer: the measure with inline key samples, the top u = 2 ceil(ln 64)
// = 10 queries per head, their exact attention over all keys, mean(V) for
// the rest.
// CHECK-LABEL: func.func @informer
// CHECK: arith.mului_extended
// CHECK: %[[ACTIVE:.*]] = scf.for {{.*}} -> (tensor<2x10xi64>)
// CHECK: attic.gather_rows %{{.*}}[%[[ACTIVE]]] : tensor<2x64x16xf32>, tensor<2x10xi64> -> tensor<2x10x16xf32>
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x10x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32>)
// CHECK-NOT: attic.informer_attention
// With parallel-scans (the GPU pipelines): each query's rank among the 64
// (the measures ahead of it: greater, or equal at a lower index; NaN never
// picked), then active query t is the one of rank t, and each query finds
// its slot among the 10: no loop over a row in one thread.
// PAR-LABEL: func.func @informer
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x64xi64>)
// PAR: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}} = %c0_i64) -> (i64)
// PAR: arith.cmpf ogt
// PAR: arith.cmpf oeq
// PAR: arith.cmpi ult
// PAR: arith.cmpf uno
// PAR: %[[ACTIVE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x10xi64>)
// PAR: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}} = %c-1_i64) -> (i64)
// PAR: attic.gather_rows %{{.*}}[%[[ACTIVE]]] : tensor<2x64x16xf32>, tensor<2x10xi64> -> tensor<2x10x16xf32>
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x64xi64>)
// PAR: scf.for %{{.*}} = %c0 to %c10 step %c1 iter_args(%{{.*}} = %c-1_i64) -> (i64)
// PAR-NOT: -> (tensor<2x64xi64>)
// PAR: return
func.func @informer(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x8xf32>) -> tensor<1x2x64x8xf32> {
  %o = attic.informer_attention %q, %k, %v {factor = 2 : i64, seed = 3 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}

// -----

// Every query active: exact attention, nothing sampled.
// CHECK-LABEL: func.func @informer_exact
// CHECK-NOT: mului_extended
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>)
func.func @informer_exact(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.informer_attention %q, %q, %q {active = 64 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// Linformer, one projection for the heads, the keys and the values: the
// keys (masked) and values copied to [Hp, N, B*H*D], one batch matmul each,
// attention over the 32 projected keys.
// CHECK-LABEL: func.func @linformer
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x32x128xf32>, tensor<1x128x32xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x32x128xf32>, tensor<1x128x16xf32>)
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x8xf32>)
// CHECK-NOT: attic.linformer_attention
func.func @linformer(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x8xf32>, %e: tensor<1x32x128xf32>, %m: tensor<1x128xi1>) -> tensor<1x2x64x8xf32> {
  %o = attic.linformer_attention %q, %k, %v projection(%e : tensor<1x32x128xf32>) mask(%m : tensor<1x128xi1>) : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}

// -----

// Nystromformer: W = attention(landmark queries, K, V) through the core,
// the 8 x 8 softmax, two pseudo-inverse iterations of four batch matmuls
// (an scf.for carrying Z; one copy each with iteration-loops=false, the
// GPU pipelines' form), Z W, attention(Q, landmark keys, Z W) through the
// core.
// CHECK-LABEL: func.func @nystrom
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x8x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32>)
// CHECK: linalg.batch_matmul
// CHECK: %[[Z:.*]] = scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%[[ZI:.*]] = %{{.*}}) -> (tensor<2x8x8xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %[[ZI]] : tensor<2x8x8xf32>, tensor<2x8x8xf32>)
// CHECK-COUNT-3: linalg.batch_matmul
// CHECK: scf.yield
// CHECK: linalg.batch_matmul ins(%[[Z]], %{{.*}} : tensor<2x8x8xf32>, tensor<2x8x8xf32>) {{.*}} -> tensor<2x8x8xf32>
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x8xf32>)
// CHECK-NOT: attic.nystrom_attention
// UNROLLED-LABEL: func.func @nystrom
// UNROLLED-NOT: scf.for %{{.*}} = %c0 to %c2 step
// UNROLLED-COUNT-9: linalg.batch_matmul
// UNROLLED: linalg.batch_matmul {{.*}} -> tensor<2x8x8xf32>
// UNROLLED: attic.block_attention
func.func @nystrom(%q: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) -> tensor<1x2x64x8xf32> {
  %o = attic.nystrom_attention %q, %q, %v {landmarks = 8 : i64, iterations = 2 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}

// -----

// Synthesizer: R1 and R2 broadcast over the batch as queries and keys of
// one causal attention with scale 1 and the key mask.
// CHECK-LABEL: func.func @synthesizer
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<3x2x64x8xf32>, tensor<3x2x64x8xf32>, tensor<3x2x64x16xf32>) mask(%{{.*}} : tensor<3x64xi1>) {{.*}}layout = #attic.causal{{.*}}scale = 1.000000e+00 : f32
func.func @synthesizer(%r1: tensor<2x64x8xf32>, %r2: tensor<2x64x8xf32>, %v: tensor<3x2x64x16xf32>, %m: tensor<3x64xi1>) -> tensor<3x2x64x16xf32> {
  %o = attic.synthesizer_attention %r1, %r2, %v mask(%m : tensor<3x64xi1>) {causal} : tensor<2x64x8xf32>, tensor<2x64x8xf32>, tensor<3x2x64x16xf32> -> tensor<3x2x64x16xf32>
  return %o : tensor<3x2x64x16xf32>
}
