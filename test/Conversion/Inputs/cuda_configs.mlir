// Default tile configuration of attic-cuda-pipeline (block_q = block_k = 64)
// for the ptxas -v checks: f16 and bf16, D = 64 and 128, dense and causal,
// plus one with a [B,Hq,Nk] key bias and a key mask. Odd sequence lengths.

func.func @f16_d64_dense(%q: tensor<2x4x333x64xf16>, %k: tensor<2x4x517x64xf16>, %v: tensor<2x4x517x64xf16>) -> tensor<2x4x333x64xf16> {
  %o = attic.attention %q, %k, %v : tensor<2x4x333x64xf16>, tensor<2x4x517x64xf16>, tensor<2x4x517x64xf16> -> tensor<2x4x333x64xf16>
  return %o : tensor<2x4x333x64xf16>
}

func.func @f16_d64_causal(%q: tensor<2x4x333x64xf16>, %k: tensor<2x4x517x64xf16>, %v: tensor<2x4x517x64xf16>) -> tensor<2x4x333x64xf16> {
  %o = attic.attention %q, %k, %v causal : tensor<2x4x333x64xf16>, tensor<2x4x517x64xf16>, tensor<2x4x517x64xf16> -> tensor<2x4x333x64xf16>
  return %o : tensor<2x4x333x64xf16>
}

func.func @f16_d128_dense(%q: tensor<2x4x333x128xf16>, %k: tensor<2x4x517x128xf16>, %v: tensor<2x4x517x128xf16>) -> tensor<2x4x333x128xf16> {
  %o = attic.attention %q, %k, %v : tensor<2x4x333x128xf16>, tensor<2x4x517x128xf16>, tensor<2x4x517x128xf16> -> tensor<2x4x333x128xf16>
  return %o : tensor<2x4x333x128xf16>
}

func.func @f16_d128_causal(%q: tensor<2x4x333x128xf16>, %k: tensor<2x4x517x128xf16>, %v: tensor<2x4x517x128xf16>) -> tensor<2x4x333x128xf16> {
  %o = attic.attention %q, %k, %v causal : tensor<2x4x333x128xf16>, tensor<2x4x517x128xf16>, tensor<2x4x517x128xf16> -> tensor<2x4x333x128xf16>
  return %o : tensor<2x4x333x128xf16>
}

func.func @bf16_d64_dense(%q: tensor<2x4x333x64xbf16>, %k: tensor<2x4x517x64xbf16>, %v: tensor<2x4x517x64xbf16>) -> tensor<2x4x333x64xbf16> {
  %o = attic.attention %q, %k, %v : tensor<2x4x333x64xbf16>, tensor<2x4x517x64xbf16>, tensor<2x4x517x64xbf16> -> tensor<2x4x333x64xbf16>
  return %o : tensor<2x4x333x64xbf16>
}

func.func @bf16_d64_causal(%q: tensor<2x4x333x64xbf16>, %k: tensor<2x4x517x64xbf16>, %v: tensor<2x4x517x64xbf16>) -> tensor<2x4x333x64xbf16> {
  %o = attic.attention %q, %k, %v causal : tensor<2x4x333x64xbf16>, tensor<2x4x517x64xbf16>, tensor<2x4x517x64xbf16> -> tensor<2x4x333x64xbf16>
  return %o : tensor<2x4x333x64xbf16>
}

func.func @bf16_d128_dense(%q: tensor<2x4x333x128xbf16>, %k: tensor<2x4x517x128xbf16>, %v: tensor<2x4x517x128xbf16>) -> tensor<2x4x333x128xbf16> {
  %o = attic.attention %q, %k, %v : tensor<2x4x333x128xbf16>, tensor<2x4x517x128xbf16>, tensor<2x4x517x128xbf16> -> tensor<2x4x333x128xbf16>
  return %o : tensor<2x4x333x128xbf16>
}

func.func @bf16_d128_causal(%q: tensor<2x4x333x128xbf16>, %k: tensor<2x4x517x128xbf16>, %v: tensor<2x4x517x128xbf16>) -> tensor<2x4x333x128xbf16> {
  %o = attic.attention %q, %k, %v causal : tensor<2x4x333x128xbf16>, tensor<2x4x517x128xbf16>, tensor<2x4x517x128xbf16> -> tensor<2x4x333x128xbf16>
  return %o : tensor<2x4x333x128xbf16>
}

func.func @bf16_d128_bias_mask(%q: tensor<2x4x333x128xbf16>, %k: tensor<2x4x517x128xbf16>, %v: tensor<2x4x517x128xbf16>, %b: tensor<2x4x517xf32>, %m: tensor<2x517xi1>) -> tensor<2x4x333x128xbf16> {
  %o = attic.attention %q, %k, %v causal bias(%b : tensor<2x4x517xf32>) mask(%m : tensor<2x517xi1>) : tensor<2x4x333x128xbf16>, tensor<2x4x517x128xbf16>, tensor<2x4x517x128xbf16> -> tensor<2x4x333x128xbf16>
  return %o : tensor<2x4x333x128xbf16>
}
