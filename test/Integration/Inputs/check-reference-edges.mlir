// Edges of the reference semantics behind --check
// (check-reference-edges.test).

// f32 rounding decides an exact result: 0.1 + 0.2 == 0.3 and
// fptosi(0.7 * 10) = 7 in f32 (not in double).
func.func @f32_equal(%a: tensor<1xf32>, %b: tensor<1xf32>, %c: tensor<1xf32>) -> tensor<1xi1> {
  %s = arith.addf %a, %b : tensor<1xf32>
  %r = arith.cmpf oeq, %s, %c : tensor<1xf32>
  return %r : tensor<1xi1>
}

func.func @f32_truncate(%a: tensor<1xf32>) -> tensor<1xi32> {
  %ten = arith.constant dense<10.0> : tensor<1xf32>
  %m = arith.mulf %a, %ten : tensor<1xf32>
  %r = arith.fptosi %m : tensor<1xf32> to tensor<1xi32>
  return %r : tensor<1xi32>
}

// exp(89) is +inf in f32, as a result and as an intermediate value.
func.func @f32_overflow(%a: tensor<2xf32>) -> tensor<2xf32> {
  %e = math.exp %a : tensor<2xf32>
  return %e : tensor<2xf32>
}

func.func @f32_overflow_compared(%a: tensor<2xf32>) -> tensor<2xi1> {
  %e = math.exp %a : tensor<2xf32>
  %half = arith.constant dense<0.5> : tensor<2xf32>
  %h = arith.mulf %e, %half : tensor<2xf32>
  %big = arith.constant dense<3.0e38> : tensor<2xf32>
  %r = arith.cmpf ogt, %h, %big : tensor<2xf32>
  return %r : tensor<2xi1>
}

// An out-of-range fptosi is undefined; i128 is not held by the reference.
func.func @fptosi_range(%a: tensor<2xf32>) -> tensor<2xi32> {
  %r = arith.fptosi %a : tensor<2xf32> to tensor<2xi32>
  return %r : tensor<2xi32>
}

func.func @wide(%a: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%x: i32, %o: i32):
    %w = arith.extsi %x : i32 to i128
    %k = arith.constant 1099511627776 : i128
    %m = arith.muli %w, %k : i128
    %t = arith.trunci %m : i128 to i32
    linalg.yield %t : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// 512 x 512 x 128 = 3.4e7 points: past the reference's limit of 2e7.
func.func @big_matmul(%a: tensor<512x128xf32>, %b: tensor<128x512xf32>) -> tensor<512x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x128xf32>, tensor<128x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}

// An f16 attention in a called function, widened to f32 by the caller: the
// f16 tolerance (it was judged at f32's 1e-5).
func.func private @f16_inner(%q: tensor<1x2x64x32xf16>, %k: tensor<1x2x64x32xf16>, %v: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
  %o = attic.attention %q, %k, %v : tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
  return %o : tensor<1x2x64x32xf16>
}
func.func @f16_via_call(%q: tensor<1x2x64x32xf16>, %k: tensor<1x2x64x32xf16>, %v: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf32> {
  %o = func.call @f16_inner(%q, %k, %v) : (tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16>
  %w = arith.extf %o : tensor<1x2x64x32xf16> to tensor<1x2x64x32xf32>
  return %w : tensor<1x2x64x32xf32>
}
