// RUN: attic-opt --attic-linalg-to-blas --split-input-file %s | FileCheck %s

// Row-major operands: no transposes, leading dimensions = row strides.
// CHECK: func.func private @attic_rt_sgemm(index, index, index, index, index, index, index, index, index, index, index, index, index, index)
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[A:[a-z_0-9]+]]: memref<64x32xf32>, %[[B:[a-z_0-9]+]]: memref<32x16xf32>, %[[C:[a-z_0-9]+]]: memref<64x16xf32>)
// CHECK-DAG: %[[C0:[a-z_0-9]+]] = arith.constant 0 : index
// CHECK-DAG: %[[C16:[a-z_0-9]+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:[a-z_0-9]+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:[a-z_0-9]+]] = arith.constant 64 : index
// CHECK: %[[BASEA:[a-z_0-9]+]], %{{.*}} = memref.extract_strided_metadata %[[A]]
// CHECK: %[[PA:[a-z_0-9]+]] = memref.extract_aligned_pointer_as_index %[[BASEA]]
// CHECK: %[[BASEB:[a-z_0-9]+]], %{{.*}} = memref.extract_strided_metadata %[[B]]
// CHECK: %[[PB:[a-z_0-9]+]] = memref.extract_aligned_pointer_as_index %[[BASEB]]
// CHECK: %[[BASEC:[a-z_0-9]+]], %{{.*}} = memref.extract_strided_metadata %[[C]]
// CHECK: %[[PC:[a-z_0-9]+]] = memref.extract_aligned_pointer_as_index %[[BASEC]]
// CHECK: call @attic_rt_sgemm(%[[C0]], %[[C0]], %[[C64]], %[[C16]], %[[C32]], %[[PA]], %[[C0]], %[[C32]], %[[PB]], %[[C0]], %[[C16]], %[[PC]], %[[C0]], %[[C16]])
// CHECK-NOT: linalg.matmul
func.func @plain(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// Subviews: offsets and leading strides of the parent buffers.
// CHECK-LABEL: func.func @subviews
// CHECK-DAG: %[[C0:[a-z_0-9]+]] = arith.constant 0 : index
// CHECK-DAG: %[[C9:[a-z_0-9]+]] = arith.constant 9 : index
// CHECK-DAG: %[[C13:[a-z_0-9]+]] = arith.constant 13 : index
// CHECK-DAG: %[[C17:[a-z_0-9]+]] = arith.constant 17 : index
// CHECK-DAG: %[[C30:[a-z_0-9]+]] = arith.constant 30 : index
// CHECK-DAG: %[[C31:[a-z_0-9]+]] = arith.constant 31 : index
// CHECK-DAG: %[[C32:[a-z_0-9]+]] = arith.constant 32 : index
// CHECK-DAG: %[[C50:[a-z_0-9]+]] = arith.constant 50 : index
// CHECK-DAG: %[[C63:[a-z_0-9]+]] = arith.constant 63 : index
// CHECK-DAG: %[[C155:[a-z_0-9]+]] = arith.constant 155 : index
// CHECK: call @attic_rt_sgemm(%[[C0]], %[[C0]], %[[C17]], %[[C13]], %[[C9]], %{{.*}}, %[[C155]], %[[C50]], %{{.*}}, %[[C32]], %[[C30]], %{{.*}}, %[[C63]], %[[C31]])
// CHECK-NOT: linalg.matmul
func.func @subviews(%a: memref<100x50xf32>, %b: memref<40x30xf32>, %c: memref<70x31xf32>) {
  %sa = memref.subview %a[3, 5] [17, 9] [1, 1] : memref<100x50xf32> to memref<17x9xf32, strided<[50, 1], offset: 155>>
  %sb = memref.subview %b[1, 2] [9, 13] [1, 1] : memref<40x30xf32> to memref<9x13xf32, strided<[30, 1], offset: 32>>
  %sc = memref.subview %c[2, 1] [17, 13] [1, 1] : memref<70x31xf32> to memref<17x13xf32, strided<[31, 1], offset: 63>>
  linalg.matmul ins(%sa, %sb : memref<17x9xf32, strided<[50, 1], offset: 155>>, memref<9x13xf32, strided<[30, 1], offset: 32>>)
                outs(%sc : memref<17x13xf32, strided<[31, 1], offset: 63>>)
  return
}

// -----

// Transposing indexing maps: transA = transB = 1, k from A's dim 0.
// CHECK-LABEL: func.func @transposed_maps
// CHECK-DAG: %[[C0:[a-z_0-9]+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:[a-z_0-9]+]] = arith.constant 1 : index
// CHECK-DAG: %[[C16:[a-z_0-9]+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:[a-z_0-9]+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:[a-z_0-9]+]] = arith.constant 64 : index
// CHECK: call @attic_rt_sgemm(%[[C1]], %[[C1]], %[[C64]], %[[C16]], %[[C32]], %{{.*}}, %[[C0]], %[[C64]], %{{.*}}, %[[C0]], %[[C32]], %{{.*}}, %[[C0]], %[[C16]])
// CHECK-NOT: linalg.matmul
func.func @transposed_maps(%a: memref<32x64xf32>, %b: memref<16x32xf32>, %c: memref<64x16xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<32x64xf32>, memref<16x32xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// A column-major A (a transposed view) is BLAS's transpose of a row-major
// matrix with leading dimension = the stride of dim 1; dynamic sizes and
// strides come from the metadata.
// CHECK-LABEL: func.func @column_major_dynamic
// CHECK-DAG: %[[C0:[a-z_0-9]+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:[a-z_0-9]+]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:[a-z_0-9]+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:[a-z_0-9]+]] = arith.constant 64 : index
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %[[STRB:[a-z_0-9]+]]:2 = memref.extract_strided_metadata %{{.*}} : memref<?x?xf32>
// CHECK: %{{.*}}, %{{.*}}, %[[SIZEC:[a-z_0-9]+]]:2, %[[STRC:[a-z_0-9]+]]:2 = memref.extract_strided_metadata %{{.*}} : memref<64x?xf32>
// CHECK: call @attic_rt_sgemm(%[[C1]], %[[C0]], %[[C64]], %[[SIZEC]]#1, %[[C32]], %{{.*}}, %[[C0]], %[[C64]], %{{.*}}, %[[C0]], %[[STRB]]#0, %{{.*}}, %[[C0]], %[[STRC]]#0)
func.func @column_major_dynamic(%a: memref<32x64xf32>, %b: memref<?x?xf32>, %c: memref<64x?xf32>) {
  %t = memref.transpose %a (i, j) -> (j, i) : memref<32x64xf32> to memref<64x32xf32, strided<[1, 64]>>
  linalg.matmul ins(%t, %b : memref<64x32xf32, strided<[1, 64]>>, memref<?x?xf32>) outs(%c : memref<64x?xf32>)
  return
}

// -----

// Left for the loops: f64, a non-unit inner stride, a column-major C,
// tensors, and a matmul inside a parallel loop. No declaration is added.
// CHECK-NOT: attic_rt_sgemm
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-5: linalg.matmul
// CHECK-NOT: attic_rt_sgemm
func.func @left_alone(%a: memref<8x8xf64>, %b: memref<8x8xf64>, %c: memref<8x8xf64>,
                      %x: memref<8x8xf32, strided<[16, 2]>>, %y: memref<8x8xf32>, %z: memref<8x8xf32>,
                      %zt: memref<8x8xf32, strided<[1, 8]>>,
                      %ta: tensor<8x8xf32>, %tb: tensor<8x8xf32>, %tc: tensor<8x8xf32>) -> tensor<8x8xf32> {
  linalg.matmul ins(%a, %b : memref<8x8xf64>, memref<8x8xf64>) outs(%c : memref<8x8xf64>)
  linalg.matmul ins(%x, %y : memref<8x8xf32, strided<[16, 2]>>, memref<8x8xf32>) outs(%z : memref<8x8xf32>)
  linalg.matmul ins(%y, %y : memref<8x8xf32>, memref<8x8xf32>) outs(%zt : memref<8x8xf32, strided<[1, 8]>>)
  %r = linalg.matmul ins(%ta, %tb : tensor<8x8xf32>, tensor<8x8xf32>) outs(%tc : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    linalg.matmul ins(%y, %y : memref<8x8xf32>, memref<8x8xf32>) outs(%z : memref<8x8xf32>)
  }
  return %r : tensor<8x8xf32>
}

// -----

// A declaration of the right type is reused.
// CHECK: func.func private @attic_rt_sgemm
// CHECK-NOT: func.func private @attic_rt_sgemm
// CHECK-LABEL: func.func @existing_declaration
// CHECK: call @attic_rt_sgemm
func.func private @attic_rt_sgemm(index, index, index, index, index, index, index, index, index, index, index, index, index, index)
func.func @existing_declaration(%a: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// -----

// A batch matmul (here with the first operand transposed, the state
// phi(K)^T V of kernelized attention) becomes a loop over the batch of
// sgemm calls on rank-reduced subviews: transA = 1, m = 16, n = 8, k = 64.
// CHECK-LABEL: func.func @batch
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1
// CHECK: memref.subview %arg0[%[[I]], 0, 0] [1, 64, 16] [1, 1, 1]
// CHECK: memref.subview %arg1[%[[I]], 0, 0] [1, 64, 8] [1, 1, 1]
// CHECK: memref.subview %arg2[%[[I]], 0, 0] [1, 16, 8] [1, 1, 1]
// CHECK: call @attic_rt_sgemm(%c1, %c0, %c16, %c8, %c64,
// CHECK-NOT: linalg.batch_matmul
func.func @batch(%a: memref<4x64x16xf32>, %b: memref<4x64x8xf32>, %c: memref<4x16x8xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<4x64x16xf32>, memref<4x64x8xf32>) outs(%c : memref<4x16x8xf32>)
  return
}

// -----

// Dynamic shapes and non-f32 batch matmuls stay for the loops.
// CHECK-LABEL: func.func @batch_left_alone
// CHECK-COUNT-2: linalg.batch_matmul
// CHECK-NOT: attic_rt_sgemm
func.func @batch_left_alone(%a: memref<?x8x8xf32>, %b: memref<2x8x8xf64>) {
  linalg.batch_matmul ins(%a, %a : memref<?x8x8xf32>, memref<?x8x8xf32>) outs(%a : memref<?x8x8xf32>)
  linalg.batch_matmul ins(%b, %b : memref<2x8x8xf64>, memref<2x8x8xf64>) outs(%b : memref<2x8x8xf64>)
  return
}

// -----

// Not host code of the module the pass runs on: a matmul in a gpu.launch
// body, in a gpu.module's kernel and in a nested module stays a matmul
// (a host call there was invalid, and a nested module's call named a
// declaration the outer module held); no declaration is left behind.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-NOT: attic_rt_sgemm
// CHECK: gpu.launch
// CHECK: linalg.matmul
// CHECK: gpu.module @kernels
// CHECK: linalg.matmul
// CHECK: module @inner
// CHECK: linalg.matmul
// CHECK-NOT: attic_rt_sgemm
module attributes {gpu.container_module} {
  func.func @in_launch(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
      linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
      gpu.terminator
    }
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) kernel {
      linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
      gpu.return
    }
  }
  module @inner {
    func.func @nested(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
      linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
      return
    }
  }
}
