// Prefix-LM: the first 256 tokens (the prefix) see each other
// bidirectionally, the tokens after them are causal and see the whole
// prefix: the union of causal attention and the prefix's keys.
//
//   attic-run examples/prefix_lm.mlir --entry=prefix_lm --check
//
// B=1, H=4, N=1024, D=64.

func.func @prefix_lm(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v
      layout(#attic.union<[#attic.causal, #attic.sinks<count = 256>]>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}
