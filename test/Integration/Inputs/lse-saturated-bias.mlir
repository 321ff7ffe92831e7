// A key bias of finfo(float32).min with a large logit (q . k = 1e36): the
// compiled code saturates the bias to -FLT_MAX / log2(e) and adds the
// logit, so the lse is about -2.3487e38; the reference saturates the bias
// the same way (it clamped only its final lse, to -2.3587e38, and --check
// failed with a relative error of 4e-3; a 2026-11-30 audit).
func.func @lse_saturated_bias(%v: tensor<1x1x4x8xf32>) -> (tensor<1x1x4x8xf32>, tensor<1x1x4xf32>) {
  %q = arith.constant dense<1.0e18> : tensor<1x1x4x8xf32>
  %k = arith.constant dense<1.25e17> : tensor<1x1x4x8xf32>
  %b = arith.constant dense<-3.40282347e+38> : tensor<1x4xf32>
  %i = tensor.empty() : tensor<1x1x4x8xf32>
  %l = tensor.empty() : tensor<1x1x4xf32>
  %o, %s = attic.block_attention ins(%q, %k, %v : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>) bias(%b : tensor<1x4xf32>) outs(%i : tensor<1x1x4x8xf32>, lse %l : tensor<1x1x4xf32>) {layout = #attic.dense, scale = 1.0 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x1x4x8xf32>, tensor<1x1x4xf32>
  return %o, %s : tensor<1x1x4x8xf32>, tensor<1x1x4xf32>
}
