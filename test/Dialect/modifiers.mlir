// RUN: attic-opt %s --split-input-file | FileCheck %s
// Round trip: print, parse again, print the same.
// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// Mask and score regions with a capture on attic.attention (L1).

// CHECK-LABEL: func.func @attention_modifiers
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} causal captures(%{{.*}} : tensor<4xf32>) mask_mod {
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: tensor<4xf32>):
// CHECK: arith.cmpi sle
// CHECK: attic.yield %{{.*}} : i1
// CHECK: } score_mod {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: tensor<4xf32>):
// CHECK: tensor.extract
// CHECK: attic.yield %{{.*}} : f32
// CHECK: } : tensor<1x4x64x16xf32>
func.func @attention_modifiers(%q: tensor<1x4x64x16xf32>, %k: tensor<1x4x64x16xf32>, %v: tensor<1x4x64x16xf32>, %slopes: tensor<4xf32>) -> tensor<1x4x64x16xf32> {
  %o = attic.attention %q, %k, %v causal captures(%slopes : tensor<4xf32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %s: tensor<4xf32>):
        %w = arith.constant 8 : index
        %d = arith.subi %qi, %ki : index
        %p = arith.cmpi sle, %d, %w : index
        attic.yield %p : i1
      } score_mod {
      ^bb0(%x: f32, %b: index, %h: index, %qi: index, %ki: index, %s: tensor<4xf32>):
        %slope = tensor.extract %s[%h] : tensor<4xf32>
        %y = arith.addf %x, %slope : f32
        attic.yield %y : f32
      }
      : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32> -> tensor<1x4x64x16xf32>
  return %o : tensor<1x4x64x16xf32>
}

// -----

// A score region alone, without captures.

// CHECK-LABEL: func.func @score_only
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} score_mod {
// CHECK: math.tanh
func.func @score_only(%q: tensor<1x4x64x16xf32>, %k: tensor<1x4x64x16xf32>, %v: tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32> {
  %o = attic.attention %q, %k, %v score_mod {
      ^bb0(%x: f32, %b: index, %h: index, %qi: index, %ki: index):
        %t = math.tanh %x : f32
        attic.yield %t : f32
      }
      : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32> -> tensor<1x4x64x16xf32>
  return %o : tensor<1x4x64x16xf32>
}

// -----

// L2 on tensors: regions; block_mask with a mask region.

// CHECK-LABEL: func.func @l2_tensors
// CHECK: attic.block_mask layout(#attic.dense) captures(%{{.*}} : tensor<1x64xi32>) sizes
// CHECK: mask_mod {
// CHECK: attic.block_attention ins(
// CHECK-SAME: captures(%{{.*}} : tensor<1x64xi32>) outs(
// CHECK: mask_mod {
func.func @l2_tensors(%q: tensor<1x4x64x16xf32>, %k: tensor<1x4x64x16xf32>, %v: tensor<1x4x64x16xf32>, %doc: tensor<1x64xi32>, %init: tensor<1x4x64x16xf32>, %e0: tensor<1x1x2xi32>, %e1: tensor<1x1x2x2xi32>) -> tensor<1x4x64x16xf32> {
  %c64 = arith.constant 64 : index
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.dense) captures(%doc : tensor<1x64xi32>) sizes(%c64, %c64)
      outs(%e0, %e1, %e0, %e1 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %d: tensor<1x64xi32>):
        %x = tensor.extract %d[%b, %qi] : tensor<1x64xi32>
        %y = tensor.extract %d[%b, %ki] : tensor<1x64xi32>
        %p = arith.cmpi eq, %x, %y : i32
        attic.yield %p : i1
      } {block_q = 32 : i64, block_k = 32 : i64}
      -> tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  %r = attic.block_attention ins(%q, %k, %v : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>)
      blocks(%n, %i, %fn, %fi : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>)
      captures(%doc : tensor<1x64xi32>) outs(%init : tensor<1x4x64x16xf32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %d: tensor<1x64xi32>):
        %x = tensor.extract %d[%b, %qi] : tensor<1x64xi32>
        %y = tensor.extract %d[%b, %ki] : tensor<1x64xi32>
        %p = arith.cmpi eq, %x, %y : i32
        attic.yield %p : i1
      } {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64} -> tensor<1x4x64x16xf32>
  return %r : tensor<1x4x64x16xf32>
}

// -----

// The memref form: the modifiers are outlined functions.

// CHECK-LABEL: func.func private @mask
// CHECK-LABEL: func.func @l2_memrefs
// CHECK: attic.block_attention ins(
// CHECK-SAME: captures(%{{.*}} : memref<4xf32>)
// CHECK-SAME: mask_fn = @mask
// CHECK-SAME: score_fn = @score
func.func private @mask(%b: index, %h: index, %q: index, %k: index, %s: memref<4xf32>) -> i1 {
  %p = arith.cmpi sle, %k, %q : index
  return %p : i1
}
func.func private @score(%x: f32, %b: index, %h: index, %q: index, %k: index, %s: memref<4xf32>) -> f32 {
  %slope = memref.load %s[%h] : memref<4xf32>
  %y = arith.addf %x, %slope : f32
  return %y : f32
}
func.func @l2_memrefs(%q: memref<1x4x64x16xf32>, %k: memref<1x4x64x16xf32>, %v: memref<1x4x64x16xf32>, %s: memref<4xf32>, %o: memref<1x4x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x4x64x16xf32>, memref<1x4x64x16xf32>, memref<1x4x64x16xf32>)
      captures(%s : memref<4xf32>) outs(%o : memref<1x4x64x16xf32>)
      {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64, mask_fn = @mask, score_fn = @score}
  return
}

// -----

// A region is its own name scope: its arguments may reuse the function's
// names (before, "redefinition of SSA value '%q'").
// CHECK-LABEL: func.func @shadowing
// CHECK: attic.attention
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: tensor<2xf32>):
func.func @shadowing(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %slopes: tensor<2xf32>) -> tensor<1x2x64x16xf32> {
  %0 = attic.attention %q, %k, %v captures(%slopes : tensor<2xf32>) mask_mod {
      ^bb0(%b: index, %h: index, %q: index, %k: index, %slopes: tensor<2xf32>):
        %p = arith.cmpi sle, %k, %q : index
        attic.yield %p : i1
      } score_mod {
      ^bb0(%v: f32, %b: index, %h: index, %q: index, %k: index, %slopes: tensor<2xf32>):
        %s = tensor.extract %slopes[%h] : tensor<2xf32>
        %r = arith.addf %v, %s : f32
        attic.yield %r : f32
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %0 : tensor<1x2x64x16xf32>
}
