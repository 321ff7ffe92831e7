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

// -----

// Casts that erase static sizes fold into the destination-style ops (by
// their own pattern, before upstream's generic one, which clones their
// empty modifier regions through OpBuilder::cloneRegionBefore and
// crashes); the result is cast back for its users.

// CHECK-LABEL: func.func @fold_casts
// CHECK: %[[R:.*]]:2 = attic.block_attention ins(%arg0, %arg0, %arg1 : tensor<1x2x37x4xf32>, tensor<1x2x37x4xf32>, tensor<1x2x37x70xf32>) pool(%arg2 : tensor<1x37xf32> into %{{.*}} : tensor<1x2x5x70xf32>) outs(%{{.*}} : tensor<1x2x37x70xf32>)
// CHECK: tensor.cast %[[R]]#0 : tensor<1x2x37x70xf32> to tensor<?x?x?x?xf32>
// CHECK: tensor.cast %[[R]]#1 : tensor<1x2x5x70xf32> to tensor<?x?x?x?xf32>
func.func @fold_casts(%q: tensor<1x2x37x4xf32>, %v: tensor<1x2x37x70xf32>, %w: tensor<1x37xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %qd = tensor.cast %q : tensor<1x2x37x4xf32> to tensor<?x?x?x?xf32>
  %vd = tensor.cast %v : tensor<1x2x37x70xf32> to tensor<?x?x?x?xf32>
  %wd = tensor.cast %w : tensor<1x37xf32> to tensor<?x?xf32>
  %init = tensor.empty() : tensor<1x2x37x70xf32>
  %id = tensor.cast %init : tensor<1x2x37x70xf32> to tensor<?x?x?x?xf32>
  %pinit = tensor.empty() : tensor<1x2x5x70xf32>
  %pd = tensor.cast %pinit : tensor<1x2x5x70xf32> to tensor<?x?x?x?xf32>
  %o:2 = attic.block_attention ins(%qd, %qd, %vd : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>)
      pool(%wd : tensor<?x?xf32> into %pd : tensor<?x?x?x?xf32>)
      outs(%id : tensor<?x?x?x?xf32>)
      {layout = #attic.window<left = 5, right = 3>, scale = 0.5 : f32, block_q = 8 : i64, block_k = 8 : i64}
      -> tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
  return %o#0, %o#1 : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}
