// RUN: attic-opt %s --allow-unregistered-dialect --attic-unroll-layer-loops | FileCheck %s

// An op of an unregistered dialect in a loop: the pass looked up its
// dialect without checking for none (a segmentation fault); such a loop
// holds no attic op and is left alone.
// CHECK-LABEL: func.func @unregistered
// CHECK: scf.for
// CHECK: "foo.bar"()
func.func @unregistered() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    "foo.bar"() : () -> ()
  }
  return
}
