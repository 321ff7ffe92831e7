// The VCC ops compiled by attic-cpu-pipeline (attic-expand-vcc, then
// bufferization) against their reference semantics (attic::ref::vcc, one
// sequence at a time; attic-run --check exits 1 when a result differs).
// Each function is a file of its own (split-file), so that every run
// compiles only the function it checks.
// RUN: rm -rf %t && split-file %s %t

// CHECK: compiled for {{.+}}
// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok

// tree_build + tree_materialize: C comes back, invalid rows 0.
// RUN: attic-run %t/round_trip.mlir --entry=round_trip --check --mask-keep=0.7 | FileCheck %s
// RUN: attic-run %t/round_trip.mlir --entry=round_trip --check --mask-keep=0.2 --seed=5 | FileCheck %s
// RUN: attic-run %t/round_trip_binary.mlir --entry=round_trip_binary --check --mask-keep=0.6 | FileCheck %s
// RUN: attic-run %t/round_trip_binary.mlir --entry=round_trip_binary --check --mask-keep=0 | FileCheck %s
//--- round_trip.mlir
func.func @round_trip(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>) -> tensor<2x32x16xf32> {
  %t = attic.tree_build %c, %valid : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %m = attic.tree_materialize %t : !attic.tree<2x32x16xf32, fanouts = [4, 8]> -> tensor<2x32x16xf32>
  return %m : tensor<2x32x16xf32>
}

//--- round_trip_binary.mlir
func.func @round_trip_binary(%c: tensor<3x16x8xf32>, %valid: tensor<3x16xi1>) -> tensor<3x16x8xf32> {
  %t = attic.tree_build %c, %valid : tensor<3x16x8xf32>, tensor<3x16xi1> -> !attic.tree<3x16x8xf32, fanouts = [2, 2, 2, 2]>
  %m = attic.tree_materialize %t : !attic.tree<3x16x8xf32, fanouts = [2, 2, 2, 2]> -> tensor<3x16x8xf32>
  return %m : tensor<3x16x8xf32>
}

// tree_build + vcc_compress with the two-resolution J of fanouts [4, 8]
// (budgets [2, 1]: 2 of the 8 blocks split into tokens, |J| = 8 + 6; ids:
// tokens 0..31, blocks 32..39, root 40). With every token valid the key
// bias is finite (0 and log 4, log 1); with padding, empty nodes get -inf,
// which the check compares as equal -inf, and which is no overflow: a
// returned bias with -inf passes (attic-run failed the run for it with
// "non-finite values although every input is finite" before 2026-12-02,
// an audit). The bias also goes to attention over the compressed rows (a
// -inf key is dropped, any other value is not).
// RUN: attic-run %t/compress_two_level.mlir --entry=compress_two_level --check --mask-keep=1 | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: attic-run %t/compress_two_level.mlir --entry=compress_two_level --check --mask-keep=0.3 --output=%t/sx.npy --output=%t/bias.npy | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: %python -c "import numpy as np; b = np.load('%t/bias.npy'); print(bool(np.isneginf(b).any()), int(np.isnan(b).sum()))" | FileCheck %s --check-prefix=NEGINF
// NEGINF: True 0
// RUN: attic-run %t/compress_two_level_attention.mlir --entry=compress_two_level_attention --check --mask-keep=0.3 | FileCheck %s --check-prefixes=CHECK,TWOATT
// RUN: attic-run %t/compress_two_level_attention.mlir --entry=compress_two_level_attention --check --mask-keep=0.8 --seed=9 | FileCheck %s --check-prefixes=CHECK,TWOATT
// TWO: check: result #1 (2x17 f32): {{.*}}: ok
// TWOATT: check: result #1 (2x1x17x16 f32): {{.*}}: ok
//--- compress_two_level.mlir
func.func @compress_two_level(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>, %p: tensor<2x3x16xf32>)
    -> (tensor<2x17x16xf32>, tensor<2x17xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %j = arith.constant dense<[[4, 5, 6, 7, 24, 25, 26, 27, 32, 34, 35, 36, 37, 39],
                             [0, 1, 2, 3, 28, 29, 30, 31, 33, 34, 35, 36, 37, 38]]> : tensor<2x14xi64>
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64> -> tensor<2x17x16xf32>, tensor<2x17xf32>
  return %sx, %bias : tensor<2x17x16xf32>, tensor<2x17xf32>
}

//--- compress_two_level_attention.mlir
func.func @compress_two_level_attention(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>, %p: tensor<2x3x16xf32>)
    -> (tensor<2x17x16xf32>, tensor<2x1x17x16xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %j = arith.constant dense<[[4, 5, 6, 7, 24, 25, 26, 27, 32, 34, 35, 36, 37, 39],
                             [0, 1, 2, 3, 28, 29, 30, 31, 33, 34, 35, 36, 37, 38]]> : tensor<2x14xi64>
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64> -> tensor<2x17x16xf32>, tensor<2x17xf32>
  %x = tensor.expand_shape %sx [[0], [1, 2], [3]] output_shape [2, 1, 17, 16] : tensor<2x17x16xf32> into tensor<2x1x17x16xf32>
  %o = attic.attention %x, %x, %x bias(%bias : tensor<2x17xf32>) : tensor<2x1x17x16xf32>, tensor<2x1x17x16xf32>, tensor<2x1x17x16xf32> -> tensor<2x1x17x16xf32>
  return %sx, %o : tensor<2x17x16xf32>, tensor<2x1x17x16xf32>
}

