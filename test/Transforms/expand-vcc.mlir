// RUN: attic-opt %s --split-input-file --verify-diagnostics --attic-expand-vcc | FileCheck %s
// RUN: attic-opt %s --split-input-file --verify-diagnostics --attic-expand-vcc="parallel-scans=true" | FileCheck %s --check-prefix=PAR
// The result goes through the CPU pipeline down to the LLVM dialect.
// RUN: attic-opt %s --split-input-file --verify-diagnostics --attic-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// LLVM-LABEL: llvm.func @vip_order
// LLVM-LABEL: llvm.func @gather_rows
// LLVM-LABEL: llvm.func @build_materialize
// LLVM-NOT: attic.
// LLVM-NOT: tensor.
// LLVM-NOT: linalg.
// LLVM: omp.wsloop
// LLVM-LABEL: llvm.func @vcc_compress
// LLVM-LABEL: llvm.func @tree_update
// LLVM-LABEL: llvm.func @tree_select
// LLVM-NOT: attic.
// LLVM-NOT: tensor.

// Stable partition: per sequence, a count of the VIP tokens, a report to
// the runtime when it exceeds num_vip, then one loop that writes each
// token's row into perm and inverse.
// CHECK: func.func private @attic_rt_report_error(i32, i64, i64, i64)
// CHECK-LABEL: func.func @vip_order
// CHECK-SAME: (%[[VIP:.*]]: tensor<2x10xi1>)
// CHECK-NOT: attic.vip_order
// CHECK: %[[PERM:.*]] = tensor.empty() : tensor<2x10xi64>
// CHECK: %[[INV:.*]] = tensor.empty() : tensor<2x10xi64>
// CHECK: %[[OUT:.*]]:2 = scf.for %[[B:[a-z0-9_]+]] = {{.*}} iter_args({{.*}} = %[[PERM]], {{.*}} = %[[INV]]) -> (tensor<2x10xi64>, tensor<2x10xi64>)
// CHECK: %[[TOTAL:.*]] = scf.for {{.*}} -> (index)
// CHECK: tensor.extract %[[VIP]][%[[B]], {{.*}}] : tensor<2x10xi1>
// CHECK: %[[MANY:.*]] = arith.cmpi ugt, %[[TOTAL]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[MANY]] {
// CHECK-DAG: %[[CODE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[BI:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK-DAG: %[[COUNT:.*]] = arith.index_cast %[[TOTAL]] : index to i64
// CHECK-DAG: %[[LIMIT:.*]] = arith.constant 4 : i64
// CHECK: func.call @attic_rt_report_error(%[[CODE]], %[[BI]], %[[COUNT]], %[[LIMIT]])
// CHECK: scf.for %[[I:[a-z0-9_]+]] = {{.*}} -> (tensor<2x10xi64>, tensor<2x10xi64>, index)
// CHECK: %[[FLAG:.*]] = tensor.extract %[[VIP]][%[[B]], %[[I]]]
// CHECK: %[[ROW:.*]] = arith.select %[[FLAG]]
// CHECK: tensor.insert {{.*}}[%[[B]], %[[ROW]]] : tensor<2x10xi64>
// CHECK: tensor.insert {{.*}}[%[[B]], %[[I]]] : tensor<2x10xi64>
// CHECK: return %[[OUT]]#0, %[[OUT]]#1
// With parallel-scans (the GPU pipelines): no loop over a sequence; the
// chunk counts (one chunk of 64 here), the counts before each chunk, the
// totals, the reports (a loop over the sequences), then inverse and perm,
// every element on its own (linalg.generic, parallel loops after
// bufferization).
// PAR-LABEL: func.func @vip_order
// PAR-SAME: -> (tensor<2x10xi64>, tensor<2x10xi64>) {
// PAR-NOT: -> (tensor<2x10xi64>, tensor<2x10xi64>, index)
// PAR: %[[COUNTS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1xi64>)
// PAR: %[[BEFORE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1xi64>)
// PAR: %[[TOTAL:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2xi64>)
// PAR: scf.for
// PAR: %[[COUNT:.*]] = tensor.extract %[[TOTAL]]
// PAR: func.call @attic_rt_report_error(%{{.*}}, %{{.*}}, %[[COUNT]], %{{.*}})
// PAR: %[[INV:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x10xi64>)
// PAR: %[[PERM:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x10xi64>)
// PAR: return %[[PERM]], %[[INV]]
func.func @vip_order(%vip: tensor<2x10xi1>) -> (tensor<2x10xi64>, tensor<2x10xi64>) {
  %perm, %inverse = attic.vip_order %vip {num_vip = 4 : i64} : tensor<2x10xi1> -> tensor<2x10xi64>, tensor<2x10xi64>
  return %perm, %inverse : tensor<2x10xi64>, tensor<2x10xi64>
}

