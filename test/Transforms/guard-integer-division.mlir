// RUN: attic-opt %s --split-input-file --attic-guard-integer-division | FileCheck %s
// A second run changes nothing.
// RUN: attic-opt %s --split-input-file --attic-guard-integer-division | attic-opt --split-input-file --attic-guard-integer-division > %t.twice
// RUN: attic-opt %s --split-input-file --attic-guard-integer-division > %t.once
// RUN: diff %t.once %t.twice

// A signed scalar division: divisor 0, or the smallest i32 divided by -1,
// divides by 1 instead, reports (code 10, a = line * 64 + 0 for divsi, the
// divisor, the dividend) and gives 0.
// CHECK-LABEL: func.func @divsi
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[B]], %[[C0]] : i32
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[ISMIN:.*]] = arith.cmpi eq, %[[A]], %[[MIN]] : i32
// CHECK: %[[M1:.*]] = arith.constant -1 : i32
// CHECK: %[[ISM1:.*]] = arith.cmpi eq, %[[B]], %[[M1]] : i32
// CHECK: %[[OV:.*]] = arith.andi %[[ISMIN]], %[[ISM1]] : i1
// CHECK: %[[BAD:.*]] = arith.ori %[[Z]], %[[OV]] : i1
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[D:.*]] = arith.select %[[BAD]], %[[C1]], %[[B]] : i32
// CHECK: scf.if %[[BAD]] {
// CHECK:   %[[LINE:.*]] = arith.constant {{[0-9]+}} : i64
// CHECK:   %[[CODE:.*]] = arith.constant 10 : i32
// CHECK:   %[[BB:.*]] = arith.extsi %[[B]] : i32 to i64
// CHECK:   %[[AA:.*]] = arith.extsi %[[A]] : i32 to i64
// CHECK:   func.call @attic_rt_report_error(%[[CODE]], %{{.*}}, %[[BB]], %[[AA]])
// CHECK: }
// CHECK: %[[Q:.*]] = arith.divsi %[[A]], %[[D]] {attic.divisor_checked} : i32
// CHECK: %[[R:.*]] = arith.select %[[BAD]], %[[C0]], %[[Q]] : i32
// CHECK: return %[[R]] : i32
func.func @divsi(%a: i32, %b: i32) -> i32 {
  %q = arith.divsi %a, %b : i32
  return %q : i32
}

// -----

// Unsigned: only a zero divisor is checked (no overflow compare).
// CHECK-LABEL: func.func @remui
// CHECK: %[[Z:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NOT: arith.andi
// CHECK: %[[D:.*]] = arith.select %[[Z]], %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[Z]] {
// CHECK:   func.call @attic_rt_report_error
// CHECK: arith.remui %{{.*}}, %[[D]] {attic.divisor_checked} : index
func.func @remui(%a: index, %b: index) -> index {
  %r = arith.remui %a, %b : index
  return %r : index
}

// -----

// Constant divisors other than 0 (and -1 where signed) cannot trap and are
// left alone; a constant 0, and a signed -1, are guarded (the op may never
// run, so it is no compile-time error).
// CHECK-LABEL: func.func @constants
// CHECK: arith.floordivsi %{{.*}}, %{{.*}} : i64
// CHECK: arith.divui %{{.*}}, %{{.*}} : i64
// CHECK: call @attic_rt_report_error
// CHECK: arith.ceildivsi %{{.*}}, %{{.*}} {attic.divisor_checked} : i64
// CHECK: call @attic_rt_report_error
// CHECK: arith.ceildivui %{{.*}}, %{{.*}} {attic.divisor_checked} : i64
// CHECK-NOT: call @attic_rt_report_error
func.func @constants(%a: i64) -> (i64, i64, i64, i64) {
  %c7 = arith.constant 7 : i64
  %m1 = arith.constant -1 : i64
  %c0 = arith.constant 0 : i64
  %f = arith.floordivsi %a, %c7 : i64
  %u = arith.divui %a, %m1 : i64
  %s = arith.ceildivsi %a, %m1 : i64
  %z = arith.ceildivui %a, %c0 : i64
  return %f, %u, %s, %z : i64, i64, i64, i64
}

// -----

// A vector: the lanes that would trap divide by 1 and give 0; one report
// for any lane (b = 0 where a lane divides by zero, else -1; c = the
// smallest integer).
// CHECK-LABEL: func.func @vector
// CHECK: %[[BAD:.*]] = arith.ori %{{.*}}, %{{.*}} : vector<4xi1>
// CHECK: %[[D:.*]] = arith.select %[[BAD]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi16>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[BAD]] : vector<4xi1> into i1
// CHECK: %[[ANYZ:.*]] = vector.reduction <or>, %{{.*}} : vector<4xi1> into i1
// CHECK: %[[DIV:.*]] = arith.select %[[ANYZ]], %{{.*}}, %{{.*}} : i64
// CHECK: %[[MIN:.*]] = arith.constant -32768 : i64
// CHECK: scf.if %[[ANY]] {
// CHECK:   func.call @attic_rt_report_error(%{{.*}}, %{{.*}}, %[[DIV]], %[[MIN]])
// CHECK: arith.divsi %{{.*}}, %[[D]] {attic.divisor_checked} : vector<4xi16>
// CHECK: arith.select %[[BAD]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi16>
func.func @vector(%a: vector<4xi16>, %b: vector<4xi16>) -> vector<4xi16> {
  %q = arith.divsi %a, %b : vector<4xi16>
  return %q : vector<4xi16>
}

// -----

