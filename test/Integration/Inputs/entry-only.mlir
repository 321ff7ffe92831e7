// A module of several entries for test/Integration/entry-only.test: @good
// reaches @scale_exp through a call, @bad calls a function that nothing
// defines, @dead is called by nothing. The nested module @inner holds an
// attention that the pipelines' scope check refuses there (nested modules
// need a nested pipeline): nothing names it, so no entry compiles it (it
// failed every entry before 2026-11-30).

module @inner {
  func.func @nested(%q: tensor<1x1x8x4xf32>) -> tensor<1x1x8x4xf32> {
    %o = attic.attention %q, %q, %q causal : tensor<1x1x8x4xf32>,
         tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
    return %o : tensor<1x1x8x4xf32>
  }
}

func.func private @missing_function_nowhere_defined(f32) -> f32

func.func private @scale_exp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %half = arith.constant 0.5 : f32
  %r = linalg.map ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
    (%a: f32, %o: f32) {
      %s = arith.mulf %a, %half : f32
      %y = math.exp %s : f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x8xf32>
}

func.func @good(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = func.call @scale_exp(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @bad(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.map ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
    (%a: f32, %o: f32) {
      %y = func.call @missing_function_nowhere_defined(%a) : (f32) -> f32
      linalg.yield %y : f32
    }
  return %r : tensor<4x8xf32>
}

func.func @dead(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = func.call @scale_exp(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
