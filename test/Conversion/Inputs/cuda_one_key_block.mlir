// Attentions of one key block (a static Nk <= block_k), for cuda-ptxas.mlir:
// wgmma-overlap is not applied to them (nothing to defer P V past), and
// ptxas serialized their wgmmas (C7511/C7519) when it was (2026-11-28).
// The last two visit one key block in each query block although Nk >
// block_k (causal, 64 queries): the same until 2026-11-30 (an audit).

func.func @one_block(%q: tensor<1x1x128x64xf16>, %k: tensor<1x1x128x64xf16>, %v: tensor<1x1x128x64xf16>) -> tensor<1x1x128x64xf16> {
  %o = attic.attention %q, %k, %v : tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16> -> tensor<1x1x128x64xf16>
  return %o : tensor<1x1x128x64xf16>
}
func.func @alibi_f16(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>, %slopes: tensor<2xf32>) -> tensor<1x2x64x64xf16> {
  %o = attic.attention %q, %k, %v causal captures(%slopes : tensor<2xf32>)
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %sl: tensor<2xf32>):
        %slope = tensor.extract %sl[%h] : tensor<2xf32>
        %d = arith.subi %ki, %qi : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f32
        %bias = arith.mulf %slope, %df : f32
        %r = arith.addf %s, %bias : f32
        attic.yield %r : f32
      }
      : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16> -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}
func.func @causal_short_queries(%q: tensor<1x1x64x128xf16>, %k: tensor<1x1x129x128xf16>, %v: tensor<1x1x129x128xf16>) -> tensor<1x1x64x128xf16> {
  %o = attic.attention %q, %k, %v causal : tensor<1x1x64x128xf16>, tensor<1x1x129x128xf16>, tensor<1x1x129x128xf16> -> tensor<1x1x64x128xf16>
  return %o : tensor<1x1x64x128xf16>
}
func.func @causal_short_queries_long_keys(%q: tensor<1x2x64x128xf16>, %k: tensor<1x2x1000x128xf16>, %v: tensor<1x2x1000x128xf16>) -> tensor<1x2x64x128xf16> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x64x128xf16>, tensor<1x2x1000x128xf16>, tensor<1x2x1000x128xf16> -> tensor<1x2x64x128xf16>
  return %o : tensor<1x2x64x128xf16>
}
