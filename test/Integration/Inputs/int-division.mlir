// Integer divisions whose divisors come from the data
// (test/Integration/int-division.test).

// Whole tensors: quotient, remainder and floor division of i32 tensors.
func.func @tensors(%a: tensor<8xi32>, %b: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) {
  %q = arith.divsi %a, %b : tensor<8xi32>
  %r = arith.remui %a, %b : tensor<8xi32>
  %f = arith.floordivsi %a, %b : tensor<8xi32>
  return %q, %r, %f : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
}

// Scalars read from the data: p[0] rem p[1], and p[0] ceildiv p[1] as an
// index (a row count from the data).
func.func @scalars(%p: tensor<2xi64>) -> (tensor<1xi64>, tensor<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %p[%c0] : tensor<2xi64>
  %y = tensor.extract %p[%c1] : tensor<2xi64>
  %r = arith.remsi %x, %y : i64
  %ix = arith.index_cast %x : i64 to index
  %iy = arith.index_cast %y : i64 to index
  %ic = arith.ceildivsi %ix, %iy : index
  %c = arith.index_cast %ic : index to i64
  %zero = arith.constant dense<0> : tensor<1xi64>
  %tr = tensor.insert %r into %zero[%c0] : tensor<1xi64>
  %tc = tensor.insert %c into %zero[%c0] : tensor<1xi64>
  return %tr, %tc : tensor<1xi64>, tensor<1xi64>
}

// A linalg.generic of the user's own: each element divided by a divisor
// from the data (a bucket width, broadcast).
#id = affine_map<(i) -> (i)>
#first = affine_map<(i) -> (0)>
func.func @generic(%a: tensor<8xi64>, %w: tensor<1xi64>) -> tensor<8xi64> {
  %init = tensor.empty() : tensor<8xi64>
  %r = linalg.generic {indexing_maps = [#id, #first, #id], iterator_types = ["parallel"]}
      ins(%a, %w : tensor<8xi64>, tensor<1xi64>) outs(%init : tensor<8xi64>) {
  ^bb0(%x: i64, %width: i64, %o: i64):
    %d = arith.divui %x, %width : i64
    linalg.yield %d : i64
  } -> tensor<8xi64>
  return %r : tensor<8xi64>
}

// The index dialect's division and an affine.apply dividing by a symbol:
// p[0] divs p[1], and (p[0] mod p[1]) in a linalg.map's body.
func.func @index_ops(%p: tensor<2xi64>) -> tensor<2xi64> {
  %r = linalg.map ins(%p : tensor<2xi64>) outs(%p : tensor<2xi64>)
    (%x: i64, %o: i64) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = tensor.extract %p[%c0] : tensor<2xi64>
      %b = tensor.extract %p[%c1] : tensor<2xi64>
      %ia = arith.index_cast %a : i64 to index
      %ib = arith.index_cast %b : i64 to index
      %q = index.divs %ia, %ib
      %m = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%ia)[%ib]
      %s = arith.addi %q, %m : index
      %d = arith.index_cast %s : index to i64
      linalg.yield %d : i64
    }
  return %r : tensor<2xi64>
}

// i128 (x * 2^64) / y, returned as its high and low 64 bits: the report's
// details are saturated into i64 (the report call took i128 operands,
// invalid IR that refused the program with a func.call verifier message).
func.func @wide(%p: tensor<2xi64>) -> (tensor<1xi64>, tensor<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %p[%c0] : tensor<2xi64>
  %y = tensor.extract %p[%c1] : tensor<2xi64>
  %x128 = arith.extsi %x : i64 to i128
  %y128 = arith.extsi %y : i64 to i128
  %c64 = arith.constant 64 : i128
  %shifted = arith.shli %x128, %c64 : i128
  %q = arith.divsi %shifted, %y128 : i128
  %qhi = arith.shrsi %q, %c64 : i128
  %hi = arith.trunci %qhi : i128 to i64
  %lo = arith.trunci %q : i128 to i64
  %zero = arith.constant dense<0> : tensor<1xi64>
  %thi = tensor.insert %hi into %zero[%c0] : tensor<1xi64>
  %tlo = tensor.insert %lo into %zero[%c0] : tensor<1xi64>
  return %thi, %tlo : tensor<1xi64>, tensor<1xi64>
}
