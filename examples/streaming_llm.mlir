// StreamingLLM (Xiao et al. 2024): attention sinks plus a sliding window.
// Every query sees the first 4 tokens (the sinks) and the 255 tokens before
// it, causally.
//
//   attic-run examples/streaming_llm.mlir --entry=streaming_llm --check
//
// B=1, H=4, N=1024, D=64.

func.func @streaming_llm(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v causal
      layout(#attic.union<[#attic.sinks<count = 4>,
                           #attic.window<left = 255, right = 0>]>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}
