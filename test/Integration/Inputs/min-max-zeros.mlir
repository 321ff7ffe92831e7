// Input of ../min-max-zeros.test: arith.maximumf / minimumf of two
// vectors of pairs, elementwise, as their reciprocals (the sign of a zero
// result shows as the sign of an infinity).
#map = affine_map<(i) -> (i)>
func.func @f32(%x: tensor<19xf32>, %y: tensor<19xf32>)
    -> (tensor<19xf32>, tensor<19xf32>) {
  %e = tensor.empty() : tensor<19xf32>
  %one = arith.constant 1.0 : f32
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%x, %y : tensor<19xf32>, tensor<19xf32>) outs(%e, %e : tensor<19xf32>, tensor<19xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %p: f32):
    %m = arith.maximumf %a, %b : f32
    %n = arith.minimumf %a, %b : f32
    %rm = arith.divf %one, %m : f32
    %rn = arith.divf %one, %n : f32
    linalg.yield %rm, %rn : f32, f32
  } -> (tensor<19xf32>, tensor<19xf32>)
  return %r#0, %r#1 : tensor<19xf32>, tensor<19xf32>
}
func.func @f64(%x: tensor<19xf64>, %y: tensor<19xf64>)
    -> (tensor<19xf64>, tensor<19xf64>) {
  %e = tensor.empty() : tensor<19xf64>
  %one = arith.constant 1.0 : f64
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%x, %y : tensor<19xf64>, tensor<19xf64>) outs(%e, %e : tensor<19xf64>, tensor<19xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64, %p: f64):
    %m = arith.maximumf %a, %b : f64
    %n = arith.minimumf %a, %b : f64
    %rm = arith.divf %one, %m : f64
    %rn = arith.divf %one, %n : f64
    linalg.yield %rm, %rn : f64, f64
  } -> (tensor<19xf64>, tensor<19xf64>)
  return %r#0, %r#1 : tensor<19xf64>, tensor<19xf64>
}
