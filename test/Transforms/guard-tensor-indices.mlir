// RUN: attic-opt %s --split-input-file --attic-guard-tensor-indices | FileCheck %s
// A second run changes nothing.
// RUN: attic-opt %s --split-input-file --attic-guard-tensor-indices | attic-opt --split-input-file --attic-guard-tensor-indices > %t.twice
// RUN: attic-opt %s --split-input-file --attic-guard-tensor-indices > %t.once
// RUN: diff %t.once %t.twice

// A tensor of static nonzero sizes: the report when the index is outside,
// then the access at index 0 there and its result replaced by 0 (no branch
// around the access). The report's `a` is line * 64 + dimension.
// CHECK-LABEL: func.func @extract
// CHECK-SAME: (%[[T:.*]]: tensor<8xf32>, %[[I:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<8xf32>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[I]], %[[C0]] : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[OUT:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK: scf.if %[[OUT]] {
// CHECK:   %[[LINE:.*]] = arith.constant {{[0-9]+}} : index
// CHECK:   %[[CODE:.*]] = arith.constant 8 : i32
// CHECK:   func.call @attic_rt_report_error(%[[CODE]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: }
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %[[C0]] : index
// CHECK: %[[X:.*]] = tensor.extract %[[T]][%[[SAFE]]] {attic.in_bounds} : tensor<8xf32>
// CHECK: %[[R:.*]] = arith.select %[[OK]], %[[X]], %{{.*}} : f32
// CHECK: return %[[R]] : f32
func.func @extract(%t: tensor<8xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<8xf32>
  return %x : f32
}

// -----

// Constant indices inside static sizes are not checked; the insert writes
// the element's own value back when the other index is outside.
// CHECK-LABEL: func.func @insert
// CHECK-SAME: (%[[T:.*]]: tensor<4x8xf32>, %[[I:.*]]: index, %[[V:.*]]: f32)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: scf.if
// CHECK:   func.call @attic_rt_report_error
// CHECK-NOT: func.call @attic_rt_report_error
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %{{.*}} : index
// CHECK: %[[OLD:.*]] = tensor.extract %[[T]][%[[C1]], %[[SAFE]]] {attic.in_bounds}
// CHECK: %[[NEW:.*]] = arith.select %[[OK]], %[[V]], %[[OLD]] : f32
// CHECK: tensor.insert %[[NEW]] into %[[T]][%[[C1]], %[[SAFE]]] {attic.in_bounds}
func.func @insert(%t: tensor<4x8xf32>, %i: index, %v: f32) -> tensor<4x8xf32> {
  %c1 = arith.constant 1 : index
  %u = tensor.insert %v into %t[%c1, %i] : tensor<4x8xf32>
  return %u : tensor<4x8xf32>
}

// -----

// A dynamic size (it may be 0): the access under scf.if, 0 outside.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: scf.if %{{.*}} {
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[R:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK:   %[[X:.*]] = tensor.extract {{.*}} {attic.in_bounds} : tensor<?xf32>
// CHECK:   scf.yield %[[X]] : f32
// CHECK: } else {
// CHECK:   %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:   scf.yield %[[Z]] : f32
// CHECK: return %[[R]]
func.func @dynamic(%t: tensor<?xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<?xf32>
  return %x : f32
}

// -----

// Nothing to check: constant indices inside, and capture reads in modifier
// regions (checked by the tile loop, ATTIC_RT_CAPTURE_INDEX). No
// declaration is added.
// CHECK-LABEL: func.func @nothing
// CHECK-NOT: attic.in_bounds
// CHECK-NOT: attic_rt_report_error
func.func @nothing(%t: tensor<8xf32>, %q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %s: tensor<2xf32>) -> (f32, tensor<1x2x64x16xf32>) {
  %c7 = arith.constant 7 : index
  %x = tensor.extract %t[%c7] : tensor<8xf32>
  %o = attic.attention %q, %k, %v captures(%s : tensor<2xf32>)
      score_mod {
      ^bb0(%score: f32, %b: index, %h: index, %qi: index, %ki: index, %sl: tensor<2xf32>):
        %slope = tensor.extract %sl[%h] : tensor<2xf32>
        %r = arith.addf %score, %slope : f32
        attic.yield %r : f32
      }
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %x, %o : f32, tensor<1x2x64x16xf32>
}
