// RUN: attic-opt %s --split-input-file --attic-inline-alloca-scopes | FileCheck %s

// A scope without allocas is inlined even though it calls a function (the
// runtime's error report); a scope with an alloca stays.
// CHECK-LABEL: func.func @scopes
// CHECK-NOT: memref.alloca_scope
// CHECK: call @report
// CHECK: memref.alloca_scope
// CHECK-NEXT: memref.alloca
func.func private @report(i32, i64, i64, i64)
func.func @scopes(%c: i32, %x: i64) {
  memref.alloca_scope {
    func.call @report(%c, %x, %x, %x) : (i32, i64, i64, i64) -> ()
  }
  memref.alloca_scope {
    %a = memref.alloca() : memref<4xf32>
  }
  return
}
