// Score regions with the math ops attic-approximate-math sends to libm
// (test/Integration/region-math-libm.test).

// log1p(x) / x at x = k * 1e-7, x read from a captured table: about 1 + k,
// where log(1 + x) / x was off by 6% (and 0 below 6e-8).
func.func @log1p_small(%q: tensor<1x2x32x8xf32>, %k: tensor<1x2x32x8xf32>, %v: tensor<1x2x32x8xf32>) -> tensor<1x2x32x8xf32> {
  %t = arith.constant dense<[0.0e-07, 1.0e-07, 2.0e-07, 3.0e-07, 4.0e-07, 5.0e-07, 6.0e-07, 7.0e-07, 8.0e-07, 9.0e-07, 10.0e-07, 11.0e-07, 12.0e-07, 13.0e-07, 14.0e-07, 15.0e-07, 16.0e-07, 17.0e-07, 18.0e-07, 19.0e-07, 20.0e-07, 21.0e-07, 22.0e-07, 23.0e-07, 24.0e-07, 25.0e-07, 26.0e-07, 27.0e-07, 28.0e-07, 29.0e-07, 30.0e-07, 31.0e-07]> : tensor<32xf32>
  %o = attic.attention %q, %k, %v captures(%t : tensor<32xf32>) score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %tab: tensor<32xf32>):
    %x = tensor.extract %tab[%ki] : tensor<32xf32>
    %eps = arith.constant 1.0e-07 : f32
    %l = math.log1p %x : f32
    %r = arith.divf %l, %eps : f32
    attic.yield %r : f32
  } : tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32> -> tensor<1x2x32x8xf32>
  return %o : tensor<1x2x32x8xf32>
}

// expm1 the same way (exp(x) - 1 cancelled).
func.func @expm1_small(%q: tensor<1x2x32x8xf32>, %k: tensor<1x2x32x8xf32>, %v: tensor<1x2x32x8xf32>) -> tensor<1x2x32x8xf32> {
  %t = arith.constant dense<[0.0e-07, 1.0e-07, 2.0e-07, 3.0e-07, 4.0e-07, 5.0e-07, 6.0e-07, 7.0e-07, 8.0e-07, 9.0e-07, 10.0e-07, 11.0e-07, 12.0e-07, 13.0e-07, 14.0e-07, 15.0e-07, 16.0e-07, 17.0e-07, 18.0e-07, 19.0e-07, 20.0e-07, 21.0e-07, 22.0e-07, 23.0e-07, 24.0e-07, 25.0e-07, 26.0e-07, 27.0e-07, 28.0e-07, 29.0e-07, 30.0e-07, 31.0e-07]> : tensor<32xf32>
  %o = attic.attention %q, %k, %v captures(%t : tensor<32xf32>) score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %tab: tensor<32xf32>):
    %x = tensor.extract %tab[%ki] : tensor<32xf32>
    %eps = arith.constant 1.0e-07 : f32
    %l = math.expm1 %x : f32
    %r = arith.divf %l, %eps : f32
    attic.yield %r : f32
  } : tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32> -> tensor<1x2x32x8xf32>
  return %o : tensor<1x2x32x8xf32>
}

// cbrt, erfc, asinh, acosh and atanh of the logit (a vector cbrt did not
// compile on the CPU).
func.func @libm_ops(%q: tensor<1x2x32x8xf32>, %k: tensor<1x2x32x8xf32>, %v: tensor<1x2x32x8xf32>) -> tensor<1x2x32x8xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %c = math.cbrt %s : f32
    %e = math.erfc %s : f32
    %a = math.asinh %s : f32
    %one = arith.constant 1.0 : f32
    %abs = math.absf %s : f32
    %above = arith.addf %abs, %one : f32
    %ac = math.acosh %above : f32
    %th = math.tanh %s : f32
    %half = arith.constant 0.5 : f32
    %in = arith.mulf %th, %half : f32
    %at = math.atanh %in : f32
    %s1 = arith.addf %c, %e : f32
    %s2 = arith.addf %s1, %a : f32
    %s3 = arith.addf %s2, %ac : f32
    %r = arith.addf %s3, %at : f32
    attic.yield %r : f32
  } : tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32> -> tensor<1x2x32x8xf32>
  return %o : tensor<1x2x32x8xf32>
}

// erf in f64 (the polynomial takes f32 only): a vector of it did not
// compile on the CPU either (an audit, 2026-12-02).
func.func @erf_f64(%q: tensor<1x2x32x8xf32>, %k: tensor<1x2x32x8xf32>, %v: tensor<1x2x32x8xf32>) -> tensor<1x2x32x8xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %x = arith.extf %s : f32 to f64
    %c = arith.constant 0.25 : f64
    %xs = arith.mulf %x, %c : f64
    %e = math.erf %xs : f64
    %r = arith.truncf %e : f64 to f32
    attic.yield %r : f32
  } : tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32>, tensor<1x2x32x8xf32> -> tensor<1x2x32x8xf32>
  return %o : tensor<1x2x32x8xf32>
}