// -----

// One tensor.generate per gather; indices clamped to the rows of x.
// CHECK-LABEL: func.func @gather_rows
// CHECK-SAME: (%[[X:.*]]: tensor<2x10x16xbf16>, %[[MASK:.*]]: tensor<2x10xi1>, %[[IDX:.*]]: tensor<2x6xi64>)
// CHECK-NOT: attic.gather_rows
// CHECK: %[[ROWS:.*]] = tensor.generate
// CHECK-NEXT: ^bb0(%[[B:[a-z0-9_]+]]: index, %[[R:[a-z0-9_]+]]: index, %[[E:[a-z0-9_]+]]: index):
// CHECK: %[[I:.*]] = tensor.extract %[[IDX]][%[[B]], %[[R]]]
// CHECK: %[[LO:.*]] = arith.maxsi %[[I]], %{{.*}} : i64
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %{{.*}} : i64
// CHECK: %[[ROW:.*]] = arith.index_cast %[[HI]] : i64 to index
// CHECK: %[[V:.*]] = tensor.extract %[[X]][%[[B]], %[[ROW]], %[[E]]]
// CHECK: tensor.yield %[[V]] : bf16
// CHECK: } : tensor<2x6x16xbf16>
// CHECK: %[[KEEP:.*]] = tensor.generate
// CHECK: tensor.extract %[[MASK]]
// CHECK: tensor.yield %{{.*}} : i1
// CHECK: } : tensor<2x6xi1>
// CHECK: return %[[ROWS]], %[[KEEP]]
func.func @gather_rows(%x: tensor<2x10x16xbf16>, %mask: tensor<2x10xi1>, %idx: tensor<2x6xi64>) -> (tensor<2x6x16xbf16>, tensor<2x6xi1>) {
  %0 = attic.gather_rows %x[%idx] : tensor<2x10x16xbf16>, tensor<2x6xi64> -> tensor<2x6x16xbf16>
  %1 = attic.gather_rows %mask[%idx] : tensor<2x10xi1>, tensor<2x6xi64> -> tensor<2x6xi1>
  return %0, %1 : tensor<2x6x16xbf16>, tensor<2x6xi1>
}

// -----

