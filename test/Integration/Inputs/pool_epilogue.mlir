// attic.block_attention with the pooled epilogue (pool destination): the
// result rows of each query block, weighted and summed. Used by
// test/Integration/pool-epilogue.test.

// f32, causal, Nq = 40 in blocks of 16 (the last block has 8 rows).
func.func @pooled(%q: tensor<2x3x40x8xf32>, %k: tensor<2x3x48x8xf32>, %v: tensor<2x3x48x6xf32>, %w: tensor<2x40xf32>) -> (tensor<2x3x40x6xf32>, tensor<2x3x3x6xf32>) {
  %init = tensor.empty() : tensor<2x3x40x6xf32>
  %pinit = tensor.empty() : tensor<2x3x3x6xf32>
  %o:2 = attic.block_attention ins(%q, %k, %v : tensor<2x3x40x8xf32>, tensor<2x3x48x8xf32>, tensor<2x3x48x6xf32>)
      pool(%w : tensor<2x40xf32> into %pinit : tensor<2x3x3x6xf32>)
      outs(%init : tensor<2x3x40x6xf32>)
      {layout = #attic.causal, scale = 0.35 : f32, block_q = 16 : i64, block_k = 16 : i64}
      -> tensor<2x3x40x6xf32>, tensor<2x3x3x6xf32>
  return %o#0, %o#1 : tensor<2x3x40x6xf32>, tensor<2x3x3x6xf32>
}

// f16 with a key mask and grouped-query heads (4 query heads, 2 kv
// heads): the pooled rows are the stored f16 rows.
func.func @pooled_f16(%q: tensor<1x4x64x16xf16>, %k: tensor<1x2x64x16xf16>, %v: tensor<1x2x64x16xf16>, %m: tensor<1x64xi1>, %w: tensor<1x64xf32>) -> (tensor<1x4x64x16xf16>, tensor<1x4x2x16xf32>) {
  %init = tensor.empty() : tensor<1x4x64x16xf16>
  %pinit = tensor.empty() : tensor<1x4x2x16xf32>
  %o:2 = attic.block_attention ins(%q, %k, %v : tensor<1x4x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>)
      mask(%m : tensor<1x64xi1>)
      pool(%w : tensor<1x64xf32> into %pinit : tensor<1x4x2x16xf32>)
      outs(%init : tensor<1x4x64x16xf16>)
      {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
      -> tensor<1x4x64x16xf16>, tensor<1x4x2x16xf32>
  return %o#0, %o#1 : tensor<1x4x64x16xf16>, tensor<1x4x2x16xf32>
}

// Dynamic shapes (bound with --shape): the value columns are a tile of
// dynamic width.
func.func @pooled_dynamic(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>, %v: tensor<?x?x?x?xf32>, %w: tensor<?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x?x?xf32>
  %h = tensor.dim %q, %c1 : tensor<?x?x?x?xf32>
  %n = tensor.dim %q, %c2 : tensor<?x?x?x?xf32>
  %dv = tensor.dim %v, %c3 : tensor<?x?x?x?xf32>
  %n7 = arith.addi %n, %c7 : index
  %nb = arith.divui %n7, %c8 : index
  %init = tensor.empty(%b, %h, %n, %dv) : tensor<?x?x?x?xf32>
  %pinit = tensor.empty(%b, %h, %nb, %dv) : tensor<?x?x?x?xf32>
  %o:2 = attic.block_attention ins(%q, %k, %v : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>)
      pool(%w : tensor<?x?xf32> into %pinit : tensor<?x?x?x?xf32>)
      outs(%init : tensor<?x?x?x?xf32>)
      {layout = #attic.window<left = 5, right = 3>, scale = 0.5 : f32, block_q = 8 : i64, block_k = 8 : i64}
      -> tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
  return %o#0, %o#1 : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}