// The VCC authors' epsilons (mean_eps on tree_build and tree_update,
// bias_eps on vcc_compress; large values here so that they matter): the
// biases, the materialized tokens after an update, and the block means
// after it (a second vcc_compress over all 8 blocks, two of them
// recomputed by tree_update), against the reference with the same
// epsilons; the same function without them gives other numbers.
// RUN: attic-run %t/eps_layer.mlir --entry=eps_layer --check --mask-keep=0.8 | FileCheck %s --check-prefix=EPS
// RUN: attic-run %t/eps_layer.mlir --entry=eps_layer --check --mask-keep=1 --seed=3 --target=cuda-emulated | FileCheck %s --check-prefix=EPS
// RUN: attic-run %t/eps_layer.mlir --entry=eps_layer --mask-keep=1 --seed=3 --output=%t/eps.npy --output=%t/eps_m.npy --output=%t/eps_sx.npy
// RUN: sed 's/ {[a-z_]*eps = [^}]*}//' %t/eps_layer.mlir > %t/no_eps.mlir
// RUN: attic-run %t/no_eps.mlir --entry=eps_layer --mask-keep=1 --seed=3 --output=%t/no.npy --output=%t/no_m.npy --output=%t/no_sx.npy
// RUN: not cmp -s %t/eps.npy %t/no.npy
// RUN: not cmp -s %t/eps_sx.npy %t/no_sx.npy
// EPS: check: result #0 (2x17x16 f32): {{.*}}: ok
// EPS: check: result #1 (2x32x16 f32): {{.*}}: ok
// EPS: check: result #2 (2x11x16 f32): {{.*}}: ok
//--- eps_layer.mlir
func.func @eps_layer(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>, %p: tensor<2x3x16xf32>)
    -> (tensor<2x17x16xf32>, tensor<2x32x16xf32>, tensor<2x11x16xf32>) {
  %t = attic.tree_build %c, %valid {mean_eps = 5.000000e-01 : f32} : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %j = arith.constant dense<[[4, 5, 6, 7, 24, 25, 26, 27, 32, 34, 35, 36, 37, 39],
                             [0, 1, 2, 3, 28, 29, 30, 31, 33, 34, 35, 36, 37, 38]]> : tensor<2x14xi64>
  %sx, %bias = attic.vcc_compress %p, %t, %j {bias_eps = 2.500000e-01 : f32} : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64> -> tensor<2x17x16xf32>, tensor<2x17xf32>
  %x = tensor.expand_shape %sx [[0], [1, 2], [3]] output_shape [2, 1, 17, 16] : tensor<2x17x16xf32> into tensor<2x1x17x16xf32>
  %o = attic.attention %x, %x, %x bias(%bias : tensor<2x17xf32>) : tensor<2x1x17x16xf32>, tensor<2x1x17x16xf32>, tensor<2x1x17x16xf32> -> tensor<2x1x17x16xf32>
  %o3 = tensor.collapse_shape %o [[0], [1, 2], [3]] : tensor<2x1x17x16xf32> into tensor<2x17x16xf32>
  %yj = tensor.extract_slice %o3[0, 3, 0] [2, 14, 16] [1, 1, 1] : tensor<2x17x16xf32> to tensor<2x14x16xf32>
  %t2 = attic.tree_update %t, %j, %yj {mean_eps = 5.000000e-01 : f32} : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64>, tensor<2x14x16xf32> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x32x16xf32, fanouts = [4, 8]> -> tensor<2x32x16xf32>
  %blocks = arith.constant dense<[[32, 33, 34, 35, 36, 37, 38, 39], [32, 33, 34, 35, 36, 37, 38, 39]]> : tensor<2x8xi64>
  %sx2, %bias2 = attic.vcc_compress %p, %t2, %blocks : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x8xi64> -> tensor<2x11x16xf32>, tensor<2x11xf32>
  return %o3, %m, %sx2 : tensor<2x17x16xf32>, tensor<2x32x16xf32>, tensor<2x11x16xf32>
}

// Binary tree (fanouts [2, 2, 2, 2], ids: tokens 0..15, level 1 16..23,
// level 2 24..27, level 3 28..29, root 30), budgets [1, 2, 2, 1]: |J| = 7,
// two tokens, three level-1 and two level-2 nodes.
// RUN: attic-run %t/compress_binary.mlir --entry=compress_binary --check --mask-keep=1 | FileCheck %s --check-prefixes=CHECK,BIN
// RUN: attic-run %t/compress_binary_attention.mlir --entry=compress_binary_attention --check --mask-keep=0.4 | FileCheck %s --check-prefixes=CHECK,BINATT
// BIN: check: result #1 (2x9 f32): {{.*}}: ok
// BINATT: check: result #1 (2x1x9x8 f32): {{.*}}: ok
//--- compress_binary.mlir
func.func @compress_binary(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %p: tensor<2x2x8xf32>)
    -> (tensor<2x9x8xf32>, tensor<2x9xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>
  %j = arith.constant dense<[[12, 13, 16, 17, 23, 25, 26], [4, 5, 19, 20, 21, 24, 27]]> : tensor<2x7xi64>
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x2x8xf32>, !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>, tensor<2x7xi64> -> tensor<2x9x8xf32>, tensor<2x9xf32>
  return %sx, %bias : tensor<2x9x8xf32>, tensor<2x9xf32>
}

