// RUN: attic-opt %s --split-input-file --attic-guard-integer-division --verify-diagnostics

// An unranked tensor's division has no linalg.generic form to guard.
func.func @unranked(%a: tensor<*xi32>, %b: tensor<*xi32>) -> tensor<*xi32> {
  // expected-error @+1 {{'arith.remui' op on a tensor that is not ranked cannot be checked for a division by zero}}
  %r = arith.remui %a, %b : tensor<*xi32>
  return %r : tensor<*xi32>
}

// -----

// A scalable vector of rank 2 cannot be flattened for the check.
func.func @scalable(%a: vector<2x[4]xi32>, %b: vector<2x[4]xi32>) -> vector<2x[4]xi32> {
  // expected-error @+1 {{'arith.divui' op on a scalable vector of rank other than 1 cannot be checked for a division by zero}}
  %r = arith.divui %a, %b : vector<2x[4]xi32>
  return %r : vector<2x[4]xi32>
}
