// Node ids and row indices are not checked at runtime (docs of
// attic.vcc_compress, attic.tree_update, attic.gather_rows): the lowering
// clamps them, so a J that is not a partition (repeated nodes, overlapping
// nodes, ids below 0 or past the last node) or a row index out of range
// gives unspecified values but never an access out of bounds. The compiled
// code runs to the end (unspecified values may be NaN, which attic-run would
// report: --allow-non-finite); the reference semantics reject the same J
// with one clear line.
// RUN: attic-run %s --entry=bad_nodes --mask-keep=0.5 --allow-non-finite | FileCheck %s
// RUN: attic-run %s --entry=bad_nodes --mask-keep=1 --seed=3 --allow-non-finite | FileCheck %s
// RUN: attic-run %s --entry=bad_rows --allow-non-finite | FileCheck %s --check-prefix=ROWS
// RUN: not attic-run %s --entry=bad_nodes --check 2>&1 | FileCheck %s --check-prefix=REF
// RUN: attic-run %s --entry=bad_partition --mask-keep=0.5 --allow-non-finite | FileCheck %s --check-prefix=PARTEXEC
// RUN: not attic-run %s --entry=bad_partition --check 2>&1 | FileCheck %s --check-prefix=PART
// RUN: not attic-run %s --entry=bad_rows --check 2>&1 | FileCheck %s --check-prefix=REFROWS

// CHECK: @bad_nodes: compiled for the CPU
// CHECK: heap:
// PARTEXEC: @bad_partition: compiled for the CPU
// PARTEXEC: heap:
// ROWS: @bad_rows: compiled for the CPU
// ROWS: heap:
// REF: attic-run: error: reference: 'attic.vcc_compress': nodes[0, 2] is -7 (expected a node id in 0..20)
// PART: attic-run: error: reference: 'attic.tree_update': updateTree: J is not a partition: token 4 is covered by J[0] = (level 0, index 4) and by J[4] = (level 1, index 1)
// REFROWS: attic-run: error: reference: 'attic.gather_rows': indices[0, 0] is -1 (expected a row of x in 0..9; the compiled code clamps it to the nearest row)

// Fanouts [4, 4]: ids are tokens 0..15, blocks 16..19, root 20.
func.func @bad_nodes(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %p: tensor<2x2x8xf32>, %y: tensor<2x6x8xf32>)
    -> (tensor<2x8x8xf32>, tensor<2x8xf32>, tensor<2x16x8xf32>, tensor<2x8x8xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [4, 4]>
  %j = arith.constant dense<[[1, 1, -7, 20, 21, 9223372036854775807],
                             [-9223372036854775808, 19, 16, 17, 3, 1000]]> : tensor<2x6xi64>
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x2x8xf32>, !attic.tree<2x16x8xf32, fanouts = [4, 4]>, tensor<2x6xi64> -> tensor<2x8x8xf32>, tensor<2x8xf32>
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x16x8xf32, fanouts = [4, 4]>, tensor<2x6xi64>, tensor<2x6x8xf32> -> !attic.tree<2x16x8xf32, fanouts = [4, 4]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x16x8xf32, fanouts = [4, 4]> -> tensor<2x16x8xf32>
  %sx2, %bias2 = attic.vcc_compress %p, %t2, %j : tensor<2x2x8xf32>, !attic.tree<2x16x8xf32, fanouts = [4, 4]>, tensor<2x6xi64> -> tensor<2x8x8xf32>, tensor<2x8xf32>
  return %sx, %bias, %m, %sx2 : tensor<2x8x8xf32>, tensor<2x8xf32>, tensor<2x16x8xf32>, tensor<2x8x8xf32>
}

// Ids in range, but overlapping (block 1 and its tokens 4..7) and missing
// tokens (8..11).
func.func @bad_partition(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %y: tensor<2x7x8xf32>)
    -> tensor<2x16x8xf32> {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [4, 4]>
  %j = arith.constant dense<[[4, 5, 6, 7, 17, 16, 19], [4, 5, 6, 7, 17, 16, 19]]> : tensor<2x7xi64>
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x16x8xf32, fanouts = [4, 4]>, tensor<2x7xi64>, tensor<2x7x8xf32> -> !attic.tree<2x16x8xf32, fanouts = [4, 4]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x16x8xf32, fanouts = [4, 4]> -> tensor<2x16x8xf32>
  return %m : tensor<2x16x8xf32>
}

func.func @bad_rows(%x: tensor<2x10x4xf32>, %mask: tensor<2x10xi1>) -> (tensor<2x5x4xf32>, tensor<2x5xi1>) {
  %idx = arith.constant dense<[[-1, 10, 3, 9223372036854775807, -9223372036854775808], [0, 9, 11, 100, 5]]> : tensor<2x5xi64>
  %rows = attic.gather_rows %x[%idx] : tensor<2x10x4xf32>, tensor<2x5xi64> -> tensor<2x5x4xf32>
  %keep = attic.gather_rows %mask[%idx] : tensor<2x10xi1>, tensor<2x5xi64> -> tensor<2x5xi1>
  return %rows, %keep : tensor<2x5x4xf32>, tensor<2x5xi1>
}