// The tree is its components, built bottom-up with linalg.generic ops
// (no inputs, elements from linalg.index; parallel loops later): counts and means of the tokens (mask-aware), counts and
// count-weighted means per level (8 -> 4 -> 1 nodes), deltas, root. The
// tokens come back top-down in one tensor.generate, invalid rows 0.
// CHECK-LABEL: func.func @build_materialize
// CHECK-SAME: (%[[C:.*]]: tensor<2x8x4xf32>, %[[VALID:.*]]: tensor<2x8xi1>)
// CHECK-NOT: attic.
// CHECK: %[[COUNT0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8xf32>)
// CHECK: tensor.extract %[[VALID]]
// CHECK: %[[MEAN0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8x4xf32>)
// CHECK: tensor.extract %[[C]]
// CHECK: %[[COUNT1:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: tensor.extract %[[COUNT0]]
// CHECK: %[[MEAN1:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x4xf32>)
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: %[[COUNT2:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1xf32>)
// CHECK: %[[MEAN2:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1x4xf32>)
// CHECK: %[[DELTA0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8x4xf32>)
// CHECK: tensor.extract %[[MEAN1]]
// CHECK: tensor.extract %[[MEAN0]]
// CHECK: arith.subf
// CHECK: %[[DELTA1:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x4xf32>)
// CHECK: %[[ROOT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: tensor.extract %[[MEAN2]]
// CHECK: %[[LEVEL1:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x4xf32>)
// CHECK: tensor.extract %[[ROOT]]
// CHECK: tensor.extract %[[DELTA1]]
// CHECK: %[[TOKENS:.*]] = tensor.generate
// CHECK: tensor.extract %[[LEVEL1]]
// CHECK: tensor.extract %[[DELTA0]]
// CHECK: arith.subf
// CHECK: tensor.extract %[[VALID]]
// CHECK: arith.select
// CHECK: } : tensor<2x8x4xf32>
// CHECK: return %[[TOKENS]]
func.func @build_materialize(%c: tensor<2x8x4xf32>, %valid: tensor<2x8xi1>) -> tensor<2x8x4xf32> {
  %t = attic.tree_build %c, %valid : tensor<2x8x4xf32>, tensor<2x8xi1> -> !attic.tree<2x8x4xf32, fanouts = [2, 4]>
  %m = attic.tree_materialize %t : !attic.tree<2x8x4xf32, fanouts = [2, 4]> -> tensor<2x8x4xf32>
  return %m : tensor<2x8x4xf32>
}

// -----

// Compressed rows and key bias are tensor.generate: P rows as they are; a J
// row decodes its clamped global id (levels start at ids 8 and 12, the
// root is 12), walks down from the root subtracting deltas, and is 0 for an
// empty node; the bias is 0, log 2 = 0.693, log 8 = 2.079 or -inf.
// CHECK-LABEL: func.func @vcc_compress
// CHECK-SAME: %[[P:[^:]*]]: tensor<1x3x4xf32>, %[[J:[^:]*]]: tensor<1x6xi64>)
// CHECK-NOT: attic.
// CHECK: %[[SX:.*]] = tensor.generate
// CHECK: %[[ISP:.*]] = arith.cmpi ult
// CHECK: scf.if %[[ISP]] -> (f32)
// CHECK: tensor.extract %[[P]]
// CHECK: } else {
// CHECK: tensor.extract %[[J]]
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: arith.subf
// CHECK: arith.subf
// CHECK: arith.cmpf ogt
// CHECK: } : tensor<1x9x4xf32>
// CHECK: %[[BIAS:.*]] = tensor.generate
// CHECK-DAG: arith.constant 0.693147182 : f32
// CHECK-DAG: arith.constant 2.07944155 : f32
// CHECK-DAG: arith.constant 0xFF800000 : f32
// CHECK: } : tensor<1x9xf32>
// CHECK: return %[[SX]], %[[BIAS]]
func.func @vcc_compress(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>, %p: tensor<1x3x4xf32>, %j: tensor<1x6xi64>)
    -> (tensor<1x9x4xf32>, tensor<1x9xf32>) {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<1x3x4xf32>, !attic.tree<1x8x4xf32, fanouts = [2, 4]>, tensor<1x6xi64> -> tensor<1x9x4xf32>, tensor<1x9xf32>
  return %sx, %bias : tensor<1x9x4xf32>, tensor<1x9xf32>
}

// -----

// Algorithm 2 over the J nodes (fanouts [2, 2, 2]; after the built tree's
// means up to the root's, its deltas; scratch sums for levels 1 and 2,
// uninitialized, and a zeroed root sum): zero the sums of the
// ancestors, accumulate count * row, the new root, then rewrite the deltas
// of the J nodes and their ancestors in place (iter_args initialized with
// the built deltas). Materialize reads the new deltas.
// CHECK-LABEL: func.func @tree_update
// CHECK-SAME: %[[J:[^:]*]]: tensor<1x6xi64>, %[[Y:[^:]*]]: tensor<1x6x4xf32>)
// CHECK-NOT: attic.
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4xf32>)
// CHECK: %[[D0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x4xf32>)
// CHECK: %[[D1:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x4xf32>)
// CHECK: %[[D2:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x4xf32>)
// CHECK: %[[S1:.*]] = tensor.empty() : tensor<1x4x4xf32>
// CHECK: %[[S2:.*]] = tensor.empty() : tensor<1x2x4xf32>
// CHECK: %[[RS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// CHECK: %[[ZEROED:.*]]:2 = scf.for {{.*}} iter_args({{.*}} = %[[S1]], {{.*}} = %[[S2]])
// CHECK: scf.for {{.*}} to %c6
// CHECK: tensor.extract %[[J]]
// CHECK: scf.if
// CHECK: %[[SUMS:.*]]:3 = scf.for {{.*}} iter_args({{.*}} = %[[ZEROED]]#0, {{.*}} = %[[ZEROED]]#1, {{.*}} = %[[RS]])
// CHECK: tensor.extract %[[Y]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[ROOT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// CHECK: tensor.extract %[[SUMS]]#2
// CHECK: %[[DELTAS:.*]]:3 = scf.for {{.*}} iter_args({{.*}} = %[[D0]], {{.*}} = %[[D1]], {{.*}} = %[[D2]])
// CHECK: tensor.extract %[[SUMS]]#0
// CHECK: tensor.extract %[[ROOT]]
// CHECK: %[[LEVEL2:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x4xf32>)
// CHECK: tensor.extract %[[ROOT]]
// CHECK: tensor.extract %[[DELTAS]]#2
// CHECK: tensor.generate
// CHECK: tensor.extract %[[DELTAS]]#0
// With parallel-scans (the GPU pipelines), steps 1-2 and step 4 are each an
// scf.forall over (sequence, feature) = (1, 4) whose thread owns one column
// of the sums (the root sum's as tensor<1xf32>) or of the deltas and loops
// only over the 6 J nodes; nothing loops over the sequences or features.
// PAR-LABEL: func.func @tree_update
// PAR-SAME: %[[J:[^:]*]]: tensor<1x6xi64>, %[[Y:[^:]*]]: tensor<1x6x4xf32>)
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4xf32>)
// PAR: %[[D0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x4xf32>)
// PAR: %[[D1:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x4xf32>)
// PAR: %[[D2:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x4xf32>)
// PAR: %[[S1:.*]] = tensor.empty() : tensor<1x4x4xf32>
// PAR: %[[S2:.*]] = tensor.empty() : tensor<1x2x4xf32>
// PAR: %[[RS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// PAR: %[[SUMS:.*]]:3 = scf.forall (%[[B:.*]], %[[E:.*]]) in (1, 4) shared_outs(%[[O1:.*]] = %[[S1]], %[[O2:.*]] = %[[S2]], %[[OR:.*]] = %[[RS]])
// PAR: %[[C1:.*]] = tensor.extract_slice %[[O1]][%[[B]], 0, %[[E]]] [1, 4, 1] [1, 1, 1] : tensor<1x4x4xf32> to tensor<4xf32>
// PAR: %[[C2:.*]] = tensor.extract_slice %[[O2]][%[[B]], 0, %[[E]]] [1, 2, 1] [1, 1, 1] : tensor<1x2x4xf32> to tensor<2xf32>
// PAR: %[[CR:.*]] = tensor.extract_slice %[[OR]][%[[B]], %[[E]]] [1, 1] [1, 1] : tensor<1x4xf32> to tensor<1xf32>
// PAR-NOT: scf.forall
// PAR: %[[ZEROED:.*]]:2 = scf.for {{.*}} to %c6{{.*}} iter_args({{.*}} = %[[C1]], {{.*}} = %[[C2]]) -> (tensor<4xf32>, tensor<2xf32>)
// PAR: tensor.extract %[[J]][%[[B]],
// PAR: %[[ACC:.*]]:3 = scf.for {{.*}} to %c6{{.*}} iter_args({{.*}} = %[[ZEROED]]#0, {{.*}} = %[[ZEROED]]#1, {{.*}} = %[[CR]]) -> (tensor<4xf32>, tensor<2xf32>, tensor<1xf32>)
// PAR: tensor.extract %[[Y]][%[[B]], %{{.*}}, %[[E]]]
// PAR: scf.forall.in_parallel
// PAR-NEXT: tensor.parallel_insert_slice %[[ACC]]#0 into %[[O1]][%[[B]], 0, %[[E]]] [1, 4, 1] [1, 1, 1]
// PAR-NEXT: tensor.parallel_insert_slice %[[ACC]]#1 into %[[O2]][%[[B]], 0, %[[E]]] [1, 2, 1] [1, 1, 1]
// PAR-NEXT: tensor.parallel_insert_slice %[[ACC]]#2 into %[[OR]][%[[B]], %[[E]]] [1, 1] [1, 1]
// PAR: %[[ROOT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// PAR: tensor.extract %[[SUMS]]#2
// PAR: %[[DELTAS:.*]]:3 = scf.forall (%[[B2:.*]], %[[E2:.*]]) in (1, 4) shared_outs(%[[P0:.*]] = %[[D0]], %[[P1:.*]] = %[[D1]], %[[P2:.*]] = %[[D2]])
// PAR: scf.for {{.*}} to %c6{{.*}} -> (tensor<8xf32>, tensor<4xf32>, tensor<2xf32>)
// PAR: tensor.extract %[[SUMS]]#0
// PAR: tensor.extract %[[ROOT]][%[[B2]], %[[E2]]]
// PAR: scf.forall.in_parallel
// PAR-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[P0]][%[[B2]], 0, %[[E2]]] [1, 8, 1] [1, 1, 1]
// PAR: tensor.extract %[[DELTAS]]#2
// PAR: tensor.extract %[[DELTAS]]#0
func.func @tree_update(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>, %j: tensor<1x6xi64>, %y: tensor<1x6x4xf32>) -> tensor<1x8x4xf32> {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x6xi64>, tensor<1x6x4xf32> -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
  %m = attic.tree_materialize %t2 : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]> -> tensor<1x8x4xf32>
  return %m : tensor<1x8x4xf32>
}

