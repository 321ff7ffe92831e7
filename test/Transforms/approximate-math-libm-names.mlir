// RUN: attic-opt %s --split-input-file --verify-diagnostics --attic-approximate-math | FileCheck %s

// attic-approximate-math turns math.log1p and its kin into calls of the C
// library's functions. A function of the module's own with such a name is
// not the C library's: an error, not a call of it (before 2026-11-30
// math.log1p called the user's @log1pf; an audit).

func.func @log1pf(%a: f32) -> f32 {
  %c = arith.constant 100.0 : f32
  %r = arith.addf %a, %c : f32
  return %r : f32
}
func.func @own_definition(%x: f32) -> f32 {
  // expected-error @below {{'math.log1p' op becomes a call of the C library's @log1pf (attic-approximate-math), but the module defines a function of that name (with a body), which would take the calls instead; rename it}}
  %j = math.log1p %x : f32
  return %j : f32
}

// -----

// A declaration of another type.
func.func private @cbrt(f32) -> f32
func.func @declared_with_another_type(%x: f64) -> f64 {
  // expected-error @below {{'math.cbrt' op becomes a call of the C library's @cbrt (attic-approximate-math), but the module declares it as '(f32) -> f32', not '(f64) -> f64'; rename it}}
  %j = math.cbrt %x : f64
  return %j : f64
}

// -----

// A declaration of the C library's function itself is reused.
// CHECK-LABEL: func.func @declared_libm
// CHECK: call @expm1f(%{{.*}}) : (f32) -> f32
func.func private @expm1f(f32) -> f32
func.func @declared_libm(%x: f32) -> f32 {
  %j = math.expm1 %x : f32
  return %j : f32
}

// -----

// Vector operands are unrolled into calls of the f32 function.
// CHECK-LABEL: func.func @vector
// CHECK-COUNT-4: call @atanhf
func.func @vector(%x: vector<4xf32>) -> vector<4xf32> {
  %j = math.atanh %x : vector<4xf32>
  return %j : vector<4xf32>
}

// -----

// In a nested module: its own symbol table, where the call would resolve.
module @inner {
  func.func @log1pf(%a: f32) -> f32 {
    return %a : f32
  }
  func.func @nested(%x: f32) -> f32 {
    // expected-error @below {{'math.log1p' op becomes a call of the C library's @log1pf (attic-approximate-math), but the module defines a function of that name (with a body), which would take the calls instead; rename it}}
    %j = math.log1p %x : f32
    return %j : f32
  }
}