//--- compress_binary_attention.mlir
func.func @compress_binary_attention(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %p: tensor<2x2x8xf32>)
    -> (tensor<2x9x8xf32>, tensor<2x1x9x8xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>
  %j = arith.constant dense<[[12, 13, 16, 17, 23, 25, 26], [4, 5, 19, 20, 21, 24, 27]]> : tensor<2x7xi64>
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x2x8xf32>, !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>, tensor<2x7xi64> -> tensor<2x9x8xf32>, tensor<2x9xf32>
  %x = tensor.expand_shape %sx [[0], [1, 2], [3]] output_shape [2, 1, 9, 8] : tensor<2x9x8xf32> into tensor<2x1x9x8xf32>
  %o = attic.attention %x, %x, %x bias(%bias : tensor<2x9xf32>) : tensor<2x1x9x8xf32>, tensor<2x1x9x8xf32>, tensor<2x1x9x8xf32> -> tensor<2x1x9x8xf32>
  return %sx, %o : tensor<2x9x8xf32>, tensor<2x1x9x8xf32>
}

// tree_build + tree_update (the rows are an input) + tree_materialize, and
// the compressed rows of the updated tree (the rows of the non-empty J
// nodes come back). Two-resolution, binary, J = {root}, two layers in a
// row with different J, and a tree of one level (no scratch sums between
// the tokens and the root) updated at the root and at every token.
// RUN: attic-run %t/update_two_level.mlir --entry=update_two_level --check --mask-keep=0.5 | FileCheck %s --check-prefixes=CHECK,UPD
// RUN: attic-run %t/update_two_level.mlir --entry=update_two_level --check --mask-keep=1 --seed=2 | FileCheck %s --check-prefixes=CHECK,UPD
// RUN: attic-run %t/update_binary.mlir --entry=update_binary --check --mask-keep=0.5 | FileCheck %s --check-prefixes=CHECK,UPD
// RUN: attic-run %t/update_root.mlir --entry=update_root --check --mask-keep=0.5 | FileCheck %s --check-prefixes=CHECK,UPD
// RUN: attic-run %t/update_root.mlir --entry=update_root --check --mask-keep=0 | FileCheck %s --check-prefixes=CHECK,UPD
// RUN: attic-run %t/update_twice.mlir --entry=update_twice --check --mask-keep=0.6 | FileCheck %s --check-prefixes=CHECK,UPD
// RUN: attic-run %t/update_keeps_input.mlir --entry=update_keeps_input --check --mask-keep=0.6 | FileCheck %s --check-prefixes=CHECK,UPD
// RUN: attic-run %t/update_one_level.mlir --entry=update_one_level --check --mask-keep=0.6 | FileCheck %s --check-prefixes=CHECK,UPD
// UPD: check: result #1 {{.*}}: ok
//--- update_two_level.mlir
func.func @update_two_level(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>, %y: tensor<2x14x16xf32>, %p: tensor<2x3x16xf32>)
    -> (tensor<2x32x16xf32>, tensor<2x17x16xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %j = arith.constant dense<[[4, 5, 6, 7, 24, 25, 26, 27, 32, 34, 35, 36, 37, 39],
                             [0, 1, 2, 3, 28, 29, 30, 31, 33, 34, 35, 36, 37, 38]]> : tensor<2x14xi64>
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64>, tensor<2x14x16xf32> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x32x16xf32, fanouts = [4, 8]> -> tensor<2x32x16xf32>
  %sx, %bias = attic.vcc_compress %p, %t2, %j : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64> -> tensor<2x17x16xf32>, tensor<2x17xf32>
  return %m, %sx : tensor<2x32x16xf32>, tensor<2x17x16xf32>
}

//--- update_binary.mlir
func.func @update_binary(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %y: tensor<2x7x8xf32>, %p: tensor<2x2x8xf32>)
    -> (tensor<2x16x8xf32>, tensor<2x9x8xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>
  %j = arith.constant dense<[[12, 13, 16, 17, 23, 25, 26], [4, 5, 19, 20, 21, 24, 27]]> : tensor<2x7xi64>
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>, tensor<2x7xi64>, tensor<2x7x8xf32> -> !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]> -> tensor<2x16x8xf32>
  %sx, %bias = attic.vcc_compress %p, %t2, %j : tensor<2x2x8xf32>, !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>, tensor<2x7xi64> -> tensor<2x9x8xf32>, tensor<2x9xf32>
  return %m, %sx : tensor<2x16x8xf32>, tensor<2x9x8xf32>
}

//--- update_one_level.mlir
func.func @update_one_level(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %y: tensor<2x1x8xf32>, %y2: tensor<2x16x8xf32>)
    -> (tensor<2x16x8xf32>, tensor<2x16x8xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [16]>
  %j = arith.constant dense<[[16], [16]]> : tensor<2x1xi64>
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x16x8xf32, fanouts = [16]>, tensor<2x1xi64>, tensor<2x1x8xf32> -> !attic.tree<2x16x8xf32, fanouts = [16]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x16x8xf32, fanouts = [16]> -> tensor<2x16x8xf32>
  %j2 = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<2x16xi64>
  %t3 = attic.tree_update %t, %j2, %y2 : !attic.tree<2x16x8xf32, fanouts = [16]>, tensor<2x16xi64>, tensor<2x16x8xf32> -> !attic.tree<2x16x8xf32, fanouts = [16]>
  %m3 = attic.tree_materialize %t3 : !attic.tree<2x16x8xf32, fanouts = [16]> -> tensor<2x16x8xf32>
  return %m, %m3 : tensor<2x16x8xf32>, tensor<2x16x8xf32>
}
//--- update_root.mlir
func.func @update_root(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %y: tensor<2x1x8xf32>, %p: tensor<2x2x8xf32>)
    -> (tensor<2x16x8xf32>, tensor<2x3x8xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [2, 8]>
  %j = arith.constant dense<[[24], [24]]> : tensor<2x1xi64>
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x16x8xf32, fanouts = [2, 8]>, tensor<2x1xi64>, tensor<2x1x8xf32> -> !attic.tree<2x16x8xf32, fanouts = [2, 8]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x16x8xf32, fanouts = [2, 8]> -> tensor<2x16x8xf32>
  %sx, %bias = attic.vcc_compress %p, %t2, %j : tensor<2x2x8xf32>, !attic.tree<2x16x8xf32, fanouts = [2, 8]>, tensor<2x1xi64> -> tensor<2x3x8xf32>, tensor<2x3xf32>
  return %m, %sx : tensor<2x16x8xf32>, tensor<2x3x8xf32>
}

