// RUN: attic-opt %s --split-input-file | FileCheck %s
// Round trip: print, parse again, print the same.
// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// Every layout attribute, on attic.attention (L1).

// CHECK-LABEL: func.func @atomic_layouts
// CHECK: layout(#attic.dense)
// CHECK: layout(#attic.causal)
// CHECK: layout(#attic.causal<bottom_right>)
// CHECK: layout(#attic.window<left = 255, right = 0>)
// CHECK: layout(#attic.window<left = 16, right = 16, align = bottom_right>)
// CHECK: layout(#attic.dilated<left = 64, right = 64, dilation = 4>)
// CHECK: layout(#attic.strided<stride = 32>)
// CHECK: layout(#attic.fixed<block = 64, summary = 8>)
// CHECK: layout(#attic.global<tokens = [0, 1, 70]>)
// CHECK: layout(#attic.sinks<count = 4>)
// CHECK: layout(#attic.random<block = 32, count = 3, seed = 42>)
func.func @atomic_layouts(%q: tensor<1x2x128x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x16xf32>) {
  %0 = attic.attention %q, %k, %v layout(#attic.dense) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %1 = attic.attention %q, %k, %v layout(#attic.causal) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %2 = attic.attention %q, %k, %v layout(#attic.causal<bottom_right>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %3 = attic.attention %q, %k, %v layout(#attic.window<left = 255, right = 0>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %4 = attic.attention %q, %k, %v layout(#attic.window<left = 16, right = 16, align = bottom_right>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %5 = attic.attention %q, %k, %v layout(#attic.dilated<left = 64, right = 64, dilation = 4>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %6 = attic.attention %q, %k, %v layout(#attic.strided<stride = 32>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %7 = attic.attention %q, %k, %v layout(#attic.fixed<block = 64, summary = 8>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %8 = attic.attention %q, %k, %v layout(#attic.global<tokens = [0, 1, 70]>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %9 = attic.attention %q, %k, %v layout(#attic.sinks<count = 4>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  %10 = attic.attention %q, %k, %v layout(#attic.random<block = 32, count = 3, seed = 42>) : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x128x16xf32>
  return
}

// -----

// Compositions, `causal` with a layout, and document ids as layout operands.
// CHECK-LABEL: func.func @compositions
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} causal layout(#attic.union<[#attic.sinks<count = 4>, #attic.window<left = 63, right = 0>]>)
// CHECK: layout(#attic.intersect<[#attic.causal, #attic.documents<query_ids = 0, key_ids = 0>]>) layout_operands(%{{.*}} : tensor<2x128xi32>)
// CHECK: layout(#attic.documents<query_ids = 0, key_ids = 1>) layout_operands(%{{.*}}, %{{.*}} : tensor<2x64xi64>, tensor<2x128xi32>)
// CHECK: layout(#attic.blocked<size = 32, layout = #attic.union<[#attic.window<left = 1, right = 1>, #attic.global<tokens = [0]>, #attic.random<block = 1, count = 2, seed = 7>]>>)
func.func @compositions(%q: tensor<2x2x128x16xf32>, %k: tensor<2x2x128x16xf32>, %v: tensor<2x2x128x16xf32>, %ids: tensor<2x128xi32>, %qs: tensor<2x2x64x16xf32>, %qids: tensor<2x64xi64>) {
  %0 = attic.attention %q, %k, %v causal layout(#attic.union<[#attic.sinks<count = 4>, #attic.window<left = 63, right = 0>]>) : tensor<2x2x128x16xf32>, tensor<2x2x128x16xf32>, tensor<2x2x128x16xf32> -> tensor<2x2x128x16xf32>
  %1 = attic.attention %q, %k, %v layout(#attic.intersect<[#attic.causal, #attic.documents<query_ids = 0, key_ids = 0>]>) layout_operands(%ids : tensor<2x128xi32>) : tensor<2x2x128x16xf32>, tensor<2x2x128x16xf32>, tensor<2x2x128x16xf32> -> tensor<2x2x128x16xf32>
  %2 = attic.attention %qs, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 1>) layout_operands(%qids, %ids : tensor<2x64xi64>, tensor<2x128xi32>) : tensor<2x2x64x16xf32>, tensor<2x2x128x16xf32>, tensor<2x2x128x16xf32> -> tensor<2x2x64x16xf32>
  %3 = attic.attention %q, %k, %v layout(#attic.blocked<size = 32, layout = #attic.union<[#attic.window<left = 1, right = 1>, #attic.global<tokens = [0]>, #attic.random<block = 1, count = 2, seed = 7>]>>) : tensor<2x2x128x16xf32>, tensor<2x2x128x16xf32>, tensor<2x2x128x16xf32> -> tensor<2x2x128x16xf32>
  return
}

// -----

// Grouped-query attention: 8 query heads share 2 key/value heads.
// CHECK-LABEL: func.func @gqa
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} causal bias(%{{.*}} : tensor<1x8x64xf32>) : tensor<1x8x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x32xf16> -> tensor<1x8x64x32xf16>
func.func @gqa(%q: tensor<1x8x64x16xf16>, %k: tensor<1x2x64x16xf16>, %v: tensor<1x2x64x32xf16>, %b: tensor<1x8x64xf32>) -> tensor<1x8x64x32xf16> {
  %o = attic.attention %q, %k, %v causal bias(%b : tensor<1x8x64xf32>) : tensor<1x8x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x32xf16> -> tensor<1x8x64x32xf16>
  return %o : tensor<1x8x64x32xf16>
}

// -----

// Block lists from attic.block_mask (create_block_mask), given to
// attic.attention with their block sizes and to attic.block_attention.
// CHECK-LABEL: func.func @block_lists
// CHECK: %[[L:.*]]:4 = attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%{{.*}} : tensor<1x256xi32>) sizes(%{{.*}}, %{{.*}}) outs(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) {block_k = 64 : i64, block_q = 64 : i64} -> tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%{{.*}} : tensor<1x256xi32>) blocks(%[[L]]#0, %[[L]]#1, %[[L]]#2, %[[L]]#3 : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) block_sizes [64, 64]
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : {{.*}}) blocks(%[[L]]#0, %[[L]]#1, %[[L]]#2, %[[L]]#3 : {{.*}}) outs(%{{.*}} : tensor<1x2x256x16xf32>) {block_k = 64 : i64, block_q = 64 : i64, layout = #attic.dense, scale = 2.500000e-01 : f32}
func.func @block_lists(%q: tensor<1x2x256x16xf32>, %k: tensor<1x2x256x16xf32>, %v: tensor<1x2x256x16xf32>, %ids: tensor<1x256xi32>) {
  %c256 = arith.constant 256 : index
  %e3 = tensor.empty() : tensor<1x1x4xi32>
  %e4 = tensor.empty() : tensor<1x1x4x4xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x256xi32>) sizes(%c256, %c256) outs(%e3, %e4, %e3, %e4 : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) {block_q = 64 : i64, block_k = 64 : i64} -> tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>
  %0 = attic.attention %q, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x256xi32>) blocks(%n, %i, %fn, %fi : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) block_sizes [64, 64] : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32> -> tensor<1x2x256x16xf32>
  %init = tensor.empty() : tensor<1x2x256x16xf32>
  %1 = attic.block_attention ins(%q, %k, %v : tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>, tensor<1x2x256x16xf32>) blocks(%n, %i, %fn, %fi : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) outs(%init : tensor<1x2x256x16xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64} -> tensor<1x2x256x16xf32>
  return
}

