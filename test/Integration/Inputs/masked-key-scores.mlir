// Keys masked by a -inf bias, a false key mask or the end of the keys
// (padded key blocks), where the score region gives NaN or +inf.

// Keys 0 and 3 have a bias of -inf; the region gives them NaN and +inf.
func.func @bias_nan_score(%q: tensor<1x2x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x8xf32>) -> tensor<1x2x5x8xf32> {
  %bias = arith.constant dense<[[0xFF800000, 0.5, -1.0, 0xFF800000, 0.0, 2.0, -0.25]]> : tensor<1x7xf32>
  %o = attic.attention %q, %k, %v bias(%bias : tensor<1x7xf32>) score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %nan = arith.constant 0x7FC00000 : f32
    %inf = arith.constant 0x7F800000 : f32
    %is0 = arith.cmpi eq, %j, %c0 : index
    %is3 = arith.cmpi eq, %j, %c3 : index
    %x = arith.select %is0, %nan, %s : f32
    %y = arith.select %is3, %inf, %x : f32
    attic.yield %y : f32
  } : tensor<1x2x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32> -> tensor<1x2x5x8xf32>
  return %o : tensor<1x2x5x8xf32>
}

// Keys 1 and 4 are masked; the region gives them NaN and +inf.
func.func @mask_nan_score(%q: tensor<2x1x5x8xf16>, %k: tensor<2x1x7x8xf16>, %v: tensor<2x1x7x8xf16>) -> tensor<2x1x5x8xf16> {
  %mask = arith.constant dense<[[true, false, true, true, false, true, true], [true, false, false, true, false, true, false]]> : tensor<2x7xi1>
  %o = attic.attention %q, %k, %v mask(%mask : tensor<2x7xi1>) score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %nan = arith.constant 0x7FC00000 : f32
    %inf = arith.constant 0x7F800000 : f32
    %is1 = arith.cmpi eq, %j, %c1 : index
    %is4 = arith.cmpi eq, %j, %c4 : index
    %x = arith.select %is1, %nan, %s : f32
    %y = arith.select %is4, %inf, %x : f32
    attic.yield %y : f32
  } : tensor<2x1x5x8xf16>, tensor<2x1x7x8xf16>, tensor<2x1x7x8xf16> -> tensor<2x1x5x8xf16>
  return %o : tensor<2x1x5x8xf16>
}

// One key, a bias of 0, and a region that multiplies the score by -inf:
// the key's logit is -inf (q . k > 0), the row has no visible key and is
// 0. The keys past Nk in the block (score 0 where the mapping pads with
// zeros) gave 0 * -inf = NaN, and NaN + their -inf term was NaN.
func.func @padded_keys_score() -> tensor<1x1x3x4xf32> {
  %q = arith.constant dense<1.0> : tensor<1x1x3x4xf32>
  %k = arith.constant dense<0.5> : tensor<1x1x1x4xf32>
  %v = arith.constant dense<3.0> : tensor<1x1x1x4xf32>
  %bias = arith.constant dense<0.0> : tensor<1x1xf32>
  %o = attic.attention %q, %k, %v bias(%bias : tensor<1x1xf32>) score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.mulf %s, %ninf : f32
    attic.yield %r : f32
  } : tensor<1x1x3x4xf32>, tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32> -> tensor<1x1x3x4xf32>
  return %o : tensor<1x1x3x4xf32>
}