// -----

// Algorithm 1 (fanouts [2, 2, 2], budgets [2, 2, 1]; ids: tokens 0..7,
// level 1 8..11, level 2 12..13, root 14). The root's candidate list,
// then per level a scan over the candidates that writes the children of the
// split ones and the kept ones' ids into J: levels 3 and 2 split every
// candidate without scores; level 1 (4 candidates, 2 split) is scored
// first: node means, LayerNorm statistics, keys (LN(mean) * gamma + beta,
// times W_k as one linalg.matmul; b_k is added with the logits), logits of the 2 heads x 3 P rows, softmax max and
// sum, scores, the top 2 (higher score, or equal and lower index). Its
// kept nodes go to J columns 4.. as 8 + index; the 4 tokens to columns 0..3.
// CHECK-LABEL: func.func @tree_select
// CHECK-SAME: %[[Q:[^:]*]]: tensor<1x2x3x2xf32>, %[[WK:[^:]*]]: tensor<4x4xf32>, %[[BK:[^:]*]]: tensor<4xf32>, %[[GAMMA:[^:]*]]: tensor<4xf32>, %[[BETA:[^:]*]]: tensor<4xf32>)
// CHECK-NOT: attic.
// CHECK: %[[J0:.*]] = tensor.empty() : tensor<1x6xi64>
// CHECK: %[[ROOT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1xi64>)
// CHECK: %[[L3:.*]]:2 = scf.for {{.*}} iter_args({{.*}} = %[[J0]], {{.*}}) -> (tensor<1x6xi64>, tensor<1x2xi64>)
// CHECK: tensor.extract %[[ROOT]]
// CHECK-NOT: scf.if
// CHECK: %[[L2:.*]]:2 = scf.for {{.*}} iter_args({{.*}} = %[[L3]]#0, {{.*}}) -> (tensor<1x6xi64>, tensor<1x4xi64>)
// CHECK: tensor.extract %[[L3]]#1
// CHECK-NOT: scf.if
// CHECK: %[[VALID:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xi1>)
// CHECK: tensor.extract %[[L2]]#1
// CHECK: %[[MEANS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<1x4x4xf32>)
// CHECK: linalg.index 0
// CHECK: tensor.extract %[[L2]]#1
// CHECK: tensor.extract %[[VALID]]
// CHECK: %[[MU:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// CHECK: tensor.extract %[[MEANS]]
// CHECK: %[[RSTD:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// CHECK: math.sqrt
// CHECK: %[[NORMED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x4xf32>)
// CHECK: tensor.extract %[[MEANS]]
// CHECK: tensor.extract %[[MU]]
// CHECK: tensor.extract %[[RSTD]]
// CHECK: tensor.extract %[[GAMMA]]
// CHECK: tensor.extract %[[BETA]]
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[NORMED]] {{\[\[}}0, 1], [2]] : tensor<1x4x4xf32> into tensor<4x4xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[PRODUCT:.*]] = linalg.matmul ins(%[[FLAT]], %[[WK]] : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[ZERO]] : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[KEYS:.*]] = tensor.expand_shape %[[PRODUCT]] {{\[\[}}0, 1], [2]] output_shape [1, 4, 4] : tensor<4x4xf32> into tensor<1x4x4xf32>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[LOGITS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x3x4xf32>)
// CHECK: tensor.extract %[[KEYS]]
// CHECK: tensor.extract %[[BK]]
// CHECK: tensor.extract %[[Q]]
// CHECK: arith.select {{.*}}, %{{.*}}, %[[NEGINF]] : f32
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x3xf32>)
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[NEGINF]]) -> (f32)
// CHECK: tensor.extract %[[LOGITS]]
// CHECK: arith.maximumf
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x3xf32>)
// CHECK: tensor.extract %[[MAX]]
// CHECK: math.exp
// CHECK: %[[SCORES:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// CHECK: tensor.extract %[[SUM]]
// A valid candidate whose score is NaN (overflowed logits) is reported:
// ATTIC_RT_VCC_SCORES = 16, the sequence, the level (1), the candidate.
// CHECK: tensor.extract %[[VALID]]
// CHECK: arith.cmpf uno
// CHECK: scf.if
// CHECK: arith.constant 16 : i32
// CHECK: func.call @attic_rt_report_error
// CHECK: linalg.yield
// Top 2 by a radix select: order-preserving i32 keys, the 2nd largest key
// (32 counting passes), then a scan that flags the keys above it and the
// first equal ones.
// CHECK: %[[ORDERED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xi32>)
// CHECK: tensor.extract %[[SCORES]]
// CHECK: arith.bitcast {{.*}} : f32 to i32
// CHECK: %[[THRESHOLD:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1xi32>)
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for {{.*}} to %[[C32]] {{.*}} -> (i32, i32, index)
// CHECK: tensor.extract %[[ORDERED]]
// CHECK: arith.cmpi eq
// CHECK: arith.cmpi uge
// CHECK: %[[SPLIT:.*]] = scf.for {{.*}} -> (tensor<1x4xi1>)
// CHECK: tensor.extract %[[THRESHOLD]]
// CHECK: arith.cmpi ugt
// CHECK: scf.for {{.*}} -> (tensor<1x4xi1>, index)
// CHECK: arith.cmpi ugt
// CHECK: arith.cmpi eq
// CHECK: arith.cmpi ult
// CHECK: tensor.insert {{.*}} : tensor<1x4xi1>
// CHECK: %[[L1:.*]]:2 = scf.for {{.*}} iter_args({{.*}} = %[[L2]]#0, {{.*}}) -> (tensor<1x6xi64>, tensor<1x4xi64>)
// CHECK: tensor.extract %[[SPLIT]]
// CHECK: scf.if %{{.*}} -> (tensor<1x6xi64>, tensor<1x4xi64>, index)
// CHECK: } else {
// CHECK: arith.constant 8 : i64
// CHECK: tensor.insert {{.*}} : tensor<1x6xi64>
// CHECK: %[[J:.*]] = scf.for {{.*}} iter_args({{.*}} = %[[L1]]#0) -> (tensor<1x6xi64>)
// CHECK: tensor.extract %[[L1]]#1
// CHECK: return %[[J]]
// With parallel-scans: the level's kept ids (2 of its 4 candidates here)
// and the tokens go into J as slices, each element found on its own.
// PAR-LABEL: func.func @tree_select
// The split flags of a level with few candidates (4 here, at most 4096):
// each candidate's rank, the candidates with a higher key or an equal key
// and a lower index (a loop over the 4), compared with the budget; no
// radix select.
// PAR-NOT: arith.shli
// PAR: %[[KEYS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xi32>)
// PAR: arith.bitcast {{.*}} : f32 to i32
// PAR-NOT: arith.shli
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xi1>)
// PAR: %[[KEY:.*]] = tensor.extract %[[KEYS]]
// PAR: %[[RANK:.*]] = scf.for %[[Y:.*]] = %{{.*}} to %c4 {{.*}} -> (index)
// PAR: %[[OTHER:.*]] = tensor.extract %[[KEYS]][%{{.*}}, %[[Y]]]
// PAR: arith.cmpi ugt, %[[OTHER]], %[[KEY]] : i32
// PAR: arith.cmpi eq, %[[OTHER]], %[[KEY]] : i32
// PAR: arith.cmpi ult, %[[Y]],
// PAR: arith.cmpi ult, %[[RANK]], %c2
// PAR-NOT: arith.shli
// PAR: %[[KEPT:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 4] [1, 2] [1, 1] : tensor<1x2xi64> into tensor<1x6xi64>
// PAR: %[[J:.*]] = tensor.insert_slice %{{.*}} into %[[KEPT]][0, 0] [1, 4] [1, 1] : tensor<1x4xi64> into tensor<1x6xi64>
// PAR: return %[[J]] : tensor<1x6xi64>
func.func @tree_select(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>, %q: tensor<1x2x3x2xf32>,
                       %wk: tensor<4x4xf32>, %bk: tensor<4xf32>, %gamma: tensor<4xf32>, %beta: tensor<4xf32>)
    -> tensor<1x6xi64> {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [2, 2, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x2x3x2xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x6xi64>
  return %j : tensor<1x6xi64>
}

// -----

// A tree carried through a loop (a stack of layers) and read inside an
// scf.if: upstream's 1:N structural type conversion replaces the iter_arg,
// the region's block argument, the yields and the loop's result by the
// 2L + 3 components (root, deltas of levels 0 and 1, counts of levels
// 0..2, validity).
// CHECK-LABEL: func.func @tree_in_loop
// CHECK-NOT: attic.
// CHECK: %[[LOOP:.*]]:7 = scf.for {{.*}} iter_args({{.*}}) -> (tensor<1x4xf32>, tensor<1x8x4xf32>, tensor<1x4x4xf32>, tensor<1x8xf32>, tensor<1x4xf32>, tensor<1x1xf32>, tensor<1x8xi1>)
// CHECK: scf.yield {{.*}} : tensor<1x4xf32>, tensor<1x8x4xf32>, tensor<1x4x4xf32>, tensor<1x8xf32>, tensor<1x4xf32>, tensor<1x1xf32>, tensor<1x8xi1>
// CHECK: scf.if
// CHECK: %[[LOOP]]#0
// CHECK-NOT: attic.
// CHECK: return
func.func @tree_in_loop(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>, %j: tensor<1x5xi64>,
                        %rows: tensor<1x5x4xf32>, %flag: i1) -> tensor<1x8x4xf32> {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %t) -> (!attic.tree<1x8x4xf32, fanouts = [2, 4]>) {
    %u = attic.tree_update %acc, %j, %rows
        : !attic.tree<1x8x4xf32, fanouts = [2, 4]>, tensor<1x5xi64>, tensor<1x5x4xf32> -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
    scf.yield %u : !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  }
  %m = scf.if %flag -> tensor<1x8x4xf32> {
    %x = attic.tree_materialize %r : !attic.tree<1x8x4xf32, fanouts = [2, 4]> -> tensor<1x8x4xf32>
    scf.yield %x : tensor<1x8x4xf32>
  } else {
    scf.yield %c : tensor<1x8x4xf32>
  }
  return %m : tensor<1x8x4xf32>
}

