// Kernelized attention whose denominator phi(q) . sum_j phi(k_j) overflows
// f32 (q = k = 5e17: phi = elu + 1 is 5e17, the sum over 32 features and
// 128 keys exceeds 3.4e38) while the numerator stays finite: every output
// was a silent 0 (exit 0; the reference gives about mean(v)). An
// overflowed denominator, or RMSNorm's sum of squares, now gives NaN, which
// the run reports (test/Integration/bad-input.test).
func.func @linear(%q: tensor<1x2x128x32xf32>, %k: tensor<1x2x128x32xf32>, %v: tensor<1x2x128x32xf32>) -> tensor<1x2x128x32xf32> {
  %o = attic.kernelized_attention elu_plus_one %q, %k, %v
      : tensor<1x2x128x32xf32>, tensor<1x2x128x32xf32>, tensor<1x2x128x32xf32> -> tensor<1x2x128x32xf32>
  return %o : tensor<1x2x128x32xf32>
}
func.func @causal(%q: tensor<1x2x128x32xf32>, %k: tensor<1x2x128x32xf32>, %v: tensor<1x2x128x32xf32>) -> tensor<1x2x128x32xf32> {
  %o = attic.kernelized_attention elu_plus_one %q, %k, %v {causal}
      : tensor<1x2x128x32xf32>, tensor<1x2x128x32xf32>, tensor<1x2x128x32xf32> -> tensor<1x2x128x32xf32>
  return %o : tensor<1x2x128x32xf32>
}
