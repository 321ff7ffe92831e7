// RUN: attic-opt %s --split-input-file --attic-decompose | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-decompose="block-q=32 block-k=16" | FileCheck %s --check-prefix=TILES

// The default scale 1/sqrt(64) becomes explicit; the destination is a
// tensor.empty of the result shape.
// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%[[Q:.*]]: tensor<1x4x128x64xf32>, %[[K:.*]]: tensor<1x4x128x64xf32>, %[[V:.*]]: tensor<1x4x128x64xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<1x4x128x64xf32>
// CHECK: %[[R:.*]] = attic.block_attention ins(%[[Q]], %[[K]], %[[V]] : {{.*}}) outs(%[[INIT]] : tensor<1x4x128x64xf32>) {block_k = 128 : i64, block_q = 128 : i64, layout = #attic.dense, scale = 1.250000e-01 : f32} -> tensor<1x4x128x64xf32>
// CHECK: return %[[R]]
// CHECK-NOT: attic.attention
// TILES-LABEL: func.func @dense
// TILES: block_k = 16 : i64, block_q = 32 : i64
func.func @dense(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

// causal becomes the causal layout; bias, mask and an explicit scale pass
// through.
// CHECK-LABEL: func.func @causal_bias_mask
// CHECK: attic.block_attention ins({{.*}}) bias(%{{.*}} : tensor<2x3x96xf16>) mask(%{{.*}} : tensor<2x96xi1>) outs(%{{.*}} : tensor<2x3x80x32xf16>) {{{.*}}layout = #attic.causal, scale = 5.000000e-01 : f32}
func.func @causal_bias_mask(%q: tensor<2x3x80x16xf16>, %k: tensor<2x3x96x16xf16>, %v: tensor<2x3x96x32xf16>, %b: tensor<2x3x96xf16>, %m: tensor<2x96xi1>) -> tensor<2x3x80x32xf16> {
  %o = attic.attention %q, %k, %v causal scale 0.5 bias(%b : tensor<2x3x96xf16>) mask(%m : tensor<2x96xi1>) : tensor<2x3x80x16xf16>, tensor<2x3x96x16xf16>, tensor<2x3x96x32xf16> -> tensor<2x3x80x32xf16>
  return %o : tensor<2x3x80x32xf16>
}

// -----

// Dynamic result dims: B, H, Nq from the query, Dv from the value.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[Q:.*]]: tensor<?x?x?x64xbf16>, %[[K:.*]]: tensor<?x?x?x64xbf16>, %[[V:.*]]: tensor<?x?x?x?xbf16>)
// CHECK-DAG: %[[B:.*]] = tensor.dim %[[Q]], %c0
// CHECK-DAG: %[[H:.*]] = tensor.dim %[[Q]], %c1
// CHECK-DAG: %[[NQ:.*]] = tensor.dim %[[Q]], %c2
// CHECK-DAG: %[[DV:.*]] = tensor.dim %[[V]], %c3
// CHECK: tensor.empty(%[[B]], %[[H]], %[[NQ]], %[[DV]]) : tensor<?x?x?x?xbf16>
// CHECK: attic.block_attention
func.func @dynamic(%q: tensor<?x?x?x64xbf16>, %k: tensor<?x?x?x64xbf16>, %v: tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xbf16> {
  %o = attic.attention %q, %k, %v : tensor<?x?x?x64xbf16>, tensor<?x?x?x64xbf16>, tensor<?x?x?x?xbf16> -> tensor<?x?x?x?xbf16>
  return %o : tensor<?x?x?x?xbf16>
}
