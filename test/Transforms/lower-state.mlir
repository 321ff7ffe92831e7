// RUN: attic-opt %s --split-input-file --attic-lower-state | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-lower-state=parallel-scans | FileCheck %s --check-prefix=PAR

// attic-lower-state: the kernelized-attention primitives as linalg on
// tensors.

// elu + 1 element-wise: x + 1 for x > 0, exp(x) otherwise.
// CHECK-LABEL: func.func @elu
// CHECK: linalg.generic
// CHECK: arith.cmpf ogt
// CHECK: arith.addf
// CHECK: math.exp
// CHECK: arith.select
// CHECK-NOT: attic.feature_map
func.func @elu(%x: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %phi = attic.feature_map elu_plus_one %x : tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %phi : tensor<1x2x64x16xf32>
}

// -----

// cosFormer over the doubled features: sin for f < D, cos for f >= D.
// CHECK-LABEL: func.func @cosformer
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x64x32xf32>)
// CHECK: arith.cmpi uge
// CHECK: math.cos
// CHECK: math.sin
func.func @cosformer(%x: tensor<1x2x64x16xf32>) -> tensor<1x2x64x32xf32> {
  %phi = attic.feature_map cosformer %x {period = 64 : i64} : tensor<1x2x64x16xf32> -> tensor<1x2x64x32xf32>
  return %phi : tensor<1x2x64x32xf32>
}

// -----

// FAVOR+: one GEMM of the [B*H*N, D] rows by the transposed projection,
// the squared norms, the exponent, its maximum per row (128 rows of 24),
// then exp(E - max) / sqrt(p); the maxima are the second result.
// CHECK-LABEL: func.func @favor_keys
// CHECK: linalg.matmul {{.*}} ins(%{{.*}}, %arg1 : tensor<128x16xf32>, tensor<24x16xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<128x16xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<128x24xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<128x24xf32>)
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: %[[C:.*]] = tensor.expand_shape %[[MAX]] {{.*}} : tensor<128xf32> into tensor<1x2x64xf32>
// CHECK: return %{{.*}}, %[[C]]
func.func @favor_keys(%x: tensor<1x2x64x16xf32>, %w: tensor<24x16xf32>) -> (tensor<1x2x64x24xf32>, tensor<1x2x64xf32>) {
  %phi, %c = attic.feature_map favor_plus %x projection(%w : tensor<24x16xf32>) : tensor<1x2x64x16xf32> -> tensor<1x2x64x24xf32>, tensor<1x2x64xf32>
  return %phi, %c : tensor<1x2x64x24xf32>, tensor<1x2x64xf32>
}

// -----