// -----

// The tile loop's ops (the output of attic-tile-block-attention).
// CHECK-LABEL: func.func @tile_ops
// CHECK: attic.tile.map_cols at(%{{.*}}) outs(%{{.*}} : memref<16xf32>) {
// CHECK: attic.tile.qk %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] into %{{.*}} : memref<1x2x64x16xf16>, memref<1x1x64x16xf16> into memref<32x16xf32>
// CHECK: attic.tile.map at(%{{.*}}, %{{.*}}) ins(%{{.*}} : memref<32x16xf32>) cols(%{{.*}} : memref<16xf32>) outs(%{{.*}} : memref<32x16xf32>) {
// CHECK: attic.tile.reduce max %{{.*}} into %{{.*}} : memref<32x16xf32> into memref<32xf32>
// CHECK: attic.tile.map_rows at(%{{.*}}) ins(%{{.*}}, %{{.*}} : memref<32xf32>, memref<32xf32>) outs(%{{.*}} : memref<32xf32>) {
// CHECK: attic.tile.pv %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] rescale(%{{.*}}) into %{{.*}} : memref<32x16xf32>, memref<1x1x64x8xf16>, memref<32xf32> into memref<32x8xf32>
// CHECK: attic.tile.store %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<32x8xf32> into memref<1x2x64x8xf16>
func.func @tile_ops(%q: memref<1x2x64x16xf16>, %k: memref<1x1x64x16xf16>, %v: memref<1x1x64x8xf16>, %o: memref<1x2x64x8xf16>, %i: index) {
  %s = memref.alloc() : memref<32x16xf32>
  %t = memref.alloc() : memref<16xf32>
  %m = memref.alloc() : memref<32xf32>
  %bm = memref.alloc() : memref<32xf32>
  %acc = memref.alloc() : memref<32x8xf32>
  attic.tile.map_cols at(%i) outs(%t : memref<16xf32>) {
  ^bb0(%k0: index, %old: f32):
    %z = arith.constant 0.0 : f32
    attic.tile.yield %z : f32
  }
  attic.tile.qk %q[%i, %i, %i], %k[%i, %i, %i] into %s : memref<1x2x64x16xf16>, memref<1x1x64x16xf16> into memref<32x16xf32>
  attic.tile.map at(%i, %i) ins(%s : memref<32x16xf32>) cols(%t : memref<16xf32>) outs(%s : memref<32x16xf32>) {
  ^bb0(%qi: index, %ki: index, %x: f32, %y: f32, %old: f32):
    %r = arith.addf %x, %y : f32
    attic.tile.yield %r : f32
  }
  attic.tile.reduce max %s into %bm : memref<32x16xf32> into memref<32xf32>
  attic.tile.map_rows at(%i) ins(%m, %bm : memref<32xf32>, memref<32xf32>) outs(%m : memref<32xf32>) {
  ^bb0(%qi: index, %a: f32, %b: f32, %old: f32):
    %r = arith.maxnumf %a, %b : f32
    attic.tile.yield %r : f32
  }
  attic.tile.pv %s, %v[%i, %i, %i] rescale(%m) into %acc : memref<32x16xf32>, memref<1x1x64x8xf16>, memref<32xf32> into memref<32x8xf32>
  attic.tile.store %acc into %o[%i, %i, %i] : memref<32x8xf32> into memref<1x2x64x8xf16>
  return
}
