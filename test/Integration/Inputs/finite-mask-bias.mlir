// The additive mask of many models: a key bias of finfo(float32).min
// (-3.4028235e38) on masked keys, 0 elsewhere. log2(e) * bias overflows
// f32; the term saturates to -FLT_MAX (never -inf, which would mask), so
// causal rows 0..39, whose visible keys all have the bias, are the average
// of their value rows, as in the reference and f32 PyTorch; they were an
// empty row's 0 (relative error 0.99, exit 0). Keys 40.. have bias 0.
func.func @causal_bias(%q: tensor<1x2x100x16xf32>, %k: tensor<1x2x100x16xf32>, %v: tensor<1x2x100x16xf32>) -> tensor<1x2x100x16xf32> {
  %bias = tensor.generate {
  ^bb0(%b: index, %j: index):
    %c40 = arith.constant 40 : index
    %masked = arith.cmpi ult, %j, %c40 : index
    %min = arith.constant -3.40282347e+38 : f32
    %zero = arith.constant 0.0 : f32
    %x = arith.select %masked, %min, %zero : f32
    tensor.yield %x : f32
  } : tensor<1x100xf32>
  %o = attic.attention %q, %k, %v causal bias(%bias : tensor<1x100xf32>) : tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32> -> tensor<1x2x100x16xf32>
  return %o : tensor<1x2x100x16xf32>
}
