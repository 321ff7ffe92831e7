// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// Kernelized attention and its L2 primitives round-trip: every feature
// map, both normalizations, the mask and projection operands, causal with
// a chunk, cross attention (Nq != Nk), and Dv != D.

// CHECK-LABEL: func.func @elu
// CHECK: attic.kernelized_attention elu_plus_one %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<2x64xi1>) : tensor<2x4x64x16xf32>, tensor<2x4x64x16xf32>, tensor<2x4x64x8xf32> -> tensor<2x4x64x8xf32>
func.func @elu(%q: tensor<2x4x64x16xf32>, %v: tensor<2x4x64x8xf32>, %m: tensor<2x64xi1>) -> tensor<2x4x64x8xf32> {
  %o = attic.kernelized_attention elu_plus_one %q, %q, %v mask(%m : tensor<2x64xi1>)
      : tensor<2x4x64x16xf32>, tensor<2x4x64x16xf32>, tensor<2x4x64x8xf32> -> tensor<2x4x64x8xf32>
  return %o : tensor<2x4x64x8xf32>
}

// -----

// CHECK-LABEL: func.func @relu_causal_rmsnorm
// CHECK: attic.kernelized_attention relu %{{.*}}, %{{.*}}, %{{.*}} normalize rmsnorm {causal, chunk = 16 : i64, eps = 9.99999993E-9 : f32}
func.func @relu_causal_rmsnorm(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.kernelized_attention relu %q, %q, %q normalize rmsnorm {causal, chunk = 16 : i64, eps = 1.0e-8 : f32}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// The default normalization is not printed.
// CHECK-LABEL: func.func @cosformer_cross
// CHECK: attic.kernelized_attention cosformer %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x32x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x32x16xf32>
func.func @cosformer_cross(%q: tensor<1x2x32x16xf32>, %k: tensor<1x2x64x16xf32>) -> tensor<1x2x32x16xf32> {
  %o = attic.kernelized_attention cosformer %q, %k, %k normalize linear
      : tensor<1x2x32x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x32x16xf32>
  return %o : tensor<1x2x32x16xf32>
}

// -----

// CHECK-LABEL: func.func @performer
// CHECK: attic.kernelized_attention performer_relu %{{.*}}, %{{.*}}, %{{.*}} {features = 32 : i64, seed = 5 : i64}
// CHECK: attic.kernelized_attention favor_plus %{{.*}}, %{{.*}}, %{{.*}} projection(%{{.*}} : tensor<24x16xf32>) {causal}
func.func @performer(%q: tensor<1x2x64x16xf32>, %w: tensor<24x16xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) {
  %a = attic.kernelized_attention performer_relu %q, %q, %q {features = 32 : i64, seed = 5 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  %b = attic.kernelized_attention favor_plus %q, %q, %q projection(%w : tensor<24x16xf32>) {causal}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %a, %b : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>
}

// -----

// CHECK-LABEL: func.func @primitives
// CHECK: attic.feature_map cosformer %{{.*}} {period = 64 : i64} : tensor<1x2x64x16xf32> -> tensor<1x2x64x32xf32>
// CHECK: %[[R:.*]], %[[C:.*]] = attic.feature_map favor_plus %{{.*}} projection(%{{.*}} : tensor<24x16xf32>) : tensor<1x2x64x16xf32> -> tensor<1x2x64x24xf32>, tensor<1x2x64xf32>
// CHECK: attic.state_reduce %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x64xi1>) : tensor<1x2x64x32xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x32x8xf32>, tensor<1x2x32xf32>
// CHECK: attic.state_scan %{{.*}}, %{{.*}}, %{{.*}} {chunk = 16 : i64} : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
// CHECK: attic.state_reduce %[[R]], %{{.*}} mask(%{{.*}} : tensor<1x64xi1>) stabilizer(%[[C]] : tensor<1x2x64xf32>) : tensor<1x2x64x24xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x24x8xf32>, tensor<1x2x24xf32>
// CHECK: attic.state_scan %[[R]], %[[R]], %{{.*}} stabilizer(%[[C]] : tensor<1x2x64xf32>) {chunk = 16 : i64} : tensor<1x2x64x24xf32>, tensor<1x2x64x24xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
func.func @primitives(%x: tensor<1x2x64x16xf32>, %w: tensor<24x16xf32>, %v: tensor<1x2x64x8xf32>, %m: tensor<1x64xi1>) {
  %phi = attic.feature_map cosformer %x {period = 64 : i64} : tensor<1x2x64x16xf32> -> tensor<1x2x64x32xf32>
  %r, %c = attic.feature_map favor_plus %x projection(%w : tensor<24x16xf32>) : tensor<1x2x64x16xf32> -> tensor<1x2x64x24xf32>, tensor<1x2x64xf32>
  %s, %z = attic.state_reduce %phi, %v mask(%m : tensor<1x64xi1>)
      : tensor<1x2x64x32xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x32x8xf32>, tensor<1x2x32xf32>
  %n, %d = attic.state_scan %phi, %phi, %v {chunk = 16 : i64}
      : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
  %s2, %z2 = attic.state_reduce %r, %v mask(%m : tensor<1x64xi1>) stabilizer(%c : tensor<1x2x64xf32>)
      : tensor<1x2x64x24xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x24x8xf32>, tensor<1x2x24xf32>
  %n2, %d2 = attic.state_scan %r, %r, %v stabilizer(%c : tensor<1x2x64xf32>) {chunk = 16 : i64}
      : tensor<1x2x64x24xf32>, tensor<1x2x64x24xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
  return
}
