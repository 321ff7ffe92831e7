// attic.block_attention with its lse destination (each row's log-sum-exp
// of its admissible logits, -inf for a row with none). Used by
// test/Integration/lse.test.

// f32, block-diagonal: query block i (8 rows) sees key block i (4 keys);
// with 24 keys the queries past row 47 see no key at all (lse -inf, output
// row 0). Ragged blocks of 16 x 16.
func.func @lse_empty_rows(%q: tensor<2x3x61x8xf32>, %k: tensor<2x3x24x8xf32>, %v: tensor<2x3x24x6xf32>) -> (tensor<2x3x61x6xf32>, tensor<2x3x61xf32>) {
  %init = tensor.empty() : tensor<2x3x61x6xf32>
  %lse = tensor.empty() : tensor<2x3x61xf32>
  %o:2 = attic.block_attention ins(%q, %k, %v : tensor<2x3x61x8xf32>, tensor<2x3x24x8xf32>, tensor<2x3x24x6xf32>)
      outs(%init : tensor<2x3x61x6xf32>, lse %lse : tensor<2x3x61xf32>)
      {layout = #attic.block_diagonal<query = 8, key = 4>, scale = 0.35 : f32, block_q = 16 : i64, block_k = 16 : i64}
      -> tensor<2x3x61x6xf32>, tensor<2x3x61xf32>
  return %o#0, %o#1 : tensor<2x3x61x6xf32>, tensor<2x3x61xf32>
}

// f16, grouped-query heads (4 query heads, 2 kv heads), a bias per head, a
// key mask, a softcap score region, a causal window, the lse and the pooled
// epilogue together (results: output, lse, pool).
func.func @lse_pool_f16(%q: tensor<1x4x130x32xf16>, %k: tensor<1x2x130x32xf16>, %v: tensor<1x2x130x32xf16>, %bias: tensor<1x4x130xf32>, %m: tensor<1x130xi1>, %w: tensor<1x130xf32>) -> (tensor<1x4x130x32xf16>, tensor<1x4x130xf32>, tensor<1x4x3x32xf32>) {
  %init = tensor.empty() : tensor<1x4x130x32xf16>
  %lse = tensor.empty() : tensor<1x4x130xf32>
  %pool = tensor.empty() : tensor<1x4x3x32xf32>
  %o:3 = attic.block_attention ins(%q, %k, %v : tensor<1x4x130x32xf16>, tensor<1x2x130x32xf16>, tensor<1x2x130x32xf16>)
      bias(%bias : tensor<1x4x130xf32>) mask(%m : tensor<1x130xi1>)
      pool(%w : tensor<1x130xf32> into %pool : tensor<1x4x3x32xf32>)
      outs(%init : tensor<1x4x130x32xf16>, lse %lse : tensor<1x4x130xf32>)
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %cap = arith.constant 5.0 : f32
        %x = arith.divf %s, %cap : f32
        %t = math.tanh %x : f32
        %r = arith.mulf %t, %cap : f32
        attic.yield %r : f32
      }
      {layout = #attic.intersect<[#attic.causal, #attic.window<left = 40, right = 0>]>, scale = 0.2 : f32, block_q = 64 : i64, block_k = 32 : i64}
      -> tensor<1x4x130x32xf16>, tensor<1x4x130xf32>, tensor<1x4x3x32xf32>
  return %o#0, %o#1, %o#2 : tensor<1x4x130x32xf16>, tensor<1x4x130xf32>, tensor<1x4x3x32xf32>
}

// f16 with the lse alone: the GPU's tensor-core kernel (mma.sync, or wgmma
// with --wgmma) writes it. Causal from the bottom right with Nq > Nk: the
// first 72 queries see no key.
func.func @lse_tc(%q: tensor<1x2x200x64xf16>, %k: tensor<1x2x128x64xf16>, %v: tensor<1x2x128x64xf16>) -> (tensor<1x2x200x64xf16>, tensor<1x2x200xf32>) {
  %init = tensor.empty() : tensor<1x2x200x64xf16>
  %lse = tensor.empty() : tensor<1x2x200xf32>
  %o:2 = attic.block_attention ins(%q, %k, %v : tensor<1x2x200x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>)
      outs(%init : tensor<1x2x200x64xf16>, lse %lse : tensor<1x2x200xf32>)
      {layout = #attic.causal<bottom_right>, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
      -> tensor<1x2x200x64xf16>, tensor<1x2x200xf32>
  return %o#0, %o#1 : tensor<1x2x200x64xf16>, tensor<1x2x200xf32>
}

// Dynamic shapes (bound with --shape): the destinations sized from the
// operands, the pool's query blocks with arith.ceildivui (which --check
// interprets).
func.func @lse_pool_dynamic(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>, %v: tensor<?x?x?x?xf32>, %w: tensor<?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x?x?xf32>
  %h = tensor.dim %q, %c1 : tensor<?x?x?x?xf32>
  %n = tensor.dim %q, %c2 : tensor<?x?x?x?xf32>
  %dv = tensor.dim %v, %c3 : tensor<?x?x?x?xf32>
  %nb = arith.ceildivui %n, %c12 : index
  %init = tensor.empty(%b, %h, %n, %dv) : tensor<?x?x?x?xf32>
  %lse = tensor.empty(%b, %h, %n) : tensor<?x?x?xf32>
  %pool = tensor.empty(%b, %h, %nb, %dv) : tensor<?x?x?x?xf32>
  %o:3 = attic.block_attention ins(%q, %k, %v : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>)
      pool(%w : tensor<?x?xf32> into %pool : tensor<?x?x?x?xf32>)
      outs(%init : tensor<?x?x?x?xf32>, lse %lse : tensor<?x?x?xf32>)
      {layout = #attic.window<left = 9, right = 2>, scale = 0.4 : f32, block_q = 12 : i64, block_k = 20 : i64}
      -> tensor<?x?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?x?xf32>
  return %o#0, %o#1, %o#2 : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?x?xf32>
}

// Every key's bias is finfo(float32).min: the rows are the plain average of
// the values, and the lse is the base-2 floor -FLT_MAX * ln 2 (about
// -2.3587e38) on every target and in the reference (docs/layouts.md).
func.func @lse_lowest_bias(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>) -> (tensor<1x1x8x4xf32>, tensor<1x1x8xf32>) {
  %bias = arith.constant dense<-3.40282347e+38> : tensor<1x8xf32>
  %init = tensor.empty() : tensor<1x1x8x4xf32>
  %lse = tensor.empty() : tensor<1x1x8xf32>
  %o:2 = attic.block_attention ins(%q, %k, %v : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>)
      bias(%bias : tensor<1x8xf32>)
      outs(%init : tensor<1x1x8x4xf32>, lse %lse : tensor<1x1x8xf32>)
      {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64}
      -> tensor<1x1x8x4xf32>, tensor<1x1x8xf32>
  return %o#0, %o#1 : tensor<1x1x8x4xf32>, tensor<1x1x8xf32>
}
