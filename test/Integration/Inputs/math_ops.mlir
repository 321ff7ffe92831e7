// Every math op attic-cpu-pipeline compiles, elementwise on f32 (and erf,
// tanh, exp on f16/bf16): test/Integration/math-ops.test runs each with
// attic-run --check (the reference: libm in double) on the CPU and
// through the emulated CUDA mapping. One function per op, the same body
// for each; the domains are in the test's RUN lines.

func.func @erf(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.erf %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @erfc(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.erfc %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @tanh(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.tanh %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @exp(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.exp %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @exp2(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.exp2 %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @expm1(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.expm1 %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @log(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.log %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @log2(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.log2 %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @log10(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.log10 %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @log1p(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.log1p %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @sqrt(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.sqrt %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @rsqrt(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.rsqrt %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @cbrt(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.cbrt %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @sin(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.sin %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @cos(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.cos %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @tan(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.tan %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @asin(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.asin %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @acos(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.acos %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @atan(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.atan %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @sinh(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.sinh %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @cosh(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.cosh %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @asinh(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.asinh %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @acosh(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.acosh %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @atanh(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.atanh %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @absf(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.absf %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @floor(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.floor %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @ceil(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.ceil %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @trunc(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.trunc %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @round(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.round %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @roundeven(%x0: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %o: f32) {
      %y = math.roundeven %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @powf_map(%x0: tensor<4x256xf32>, %x1: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0, %x1 : tensor<4x256xf32>, tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %a1: f32, %o: f32) {
      %y = math.powf %a0, %a1 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @atan2(%x0: tensor<4x256xf32>, %x1: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0, %x1 : tensor<4x256xf32>, tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %a1: f32, %o: f32) {
      %y = math.atan2 %a0, %a1 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @copysign(%x0: tensor<4x256xf32>, %x1: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0, %x1 : tensor<4x256xf32>, tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %a1: f32, %o: f32) {
      %y = math.copysign %a0, %a1 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @fma(%x0: tensor<4x256xf32>, %x1: tensor<4x256xf32>, %x2: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.map ins(%x0, %x1, %x2 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>) outs(%e : tensor<4x256xf32>)
    (%a0: f32, %a1: f32, %a2: f32, %o: f32) {
      %y = math.fma %a0, %a1, %a2 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x256xf32>
}

func.func @erf_wide(%x0: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %e = tensor.empty() : tensor<64x1024xf32>
  %r = linalg.map ins(%x0 : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>)
    (%a0: f32, %o: f32) {
      %y = math.erf %a0 : f32
      linalg.yield %y : f32
    }
  return %r : tensor<64x1024xf32>
}

func.func @erf_f16(%x0: tensor<4x256xf16>) -> tensor<4x256xf16> {
  %e = tensor.empty() : tensor<4x256xf16>
  %r = linalg.map ins(%x0 : tensor<4x256xf16>) outs(%e : tensor<4x256xf16>)
    (%a0: f16, %o: f16) {
      %y = math.erf %a0 : f16
      linalg.yield %y : f16
    }
  return %r : tensor<4x256xf16>
}

func.func @tanh_f16(%x0: tensor<4x256xf16>) -> tensor<4x256xf16> {
  %e = tensor.empty() : tensor<4x256xf16>
  %r = linalg.map ins(%x0 : tensor<4x256xf16>) outs(%e : tensor<4x256xf16>)
    (%a0: f16, %o: f16) {
      %y = math.tanh %a0 : f16
      linalg.yield %y : f16
    }
  return %r : tensor<4x256xf16>
}

func.func @exp_f16(%x0: tensor<4x256xf16>) -> tensor<4x256xf16> {
  %e = tensor.empty() : tensor<4x256xf16>
  %r = linalg.map ins(%x0 : tensor<4x256xf16>) outs(%e : tensor<4x256xf16>)
    (%a0: f16, %o: f16) {
      %y = math.exp %a0 : f16
      linalg.yield %y : f16
    }
  return %r : tensor<4x256xf16>
}

func.func @erf_bf16(%x0: tensor<4x256xbf16>) -> tensor<4x256xbf16> {
  %e = tensor.empty() : tensor<4x256xbf16>
  %r = linalg.map ins(%x0 : tensor<4x256xbf16>) outs(%e : tensor<4x256xbf16>)
    (%a0: bf16, %o: bf16) {
      %y = math.erf %a0 : bf16
      linalg.yield %y : bf16
    }
  return %r : tensor<4x256xbf16>
}

func.func @tanh_bf16(%x0: tensor<4x256xbf16>) -> tensor<4x256xbf16> {
  %e = tensor.empty() : tensor<4x256xbf16>
  %r = linalg.map ins(%x0 : tensor<4x256xbf16>) outs(%e : tensor<4x256xbf16>)
    (%a0: bf16, %o: bf16) {
      %y = math.tanh %a0 : bf16
      linalg.yield %y : bf16
    }
  return %r : tensor<4x256xbf16>
}

func.func @exp_bf16(%x0: tensor<4x256xbf16>) -> tensor<4x256xbf16> {
  %e = tensor.empty() : tensor<4x256xbf16>
  %r = linalg.map ins(%x0 : tensor<4x256xbf16>) outs(%e : tensor<4x256xbf16>)
    (%a0: bf16, %o: bf16) {
      %y = math.exp %a0 : bf16
      linalg.yield %y : bf16
    }
  return %r : tensor<4x256xbf16>
}
