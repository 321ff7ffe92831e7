// RUN: attic-opt %s --split-input-file --canonicalize | FileCheck %s

// Casts that erase static sizes fold into attic.attention, whose result type
// becomes static; a cast back keeps the old users' type.
// CHECK-LABEL: func.func @fold_casts
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2x16x8xf32>, %[[K:.*]]: tensor<1x2x24x8xf32>, %[[V:.*]]: tensor<1x2x24x4xf32>)
// CHECK: %[[R:.*]] = attic.attention %[[Q]], %[[K]], %[[V]] scale 5.000000e-01 : tensor<1x2x16x8xf32>, tensor<1x2x24x8xf32>, tensor<1x2x24x4xf32> -> tensor<1x2x16x4xf32>
// CHECK: %[[C:.*]] = tensor.cast %[[R]] : tensor<1x2x16x4xf32> to tensor<?x?x?x?xf32>
// CHECK: return %[[C]]
func.func @fold_casts(%q: tensor<1x2x16x8xf32>, %k: tensor<1x2x24x8xf32>, %v: tensor<1x2x24x4xf32>) -> tensor<?x?x?x?xf32> {
  %cq = tensor.cast %q : tensor<1x2x16x8xf32> to tensor<?x?x?x?xf32>
  %ck = tensor.cast %k : tensor<1x2x24x8xf32> to tensor<?x?x?x?xf32>
  %cv = tensor.cast %v : tensor<1x2x24x4xf32> to tensor<?x?x?x?xf32>
  %o = attic.attention %cq, %ck, %cv scale 0.5 : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %o : tensor<?x?x?x?xf32>
}

// -----

// Nothing to fold: the op stays as it is.
// CHECK-LABEL: func.func @static
// CHECK-NEXT: attic.attention
// CHECK-NEXT: return
func.func @static(%q: tensor<1x2x16x8xf32>, %k: tensor<1x2x24x8xf32>, %v: tensor<1x2x24x4xf32>) -> tensor<1x2x16x4xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x2x16x8xf32>, tensor<1x2x24x8xf32>, tensor<1x2x24x4xf32> -> tensor<1x2x16x4xf32>
  return %o : tensor<1x2x16x4xf32>
}
