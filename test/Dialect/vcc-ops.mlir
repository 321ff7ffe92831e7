// RUN: attic-opt %s | FileCheck %s
// Round trip: print, parse again, print the same.
// RUN: attic-opt %s | attic-opt | FileCheck %s
// The generic form parses back to the same ops and types.
// RUN: attic-opt %s --mlir-print-op-generic | attic-opt | FileCheck %s

// CHECK-LABEL: func.func @tree_types
// CHECK-SAME: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
// CHECK-SAME: !attic.tree<2x128x64xf32, fanouts = [16, 8]>
// CHECK-SAME: !attic.tree<3x5x7xf32, fanouts = [5]>
func.func @tree_types(%binary: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>,
                      %two_level: !attic.tree<2x128x64xf32, fanouts = [16, 8]>,
                      %one_level: !attic.tree<3x5x7xf32, fanouts = [5]>)
    -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]> {
  return %binary : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
}

// CHECK-LABEL: func.func @vip_order
// CHECK: %{{.*}}, %{{.*}} = attic.vip_order %{{.*}} {num_vip = 4 : i64} : tensor<2x10xi1> -> tensor<2x10xi64>, tensor<2x10xi64>
func.func @vip_order(%vip: tensor<2x10xi1>) -> (tensor<2x10xi64>, tensor<2x10xi64>) {
  %perm, %inverse = attic.vip_order %vip {num_vip = 4 : i64} : tensor<2x10xi1> -> tensor<2x10xi64>, tensor<2x10xi64>
  return %perm, %inverse : tensor<2x10xi64>, tensor<2x10xi64>
}

// CHECK-LABEL: func.func @gather_rows
// CHECK: attic.gather_rows %{{.*}}[%{{.*}}] : tensor<2x10x16xf16>, tensor<2x6xi64> -> tensor<2x6x16xf16>
// CHECK: attic.gather_rows %{{.*}}[%{{.*}}] : tensor<2x10x16xbf16>, tensor<2x6xi64> -> tensor<2x6x16xbf16>
// CHECK: attic.gather_rows %{{.*}}[%{{.*}}] : tensor<2x10xi1>, tensor<2x6xi64> -> tensor<2x6xi1>
func.func @gather_rows(%x: tensor<2x10x16xf16>, %y: tensor<2x10x16xbf16>, %mask: tensor<2x10xi1>, %idx: tensor<2x6xi64>)
    -> (tensor<2x6x16xf16>, tensor<2x6x16xbf16>, tensor<2x6xi1>) {
  %0 = attic.gather_rows %x[%idx] : tensor<2x10x16xf16>, tensor<2x6xi64> -> tensor<2x6x16xf16>
  %1 = attic.gather_rows %y[%idx] : tensor<2x10x16xbf16>, tensor<2x6xi64> -> tensor<2x6x16xbf16>
  %2 = attic.gather_rows %mask[%idx] : tensor<2x10xi1>, tensor<2x6xi64> -> tensor<2x6xi1>
  return %0, %1, %2 : tensor<2x6x16xf16>, tensor<2x6x16xbf16>, tensor<2x6xi1>
}

// CHECK-LABEL: func.func @tree_build
// CHECK: attic.tree_build %{{.*}}, %{{.*}} : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
func.func @tree_build(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>) -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]> {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
  return %t : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
}