// State reduce: masked rows zeroed, phi(K)^T V over the 2 heads, the
// normalizer reduced over N.
// CHECK-LABEL: func.func @reduce
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg2 : tensor<1x2x64x16xf32>, tensor<1x64xi1>)
// CHECK: arith.select
// CHECK: linalg.batch_matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<2x64x16xf32>, tensor<2x64x8xf32>) outs(%{{.*}} : tensor<2x16x8xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]} {{.*}} outs(%{{.*}} : tensor<1x2x16xf32>)
func.func @reduce(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>, %m: tensor<1x64xi1>) -> (tensor<1x2x16x8xf32>, tensor<1x2x16xf32>) {
  %s, %z = attic.state_reduce %f, %v mask(%m : tensor<1x64xi1>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x16x8xf32>, tensor<1x2x16xf32>
  return %s, %z : tensor<1x2x16x8xf32>, tensor<1x2x16xf32>
}

// -----

// State scan over 4 chunks of 16 for 2 heads (8 chunk rows): the chunk
// states, their exclusive prefix sums in a loop over the 4 chunks, the
// inter-chunk product, the 16 x 16 intra-chunk scores with the lower
// triangle kept, accumulated into the numerator; never a 64 x 64 matrix.
// CHECK-LABEL: func.func @scan
// CHECK: linalg.batch_matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16x16xf32>, tensor<8x16x8xf32>) outs(%{{.*}} : tensor<8x16x8xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: tensor.insert_slice {{.*}} into {{.*}}[0, %{{.*}}, 0, 0] [2, 1, 16, 8] [1, 1, 1, 1] : tensor<2x16x8xf32> into tensor<2x4x16x8xf32>
// CHECK: tensor.extract_slice
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<8x16x16xf32>, tensor<8x16x8xf32>) outs(%{{.*}} : tensor<8x16x8xf32>)
// CHECK: linalg.batch_matmul {{.*}} outs(%{{.*}} : tensor<8x16x16xf32>)
// CHECK: arith.cmpi ule
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<8x16x16xf32>, tensor<8x16x8xf32>) outs(%{{.*}} : tensor<8x16x8xf32>)
// CHECK-NOT: tensor<64x64xf32>
// CHECK: return
// With parallel-scans (the GPU pipelines) the prefix sums are an
// scf.forall over (head, state element) and one over (head, feature), each
// thread adding its column over the 4 chunks; no loop over the chunks
// outside them.
// PAR-LABEL: func.func @scan
// PAR-NOT: scf.for
// PAR: scf.forall (%[[H:.*]], %[[E:.*]]) in (2, 128) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x4x128xf32>)
// PAR: scf.for %[[C:.*]] = %c0 to %c4 step %c1 iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<4xf32>, f32)
// PAR: %[[X:.*]] = tensor.extract %{{.*}}[%[[H]], %[[C]], %[[E]]] : tensor<2x4x128xf32>
// PAR: tensor.insert %[[ACC]] into %{{.*}}[%[[C]]] : tensor<4xf32>
// PAR: arith.addf %[[X]], %[[ACC]] : f32
// PAR: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[H]], 0, %[[E]]] [1, 4, 1] [1, 1, 1] : tensor<4xf32> into tensor<2x4x128xf32>
// PAR: scf.forall (%{{.*}}, %{{.*}}) in (2, 16) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x4x16xf32>)
// PAR: scf.for %{{.*}} = %c0 to %c4
// PAR: scf.forall.in_parallel
// PAR-NOT: scf.for
// PAR: return
func.func @scan(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) -> (tensor<1x2x64x8xf32>, tensor<1x2x64xf32>) {
  %n, %d = attic.state_scan %q, %k, %v {chunk = 16 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
  return %n, %d : tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
}

// -----

// State reduce with FAVOR+'s stabilizer: an unmasked key's -inf (an f32
// overflow) made NaN, masked keys at -inf, the largest stabilizer of each
// head (over N), each key's row times exp(c_j - max) (0 for a masked key),
// then the same products.
// CHECK-LABEL: func.func @reduce_favor
// CHECK: %[[NAN:.*]] = linalg.generic {{.*}} ins(%arg3 : tensor<1x2x64xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[OVERFLOWED:.*]] = arith.cmpf oeq, %{{.*}}, %[[NINF]] : f32
// CHECK: %[[QNAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: arith.select %[[OVERFLOWED]], %[[QNAN]], %{{.*}} : f32
// CHECK: %[[CM:.*]] = linalg.generic {{.*}} ins(%[[NAN]], %arg2 : tensor<1x2x64xf32>, tensor<1x64xi1>)
// CHECK: arith.select
// CHECK: %[[TOP:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[CM]] : tensor<1x2x64xf32>) outs(%{{.*}} : tensor<1x2xf32>)
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[CM]], %[[TOP]] : tensor<1x2x64x16xf32>, tensor<1x2x64xf32>, tensor<1x2xf32>)
// CHECK: arith.cmpf oeq
// CHECK: math.exp
// CHECK: arith.select
// CHECK: linalg.batch_matmul
func.func @reduce_favor(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>, %m: tensor<1x64xi1>, %c: tensor<1x2x64xf32>) -> (tensor<1x2x16x8xf32>, tensor<1x2x16xf32>) {
  %s, %z = attic.state_reduce %f, %v mask(%m : tensor<1x64xi1>) stabilizer(%c : tensor<1x2x64xf32>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x16x8xf32>, tensor<1x2x16xf32>
  return %s, %z : tensor<1x2x16x8xf32>, tensor<1x2x16xf32>
}

// -----

// State scan with FAVOR+'s stabilizer: each chunk's keys on the scale of
// its largest stabilizer, the largest before each chunk (a prefix maximum
// over the 4 chunks), the rescaled scan `acc alpha + chunk beta`, row i's
// scale (the maximum over j <= i in its chunk and the chunks before), and
// the intra-chunk scores times exp(c_j - m_i) below the diagonal.
// CHECK-LABEL: func.func @scan_favor
// CHECK: %[[CHUNKMAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: linalg.batch_matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16x16xf32>, tensor<8x16x8xf32>) outs(%{{.*}} : tensor<8x16x8xf32>)
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x4x1xf32>)
// CHECK: arith.maximumf
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[ROWMAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: arith.cmpi ule
// CHECK: linalg.batch_matmul {{.*}} outs(%{{.*}} : tensor<8x16x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[ROWMAX]] : tensor<8x16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK: arith.cmpi ule
// CHECK: math.exp
// CHECK-NOT: tensor<64x64xf32>
// CHECK: return
// PAR-LABEL: func.func @scan_favor
// PAR: scf.forall (%{{.*}}, %{{.*}}) in (2, 1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x4x1xf32>)
// PAR: arith.maximumf
// PAR: scf.forall (%[[H:.*]], %[[E:.*]]) in (2, 128) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x4x128xf32>)
// PAR: scf.for %[[C:.*]] = %c0 to %c4 step %c1 iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<4xf32>, f32)
// PAR: %[[X:.*]] = tensor.extract %{{.*}}[%[[H]], %[[C]], %[[E]]] : tensor<2x4x128xf32>
// PAR: %[[ALPHA:.*]] = tensor.extract %{{.*}}[%[[H]], %[[C]]] : tensor<2x4xf32>
// PAR: %[[BETA:.*]] = tensor.extract %{{.*}}[%[[H]], %[[C]]] : tensor<2x4xf32>
// PAR: %[[A:.*]] = arith.mulf %[[ACC]], %[[ALPHA]] : f32
// PAR: %[[B:.*]] = arith.mulf %[[X]], %[[BETA]] : f32
// PAR: arith.addf %[[A]], %[[B]] : f32
// PAR: return
func.func @scan_favor(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>, %c: tensor<1x2x64xf32>) -> (tensor<1x2x64x8xf32>, tensor<1x2x64xf32>) {
  %n, %d = attic.state_scan %q, %k, %v stabilizer(%c : tensor<1x2x64xf32>) {chunk = 16 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
  return %n, %d : tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
}