//--- update_twice.mlir
// Layer 1 splits blocks 1 and 6 (sequence 0) or 0 and 7 (sequence 1);
// layer 2 splits block 2 (sequence 0) or block 3 (sequence 1), so some
// deltas below J were written by layer 1 and must be kept.
func.func @update_twice(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>, %y1: tensor<2x14x16xf32>, %y2: tensor<2x11x16xf32>)
    -> (tensor<2x32x16xf32>, tensor<2x32x16xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %j1 = arith.constant dense<[[4, 5, 6, 7, 24, 25, 26, 27, 32, 34, 35, 36, 37, 39],
                              [0, 1, 2, 3, 28, 29, 30, 31, 33, 34, 35, 36, 37, 38]]> : tensor<2x14xi64>
  %t1 = attic.tree_update %t, %j1, %y1 : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64>, tensor<2x14x16xf32> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %m1 = attic.tree_materialize %t1 : !attic.tree<2x32x16xf32, fanouts = [4, 8]> -> tensor<2x32x16xf32>
  %j2 = arith.constant dense<[[8, 9, 10, 11, 32, 33, 35, 36, 37, 38, 39],
                              [12, 13, 14, 15, 32, 33, 34, 36, 37, 38, 39]]> : tensor<2x11xi64>
  %t2 = attic.tree_update %t1, %j2, %y2 : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x11xi64>, tensor<2x11x16xf32> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %m2 = attic.tree_materialize %t2 : !attic.tree<2x32x16xf32, fanouts = [4, 8]> -> tensor<2x32x16xf32>
  return %m1, %m2 : tensor<2x32x16xf32>, tensor<2x32x16xf32>
}

//--- update_keeps_input.mlir
// The tree before the update is still used after it: the update writes a
// copy of the deltas.
func.func @update_keeps_input(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %y: tensor<2x7x8xf32>)
    -> (tensor<2x16x8xf32>, tensor<2x16x8xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>
  %j = arith.constant dense<[[12, 13, 16, 17, 23, 25, 26], [4, 5, 19, 20, 21, 24, 27]]> : tensor<2x7xi64>
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>, tensor<2x7xi64>, tensor<2x7x8xf32> -> !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>
  %m2 = attic.tree_materialize %t2 : !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]> -> tensor<2x16x8xf32>
  %m1 = attic.tree_materialize %t : !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]> -> tensor<2x16x8xf32>
  return %m1, %m2 : tensor<2x16x8xf32>, tensor<2x16x8xf32>
}

// vip_order + gather_rows + the inverse gather: the permutation, its
// inverse, the reordered rows and mask, and the original rows again. With
// --mask-keep=0.1 the sequences have at most num_vip = 6 VIP tokens (spare
// P slots take the first other tokens). Everything is exact. With 0.5 they
// have more: the compiled code reports it to the runtime (the first sequence
// and how many more), and the run fails; there is no silent result.
// RUN: attic-run %t/reorder.mlir --entry=reorder --check --tolerance=0 --mask-keep=0.1 | FileCheck %s --check-prefixes=CHECK,ORDER
// RUN: not attic-run %t/reorder.mlir --entry=reorder --check --tolerance=0 --mask-keep=0.5 --seed=3 2>&1 | FileCheck %s --check-prefix=TOOMANY
// TOOMANY: attic-run: error: attic.vip_order: sequence 0 has {{[0-9]+}} VIP tokens, more than num_vip = 6; the results are not valid (and 2 more reports)
// TOOMANY-NOT: check: result
// RUN: attic-run %t/reorder_f16.mlir --entry=reorder_f16 --check --tolerance=0 --mask-keep=0.1 | FileCheck %s --check-prefixes=CHECK,ORDER16
// ORDER: check: result #1 (3x40 i64): {{.*}}: ok
// ORDER: check: result #2 (3x40x16 f32): {{.*}}: ok
// ORDER: check: result #3 (3x40 i1): {{.*}}: ok
// ORDER: check: result #4 (3x40x16 f32): {{.*}}max_abs_err=0.00e+00 {{.*}}: ok
// ORDER16: check: result #2 (2x24x8 bf16): {{.*}}: ok
// 300 tokens (4 chunks of 64 and one of 44 in the GPU pipelines' form of
// vip_order: per-chunk counts, bisection over them, a loop over one chunk)
// with few, some, almost all, all and no VIP tokens; num_vip = 300, so
// nothing is reported.
// RUN: attic-run %t/reorder_chunks.mlir --entry=reorder_chunks --check --tolerance=0 --mask-keep=0.3 | FileCheck %s --check-prefixes=CHECK,CHUNKS
// CHUNKS: check: result #1 (2x300 i64): {{.*}}: ok
// CHUNKS: check: result #2 (2x300x4 f32): {{.*}}max_abs_err=0.00e+00 {{.*}}: ok
//--- reorder.mlir
func.func @reorder(%vip: tensor<3x40xi1>, %x: tensor<3x40x16xf32>, %mask: tensor<3x40xi1>)
    -> (tensor<3x40xi64>, tensor<3x40xi64>, tensor<3x40x16xf32>, tensor<3x40xi1>, tensor<3x40x16xf32>) {
  %perm, %inverse = attic.vip_order %vip {num_vip = 6 : i64} : tensor<3x40xi1> -> tensor<3x40xi64>, tensor<3x40xi64>
  %xp = attic.gather_rows %x[%perm] : tensor<3x40x16xf32>, tensor<3x40xi64> -> tensor<3x40x16xf32>
  %keep = attic.gather_rows %mask[%perm] : tensor<3x40xi1>, tensor<3x40xi64> -> tensor<3x40xi1>
  %back = attic.gather_rows %xp[%inverse] : tensor<3x40x16xf32>, tensor<3x40xi64> -> tensor<3x40x16xf32>
  return %perm, %inverse, %xp, %keep, %back : tensor<3x40xi64>, tensor<3x40xi64>, tensor<3x40x16xf32>, tensor<3x40xi1>, tensor<3x40x16xf32>
}

