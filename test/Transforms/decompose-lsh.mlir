// RUN: attic-opt %s --split-input-file --attic-decompose | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-decompose --attic-lower-state | FileCheck %s --check-prefix=LOWER
// RUN: attic-opt %s --split-input-file --attic-decompose=parallel-scans --attic-lower-state=parallel-scans | FileCheck %s --check-prefix=PAR

// Two rounds: per round a hash with its own rotations, a sort, the sorted
// queries and the window keys and values gathered, one block_attention
// over the block-diagonal windows with the lse destination (mask region:
// padding and causal on original positions; score region: the self-key
// logit -1e5), the output and lse gathered back; then the merge.
// CHECK-LABEL: func.func @two_rounds
// CHECK-DAG: %[[R0:.*]] = arith.constant dense<{{.*}}> : tensor<16x2xf32>
// CHECK-DAG: %[[R1:.*]] = arith.constant dense<{{.*}}> : tensor<16x2xf32>
// CHECK: attic.lsh_hash %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<16x2xf32> -> tensor<1x2x64xi64>
// CHECK: attic.bucket_sort %{{.*}} {num_buckets = 4 : i64}
// CHECK: attic.gather_rows %{{.*}} : tensor<2x64x16xf32>, tensor<2x64xi64> -> tensor<2x64x16xf32>
// CHECK: attic.gather_rows %{{.*}} : tensor<2x64x16xf32>, tensor<2x128xi64> -> tensor<2x128x16xf32>
// CHECK: attic.gather_rows %{{.*}} : tensor<2x64x16xf32>, tensor<2x128xi64> -> tensor<2x128x16xf32>
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>) captures(%{{.*}}, %{{.*}} : tensor<1x2x128xi64>, tensor<1x2x64xi64>) outs(%{{.*}} : tensor<1x2x64x16xf32>, lse %{{.*}} : tensor<1x2x64xf32>) mask_mod {
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sle
// CHECK: attic.yield %{{.*}} : i1
// CHECK: } score_mod {
// CHECK: arith.constant -1.000000e+05 : f32
// CHECK: arith.cmpi eq
// CHECK: attic.yield %{{.*}} : f32
// CHECK: } {block_k = 16 : i64, block_q = 8 : i64, layout = #attic.block_diagonal<query = 8, key = 16>, scale = 2.500000e-01 : f32}
// CHECK: attic.gather_rows %{{.*}} : tensor<2x64x16xf32>, tensor<2x64xi64> -> tensor<2x64x16xf32>
// CHECK: attic.gather_rows %{{.*}} : tensor<2x64xf32>, tensor<2x64xi64> -> tensor<2x64xf32>
// CHECK: attic.lsh_hash
// CHECK: attic.block_attention
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: math.exp
// CHECK: arith.divf
// CHECK-NOT: attic.lsh_attention
// LOWER-LABEL: func.func @two_rounds
// LOWER-NOT: attic.lsh_hash
// LOWER-NOT: attic.bucket_sort
// LOWER: linalg.matmul
// LOWER: scf.for
// LOWER: attic.block_attention
// With parallel-scans (the GPU pipelines) the sort has no loop over a row:
// the tokens of each chunk of 64 in each of the 4 buckets, a column scan
// over the one chunk per (row, bucket), each bucket's tokens and a scan
// over the buckets per row (each bucket's first row; each bucket summed
// the ones below it before 2026-12-02: buckets^2 / 2 steps), each
// token's row, and the scatter of perm.
// PAR-LABEL: func.func @two_rounds
// PAR-NOT: attic.bucket_sort
// PAR: linalg.matmul
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1x4xi64>)
// PAR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %c0_i64{{.*}}) -> (i64)
// PAR: scf.forall (%{{.*}}, %{{.*}}) in (2, 4) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x1x4xi64>)
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x1xi64>)
// PAR: scf.forall (%{{.*}}, %{{.*}}) in (2, 1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x4x1xi64>)
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x64xi64>)
// PAR: scf.forall (%[[ROW:.*]], %[[TOKEN:.*]]) in (2, 64) shared_outs(%[[PERM:.*]] = %{{.*}}) -> (tensor<2x64xi64>)
// PAR: %[[SLOT:.*]] = tensor.extract_slice %[[PERM]][%[[ROW]], %[[AT:.*]]] [1, 1] [1, 1] : tensor<2x64xi64> to tensor<1xi64>
// PAR: tensor.parallel_insert_slice %{{.*}} into %[[PERM]][%[[ROW]], %[[AT]]] [1, 1] [1, 1] : tensor<1xi64> into tensor<2x64xi64>
// PAR: attic.block_attention
func.func @two_rounds(%qk: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %m: tensor<1x64xi1>) -> tensor<1x2x64x16xf32> {
  %o = attic.lsh_attention %qk, %v mask(%m : tensor<1x64xi1>) {buckets = 4 : i64, rounds = 2 : i64, chunk = 8 : i64, seed = 3 : i64, causal} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// One bucket and one round: no hash (all zeros), no lse, no merge, no mask
// region (no padding, not causal).
// CHECK-LABEL: func.func @one_bucket
// CHECK-NOT: attic.lsh_hash
// CHECK: linalg.fill
// CHECK: attic.bucket_sort %{{.*}} {num_buckets = 1 : i64}
// CHECK: attic.block_attention
// CHECK-NOT: mask_mod
// CHECK-SAME: outs(%{{.*}} : tensor<1x1x32x8xf32>) score_mod
// CHECK: layout = #attic.block_diagonal<query = 32, key = 64>
// CHECK: attic.gather_rows
// CHECK-NOT: math.exp
// CHECK: return
func.func @one_bucket(%qk: tensor<1x1x32x8xf32>) -> tensor<1x1x32x8xf32> {
  %o = attic.lsh_attention %qk, %qk {buckets = 1 : i64, chunk = 32 : i64} : tensor<1x1x32x8xf32>, tensor<1x1x32x8xf32> -> tensor<1x1x32x8xf32>
  return %o : tensor<1x1x32x8xf32>
}
