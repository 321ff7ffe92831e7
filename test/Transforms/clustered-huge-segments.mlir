// K-means' initial centroid c is a row drawn from segment c of the rows. A
// segment of 2^32 rows divided the 32-bit draw by zero (SIGFPE, exit 70, in
// attic-lower-state); such a segment now takes a 64-bit draw.
// RUN: attic-opt %s --attic-decompose --attic-lower-state | FileCheck %s

// CHECK-LABEL: func.func @segment_of_2_32_rows
// CHECK-NOT: attic.kmeans
func.func @segment_of_2_32_rows(%q: tensor<1x1x4294967296x4xf32>, %k: tensor<1x1x4294967296x4xf32>, %v: tensor<1x1x4294967296x4xf32>) -> tensor<1x1x4294967296x4xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 1 : i64, iterations = 2 : i64, seed = 1 : i64} : tensor<1x1x4294967296x4xf32>, tensor<1x1x4294967296x4xf32>, tensor<1x1x4294967296x4xf32> -> tensor<1x1x4294967296x4xf32>
  return %o : tensor<1x1x4294967296x4xf32>
}

// CHECK-LABEL: func.func @segments_of_2_34_rows
// CHECK-NOT: attic.kmeans
func.func @segments_of_2_34_rows(%q: tensor<1x1x68719476736x4xf32>, %k: tensor<1x1x68719476736x4xf32>, %v: tensor<1x1x68719476736x4xf32>) -> tensor<1x1x68719476736x4xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 4 : i64, iterations = 1 : i64, seed = 7 : i64} : tensor<1x1x68719476736x4xf32>, tensor<1x1x68719476736x4xf32>, tensor<1x1x68719476736x4xf32> -> tensor<1x1x68719476736x4xf32>
  return %o : tensor<1x1x68719476736x4xf32>
}
