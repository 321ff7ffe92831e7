// RUN: attic-opt %s --split-input-file --attic-decompose | FileCheck %s

// attic-decompose turns kernelized attention into its L2 primitives: the
// feature map of the queries and of the keys, the state reduction and its
// application (non-causal) or the chunked scan (causal), and the
// normalization.

// Non-causal: state_reduce, phi(Q) S as a batch_matmul over B*H = 8 heads,
// phi(Q) . z as a reduction, then num / max(den, eps).
// CHECK-LABEL: func.func @linear
// CHECK: %[[Q:.*]] = attic.feature_map elu_plus_one %arg0 : tensor<2x4x64x16xf32> -> tensor<2x4x64x16xf32>
// CHECK: %[[K:.*]] = attic.feature_map elu_plus_one %arg1 : tensor<2x4x64x16xf32> -> tensor<2x4x64x16xf32>
// CHECK: %[[S:.*]], %[[Z:.*]] = attic.state_reduce %[[K]], %arg2 mask(%arg3 : tensor<2x64xi1>) : tensor<2x4x64x16xf32>, tensor<2x4x64x8xf32> -> tensor<2x4x16x8xf32>, tensor<2x4x16xf32>
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<8x64x16xf32>, tensor<8x16x8xf32>) outs(%{{.*}} : tensor<8x64x8xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[Q]], %[[Z]] : tensor<2x4x64x16xf32>, tensor<2x4x16xf32>)
// CHECK: arith.maximumf
// CHECK: arith.divf
// CHECK-NOT: attic.kernelized_attention
func.func @linear(%q: tensor<2x4x64x16xf32>, %k: tensor<2x4x64x16xf32>, %v: tensor<2x4x64x8xf32>, %m: tensor<2x64xi1>) -> tensor<2x4x64x8xf32> {
  %o = attic.kernelized_attention elu_plus_one %q, %k, %v mask(%m : tensor<2x64xi1>)
      : tensor<2x4x64x16xf32>, tensor<2x4x64x16xf32>, tensor<2x4x64x8xf32> -> tensor<2x4x64x8xf32>
  return %o : tensor<2x4x64x8xf32>
}

// -----

// Causal with the default chunk min(64, N) = 32 and RMSNorm:
// o / (sqrt(sum o^2 / Dv) + eps).
// CHECK-LABEL: func.func @causal_rmsnorm
// CHECK: attic.feature_map relu
// CHECK: attic.feature_map relu
// CHECK: attic.state_scan %{{.*}}, %{{.*}}, %arg0 {chunk = 32 : i64}
// CHECK: linalg.generic {{.*}} ins(%numerator : tensor<1x2x32x16xf32>) outs(%{{.*}} : tensor<1x2x32xf32>)
// CHECK: math.sqrt
// CHECK: arith.divf
func.func @causal_rmsnorm(%q: tensor<1x2x32x16xf32>) -> tensor<1x2x32x16xf32> {
  %o = attic.kernelized_attention relu %q, %q, %q normalize rmsnorm {causal}
      : tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32> -> tensor<1x2x32x16xf32>
  return %o : tensor<1x2x32x16xf32>
}

// -----

// cosFormer: the period is max(Nq, Nk) = 64 for both feature maps.
// CHECK-LABEL: func.func @cosformer_cross
// CHECK: attic.feature_map cosformer %arg0 {period = 64 : i64} : tensor<1x2x32x16xf32> -> tensor<1x2x32x32xf32>
// CHECK: attic.feature_map cosformer %arg1 {period = 64 : i64} : tensor<1x2x64x16xf32> -> tensor<1x2x64x32xf32>
// CHECK: attic.state_reduce
func.func @cosformer_cross(%q: tensor<1x2x32x16xf32>, %k: tensor<1x2x64x16xf32>) -> tensor<1x2x32x16xf32> {
  %o = attic.kernelized_attention cosformer %q, %k, %k
      : tensor<1x2x32x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x32x16xf32>
  return %o : tensor<1x2x32x16xf32>
}

// -----

// Random features drawn at compile time: one [p, D] constant shared by the
// query and the key maps; FAVOR+'s key map also returns its stabilizers,
// which the state scan (and state reduce) take.
// CHECK-LABEL: func.func @favor
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<24x16xf32>
// CHECK: attic.feature_map favor_plus %arg0 projection(%[[W]] : tensor<24x16xf32>) : tensor<1x2x64x16xf32> -> tensor<1x2x64x24xf32>{{$}}
// CHECK: %[[K:.*]], %[[C:.*]] = attic.feature_map favor_plus %arg0 projection(%[[W]] : tensor<24x16xf32>) : tensor<1x2x64x16xf32> -> tensor<1x2x64x24xf32>, tensor<1x2x64xf32>
// CHECK: attic.state_scan %{{.*}}, %[[K]], %arg0 stabilizer(%[[C]] : tensor<1x2x64xf32>) {chunk = 16 : i64}
func.func @favor(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.kernelized_attention favor_plus %q, %q, %q {features = 24 : i64, seed = 9 : i64, causal, chunk = 16 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// A given projection is used as it is.
// CHECK-LABEL: func.func @given
// CHECK-NOT: arith.constant dense
// CHECK: attic.feature_map performer_relu %arg0 projection(%arg1 : tensor<8x16xf32>)
func.func @given(%q: tensor<1x2x64x16xf32>, %w: tensor<8x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.kernelized_attention performer_relu %q, %q, %q projection(%w : tensor<8x16xf32>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// Causal without `chunk`: the largest divisor of N up to 64 (N = 100: 50;
// min(64, N) = 64 did not divide N and was refused).
// CHECK-LABEL: func.func @default_chunk
// CHECK: attic.state_scan {{.*}} {chunk = 50 : i64}
func.func @default_chunk(%q: tensor<1x1x100x8xf32>) -> tensor<1x1x100x8xf32> {
  %o = attic.kernelized_attention elu_plus_one %q, %q, %q {causal}
      : tensor<1x1x100x8xf32>, tensor<1x1x100x8xf32>, tensor<1x1x100x8xf32> -> tensor<1x1x100x8xf32>
  return %o : tensor<1x1x100x8xf32>
}
