// Input of ../bf16-conversions.test: conversions to bf16 from f64 and from
// 32- and 64-bit integers, read back as f64.
#map = affine_map<(i) -> (i)>
func.func @trunc_f64(%x: tensor<64xf64>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: f64, %o: f64):
    %h = arith.truncf %a : f64 to bf16
    %w = arith.extf %h : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}
func.func @si32(%x: tensor<64xi32>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<64xi32>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: i32, %o: f64):
    %h = arith.sitofp %a : i32 to bf16
    %w = arith.extf %h : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}
func.func @ui32(%x: tensor<64xi32>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<64xi32>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: i32, %o: f64):
    %h = arith.uitofp %a : i32 to bf16
    %w = arith.extf %h : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}
func.func @si64(%x: tensor<64xi64>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<64xi64>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: i64, %o: f64):
    %h = arith.sitofp %a : i64 to bf16
    %w = arith.extf %h : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}
func.func @ui64(%x: tensor<64xi64>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<64xi64>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: i64, %o: f64):
    %h = arith.uitofp %a : i64 to bf16
    %w = arith.extf %h : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}
// 128-bit integers from (high, low) int64 pairs: rounded twice through
// f32 before 2026-12-02 (attic-exact-bf16-conversions skipped them).
func.func @si128(%x: tensor<64x2xi64>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%e : tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%unused: f64, %o: f64):
    %i = linalg.index 0 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %hi = tensor.extract %x[%i, %c0] : tensor<64x2xi64>
    %lo = tensor.extract %x[%i, %c1] : tensor<64x2xi64>
    %h = arith.extsi %hi : i64 to i128
    %l = arith.extui %lo : i64 to i128
    %s = arith.constant 64 : i128
    %hs = arith.shli %h, %s : i128
    %v = arith.ori %hs, %l : i128
    %b = arith.sitofp %v : i128 to bf16
    %w = arith.extf %b : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}
func.func @ui128(%x: tensor<64x2xi64>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%e : tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%unused: f64, %o: f64):
    %i = linalg.index 0 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %hi = tensor.extract %x[%i, %c0] : tensor<64x2xi64>
    %lo = tensor.extract %x[%i, %c1] : tensor<64x2xi64>
    %h = arith.extui %hi : i64 to i128
    %l = arith.extui %lo : i64 to i128
    %s = arith.constant 64 : i128
    %hs = arith.shli %h, %s : i128
    %v = arith.ori %hs, %l : i128
    %b = arith.uitofp %v : i128 to bf16
    %w = arith.extf %b : bf16 to f64
    linalg.yield %w : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}