//--- reorder_chunks.mlir
func.func @reorder_chunks(%vip: tensor<2x300xi1>, %x: tensor<2x300x4xf32>)
    -> (tensor<2x300xi64>, tensor<2x300xi64>, tensor<2x300x4xf32>) {
  %perm, %inverse = attic.vip_order %vip {num_vip = 300 : i64} : tensor<2x300xi1> -> tensor<2x300xi64>, tensor<2x300xi64>
  %xp = attic.gather_rows %x[%perm] : tensor<2x300x4xf32>, tensor<2x300xi64> -> tensor<2x300x4xf32>
  return %perm, %inverse, %xp : tensor<2x300xi64>, tensor<2x300xi64>, tensor<2x300x4xf32>
}

//--- reorder_f16.mlir
func.func @reorder_f16(%vip: tensor<2x24xi1>, %x: tensor<2x24x8xf16>, %y: tensor<2x24x8xbf16>)
    -> (tensor<2x24x8xf16>, tensor<2x24x8xf16>, tensor<2x24x8xbf16>, tensor<2x10x8xf16>) {
  %perm, %inverse = attic.vip_order %vip {num_vip = 4 : i64} : tensor<2x24xi1> -> tensor<2x24xi64>, tensor<2x24xi64>
  %xp = attic.gather_rows %x[%perm] : tensor<2x24x8xf16>, tensor<2x24xi64> -> tensor<2x24x8xf16>
  %back = attic.gather_rows %xp[%inverse] : tensor<2x24x8xf16>, tensor<2x24xi64> -> tensor<2x24x8xf16>
  %yp = attic.gather_rows %y[%perm] : tensor<2x24x8xbf16>, tensor<2x24xi64> -> tensor<2x24x8xbf16>
  // Fewer rows than x: a gather may pick any rows, repeated or not.
  %idx = arith.constant dense<[[0, 1, 1, 23, 5, 5, 5, 2, 0, 22], [23, 22, 21, 0, 0, 3, 4, 4, 9, 8]]> : tensor<2x10xi64>
  %some = attic.gather_rows %x[%idx] : tensor<2x24x8xf16>, tensor<2x10xi64> -> tensor<2x10x8xf16>
  return %xp, %back, %yp, %some : tensor<2x24x8xf16>, tensor<2x24x8xf16>, tensor<2x24x8xbf16>, tensor<2x10x8xf16>
}

