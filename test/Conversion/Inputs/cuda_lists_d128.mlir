// A wide head (D = 128) with run-time block lists, for cuda-ptxas.mlir:
// the lists are built for block_k = 64 on the GPU pipelines; at 128 the
// kernel spilled (176 bytes on sm_80) and wgmma=true fell back to mma.sync.
func.func @f(%q: tensor<1x1x256x128xf16>, %k: tensor<1x1x256x128xf16>, %v: tensor<1x1x256x128xf16>) -> tensor<1x1x256x128xf16> {
  %o = attic.attention %q, %k, %v causal layout(#attic.random<block = 64, count = 2, seed = 7>) : tensor<1x1x256x128xf16>, tensor<1x1x256x128xf16>, tensor<1x1x256x128xf16> -> tensor<1x1x256x128xf16>
  return %o : tensor<1x1x256x128xf16>
}
