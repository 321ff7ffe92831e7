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

// -----

// A capture's cast folds too, and the regions' capture arguments take its
// static type. Upstream's generic fold, which found the capture's cast when
// this pattern skipped captures, cloned the regions through
// OpBuilder::cloneRegionBefore: a segfault with a non-empty region, or a
// region argument left at the old type ("region argument #4 must have the
// type of capture #0").

// CHECK-LABEL: func.func @fold_capture_casts
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2x16x8xf32>, %[[T:.*]]: tensor<1x16xf32>, %[[S:.*]]: tensor<2xf32>)
// CHECK: attic.block_attention ins(%[[Q]], %[[Q]], %[[Q]] : {{.*}}) captures(%[[T]], %[[S]] : tensor<1x16xf32>, tensor<2xf32>) outs(
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %[[KI:.*]]: index, %[[CT:.*]]: tensor<1x16xf32>, %{{.*}}: tensor<2xf32>):
// CHECK: tensor.extract %[[CT]][%{{.*}}, %[[KI]]] : tensor<1x16xf32>
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: index, %[[H:.*]]: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: tensor<1x16xf32>, %[[CS:.*]]: tensor<2xf32>):
// CHECK: tensor.extract %[[CS]][%[[H]]] : tensor<2xf32>
func.func @fold_capture_casts(%q: tensor<1x2x16x8xf32>, %table: tensor<1x16xf32>, %slopes: tensor<2xf32>) -> tensor<1x2x16x8xf32> {
  %td = tensor.cast %table : tensor<1x16xf32> to tensor<?x?xf32>
  %sd = tensor.cast %slopes : tensor<2xf32> to tensor<?xf32>
  %init = tensor.empty() : tensor<1x2x16x8xf32>
  %o = attic.block_attention ins(%q, %q, %q : tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>)
      captures(%td, %sd : tensor<?x?xf32>, tensor<?xf32>)
      outs(%init : tensor<1x2x16x8xf32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %t: tensor<?x?xf32>, %s: tensor<?xf32>):
        %x = tensor.extract %t[%b, %ki] : tensor<?x?xf32>
        %lim = arith.constant 0.0 : f32
        %p = arith.cmpf ogt, %x, %lim : f32
        attic.yield %p : i1
      }
      score_mod {
      ^bb0(%sc: f32, %b: index, %h: index, %qi: index, %ki: index, %t: tensor<?x?xf32>, %s: tensor<?xf32>):
        %sl = tensor.extract %s[%h] : tensor<?xf32>
        %r = arith.addf %sc, %sl : f32
        attic.yield %r : f32
      }
      {layout = #attic.dense, scale = 0.5 : f32, block_q = 8 : i64, block_k = 8 : i64}
      -> tensor<1x2x16x8xf32>
  return %o : tensor<1x2x16x8xf32>
}

// -----

// The same on attic.attention (not destination-style, so upstream's fold
// never applied, but its captures' casts stayed and reached the
// attic.block_attention that attic-decompose makes of it) and on
// attic.block_mask.

// CHECK-LABEL: func.func @fold_capture_casts_attention
// CHECK: attic.attention %{{.*}} captures(%arg1 : tensor<1x16xf32>)
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: tensor<1x16xf32>):
// CHECK: attic.block_mask layout(#attic.dense) captures(%arg1 : tensor<1x16xf32>)
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: tensor<1x16xf32>):
func.func @fold_capture_casts_attention(%q: tensor<1x2x16x8xf32>, %table: tensor<1x16xf32>) -> (tensor<1x2x16x8xf32>, tensor<1x1x2xi32>) {
  %td = tensor.cast %table : tensor<1x16xf32> to tensor<?x?xf32>
  %o = attic.attention %q, %q, %q captures(%td : tensor<?x?xf32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %t: tensor<?x?xf32>):
        %x = tensor.extract %t[%b, %ki] : tensor<?x?xf32>
        %lim = arith.constant 0.0 : f32
        %p = arith.cmpf ogt, %x, %lim : f32
        attic.yield %p : i1
      }
      : tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x16x8xf32>
  %nq = arith.constant 16 : index
  %e3 = tensor.empty() : tensor<1x1x2xi32>
  %e4 = tensor.empty() : tensor<1x1x2x2xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.dense) captures(%td : tensor<?x?xf32>) sizes(%nq, %nq)
      outs(%e3, %e4, %e3, %e4 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %t: tensor<?x?xf32>):
        %x = tensor.extract %t[%b, %ki] : tensor<?x?xf32>
        %lim = arith.constant 0.0 : f32
        %p = arith.cmpf ogt, %x, %lim : f32
        attic.yield %p : i1
      }
      {block_q = 8 : i64, block_k = 8 : i64} -> tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  return %o, %n : tensor<1x2x16x8xf32>, tensor<1x1x2xi32>
}
