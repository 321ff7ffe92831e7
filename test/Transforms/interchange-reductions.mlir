// RUN: attic-opt %s --split-input-file --attic-interchange-reductions | FileCheck %s

// A reduction over the middle dim: the parallel dims first, the reduction
// last; the maps follow the new loop order.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @middle_reduction
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.*}} : memref<2x16x8xf32>) outs(%{{.*}} : memref<2x8xf32>)
// CHECK: arith.addf
func.func @middle_reduction(%x: memref<2x16x8xf32>, %s: memref<2x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, n, f) -> (b, n, f)>,
                                   affine_map<(b, n, f) -> (b, f)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<2x16x8xf32>) outs(%s : memref<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// linalg.index follows its loop: the index of the old dim 1 (the
// reduction) is the new dim 2.
// CHECK-DAG: #[[PICK:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @index_follows
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[B:.*]] = linalg.index 0 : index
// CHECK: %[[F:.*]] = linalg.index 1 : index
// CHECK: %[[N:.*]] = linalg.index 2 : index
// CHECK: %[[OLD:.*]] = affine.apply #[[PICK]](%[[B]], %[[F]], %[[N]])
// CHECK: arith.index_cast %[[OLD]]
func.func @index_follows(%x: tensor<2x16x8xf32>, %s: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %o = linalg.generic {indexing_maps = [affine_map<(b, n, f) -> (b, n, f)>,
                                        affine_map<(b, n, f) -> (b, f)>],
                       iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<2x16x8xf32>) outs(%s : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %n = linalg.index 1 : index
    %i = arith.index_cast %n : index to i64
    %f = arith.sitofp %i : i64 to f32
    %m = arith.mulf %f, %in : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  return %o : tensor<2x8xf32>
}

// -----

// A named reduction over its middle dim is generalized first.
// CHECK-LABEL: func.func @named_reduce
// CHECK-NOT: linalg.reduce
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.maximumf
func.func @named_reduce(%x: memref<4x32x16xf32>, %m: memref<4x16xf32>) {
  linalg.reduce ins(%x : memref<4x32x16xf32>) outs(%m : memref<4x16xf32>)
      dimensions = [1]
      (%in: f32, %acc: f32) {
        %r = arith.maximumf %in, %acc : f32
        linalg.yield %r : f32
      }
  return
}

// -----

// Reductions already innermost (a matmul, a row sum) and ops without a
// reduction are left as they are.
// CHECK-LABEL: func.func @already_innermost
// CHECK: linalg.matmul
// CHECK: linalg.reduce
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
func.func @already_innermost(%a: memref<8x4xf32>, %b: memref<4x8xf32>,
                             %c: memref<8x8xf32>, %r: memref<8xf32>) {
  linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.reduce ins(%c : memref<8x8xf32>) outs(%r : memref<8xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}
