// Inputs whose Q K^T overflows f32 although the scaled logits are finite
// (D = 64, scale 1/8: |q . k| up to 4.3e38, scale * q . k up to 5.4e37).
// Before 2026-12-01 Q K^T was formed unscaled: its -inf read as a masked
// key (a row without a visible key: 0, silently) where there is a key
// mask, a bias or a score region, and as NaN elsewhere. The query is now
// scaled by 2^-3 in front of the product (attic.tile.qk's query_scale).

func.func @masked(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x64x64xf32>, %v: tensor<1x2x64x64xf32>, %m: tensor<1x64xi1>) -> tensor<1x2x64x64xf32> {
  %o = attic.attention %q, %k, %v mask(%m : tensor<1x64xi1>) : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32> -> tensor<1x2x64x64xf32>
  return %o : tensor<1x2x64x64xf32>
}

// Full blocks, the scale folded into the exponent.
func.func @dense(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x64x64xf32>, %v: tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32> -> tensor<1x2x64x64xf32>
  return %o : tensor<1x2x64x64xf32>
}

// Partial blocks (the scale in the predicate's map).
func.func @causal(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x64x64xf32>, %v: tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32> -> tensor<1x2x64x64xf32>
  return %o : tensor<1x2x64x64xf32>
}

// A score region sees scale * q . k (here halved).
func.func @scored(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x64x64xf32>, %v: tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32> {
  %o = attic.attention %q, %k, %v
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %half = arith.constant 0.5 : f32
        %r = arith.mulf %s, %half : f32
        attic.yield %r : f32
      }
      : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32> -> tensor<1x2x64x64xf32>
  return %o : tensor<1x2x64x64xf32>
}

// bf16 (its exponent range is f32's): the tensor-core kernel in the
// simulator scales the Q fragments.
func.func @dense_bf16(%q32: tensor<1x2x64x64xf32>, %k32: tensor<1x2x64x64xf32>, %v32: tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32> {
  %q = arith.truncf %q32 : tensor<1x2x64x64xf32> to tensor<1x2x64x64xbf16>
  %k = arith.truncf %k32 : tensor<1x2x64x64xf32> to tensor<1x2x64x64xbf16>
  %v = arith.truncf %v32 : tensor<1x2x64x64xf32> to tensor<1x2x64x64xbf16>
  %o = attic.attention %q, %k, %v : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16> -> tensor<1x2x64x64xbf16>
  %r = arith.extf %o : tensor<1x2x64x64xbf16> to tensor<1x2x64x64xf32>
  return %r : tensor<1x2x64x64xf32>
}
