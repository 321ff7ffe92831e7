// RUN: attic-opt %s --split-input-file --attic-decompose | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-decompose --attic-lower-state | FileCheck %s --check-prefix=LOWER
// RUN: attic-opt %s --split-input-file --attic-decompose=parallel-scans --attic-lower-state=parallel-scans | FileCheck %s --check-prefix=PAR

// Two rounds, in an scf.for over the rounds (the IR of one round): the
// rotations of both rounds one constant, round r's rows [16 r, 16 r + 16)
// sliced from it; per round a hash, a sort, the sorted queries and the
// window keys and values gathered, one block_attention over the
// block-diagonal windows with the lse destination (mask region: padding
// and causal on original positions; score region: the self-key logit
// -1e5), the output and lse gathered back, and the online merge (a running
// maximum, numerator and denominator; the two factors exp(m - m') and
// exp(lse - m') once per row, the numerator updated in place); after the
// loop the quotient, 0 where no round saw a key.
// CHECK-LABEL: func.func @two_rounds
// CHECK: %[[R:.*]] = arith.constant dense<[{{\[}}-1.88771462, 1.20015299], {{.*}}> : tensor<32x2xf32>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[TOP0:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<2x64xf32>)
// CHECK: %[[LOOP:.*]]:3 = scf.for %[[ROUND:.*]] = %c0 to %c2 step %c1 iter_args(%[[TOP:.*]] = %[[TOP0]], %[[NUM:.*]] = %{{.*}}, %[[DEN:.*]] = %{{.*}}) -> (tensor<2x64xf32>, tensor<2x64x16xf32>, tensor<2x64xf32>)
// CHECK: %[[ROW:.*]] = arith.muli %[[ROUND]], %c16
// CHECK: %[[ROTATION:.*]] = tensor.extract_slice %[[R]][%[[ROW]], 0] [16, 2] [1, 1] : tensor<32x2xf32> to tensor<16x2xf32>
// CHECK: attic.lsh_hash %{{.*}}, %[[ROTATION]] : tensor<1x2x64x16xf32>, tensor<16x2xf32> -> tensor<1x2x64xi64>
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
// CHECK: %[[OUT:.*]] = attic.gather_rows %{{.*}} : tensor<2x64x16xf32>, tensor<2x64xi64> -> tensor<2x64x16xf32>
// CHECK: %[[LSE:.*]] = attic.gather_rows %{{.*}} : tensor<2x64xf32>, tensor<2x64xi64> -> tensor<2x64xf32>
// CHECK: %[[NEWTOP:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK: %[[KEEP:.*]] = linalg.generic
// CHECK: tensor.extract %[[TOP]]
// CHECK: tensor.extract %[[LSE]]
// CHECK: math.exp
// CHECK: %[[WEIGHT:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: %[[NEWNUM:.*]] = linalg.generic {{.*}} ins(%[[OUT]], %[[KEEP]], %[[WEIGHT]] : tensor<2x64x16xf32>, tensor<2x64xf32>, tensor<2x64xf32>) outs(%[[NUM]] : tensor<2x64x16xf32>)
// CHECK-NOT: math.exp
// CHECK: %[[NEWDEN:.*]] = linalg.generic
// CHECK: tensor.extract %[[DEN]]
// CHECK: scf.yield %[[NEWTOP]], %[[NEWNUM]], %[[NEWDEN]]
// CHECK-NOT: attic.lsh_hash
// CHECK: linalg.generic
// CHECK: tensor.extract %[[LOOP]]#2
// CHECK: tensor.extract %[[LOOP]]#1
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

// iteration-loops=false (the GPU pipelines, which launch kernels from
// straight-line host code): one copy per round, each with its own
// rotations, and no loop.
// RUN: attic-opt %s --split-input-file --attic-decompose=iteration-loops=false | FileCheck %s --check-prefix=UNROLLED
// UNROLLED-LABEL: func.func @two_rounds
// UNROLLED-NOT: scf.for
// UNROLLED-DAG: %[[R1:.*]] = arith.constant dense<{{.*}}> : tensor<16x2xf32>
// UNROLLED-DAG: %[[R0:.*]] = arith.constant dense<[{{\[}}-1.88771462, 1.20015299], {{.*}}> : tensor<16x2xf32>
// UNROLLED: attic.lsh_hash %{{.*}}, %[[R0]]
// UNROLLED: attic.block_attention
// UNROLLED: attic.lsh_hash %{{.*}}, %[[R1]]
// UNROLLED: attic.block_attention
// The rounds merged at the end in one pass (one kernel on the GPU).
// UNROLLED: linalg.generic
// UNROLLED: arith.maximumf
// UNROLLED: math.exp
// UNROLLED: math.exp
// UNROLLED: arith.divf
// UNROLLED-LABEL: func.func @one_bucket
// UNROLLED-NOT: scf.for

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
