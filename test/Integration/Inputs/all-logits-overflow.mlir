// Every logit overflows f32 to -inf (q . k = -16, scale 1e38) although the
// inputs are finite: the true result is the mean of the value rows (equal
// logits), and the rows must be NaN (reported), never an empty row's 0.
// Nk = 128 is a multiple of block_k (full blocks, the scale folded); Nk =
// 100 is not (the tail block partial).
func.func @all_full(%v: tensor<1x1x128x16xf32>) -> tensor<1x1x64x16xf32> {
  %q = arith.constant dense<-1.0> : tensor<1x1x64x16xf32>
  %k = arith.constant dense<1.0> : tensor<1x1x128x16xf32>
  %o = attic.attention %q, %k, %v scale 1.0e38 : tensor<1x1x64x16xf32>, tensor<1x1x128x16xf32>, tensor<1x1x128x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}

func.func @with_tail(%v: tensor<1x1x100x16xf32>) -> tensor<1x1x64x16xf32> {
  %q = arith.constant dense<-1.0> : tensor<1x1x64x16xf32>
  %k = arith.constant dense<1.0> : tensor<1x1x100x16xf32>
  %o = attic.attention %q, %k, %v scale 1.0e38 : tensor<1x1x64x16xf32>, tensor<1x1x100x16xf32>, tensor<1x1x100x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}

// The same through block_attention with an lse destination: the lse of
// such a row is NaN, as its output is (it was -inf, the lse of a row
// without a visible key; a 2026-11-30 audit).
func.func @with_lse(%v: tensor<1x1x100x16xf32>) -> (tensor<1x1x64x16xf32>, tensor<1x1x64xf32>) {
  %q = arith.constant dense<-1.0> : tensor<1x1x64x16xf32>
  %k = arith.constant dense<1.0> : tensor<1x1x100x16xf32>
  %i = tensor.empty() : tensor<1x1x64x16xf32>
  %l = tensor.empty() : tensor<1x1x64xf32>
  %o, %s = attic.block_attention ins(%q, %k, %v : tensor<1x1x64x16xf32>, tensor<1x1x100x16xf32>, tensor<1x1x100x16xf32>) outs(%i : tensor<1x1x64x16xf32>, lse %l : tensor<1x1x64xf32>) {layout = #attic.dense, scale = 1.0e38 : f32, block_q = 16 : i64, block_k = 32 : i64} -> tensor<1x1x64x16xf32>, tensor<1x1x64xf32>
  return %o, %s : tensor<1x1x64x16xf32>, tensor<1x1x64xf32>
}
