// RUN: attic-opt %s --split-input-file | FileCheck %s
// Round trip: print, parse again, print the same.
// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dense
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
func.func @dense(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

// CHECK-LABEL: func.func @all_modifiers
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} causal scale 5.000000e-01 bias(%{{.*}} : tensor<2x3x96xbf16>) mask(%{{.*}} : tensor<2x96xi1>) : tensor<2x3x80x16xbf16>, tensor<2x3x96x16xbf16>, tensor<2x3x96x32xbf16> -> tensor<2x3x80x32xbf16>
func.func @all_modifiers(%q: tensor<2x3x80x16xbf16>, %k: tensor<2x3x96x16xbf16>, %v: tensor<2x3x96x32xbf16>, %b: tensor<2x3x96xbf16>, %m: tensor<2x96xi1>) -> tensor<2x3x80x32xbf16> {
  %o = attic.attention %q, %k, %v causal scale 0.5 bias(%b : tensor<2x3x96xbf16>) mask(%m : tensor<2x96xi1>) : tensor<2x3x80x16xbf16>, tensor<2x3x96x16xbf16>, tensor<2x3x96x32xbf16> -> tensor<2x3x80x32xbf16>
  return %o : tensor<2x3x80x32xbf16>
}

// -----

// CHECK-LABEL: func.func @dynamic
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} scale 1.250000e-01 bias(%{{.*}} : tensor<?x?xf32>) : tensor<?x?x?x?xf16>, tensor<?x?x?x?xf16>, tensor<?x?x?x?xf16> -> tensor<?x?x?x?xf16>
func.func @dynamic(%q: tensor<?x?x?x?xf16>, %k: tensor<?x?x?x?xf16>, %v: tensor<?x?x?x?xf16>, %b: tensor<?x?xf32>) -> tensor<?x?x?x?xf16> {
  %o = attic.attention %q, %k, %v scale 0.125 bias(%b : tensor<?x?xf32>) : tensor<?x?x?x?xf16>, tensor<?x?x?x?xf16>, tensor<?x?x?x?xf16> -> tensor<?x?x?x?xf16>
  return %o : tensor<?x?x?x?xf16>
}

// -----

// CHECK-LABEL: func.func @block_tensor
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>) outs(%{{.*}} : tensor<1x2x256x64xf32>) {block_k = 32 : i64, block_q = 64 : i64, layout = #attic.causal, scale = 1.250000e-01 : f32} -> tensor<1x2x256x64xf32>
func.func @block_tensor(%q: tensor<1x2x256x64xf32>, %k: tensor<1x2x256x64xf32>, %v: tensor<1x2x256x64xf32>, %init: tensor<1x2x256x64xf32>) -> tensor<1x2x256x64xf32> {
  %o = attic.block_attention ins(%q, %k, %v : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>) outs(%init : tensor<1x2x256x64xf32>) {layout = #attic.causal, scale = 0.125 : f32, block_q = 64 : i64, block_k = 32 : i64} -> tensor<1x2x256x64xf32>
  return %o : tensor<1x2x256x64xf32>
}

// -----

// CHECK-LABEL: func.func @block_memref
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<1x2x8x4xf16>, memref<1x2x8x4xf16>, memref<1x2x8x4xf16>) bias(%{{.*}} : memref<1x8xf32>) mask(%{{.*}} : memref<1x8xi1>) outs(%{{.*}} : memref<1x2x8x4xf16>) {block_k = 4 : i64, block_q = 4 : i64, layout = #attic.dense, scale = 5.000000e-01 : f32}
// CHECK-NOT: ->
func.func @block_memref(%q: memref<1x2x8x4xf16>, %k: memref<1x2x8x4xf16>, %v: memref<1x2x8x4xf16>, %b: memref<1x8xf32>, %m: memref<1x8xi1>, %o: memref<1x2x8x4xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x8x4xf16>, memref<1x2x8x4xf16>, memref<1x2x8x4xf16>) bias(%b : memref<1x8xf32>) mask(%m : memref<1x8xi1>) outs(%o : memref<1x2x8x4xf16>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

// The log-sum-exp destination: a second result on tensors.
// CHECK-LABEL: func.func @block_attention_lse
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>) outs(%{{.*}} : tensor<1x2x64x16xf32>, lse %{{.*}} : tensor<1x2x64xf32>) {block_k = 16 : i64, block_q = 16 : i64, layout = #attic.dense, scale = 2.500000e-01 : f32} -> tensor<1x2x64x16xf32>, tensor<1x2x64xf32>
func.func @block_attention_lse(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x32x16xf32>, %v: tensor<1x2x32x16xf32>, %init: tensor<1x2x64x16xf32>, %lse: tensor<1x2x64xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x64xf32>) {
  %o, %l = attic.block_attention ins(%q, %k, %v : tensor<1x2x64x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>) outs(%init : tensor<1x2x64x16xf32>, lse %lse : tensor<1x2x64xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>, tensor<1x2x64xf32>
  return %o, %l : tensor<1x2x64x16xf32>, tensor<1x2x64xf32>
}