// Binary tree, budgets [2, 2, 1]: |J| = 1 + 2 + 2 + 1 = 6 (4 tokens, 2 pairs).
// Budgets [0, 0, 0]: J is the root alone.
// CHECK-LABEL: func.func @tree_select
// CHECK: attic.tree_select %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {budgets = [2, 2, 1], heads = 2 : i64, scale = 5.000000e-01 : f32} : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x2x3x2xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x6xi64>
// CHECK: attic.tree_select %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {budgets = [0, 0, 0], heads = 1 : i64, scale = 1.000000e+00 : f32} : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x1xi64>
func.func @tree_select(%t: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, %q2: tensor<1x2x3x2xf32>, %q1: tensor<1x1x3x4xf32>,
                       %wk: tensor<4x4xf32>, %bk: tensor<4xf32>, %gamma: tensor<4xf32>, %beta: tensor<4xf32>)
    -> (tensor<1x6xi64>, tensor<1x1xi64>) {
  %j = attic.tree_select %t, %q2, %wk, %bk, %gamma, %beta {budgets = [2, 2, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x2x3x2xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x6xi64>
  %root = attic.tree_select %t, %q1, %wk, %bk, %gamma, %beta {budgets = [0, 0, 0], heads = 1, scale = 1.0 : f32}
      : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x1xi64>
  return %j, %root : tensor<1x6xi64>, tensor<1x1xi64>
}

// vote_mask: only the P rows it keeps vote.
// CHECK-LABEL: func.func @tree_select_vote_mask
// CHECK: attic.tree_select %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} vote_mask(%{{.*}} : tensor<1x3xi1>) {budgets = [2, 2, 1], heads = 2 : i64, scale = 5.000000e-01 : f32} : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x2x3x2xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x6xi64>
func.func @tree_select_vote_mask(%t: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, %q2: tensor<1x2x3x2xf32>,
                                 %wk: tensor<4x4xf32>, %bk: tensor<4xf32>, %gamma: tensor<4xf32>, %beta: tensor<4xf32>,
                                 %votes: tensor<1x3xi1>) -> tensor<1x6xi64> {
  %j = attic.tree_select %t, %q2, %wk, %bk, %gamma, %beta vote_mask(%votes : tensor<1x3xi1>) {budgets = [2, 2, 1], heads = 2, scale = 0.5 : f32}
      : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x2x3x2xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x6xi64>
  return %j : tensor<1x6xi64>
}

// CHECK-LABEL: func.func @vcc_compress
// CHECK: attic.vcc_compress %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x3x4xf32>, !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x6xi64> -> tensor<1x9x4xf32>, tensor<1x9xf32>
func.func @vcc_compress(%p: tensor<1x3x4xf32>, %t: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, %j: tensor<1x6xi64>)
    -> (tensor<1x9x4xf32>, tensor<1x9xf32>) {
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<1x3x4xf32>, !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x6xi64> -> tensor<1x9x4xf32>, tensor<1x9xf32>
  return %sx, %bias : tensor<1x9x4xf32>, tensor<1x9xf32>
}

// CHECK-LABEL: func.func @tree_update
// CHECK: attic.tree_update %{{.*}}, %{{.*}}, %{{.*}} : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x6xi64>, tensor<1x6x4xf32> -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
func.func @tree_update(%t: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, %j: tensor<1x6xi64>, %y: tensor<1x6x4xf32>)
    -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]> {
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x6xi64>, tensor<1x6x4xf32> -> !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
  return %t2 : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>
}

// CHECK-LABEL: func.func @tree_materialize
// CHECK: attic.tree_materialize %{{.*}} : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]> -> tensor<1x8x4xf32>
func.func @tree_materialize(%t: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>) -> tensor<1x8x4xf32> {
  %c = attic.tree_materialize %t : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]> -> tensor<1x8x4xf32>
  return %c : tensor<1x8x4xf32>
}

