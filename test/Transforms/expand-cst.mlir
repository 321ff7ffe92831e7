// RUN: attic-opt %s --split-input-file --attic-expand-cst | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-expand-cst="pool-epilogue=false" | FileCheck %s --check-prefix=SEP
// RUN: attic-opt %s --split-input-file --attic-expand-cst --attic-report-block-classes -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLASSES

// Slice attention becomes projections (x Wq, x Wk, x Wv, then the
// positional terms P_l[E:E+L] Wq and P_l Wk), gathers of the queries and
// of the extended windows laid out one after another (8 slices x 24 keys),
// the key mask of the windows, the slice counts and the pooling weights
// m / max(1, count), the local attention (attic.block_attention with the
// block-diagonal layout tiled one slice by one window, whose pooled
// epilogue gives the 8 slice means), the summaries read from the pooled
// [B,H,n,d], the global projections and the global attention over the 8
// summaries.

// CHECK-LABEL: func.func @cst
// CHECK-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x16xf32>, tensor<16x16xf32>)
// CHECK: tensor.extract_slice %{{.*}}[8, 0] [8, 16] [1, 1] : tensor<24x16xf32> to tensor<8x16xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x16xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<24x16xf32>, tensor<16x16xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x64x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x192x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x192x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x192xi1>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8xf32>)
// CHECK: scf.for
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x64xf32>)
// CHECK: arith.maximumf
// CHECK: arith.divf
// CHECK: %[[YL:.*]]:2 = attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x8xf32>, tensor<1x2x192x8xf32>, tensor<1x2x192x8xf32>) mask(%{{.*}} : tensor<1x192xi1>) pool(%{{.*}} : tensor<1x64xf32> into %{{.*}} : tensor<1x2x8x8xf32>) outs(%{{.*}} : tensor<1x2x64x8xf32>) {block_k = 24 : i64, block_q = 8 : i64, layout = #attic.block_diagonal<query = 8, key = 24>, scale = 0.353553385 : f32} -> tensor<1x2x64x8xf32>, tensor<1x2x8x8xf32>
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x16xf32>)
// CHECK: tensor.extract %[[YL]]#1
// CHECK-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x16xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8xi1>)
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} scale 0.353553385 mask(%{{.*}} : tensor<1x8xi1>) : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32> -> tensor<1x2x8x8xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x64x16xf32>)
// CHECK-NOT: attic.slice_attention

// Each query slice visits exactly its window; the 8 summaries attend to
// each other.
// CLASSES: remark: block classes (8x24, b = 0, h = 0): 8 full, 0 partial, 56 skipped, 0 decided at run time
// CLASSES-NEXT: {{^}}  F.......
// CLASSES-NEXT: {{^}}  .F......
// CLASSES-NEXT: {{^}}  ..F.....
// CLASSES-NEXT: {{^}}  ...F....
// CLASSES-NEXT: {{^}}  ....F...
// CLASSES-NEXT: {{^}}  .....F..
// CLASSES-NEXT: {{^}}  ......F.
// CLASSES-NEXT: {{^}}  .......F
// CLASSES: remark: block classes (128x128, b = 0, h = 0): 1 full, 0 partial, 0 skipped
// pool-epilogue=false: the same tiling of the local attention, the means a
// separate pass over its output.
// SEP-LABEL: func.func @cst
// SEP: %[[YL:.*]] = attic.attention %{{.*}}, %{{.*}}, %{{.*}} scale 0.353553385 layout(#attic.block_diagonal<query = 8, key = 24>) mask(%{{.*}} : tensor<1x192xi1>) block_sizes [8, 24]
// SEP: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x16xf32>)
// SEP: scf.for
// SEP: tensor.extract %[[YL]]
// SEP-NOT: attic.block_attention
// SEP-LABEL: func.func @cst_causal
func.func @cst(%x: tensor<1x64x16xf32>, %w: tensor<16x16xf32>, %pl: tensor<24x16xf32>, %pg: tensor<8x16xf32>, %m: tensor<1x64xi1>) -> tensor<1x64x16xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) mask(%m : tensor<1x64xi1>)
      {slice = 8 : i64, extension = 3 : i64, heads = 2 : i64}
      : tensor<1x64x16xf32>, tensor<16x16xf32>, tensor<24x16xf32>, tensor<8x16xf32> -> tensor<1x64x16xf32>
  return %y : tensor<1x64x16xf32>
}

// -----