// A division of whole tensors becomes a linalg.generic whose scalar
// division is guarded; the report is a call inside its body (attic-gpu-
// offload turns it into the kernels' error record).
// CHECK-LABEL: func.func @tensors
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i8):
// CHECK:   scf.if
// CHECK:     func.call @attic_rt_report_error
// CHECK:   %[[Q:.*]] = arith.remsi %[[X]], %{{.*}} {attic.divisor_checked} : i8
// CHECK:   %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : i8
// CHECK:   linalg.yield %[[R]] : i8
// CHECK-NOT: arith.remsi
func.func @tensors(%a: tensor<3x5xi8>, %b: tensor<3x5xi8>) -> tensor<3x5xi8> {
  %r = arith.remsi %a, %b : tensor<3x5xi8>
  return %r : tensor<3x5xi8>
}

// -----

// A tensor divided by a constant splat that cannot trap stays as it is.
// CHECK-LABEL: func.func @tensor_constant
// CHECK-NOT: linalg.generic
// CHECK: arith.divsi %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK-NOT: attic_rt_report_error
func.func @tensor_constant(%a: tensor<4xi32>) -> tensor<4xi32> {
  %c = arith.constant dense<3> : tensor<4xi32>
  %r = arith.divsi %a, %c : tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Divisions inside modifier regions are the verifier's (constant
// divisors only) and are left alone.
// CHECK-LABEL: func.func @region
// CHECK: arith.divsi %{{.*}}, %{{.*}} : index
// CHECK-NOT: attic.divisor_checked
// CHECK-NOT: attic_rt_report_error
// CHECK: return %{{.*}} : tensor<1x1x8x4xf32>
func.func @region(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>) -> tensor<1x1x8x4xf32> {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %c2 = arith.constant 2 : index
        %x = arith.divsi %qi, %c2 : index
        %p = arith.cmpi sle, %x, %ki : index
        attic.yield %p : i1
      } : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %0 : tensor<1x1x8x4xf32>
}

// -----

// The index dialect's divisions are guarded like arith's (op 7: divs).
// CHECK-LABEL: func.func @index_dialect
// CHECK: %[[BAD:.*]] = arith.ori %{{.*}}, %{{.*}} : i1
// CHECK: %[[D:.*]] = arith.select %[[BAD]], %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[BAD]] {
// CHECK:   func.call @attic_rt_report_error
// CHECK: index.divs %{{.*}}, %[[D]] {attic.divisor_checked}
// CHECK: index.remu %{{.*}}, %{{.*}} {attic.divisor_checked}
func.func @index_dialect(%a: index, %b: index) -> (index, index) {
  %q = index.divs %a, %b
  %r = index.remu %a, %b
  return %q, %r : index, index
}

// -----

// affine.apply dividing by a symbol is expanded to arith ops, whose
// divisions are guarded; by a constant it stays.
// CHECK-LABEL: func.func @affine_apply
// CHECK: affine.apply #{{.*}}(%{{.*}})
// CHECK-NOT: affine.apply
// CHECK: call @attic_rt_report_error
// CHECK: arith.remsi %{{.*}}, %{{.*}} {attic.divisor_checked} : index
func.func @affine_apply(%a: index, %s: index) -> (index, index) {
  %k = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%a)
  %m = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%a)[%s]
  return %k, %m : index, index
}

// -----

// A vector of rank other than 1 is flattened for its reduction (0-d too).
// CHECK-LABEL: func.func @vector_2d
// CHECK: %[[BAD:.*]] = arith.ori %{{.*}}, %{{.*}} : vector<2x4xi1>
// CHECK: %[[FLAT:.*]] = vector.shape_cast %[[BAD]] : vector<2x4xi1> to vector<8xi1>
// CHECK: vector.reduction <or>, %[[FLAT]] : vector<8xi1> into i1
// CHECK: arith.divsi %{{.*}}, %{{.*}} {attic.divisor_checked} : vector<2x4xi32>
// CHECK: vector.shape_cast %{{.*}} : vector<i1> to vector<1xi1>
// CHECK: arith.remui %{{.*}}, %{{.*}} {attic.divisor_checked} : vector<i64>
func.func @vector_2d(%a: vector<2x4xi32>, %b: vector<2x4xi32>, %c: vector<i64>, %d: vector<i64>) -> (vector<2x4xi32>, vector<i64>) {
  %q = arith.divsi %a, %b : vector<2x4xi32>
  %r = arith.remui %c, %d : vector<i64>
  return %q, %r : vector<2x4xi32>, vector<i64>
}

// -----

// i128: the report's details saturated into i64 (they were passed as i128:
// invalid IR).
// CHECK-LABEL: func.func @divsi_i128
// CHECK-SAME: (%[[A:.*]]: i128, %[[B:.*]]: i128)
// CHECK: scf.if
// CHECK:   %[[LO:.*]] = arith.constant -9223372036854775808 : i128
// CHECK:   %[[MAX1:.*]] = arith.maxsi %[[B]], %[[LO]] : i128
// CHECK:   %[[HI:.*]] = arith.constant 9223372036854775807 : i128
// CHECK:   %[[MIN1:.*]] = arith.minsi %[[MAX1]], %[[HI]] : i128
// CHECK:   %[[BB:.*]] = arith.trunci %[[MIN1]] : i128 to i64
// CHECK:   %[[AA:.*]] = arith.trunci %{{.*}} : i128 to i64
// CHECK:   func.call @attic_rt_report_error(%{{.*}}, %{{.*}}, %[[BB]], %[[AA]]) : (i32, i64, i64, i64) -> ()
// CHECK: arith.divsi %[[A]], %{{.*}} {attic.divisor_checked} : i128
func.func @divsi_i128(%a: i128, %b: i128) -> i128 {
  %q = arith.divsi %a, %b : i128
  return %q : i128
}