// One VCC layer as in docs/vcc.md: n = 136 tokens, n_p = 8 VIP rows, n_c = 128
// in 8 blocks of 16 (fanouts [16, 8]), budgets [3, 1]: the root is split into
// the 8 blocks and 3 of them into tokens, so J holds 48 tokens then 5 blocks
// (|J| = 53, r = 61). The layer body is a single-head attention with VCC's
// key bias plus the residual; then C is materialized and the order restored.
// CHECK-LABEL: func.func @vcc_layer
// CHECK: %[[PERM:[^,]+]], %[[INVERSE:[^ ]+]] = attic.vip_order %{{.*}} {num_vip = 8 : i64} : tensor<2x136xi1> -> tensor<2x136xi64>, tensor<2x136xi64>
// CHECK: %[[XP:.*]] = attic.gather_rows %{{.*}}[%[[PERM]]] : tensor<2x136x64xf32>, tensor<2x136xi64> -> tensor<2x136x64xf32>
// CHECK: %[[KEEP:.*]] = attic.gather_rows %{{.*}}[%[[PERM]]] : tensor<2x136xi1>, tensor<2x136xi64> -> tensor<2x136xi1>
// CHECK: %[[P:.*]] = tensor.extract_slice %[[XP]][0, 0, 0] [2, 8, 64] [1, 1, 1]
// CHECK: %[[C:.*]] = tensor.extract_slice %[[XP]][0, 8, 0] [2, 128, 64] [1, 1, 1]
// CHECK: %[[VALID:.*]] = tensor.extract_slice %[[KEEP]][0, 8] [2, 128] [1, 1]
// CHECK: %[[T:.*]] = attic.tree_build %[[C]], %[[VALID]] : tensor<2x128x64xf32>, tensor<2x128xi1> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
// CHECK: %[[J:.*]] = attic.tree_select %[[T]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {budgets = [3, 1], heads = 4 : i64, scale = 2.500000e-01 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
// CHECK: %[[SX:[^,]+]], %[[BIAS:[^ ]+]] = attic.vcc_compress %[[P]], %[[T]], %[[J]] : tensor<2x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64> -> tensor<2x61x64xf32>, tensor<2x61xf32>
// CHECK: attic.attention {{.*}} bias(%[[BIAS]] : tensor<2x61xf32>)
// CHECK: %[[Y:.*]] = arith.addf %[[SX]], %{{.*}} : tensor<2x61x64xf32>
// CHECK: %[[PNEW:.*]] = tensor.extract_slice %[[Y]][0, 0, 0] [2, 8, 64] [1, 1, 1]
// CHECK: %[[YJ:.*]] = tensor.extract_slice %[[Y]][0, 8, 0] [2, 53, 64] [1, 1, 1]
// CHECK: %[[TNEW:.*]] = attic.tree_update %[[T]], %[[J]], %[[YJ]] : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64>, tensor<2x53x64xf32> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
// CHECK: %[[CNEW:.*]] = attic.tree_materialize %[[TNEW]] : !attic.tree<2x128x64xf32, fanouts = [16, 8]> -> tensor<2x128x64xf32>
// CHECK: %[[XNEW:.*]] = tensor.concat dim(1) %[[PNEW]], %[[CNEW]]
// CHECK: attic.gather_rows %[[XNEW]][%[[INVERSE]]] : tensor<2x136x64xf32>, tensor<2x136xi64> -> tensor<2x136x64xf32>
func.func @vcc_layer(%x: tensor<2x136x64xf32>, %vip: tensor<2x136xi1>, %keep: tensor<2x136xi1>,
                     %qvip: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>,
                     %g1: tensor<64xf32>, %b1: tensor<64xf32>) -> tensor<2x136x64xf32> {
  // Once per stack: reorder into [P; C] and build T(C).
  %perm, %inverse = attic.vip_order %vip {num_vip = 8 : i64} : tensor<2x136xi1> -> tensor<2x136xi64>, tensor<2x136xi64>
  %xp = attic.gather_rows %x[%perm] : tensor<2x136x64xf32>, tensor<2x136xi64> -> tensor<2x136x64xf32>
  %keep_p = attic.gather_rows %keep[%perm] : tensor<2x136xi1>, tensor<2x136xi64> -> tensor<2x136xi1>
  %p = tensor.extract_slice %xp[0, 0, 0] [2, 8, 64] [1, 1, 1] : tensor<2x136x64xf32> to tensor<2x8x64xf32>
  %c = tensor.extract_slice %xp[0, 8, 0] [2, 128, 64] [1, 1, 1] : tensor<2x136x64xf32> to tensor<2x128x64xf32>
  %valid = tensor.extract_slice %keep_p[0, 8] [2, 128] [1, 1] : tensor<2x136xi1> to tensor<2x128xi1>
  %t = attic.tree_build %c, %valid : tensor<2x128x64xf32>, tensor<2x128xi1> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>

  // The layer: select J, compress, run the layer on the r rows, update T(C).
  %j = attic.tree_select %t, %qvip, %wk, %bk, %g1, %b1 {budgets = [3, 1], heads = 4, scale = 0.25 : f32}
      : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  %sx, %bias = attic.vcc_compress %p, %t, %j
      : tensor<2x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64> -> tensor<2x61x64xf32>, tensor<2x61xf32>
  %sx4 = tensor.expand_shape %sx [[0], [1, 2], [3]] output_shape [2, 1, 61, 64] : tensor<2x61x64xf32> into tensor<2x1x61x64xf32>
  %a4 = attic.attention %sx4, %sx4, %sx4 bias(%bias : tensor<2x61xf32>)
      : tensor<2x1x61x64xf32>, tensor<2x1x61x64xf32>, tensor<2x1x61x64xf32> -> tensor<2x1x61x64xf32>
  %a = tensor.collapse_shape %a4 [[0], [1, 2], [3]] : tensor<2x1x61x64xf32> into tensor<2x61x64xf32>
  %y = arith.addf %sx, %a : tensor<2x61x64xf32>
  %p_new = tensor.extract_slice %y[0, 0, 0] [2, 8, 64] [1, 1, 1] : tensor<2x61x64xf32> to tensor<2x8x64xf32>
  %y_j = tensor.extract_slice %y[0, 8, 0] [2, 53, 64] [1, 1, 1] : tensor<2x61x64xf32> to tensor<2x53x64xf32>
  %t_new = attic.tree_update %t, %j, %y_j
      : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64>, tensor<2x53x64xf32> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>

  // Once per stack: materialize C and restore the original order.
  %c_new = attic.tree_materialize %t_new : !attic.tree<2x128x64xf32, fanouts = [16, 8]> -> tensor<2x128x64xf32>
  %x_new = tensor.concat dim(1) %p_new, %c_new : (tensor<2x8x64xf32>, tensor<2x128x64xf32>) -> tensor<2x136x64xf32>
  %out = attic.gather_rows %x_new[%inverse] : tensor<2x136x64xf32>, tensor<2x136xi64> -> tensor<2x136x64xf32>
  return %out : tensor<2x136x64xf32>
}

