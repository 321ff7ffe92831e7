// An lse destination with Dv = 0 (test/Integration/lse.test).
func.func @f(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x3x2xf32>, %v: tensor<1x1x3x0xf32>) -> (tensor<1x1x3x0xf32>, tensor<1x1x3xf32>) {
  %init = tensor.empty() : tensor<1x1x3x0xf32>
  %l = tensor.empty() : tensor<1x1x3xf32>
  %o:2 = attic.block_attention ins(%q, %k, %v : tensor<1x1x3x2xf32>, tensor<1x1x3x2xf32>, tensor<1x1x3x0xf32>)
    outs(%init : tensor<1x1x3x0xf32>, lse %l : tensor<1x1x3xf32>)
    {layout = #attic.dense, scale = 1.0 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x1x3x0xf32>, tensor<1x1x3xf32>
  return %o#0, %o#1 : tensor<1x1x3x0xf32>, tensor<1x1x3xf32>
}
