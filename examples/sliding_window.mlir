// Causal sliding-window attention as in Mistral 7B: each query sees itself
// and the 255 keys before it (a window of W = 256 tokens).
//
//   attic-run examples/sliding_window.mlir --entry=sliding_window --check
//   attic-run examples/sliding_window.mlir --entry=sliding_window_f16 --check
//
// Only the key blocks of the band are visited: the time follows the number
// of visited blocks, not N^2 (bench/cpu/layouts.sh). B=1, H=4, N=1024, D=64.

func.func @sliding_window(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.window<left = 255, right = 0>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

func.func @sliding_window_f16(%q: tensor<1x4x1024x64xf16>, %k: tensor<1x4x1024x64xf16>, %v: tensor<1x4x1024x64xf16>) -> tensor<1x4x1024x64xf16> {
  %o = attic.attention %q, %k, %v layout(#attic.window<left = 255, right = 0>)
      : tensor<1x4x1024x64xf16>, tensor<1x4x1024x64xf16>, tensor<1x4x1024x64xf16> -> tensor<1x4x1024x64xf16>
  return %o : tensor<1x4x1024x64xf16>
}