// tree_build + tree_select (Algorithm 1 with the section 3.6 scores of
// LN(mean) * W_k + b_k against the P rows' queries): J against
// vcc::selectJ, exactly (--tolerance=0). Without padding every candidate
// competes; with padding, empty candidates score -inf and go last (ties to
// the lower index); with no valid token at all every level splits its first
// candidates.
// Fanouts [4, 8], budgets [3, 1] (ids: tokens 0..31, blocks 32..39, root
// 40): the root is split without scores, 3 of the 8 blocks by score; J =
// 12 tokens, then 5 blocks.
// RUN: attic-run %t/select_two_level.mlir --entry=select_two_level --check --tolerance=0 --mask-keep=1 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_two_level.mlir --entry=select_two_level --check --tolerance=0 --mask-keep=1 --seed=4 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_two_level.mlir --entry=select_two_level --check --tolerance=0 --mask-keep=0.5 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_two_level.mlir --entry=select_two_level --check --tolerance=0 --mask-keep=0.15 --seed=2 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_two_level.mlir --entry=select_two_level --check --tolerance=0 --mask-keep=0 | FileCheck %s --check-prefix=SEL
// Binary tree (fanouts [2, 2, 2, 2], ids: tokens 0..15, level 1 16..23,
// level 2 24..27, level 3 28..29, root 30), budgets [1, 2, 1, 1]: levels 4
// and 2 split every candidate, levels 3 (1 of 2) and 1 (1 of 4) are
// scored; J = 2 tokens, 3 level-1 nodes, 1 level-3 node.
// RUN: attic-run %t/select_binary.mlir --entry=select_binary --check --tolerance=0 --mask-keep=1 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_binary.mlir --entry=select_binary --check --tolerance=0 --mask-keep=0.5 --seed=3 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_binary.mlir --entry=select_binary --check --tolerance=0 --mask-keep=0.25 --seed=6 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_binary.mlir --entry=select_binary --check --tolerance=0 --mask-keep=0 | FileCheck %s --check-prefix=SEL
// Budgets [0, 1, 2, 1]: level 1 splits nothing (its 2 candidates are kept).
// RUN: attic-run %t/select_binary_keep.mlir --entry=select_binary_keep --check --tolerance=0 --mask-keep=0.6 | FileCheck %s --check-prefix=SEL
// Fanouts [2, 4, 4], budgets [3, 2, 1], 4 heads, 5 P rows: 2 of the 4
// level-2 nodes, then 3 of their 8 children.
// RUN: attic-run %t/select_three_level.mlir --entry=select_three_level --check --tolerance=0 --mask-keep=1 --seed=1 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_three_level.mlir --entry=select_three_level --check --tolerance=0 --mask-keep=0.4 --seed=5 | FileCheck %s --check-prefix=SEL
// vote_mask [B, n_p]: only the P rows it keeps vote (the VCC authors'
// importance mask, so spare P rows do not move the selection); J against
// the reference's selection with the same rows voting, exactly. With every
// row voting it is select_two_level's J, byte for byte (same seed, same
// inputs 0..6).
// RUN: attic-run %t/select_vote_mask.mlir --entry=select_vote_mask --check --tolerance=0 --mask-keep=1 --mask-keep-arg=7:0.4 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_vote_mask.mlir --entry=select_vote_mask --check --tolerance=0 --mask-keep=0.7 --mask-keep-arg=7:0.3 --seed=3 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_vote_mask.mlir --entry=select_vote_mask --check --tolerance=0 --mask-keep=1 --mask-keep-arg=7:0 --seed=2 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_vote_mask.mlir --entry=select_vote_mask --mask-keep=1 --mask-keep-arg=7:1 --seed=4 --output=%t/all_vote.npy
// RUN: attic-run %t/select_two_level.mlir --entry=select_two_level --mask-keep=1 --seed=4 --output=%t/no_mask.npy
// RUN: cmp %t/all_vote.npy %t/no_mask.npy
// Many candidates (64 blocks, 20 split: the radix select of the top 20 over
// 64 scores), and exact ties: with zero queries every valid candidate
// scores the same, so the first ones by index are split (padded ones score
// -inf and go last), as in the reference.
// RUN: attic-run %t/select_many.mlir --entry=select_many --check --tolerance=0 --mask-keep=1 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_many.mlir --entry=select_many --check --tolerance=0 --mask-keep=0.3 --seed=8 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_ties.mlir --entry=select_ties --check --tolerance=0 --mask-keep=1 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_ties.mlir --entry=select_ties --check --tolerance=0 --mask-keep=0.2 --seed=5 | FileCheck %s --check-prefix=SEL
// 160 candidates at level 1 (fanouts [2, 160], 50 split): three chunks of
// the GPU pipelines' form of the scan (flag counts per chunk of 64, the
// splits before a candidate in closed form, bisection), with every, some
// and no token valid.
// RUN: attic-run %t/select_chunks.mlir --entry=select_chunks --check --tolerance=0 --mask-keep=1 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_chunks.mlir --entry=select_chunks --check --tolerance=0 --mask-keep=0.3 --seed=8 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_chunks.mlir --entry=select_chunks --check --tolerance=0 --mask-keep=0 | FileCheck %s --check-prefix=SEL
// 4100 candidates at level 1 (fanouts [2, 4100], 3000 split): above the
// GPU pipelines' limit for ranking by pairs (4096), so their form is the
// radix select 8 bits at a time (histograms per chunk of 64 keys) and the
// flag scan in chunks of 64; with every token valid,
// no token valid (every candidate tied at -inf) and 45% (about 2900
// candidates tied at -inf, 3000 to split: the ties go by index).
// RUN: attic-run %t/select_large.mlir --entry=select_large --check --tolerance=0 --mask-keep=1 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_large.mlir --entry=select_large --check --tolerance=0 --mask-keep=0 --seed=2 | FileCheck %s --check-prefix=SEL
// RUN: attic-run %t/select_large.mlir --entry=select_large --check --tolerance=0 --mask-keep=0.45 --seed=4 | FileCheck %s --check-prefix=SEL
// SEL: compiled for {{.+}}
// SEL: check: result #0 ({{[0-9]+}}x{{[0-9]+}} i64): max_abs_err=0.00e+00 {{.*}}: ok
//--- select_vote_mask.mlir
func.func @select_vote_mask(%c: tensor<3x32x16xf32>, %valid: tensor<3x32xi1>, %q: tensor<3x2x3x8xf32>,
                            %wk: tensor<16x16xf32>, %bk: tensor<16xf32>, %gamma: tensor<16xf32>, %beta: tensor<16xf32>,
                            %votes: tensor<3x3xi1>) -> tensor<3x17xi64> {
  %t = attic.tree_build %c, %valid : tensor<3x32x16xf32>, tensor<3x32xi1> -> !attic.tree<3x32x16xf32, fanouts = [4, 8]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta vote_mask(%votes : tensor<3x3xi1>) {budgets = [3, 1], heads = 2, scale = 0.35 : f32}
      : !attic.tree<3x32x16xf32, fanouts = [4, 8]>, tensor<3x2x3x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<3x17xi64>
  return %j : tensor<3x17xi64>
}

