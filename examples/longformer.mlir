// Longformer (Beltagy et al. 2020): a sliding window of 128 keys on each
// side plus global tokens (the CLS token 0 and token 512), which attend to
// every key and are attended by every query. One softmax over the union.
//
//   attic-run examples/longformer.mlir --entry=longformer --check
//   attic-run examples/longformer.mlir --entry=longformer --check --target=cuda-emulated
//
// The layout classifies the (query block, key block) pairs while the IR is
// built: blocks far from the diagonal are skipped unless a global token is
// in them, blocks inside the window are full (no mask evaluated), the rest
// partial. B=1, H=4, N=1024, D=64.

func.func @longformer(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v
      layout(#attic.union<[#attic.window<left = 128, right = 128>,
                           #attic.global<tokens = [0, 512]>]>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

// The dilated variant of Longformer's window (every 4th key up to 256
// away), with the same global tokens.
func.func @longformer_dilated(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v
      layout(#attic.union<[#attic.dilated<left = 256, right = 256, dilation = 4>,
                           #attic.global<tokens = [0, 512]>]>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}
