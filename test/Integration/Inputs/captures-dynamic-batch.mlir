// A dynamic batch dim with a captured table (test/Integration/captures-dynamic.test).
func.func @attention(%q: tensor<?x3x45x16xf32>, %k: tensor<?x3x61x16xf32>, %v: tensor<?x3x61x9xf32>, %table: tensor<2x61xf32>) -> tensor<?x3x45x9xf32> {
  %o = attic.attention %q, %k, %v captures(%table : tensor<2x61xf32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %t: tensor<2x61xf32>):
        %x = tensor.extract %t[%b, %ki] : tensor<2x61xf32>
        %lim = arith.constant -0.6 : f32
        %p = arith.cmpf ogt, %x, %lim : f32
        attic.yield %p : i1
      }
      : tensor<?x3x45x16xf32>, tensor<?x3x61x16xf32>, tensor<?x3x61x9xf32> -> tensor<?x3x45x9xf32>
  return %o : tensor<?x3x45x9xf32>
}
