// RUN: attic-opt %s --attic-guard-integer-division --verify-diagnostics

// An unranked tensor's division has no linalg.generic form to guard.
func.func @unranked(%a: tensor<*xi32>, %b: tensor<*xi32>) -> tensor<*xi32> {
  // expected-error @+1 {{'arith.remui' op on a tensor that is not ranked cannot be checked for a division by zero}}
  %r = arith.remui %a, %b : tensor<*xi32>
  return %r : tensor<*xi32>
}
