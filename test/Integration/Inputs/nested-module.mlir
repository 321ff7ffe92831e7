// A function inside a nested module: the tools run the functions at the
// top level of the file's module (test/Integration/bad-input.test).
module {
  module @inner {
    func.func @f(%q: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
      return %q : tensor<1x2x8x4xf32>
    }
  }
}
