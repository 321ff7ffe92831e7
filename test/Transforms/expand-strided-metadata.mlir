// RUN: attic-opt %s --split-input-file --attic-expand-strided-metadata | FileCheck %s

// Two dynamic sizes in one group (upstream's expand-strided-metadata
// crashed): the source's metadata and a reinterpret_cast; the outer
// dimension's stride is the inner size times the source's stride.
// CHECK-LABEL: func.func @two_dynamic
//  CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[X:.*]]: index, %[[Y:.*]]: index)
//   CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
//       CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[A]]
//       CHECK: %[[S0:.*]] = affine.apply #{{.*}}()[%[[C1]], %[[Y]]]
//       CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[X]], %[[Y]]], strides: [%[[S0]], 1] : memref<f32> to memref<?x?xf32>
//   CHECK-NOT: memref.expand_shape
func.func @two_dynamic(%a: memref<?xf32>, %x: index, %y: index) -> memref<?x?xf32> {
  %e = memref.expand_shape %a [[0, 1]] output_shape [%x, %y] : memref<?xf32> into memref<?x?xf32>
  return %e : memref<?x?xf32>
}

// -----

// A strided source: the group's strides are multiples of the source's, and
// the offset is the source's.
// CHECK-DAG: #[[MUL:.*]] = affine_map<()[s0, s1] -> (s0 * s1)>
// CHECK-DAG: #[[MUL3:.*]] = affine_map<()[s0, s1, s2] -> ((s1 * s2) * s0)>
// CHECK-LABEL: func.func @strided
//  CHECK-SAME: (%[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[X:.*]]: index, %[[Y:.*]]: index, %[[Z:.*]]: index)
//       CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata %[[A]]
//       CHECK: %[[S1:.*]] = affine.apply #[[MUL]]()[%[[STRIDE]], %[[Z]]]
//       CHECK: %[[S0:.*]] = affine.apply #[[MUL3]]()[%[[Y]], %[[STRIDE]], %[[Z]]]
//       CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFFSET]]], sizes: [%[[X]], %[[Y]], %[[Z]]], strides: [%[[S0]], %[[S1]], %[[STRIDE]]]
func.func @strided(%a: memref<?xf32, strided<[?], offset: ?>>, %x: index, %y: index, %z: index) -> memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>> {
  %e = memref.expand_shape %a [[0, 1, 2]] output_shape [%x, %y, %z] : memref<?xf32, strided<[?], offset: ?>> into memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
  return %e : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
}

// -----

// A static size in a dimension the type leaves dynamic becomes an operand
// first; the second group has one dynamic size, which upstream's pattern
// takes (a reinterpret_cast of the whole op either way).
// CHECK-LABEL: func.func @static_in_dynamic
//   CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
//       CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata
//       CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, %[[C1]], 3, %{{.*}}], strides: [%[[STRIDES]]#0, %[[STRIDES]]#0, %{{.*}}, 1]
//   CHECK-NOT: memref.expand_shape
func.func @static_in_dynamic(%a: memref<?x?xf32>, %x: index, %k: index) -> memref<?x?x3x?xf32> {
  %e = memref.expand_shape %a [[0, 1], [2, 3]] output_shape [%x, 1, 3, %k] : memref<?x?xf32> into memref<?x?x3x?xf32>
  return %e : memref<?x?x3x?xf32>
}

// -----

// At most one dynamic size a group: upstream's pattern, unchanged.
// CHECK-LABEL: func.func @upstream
//       CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, 4], strides: [4, 1]
func.func @upstream(%a: memref<?xf32>, %x: index) -> memref<?x4xf32> {
  %e = memref.expand_shape %a [[0, 1]] output_shape [%x, 4] : memref<?xf32> into memref<?x4xf32>
  return %e : memref<?x4xf32>
}