// The VCC authors' epsilons: printed when not 0.
// CHECK-LABEL: func.func @authors_eps
// CHECK: attic.tree_build %{{.*}}, %{{.*}} {mean_eps = 9.99999974E-5 : f32}
// CHECK: attic.vcc_compress %{{.*}}, %{{.*}}, %{{.*}} {bias_eps = 9.99999974E-5 : f32}
// CHECK: attic.tree_update %{{.*}}, %{{.*}}, %{{.*}} {mean_eps = 9.99999974E-5 : f32}
func.func @authors_eps(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>, %p: tensor<2x3x16xf32>,
                       %j: tensor<2x14xi64>, %rows: tensor<2x14x16xf32>) -> (tensor<2x17x16xf32>, tensor<2x17xf32>, tensor<2x32x16xf32>) {
  %t = attic.tree_build %c, %valid {mean_eps = 1.0e-4 : f32} : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %sx, %bias = attic.vcc_compress %p, %t, %j {bias_eps = 1.0e-4 : f32} : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64> -> tensor<2x17x16xf32>, tensor<2x17xf32>
  %t2 = attic.tree_update %t, %j, %rows {mean_eps = 1.0e-4 : f32} : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64>, tensor<2x14x16xf32> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  %m = attic.tree_materialize %t2 : !attic.tree<2x32x16xf32, fanouts = [4, 8]> -> tensor<2x32x16xf32>
  return %sx, %bias, %m : tensor<2x17x16xf32>, tensor<2x17xf32>, tensor<2x32x16xf32>
}