// Causal: windows of E + L = 16 keys (left extension only), causal inside
// each window; the global attention is causal and its output is read one
// slice later (slice 0: 0). Without a mask and with E > 0 the key mask
// still hides the window positions before the sequence.

// CHECK-LABEL: func.func @cst_causal
// CHECK: attic.block_attention ins({{.*}}) mask(%{{.*}} : tensor<1x128xi1>) pool(%{{.*}} : tensor<1x64xf32> into %{{.*}} : tensor<1x2x8x8xf32>) outs({{.*}}) {block_k = 16 : i64, block_q = 8 : i64, layout = #attic.block_diagonal<query = 8, key = 16, causal = true>
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} causal scale 0.353553385 : tensor<1x2x8x8xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x64x16xf32>)
// CHECK: arith.cmpi eq
// CHECK: arith.subi
// CHECK: arith.select

// CLASSES: remark: block classes (8x16, b = 0, h = 0): 0 full, 8 partial, 56 skipped, 0 decided at run time
// CLASSES-NEXT: {{^}}  P.......
// CLASSES-NEXT: {{^}}  .P......
// CLASSES: remark: block classes (128x128, b = 0, h = 0): 0 full, 1 partial, 0 skipped
func.func @cst_causal(%x: tensor<1x64x16xf32>, %w: tensor<16x16xf32>, %pl: tensor<16x16xf32>, %pg: tensor<8x16xf32>) -> tensor<1x64x16xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg)
      {slice = 8 : i64, extension = 3 : i64, heads = 2 : i64, causal}
      : tensor<1x64x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<8x16xf32> -> tensor<1x64x16xf32>
  return %y : tensor<1x64x16xf32>
}

// -----

// alpha = 1 without a mask: no borrowed tokens, so no key mask at all,
// and every pooling weight is 1/L.

// CHECK-LABEL: func.func @cst_alpha1
// CHECK: arith.constant 1.250000e-01 : f32
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) pool(%{{.*}} : tensor<1x64xf32> into %{{.*}} : tensor<1x2x8x8xf32>) outs({{.*}}) {block_k = 8 : i64, block_q = 8 : i64, layout = #attic.block_diagonal<query = 8, key = 8>
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} scale 0.353553385 : tensor<1x2x8x8xf32>
func.func @cst_alpha1(%x: tensor<1x64x16xf32>, %w: tensor<16x16xf32>, %pl: tensor<8x16xf32>, %pg: tensor<8x16xf32>) -> tensor<1x64x16xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg)
      {slice = 8 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x64x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32> -> tensor<1x64x16xf32>
  return %y : tensor<1x64x16xf32>
}

// -----

// Head dim 6: the inner attentions' scale is 1/sqrt(6) rounded once to f32
// (0.408248305), the default of every attic op; 1.0f / sqrtf(6.0f) is an
// ulp lower (0.408248276).

// CHECK-LABEL: func.func @cst_head_dim_6
// CHECK: attic.block_attention {{.*}} scale = 0.408248305 : f32
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} scale 0.408248305 :
func.func @cst_head_dim_6(%x: tensor<1x16x12xf32>, %w: tensor<12x12xf32>, %pl: tensor<8x12xf32>, %pg: tensor<2x12xf32>) -> tensor<1x16x12xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg)
      {slice = 8 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x16x12xf32>, tensor<12x12xf32>, tensor<8x12xf32>, tensor<2x12xf32> -> tensor<1x16x12xf32>
  return %y : tensor<1x16x12xf32>
}

// -----

// A slice longer than the tile loop's largest block (1024): the local
// attention is an attic.attention with default tiles and the means a pass
// over its output.

// CHECK-LABEL: func.func @cst_long_slice
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} scale 0.707106769 layout(#attic.block_diagonal<query = 2048, key = 2048>) : tensor<1x2x2048x2xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4xf32>)
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK-NOT: attic.block_attention
// CLASSES: remark: block classes (128x128, b = 0, h = 0): 256 full, 0 partial, 0 skipped
func.func @cst_long_slice(%x: tensor<1x2048x4xf32>, %w: tensor<4x4xf32>, %pl: tensor<2048x4xf32>, %pg: tensor<1x4xf32>) -> tensor<1x2048x4xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg)
      {slice = 2048 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x2048x4xf32>, tensor<4x4xf32>, tensor<2048x4xf32>, tensor<1x4xf32> -> tensor<1x2048x4xf32>
  return %y : tensor<1x2048x4xf32>
}
