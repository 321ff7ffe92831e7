// An attention chosen at run time by a flag (scf.if at function level),
// for test/Integration/reference-branch.test.

func.func @branch(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %flag: tensor<i1>) -> tensor<1x2x64x16xf32> {
  %causal = tensor.extract %flag[] : tensor<i1>
  %r = scf.if %causal -> tensor<1x2x64x16xf32> {
    %o = attic.attention %q, %k, %v causal : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
    scf.yield %o : tensor<1x2x64x16xf32>
  } else {
    %o = attic.attention %q, %k, %v : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
    scf.yield %o : tensor<1x2x64x16xf32>
  }
  return %r : tensor<1x2x64x16xf32>
}