// -----

// A level with more candidates than the pairwise limit (4100 > 4096): the
// radix select, bitwise in one thread per sequence without parallel-scans;
// with it, 8 bits at a time (state [prefix, still needed] per sequence; per
// digit a histogram per chunk of 64 keys and digit value, its sum over the
// 65 chunks, the state's update), then the flag scan as independent
// elements: chunk counts of the keys above and equal to the threshold T,
// and each flag from them: above T, or equal with fewer than
// need = 3000 - #(above T) equal keys before it.
// CHECK-LABEL: func.func @tree_select_large
// CHECK: arith.shli
// CHECK: scf.for {{.*}} to %c4100
// CHECK-NOT: tensor<1x65xi64>
// PAR-LABEL: func.func @tree_select_large
// PAR: %[[KEYS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4100xi32>)
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2xi64>)
// PAR-COUNT-4: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x65x256xi64>)
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x256xi64>)
// PAR: %[[STATE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2xi64>)
// PAR: %[[T:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1xi32>)
// PAR: tensor.extract %[[STATE]]
// PAR: %[[ABOVE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x65xi64>)
// PAR: arith.cmpi ugt
// PAR: %[[ABOVE_BEFORE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x65xi64>)
// PAR: %[[SAME:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x65xi64>)
// PAR: arith.cmpi eq
// PAR: %[[SAME_BEFORE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x65xi64>)
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4100xi1>)
// PAR: tensor.extract %[[ABOVE]][%{{.*}}, %c64]
// PAR: tensor.extract %[[ABOVE_BEFORE]][%{{.*}}, %c64]
// PAR: %[[NEED:.*]] = arith.subi %c3000,
// PAR: tensor.extract %[[SAME_BEFORE]]
// PAR: %[[EQUAL_BEFORE:.*]] = scf.for
// PAR: arith.cmpi ult, %[[EQUAL_BEFORE]], %[[NEED]] : index
func.func @tree_select_large(%c: tensor<1x8200x4xf32>, %valid: tensor<1x8200xi1>, %q: tensor<1x2x3x2xf32>,
                             %wk: tensor<4x4xf32>, %bk: tensor<4xf32>, %gamma: tensor<4xf32>, %beta: tensor<4xf32>)
    -> tensor<1x7100xi64> {
  %t = attic.tree_build %c, %valid : tensor<1x8200x4xf32>, tensor<1x8200xi1> -> !attic.tree<1x8200x4xf32, fanouts = [2, 4100]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [3000, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<1x8200x4xf32, fanouts = [2, 4100]>, tensor<1x2x3x2xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x7100xi64>
  return %j : tensor<1x7100xi64>
}
