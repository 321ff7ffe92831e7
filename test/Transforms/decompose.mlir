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

// -----

// A layout passes through; `causal` with a layout becomes their
// intersection.
// CHECK-LABEL: func.func @layouts
// CHECK: attic.block_attention {{.*}}layout = #attic.window<left = 63, right = 0>
// CHECK: attic.block_attention {{.*}}layout = #attic.intersect<[#attic.causal, #attic.union<[#attic.sinks<count = 4>, #attic.window<left = 63, right = 0>]>]>
func.func @layouts(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>) -> (tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>) {
  %0 = attic.attention %q, %k, %v layout(#attic.window<left = 63, right = 0>) : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32> -> tensor<1x2x256x16xf32>
  %1 = attic.attention %q, %k, %v causal layout(#attic.union<[#attic.sinks<count = 4>, #attic.window<left = 63, right = 0>]>) : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32> -> tensor<1x2x256x16xf32>
  return %0, %1 : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>
}

// -----

// Document ids need run-time classification: an attic.block_mask in front
// computes the lists, one row per batch (the layout depends on it) and one
// for all heads; its lists go to block_attention with the layout.
// CHECK-LABEL: func.func @documents
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x256x16xf32>, %{{.*}}: tensor<2x4x256x16xf32>, %{{.*}}: tensor<2x4x256x16xf32>, %[[IDS:.*]]: tensor<2x256xi32>)
// CHECK: %[[L:.*]]:4 = attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%[[IDS]] : tensor<2x256xi32>) sizes(%{{.*}}, %{{.*}}) outs({{.*}} : tensor<2x1x2xi32>, tensor<2x1x2x2xi32>, tensor<2x1x2xi32>, tensor<2x1x2x2xi32>) {block_k = 128 : i64, block_q = 128 : i64}
// CHECK: attic.block_attention ins(%[[Q]], {{.*}}) layout_operands(%[[IDS]] : tensor<2x256xi32>) blocks(%[[L]]#0, %[[L]]#1, %[[L]]#2, %[[L]]#3 : {{.*}}) outs({{.*}}) {{{.*}}layout = #attic.documents<query_ids = 0, key_ids = 0>
func.func @documents(%q: tensor<2x4x256x16xf32>, %k: tensor<2x4x256x16xf32>, %v: tensor<2x4x256x16xf32>, %ids: tensor<2x256xi32>) -> tensor<2x4x256x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<2x256xi32>) : tensor<2x4x256x16xf32>, tensor<2x4x256x16xf32>, tensor<2x4x256x16xf32> -> tensor<2x4x256x16xf32>
  return %o : tensor<2x4x256x16xf32>
}

// -----

// BigBird's random blocks depend on the head, not on the batch.
// CHECK-LABEL: func.func @random
// CHECK: attic.block_mask layout(#attic.random<block = 64, count = 2, seed = 7>) sizes({{.*}}) outs({{.*}} : tensor<1x4x2xi32>, tensor<1x4x2x2xi32>, tensor<1x4x2xi32>, tensor<1x4x2x2xi32>)
func.func @random(%q: tensor<2x4x256x16xf32>, %k: tensor<2x4x256x16xf32>, %v: tensor<2x4x256x16xf32>) -> tensor<2x4x256x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.random<block = 64, count = 2, seed = 7>) : tensor<2x4x256x16xf32>, tensor<2x4x256x16xf32>, tensor<2x4x256x16xf32> -> tensor<2x4x256x16xf32>
  return %o : tensor<2x4x256x16xf32>
}

// -----

// Given block lists keep their block sizes (whatever the pass options).
// CHECK-LABEL: func.func @given_lists
// CHECK-NOT: attic.block_mask
// CHECK: attic.block_attention {{.*}} blocks({{.*}}) outs({{.*}}) {block_k = 32 : i64, block_q = 64 : i64, layout = #attic.dense
func.func @given_lists(%q: tensor<1x2x128x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x16xf32>, %n: tensor<1x1x2xi32>, %i: tensor<1x1x2x4xi32>) -> tensor<1x2x128x16xf32> {
  %o = attic.attention %q, %k, %v blocks(%n, %i, %n, %i : tensor<1x1x2xi32>, tensor<1x1x2x4xi32>, tensor<1x1x2xi32>, tensor<1x1x2x4xi32>) block_sizes [64, 32] : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  return %o : tensor<1x2x128x16xf32>
}
