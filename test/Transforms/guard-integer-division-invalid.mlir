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

// -----

// The runtime's name taken by another symbol: the pass declared
// @attic_rt_report_error_0, which nothing provides (a 2026-11-30 audit).
llvm.func @attic_rt_report_error(i32)
func.func @taken(%a: i32, %b: i32) -> i32 {
  // expected-error @+1 {{'arith.divsi' op needs the runtime's @attic_rt_report_error, but the module has a 'llvm.func' of that name; the name is reserved for attic's runtime}}
  %d = arith.divsi %a, %b : i32
  return %d : i32
}

// -----

// A definition of it would take the reports instead of the runtime.
func.func @attic_rt_report_error(%c: i32, %a: i64, %b: i64, %x: i64) {
  return
}
func.func @defined(%a: i32, %b: i32) -> i32 {
  // expected-error @+1 {{'arith.divsi' op needs the runtime's @attic_rt_report_error, but the module defines a function of that name (with a body), which would take the calls instead; the name is reserved for attic's runtime}}
  %d = arith.divsi %a, %b : i32
  return %d : i32
}
