// Composite slice attention (CST, docs/cst.md): the attention sublayer of
// a Composite Slice Transformer, x + CSA(x) W_o, on a batch of B = 2
// sequences of N = 512 tokens, model width D = 128, H = 4 heads of 32.
//
// @cst_layer: slices of L = 32 tokens, extension alpha = 3 (keys and
// values of slice s are the tokens of slices s-1, s and s+1: a window of
// 96), padding mask, bidirectional. pos_local (P_l) has one row per window
// position (96), pos_global (P_g) one per slice (16).
//
// @cst_causal: the autoregressive variant, L = 16, alpha = 3: the window
// extends to the left only (32 keys, causal inside the slice); the global
// term of slice t comes from the summaries of slices before it (slice 0:
// none).
//
// @cst_alpha1: L = 64 without extension (no borrowed tokens: the local
// part is block-diagonal attention) and without a mask.
//
// Run one (inputs generated from a seed; --check runs the same function
// with the reference semantics, attic::ref::cst for the slice attention
// and the linalg ops interpreted in double):
//   build/tools/attic-run examples/cst_layer.mlir --entry=cst_layer \
//       --mask-keep=0.8 --range-lo=-0.5 --range-hi=0.5 --check
// The output projection W_o is applied after the op (it commutes with
// the slice pooling, so the op does not need it); the residual is the
// usual one of a pre- or post-norm block.

func.func @cst_layer(%x: tensor<2x512x128xf32>, %m: tensor<2x512xi1>,
                     %wq: tensor<128x128xf32>, %wk: tensor<128x128xf32>,
                     %wv: tensor<128x128xf32>, %wo: tensor<128x128xf32>,
                     %pl: tensor<96x128xf32>, %pg: tensor<16x128xf32>)
    -> tensor<2x512x128xf32> {
  %y = attic.slice_attention %x weights(%wq, %wk, %wv) positions(%pl, %pg)
      mask(%m : tensor<2x512xi1>)
      {slice = 32 : i64, extension = 3 : i64, heads = 4 : i64}
      : tensor<2x512x128xf32>, tensor<128x128xf32>, tensor<96x128xf32>,
        tensor<16x128xf32> -> tensor<2x512x128xf32>
  %flat = tensor.collapse_shape %y [[0, 1], [2]]
      : tensor<2x512x128xf32> into tensor<1024x128xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x128xf32>)
      -> tensor<1024x128xf32>
  %proj = linalg.matmul ins(%flat, %wo : tensor<1024x128xf32>, tensor<128x128xf32>)
      outs(%init : tensor<1024x128xf32>) -> tensor<1024x128xf32>
  %o = tensor.expand_shape %proj [[0, 1], [2]] output_shape [2, 512, 128]
      : tensor<1024x128xf32> into tensor<2x512x128xf32>
  %out = arith.addf %x, %o : tensor<2x512x128xf32>
  return %out : tensor<2x512x128xf32>
}

func.func @cst_causal(%x: tensor<2x512x128xf32>, %m: tensor<2x512xi1>,
                      %wq: tensor<128x128xf32>, %wk: tensor<128x128xf32>,
                      %wv: tensor<128x128xf32>, %pl: tensor<32x128xf32>,
                      %pg: tensor<32x128xf32>) -> tensor<2x512x128xf32> {
  %y = attic.slice_attention %x weights(%wq, %wk, %wv) positions(%pl, %pg)
      mask(%m : tensor<2x512xi1>)
      {slice = 16 : i64, extension = 3 : i64, heads = 4 : i64, causal}
      : tensor<2x512x128xf32>, tensor<128x128xf32>, tensor<32x128xf32>,
        tensor<32x128xf32> -> tensor<2x512x128xf32>
  return %y : tensor<2x512x128xf32>
}

func.func @cst_alpha1(%x: tensor<1x1024x128xf32>, %wq: tensor<128x128xf32>,
                      %wk: tensor<128x128xf32>, %wv: tensor<128x128xf32>,
                      %pl: tensor<64x128xf32>, %pg: tensor<16x128xf32>)
    -> tensor<1x1024x128xf32> {
  %y = attic.slice_attention %x weights(%wq, %wk, %wv) positions(%pl, %pg)
      {slice = 64 : i64, extension = 1 : i64, heads = 4 : i64}
      : tensor<1x1024x128xf32>, tensor<128x128xf32>, tensor<64x128xf32>,
        tensor<16x128xf32> -> tensor<1x1024x128xf32>
  return %y : tensor<1x1024x128xf32>
}