//--- select_two_level.mlir
func.func @select_two_level(%c: tensor<3x32x16xf32>, %valid: tensor<3x32xi1>, %q: tensor<3x2x3x8xf32>,
                            %wk: tensor<16x16xf32>, %bk: tensor<16xf32>, %gamma: tensor<16xf32>, %beta: tensor<16xf32>)
    -> tensor<3x17xi64> {
  %t = attic.tree_build %c, %valid : tensor<3x32x16xf32>, tensor<3x32xi1> -> !attic.tree<3x32x16xf32, fanouts = [4, 8]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [3, 1], heads = 2, scale = 0.35 : f32}
      : !attic.tree<3x32x16xf32, fanouts = [4, 8]>, tensor<3x2x3x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<3x17xi64>
  return %j : tensor<3x17xi64>
}

//--- select_binary.mlir
func.func @select_binary(%c: tensor<3x16x8xf32>, %valid: tensor<3x16xi1>, %q: tensor<3x2x2x4xf32>,
                         %wk: tensor<8x8xf32>, %bk: tensor<8xf32>, %gamma: tensor<8xf32>, %beta: tensor<8xf32>)
    -> tensor<3x6xi64> {
  %t = attic.tree_build %c, %valid : tensor<3x16x8xf32>, tensor<3x16xi1> -> !attic.tree<3x16x8xf32, fanouts = [2, 2, 2, 2]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [1, 2, 1, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<3x16x8xf32, fanouts = [2, 2, 2, 2]>, tensor<3x2x2x4xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<3x6xi64>
  return %j : tensor<3x6xi64>
}

//--- select_binary_keep.mlir
func.func @select_binary_keep(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %q: tensor<2x1x3x8xf32>,
                              %wk: tensor<8x8xf32>, %bk: tensor<8xf32>, %gamma: tensor<8xf32>, %beta: tensor<8xf32>)
    -> tensor<2x5xi64> {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [0, 1, 2, 1], heads = 1, scale = 0.35 : f32}
      : !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>, tensor<2x1x3x8xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x5xi64>
  return %j : tensor<2x5xi64>
}

//--- select_three_level.mlir
func.func @select_three_level(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>, %q: tensor<2x4x5x4xf32>,
                              %wk: tensor<16x16xf32>, %bk: tensor<16xf32>, %gamma: tensor<16xf32>, %beta: tensor<16xf32>)
    -> tensor<2x13xi64> {
  %t = attic.tree_build %c, %valid : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [2, 4, 4]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [3, 2, 1], heads = 4, scale = 0.5 : f32}
      : !attic.tree<2x32x16xf32, fanouts = [2, 4, 4]>, tensor<2x4x5x4xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x13xi64>
  return %j : tensor<2x13xi64>
}

// Two VCC layers end to end (docs/vcc.md, "One layer: the idiom"):
// tree_build, then per layer tree_select -> vcc_compress -> attention over
// the compressed rows with the compressed key bias -> tree_update with the
// attention output's J rows; the second layer selects on the updated tree.
// Then tree_materialize. J of both layers exactly, the attention outputs
// and the tokens within the default tolerance.
// RUN: attic-run %t/vcc_layers.mlir --entry=vcc_layers --check --mask-keep=1 | FileCheck %s --check-prefix=LAYERS
// RUN: attic-run %t/vcc_layers.mlir --entry=vcc_layers --check --mask-keep=0.5 --seed=1 | FileCheck %s --check-prefix=LAYERS
// RUN: attic-run %t/vcc_layers.mlir --entry=vcc_layers --check --mask-keep=0.2 --seed=2 | FileCheck %s --check-prefix=LAYERS
// LAYERS: compiled for {{.+}}
// LAYERS: check: result #0 (2x17 i64): max_abs_err=0.00e+00 {{.*}}: ok
// LAYERS: check: result #1 (2x1x20x16 f32): {{.*}} non_finite=0 {{.*}}: ok
// LAYERS: check: result #2 (2x17 i64): max_abs_err=0.00e+00 {{.*}}: ok
// LAYERS: check: result #3 (2x1x20x16 f32): {{.*}} non_finite=0 {{.*}}: ok
// LAYERS: check: result #4 (2x32x16 f32): {{.*}} non_finite=0 {{.*}}: ok
//--- vcc_layers.mlir
func.func @vcc_layers(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>, %p: tensor<2x3x16xf32>,
                      %q1: tensor<2x2x3x8xf32>, %q2: tensor<2x2x3x8xf32>,
                      %wk: tensor<16x16xf32>, %bk: tensor<16xf32>, %gamma: tensor<16xf32>, %beta: tensor<16xf32>)
    -> (tensor<2x17xi64>, tensor<2x1x20x16xf32>, tensor<2x17xi64>, tensor<2x1x20x16xf32>, tensor<2x32x16xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  // Layer 1.
  %j1 = attic.tree_select %t, %q1, %wk, %bk, %gamma, %beta {budgets = [3, 1], heads = 2, scale = 0.35 : f32}
      : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x2x3x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x17xi64>
  %sx1, %bias1 = attic.vcc_compress %p, %t, %j1 : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x17xi64> -> tensor<2x20x16xf32>, tensor<2x20xf32>
  %x1 = tensor.expand_shape %sx1 [[0], [1, 2], [3]] output_shape [2, 1, 20, 16] : tensor<2x20x16xf32> into tensor<2x1x20x16xf32>
  %o1 = attic.attention %x1, %x1, %x1 bias(%bias1 : tensor<2x20xf32>) : tensor<2x1x20x16xf32>, tensor<2x1x20x16xf32>, tensor<2x1x20x16xf32> -> tensor<2x1x20x16xf32>
  %y1 = tensor.collapse_shape %o1 [[0], [1, 2], [3]] : tensor<2x1x20x16xf32> into tensor<2x20x16xf32>
  %p1 = tensor.extract_slice %y1[0, 0, 0] [2, 3, 16] [1, 1, 1] : tensor<2x20x16xf32> to tensor<2x3x16xf32>
  %r1 = tensor.extract_slice %y1[0, 3, 0] [2, 17, 16] [1, 1, 1] : tensor<2x20x16xf32> to tensor<2x17x16xf32>
  %t1 = attic.tree_update %t, %j1, %r1 : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x17xi64>, tensor<2x17x16xf32> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  // Layer 2, on the updated tree.
  %j2 = attic.tree_select %t1, %q2, %wk, %bk, %gamma, %beta {budgets = [3, 1], heads = 2, scale = 0.35 : f32}
      : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x2x3x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x17xi64>
  %sx2, %bias2 = attic.vcc_compress %p1, %t1, %j2 : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x17xi64> -> tensor<2x20x16xf32>, tensor<2x20xf32>
  %x2 = tensor.expand_shape %sx2 [[0], [1, 2], [3]] output_shape [2, 1, 20, 16] : tensor<2x20x16xf32> into tensor<2x1x20x16xf32>
  %o2 = attic.attention %x2, %x2, %x2 bias(%bias2 : tensor<2x20xf32>) : tensor<2x1x20x16xf32>, tensor<2x1x20x16xf32>, tensor<2x1x20x16xf32> -> tensor<2x1x20x16xf32>
  %y2 = tensor.collapse_shape %o2 [[0], [1, 2], [3]] : tensor<2x1x20x16xf32> into tensor<2x20x16xf32>
  %r2 = tensor.extract_slice %y2[0, 3, 0] [2, 17, 16] [1, 1, 1] : tensor<2x20x16xf32> to tensor<2x17x16xf32>
  %t2 = attic.tree_update %t1, %j2, %r2 : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x17xi64>, tensor<2x17x16xf32> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x32x16xf32, fanouts = [4, 8]> -> tensor<2x32x16xf32>
  return %j1, %o1, %j2, %o2, %m : tensor<2x17xi64>, tensor<2x1x20x16xf32>, tensor<2x17xi64>, tensor<2x1x20x16xf32>, tensor<2x32x16xf32>
}

