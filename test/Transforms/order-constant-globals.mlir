// RUN: attic-opt %s --split-input-file --attic-order-constant-globals | FileCheck %s

// Bufferization's constant globals, in a scrambled order and numbering (as
// MLIR 22's one-shot-bufferize leaves them on some runs): renamed in the
// order of first use (f1's, f2's, then the other type), repeats of a type
// numbered _1, _2, and moved in that order to the front. The unused one
// goes last; other globals and symbols keep their names.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_2x3xi64 : memref<2x3xi64> = dense<7>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_2 : memref<4xf32> = dense<9.000000e+00>
// CHECK: memref.global "private" constant @table : memref<4xf32>
// CHECK-LABEL: func.func @f1
// CHECK: memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK: memref.get_global @table
// CHECK-LABEL: func.func @f2
// CHECK: memref.get_global @__constant_4xf32_1 : memref<4xf32>
// CHECK: memref.get_global @__constant_2x3xi64 : memref<2x3xi64>
// CHECK: memref.get_global @__constant_4xf32 : memref<4xf32>
module {
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.0>
  memref.global "private" constant @__constant_4xf32_7 : memref<4xf32> = dense<9.0>
  memref.global "private" constant @table : memref<4xf32> = dense<3.0>
  memref.global "private" constant @__constant_2x3xi64 : memref<2x3xi64> = dense<7>
  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<1.0>
  func.func @f1() -> (memref<4xf32>, memref<4xf32>) {
    %a = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    %t = memref.get_global @table : memref<4xf32>
    return %a, %t : memref<4xf32>, memref<4xf32>
  }
  func.func @f2() -> (memref<4xf32>, memref<2x3xi64>, memref<4xf32>) {
    %b = memref.get_global @__constant_4xf32 : memref<4xf32>
    %c = memref.get_global @__constant_2x3xi64 : memref<2x3xi64>
    %a = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    return %b, %c, %a : memref<4xf32>, memref<2x3xi64>, memref<4xf32>
  }
}

// -----

// A name the numbering would take that belongs to another symbol is
// skipped; a module without constant globals is left alone.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_2 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_3 : memref<4xf32> = dense<2.000000e+00>
// CHECK: memref.global @__constant_4xf32 : memref<4xf32>
// CHECK: memref.global "private" @__constant_4xf32_1 : memref<4xf32>
module {
  memref.global @__constant_4xf32 : memref<4xf32> = dense<5.0>
  memref.global "private" @__constant_4xf32_1 : memref<4xf32> = dense<6.0>
  memref.global "private" constant @__constant_4xf32_9 : memref<4xf32> = dense<2.0>
  memref.global "private" constant @__constant_4xf32_8 : memref<4xf32> = dense<1.0>
  func.func @g() -> (memref<4xf32>, memref<4xf32>) {
    %a = memref.get_global @__constant_4xf32_8 : memref<4xf32>
    %b = memref.get_global @__constant_4xf32_9 : memref<4xf32>
    return %a, %b : memref<4xf32>, memref<4xf32>
  }
}

// -----

// A symbol with the pass's temporary name is the user's: the renaming
// goes around it (it collided, and a get_global named a function).
// CHECK-LABEL: module
// CHECK: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00>
// CHECK: func.func private @__attic_constant_renaming_0()
// CHECK: memref.get_global @__constant_4xf32 : memref<4xf32>
memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.0>
func.func private @__attic_constant_renaming_0()
func.func @f() -> memref<4xf32> {
  %g = memref.get_global @__constant_4xf32 : memref<4xf32>
  return %g : memref<4xf32>
}
