// RUN: attic-opt %s --attic-approximate-math | FileCheck %s

// math.exp becomes plain arithmetic (no libm call), other math ops stay.
// CHECK-LABEL: func.func @exp
// CHECK-NOT: math.exp
// CHECK: arith.mulf
// CHECK: math.sqrt
func.func @exp(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %s = math.sqrt %e : f32
  return %s : f32
}