//--- select_chunks.mlir
func.func @select_chunks(%c: tensor<2x320x8xf32>, %valid: tensor<2x320xi1>, %q: tensor<2x2x3x4xf32>,
                         %wk: tensor<8x8xf32>, %bk: tensor<8xf32>, %gamma: tensor<8xf32>, %beta: tensor<8xf32>)
    -> tensor<2x210xi64> {
  %t = attic.tree_build %c, %valid : tensor<2x320x8xf32>, tensor<2x320xi1> -> !attic.tree<2x320x8xf32, fanouts = [2, 160]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [50, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<2x320x8xf32, fanouts = [2, 160]>, tensor<2x2x3x4xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x210xi64>
  return %j : tensor<2x210xi64>
}

//--- select_many.mlir
func.func @select_many(%c: tensor<2x256x8xf32>, %valid: tensor<2x256xi1>, %q: tensor<2x2x3x4xf32>,
                       %wk: tensor<8x8xf32>, %bk: tensor<8xf32>, %gamma: tensor<8xf32>, %beta: tensor<8xf32>)
    -> tensor<2x124xi64> {
  %t = attic.tree_build %c, %valid : tensor<2x256x8xf32>, tensor<2x256xi1> -> !attic.tree<2x256x8xf32, fanouts = [4, 64]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [20, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<2x256x8xf32, fanouts = [4, 64]>, tensor<2x2x3x4xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x124xi64>
  return %j : tensor<2x124xi64>
}

//--- select_large.mlir
func.func @select_large(%c: tensor<2x8200x4xf32>, %valid: tensor<2x8200xi1>, %q: tensor<2x2x3x2xf32>,
                        %wk: tensor<4x4xf32>, %bk: tensor<4xf32>, %gamma: tensor<4xf32>, %beta: tensor<4xf32>)
    -> tensor<2x7100xi64> {
  %t = attic.tree_build %c, %valid : tensor<2x8200x4xf32>, tensor<2x8200xi1> -> !attic.tree<2x8200x4xf32, fanouts = [2, 4100]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [3000, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<2x8200x4xf32, fanouts = [2, 4100]>, tensor<2x2x3x2xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<2x7100xi64>
  return %j : tensor<2x7100xi64>
}
//--- select_ties.mlir
func.func @select_ties(%c: tensor<2x64x8xf32>, %valid: tensor<2x64xi1>,
                       %wk: tensor<8x8xf32>, %bk: tensor<8xf32>, %gamma: tensor<8xf32>, %beta: tensor<8xf32>)
    -> tensor<2x31xi64> {
  %q = arith.constant dense<0.0> : tensor<2x2x3x4xf32>
  %t = attic.tree_build %c, %valid : tensor<2x64x8xf32>, tensor<2x64xi1> -> !attic.tree<2x64x8xf32, fanouts = [4, 16]>
  %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta {budgets = [5, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<2x64x8xf32, fanouts = [4, 16]>, tensor<2x2x3x4xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x31xi64>
  return %j : tensor<2x31xi64>
}
