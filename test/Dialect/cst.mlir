// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// Composite slice attention round-trips with and without its mask, and
// causally; #attic.block_diagonal round-trips as a layout.

// CHECK-LABEL: func.func @slice_attention
// CHECK: attic.slice_attention %{{.*}} weights(%{{.*}}, %{{.*}}, %{{.*}}) positions(%{{.*}}, %{{.*}}) mask(%{{.*}} : tensor<2x64xi1>) {extension = 3 : i64, heads = 2 : i64, slice = 16 : i64} : tensor<2x64x32xf32>, tensor<32x32xf32>, tensor<48x32xf32>, tensor<4x32xf32> -> tensor<2x64x32xf32>
func.func @slice_attention(%x: tensor<2x64x32xf32>, %w: tensor<32x32xf32>,
                           %pl: tensor<48x32xf32>, %pg: tensor<4x32xf32>,
                           %m: tensor<2x64xi1>) -> tensor<2x64x32xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg)
      mask(%m : tensor<2x64xi1>) {slice = 16 : i64, extension = 3 : i64, heads = 2 : i64}
      : tensor<2x64x32xf32>, tensor<32x32xf32>, tensor<48x32xf32>, tensor<4x32xf32> -> tensor<2x64x32xf32>
  return %y : tensor<2x64x32xf32>
}

// -----

// CHECK-LABEL: func.func @slice_attention_causal
// CHECK: attic.slice_attention %{{.*}} weights(%{{.*}}, %{{.*}}, %{{.*}}) positions(%{{.*}}, %{{.*}}) {causal, extension = 3 : i64, heads = 2 : i64, slice = 16 : i64} : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
func.func @slice_attention_causal(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>,
                                  %pl: tensor<32x32xf32>, %pg: tensor<4x32xf32>) -> tensor<1x64x32xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg)
      {slice = 16 : i64, extension = 3 : i64, heads = 2 : i64, causal}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return %y : tensor<1x64x32xf32>
}

// -----

// CHECK-LABEL: func.func @block_diagonal
// CHECK: layout(#attic.block_diagonal<query = 16, key = 48>) block_sizes [16, 48] :
// CHECK: layout(#attic.block_diagonal<query = 16, key = 32, causal = true>)
func.func @block_diagonal(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x192x16xf32>,
                          %kc: tensor<1x2x128x16xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %k layout(#attic.block_diagonal<query = 16, key = 48>) block_sizes [16, 48]
      : tensor<1x2x64x16xf32>, tensor<1x2x192x16xf32>, tensor<1x2x192x16xf32> -> tensor<1x2x64x16xf32>
  %1 = attic.attention %q, %kc, %kc layout(#attic.block_diagonal<query = 16, key = 32, causal = true>)
      : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32> -> tensor<1x2x64x16xf32>
  return %0, %1 : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>
}
