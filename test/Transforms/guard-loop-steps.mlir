// RUN: attic-opt %s --split-input-file --attic-guard-loop-steps | FileCheck %s
// A second run changes nothing.
// RUN: attic-opt %s --split-input-file --attic-guard-loop-steps | attic-opt --split-input-file --attic-guard-loop-steps > %t.twice
// RUN: attic-opt %s --split-input-file --attic-guard-loop-steps > %t.once
// RUN: diff %t.once %t.twice

// A step from an argument: below 1 it is reported (code 11, a = line * 64
// + 0, the step, 0), and the loop runs with step 1 up to its lower bound
// (no iteration: the result is the initial value).
// CHECK-LABEL: func.func @for_step
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[S:.*]]: index, %[[X:.*]]: f32)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[BAD:.*]] = arith.cmpi sle, %[[S]], %[[C0]] : index
// CHECK: scf.if %[[BAD]] {
// CHECK:   %[[CODE:.*]] = arith.constant 11 : i32
// CHECK:   func.call @attic_rt_report_error(%[[CODE]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: }
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[STEP:.*]] = arith.select %[[BAD]], %[[C1]], %[[S]] : index
// CHECK: %[[END:.*]] = arith.select %[[BAD]], %[[LB]], %[[UB]] : index
// A step known at run time only may also make the induction variable wrap
// (checked below, @may_wrap): the loop's upper bound is then END's select.
// CHECK: %[[WRAPS:.*]] = arith.andi
// CHECK: %[[END2:.*]] = arith.select %[[WRAPS]], %[[LB]], %[[END]] : index
// CHECK: scf.for %{{.*}} = %[[LB]] to %[[END2]] step %[[STEP]] iter_args(%{{.*}} = %[[X]]) -> (f32) {
// CHECK: } {attic.step_checked}
func.func @for_step(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> f32 {
    %y = arith.addf %a, %a : f32
    scf.yield %y : f32
  }
  return %r : f32
}

// -----

// A positive constant step is left alone (with a constant upper bound its
// induction variable cannot wrap either); an unsigned loop's step is bad
// only at 0 (eq, not sle).
// CHECK-LABEL: func.func @constant_and_unsigned
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: attic.step_checked
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: scf.for unsigned
// CHECK: } {attic.step_checked}
func.func @constant_and_unsigned(%n: index, %lb: i32, %ub: i32, %s: i32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  scf.for %i = %c0 to %c100 step %c2 {
  }
  scf.for unsigned %j = %lb to %ub step %s : i32 {
  }
  return
}

// -----

// scf.parallel: each dimension whose step is not a positive constant.
// CHECK-LABEL: func.func @parallel
// CHECK-SAME: (%[[N:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[BAD:.*]] = arith.cmpi sle, %[[S]], %{{.*}} : index
// CHECK: scf.if %[[BAD]] {
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[STEP:.*]] = arith.select %[[BAD]], %{{.*}}, %[[S]] : index
// CHECK: %[[END:.*]] = arith.select %[[BAD]], %{{.*}}, %[[N]] : index
// Then the wrap check of that dimension (its step is known at run time
// only), the report's `a` naming dimension 1.
// CHECK: %[[WRAPS:.*]] = arith.andi
// CHECK: scf.if %[[WRAPS]] {
// CHECK:   arith.constant 14 : i32
// CHECK: %[[END2:.*]] = arith.select %[[WRAPS]], %{{.*}}, %[[END]] : index
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[N]], %[[END2]]) step (%{{.*}}, %[[STEP]]) {
// CHECK: } {attic.step_checked}
func.func @parallel(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %s) {
  }
  return
}

// -----

// scf.forall (on tensors, before bufferization turns it into an
// scf.parallel): a dynamic step and a static one of 0 (which verifies) are
// checked; the loop is rebuilt with the checked steps and upper bounds
// (static ones made values), its body and shared outputs moved over; a
// static positive step stays.
// CHECK-LABEL: func.func @forall
// CHECK-SAME: (%[[T:.*]]: tensor<10xi64>, %[[S:.*]]: index)
// CHECK: %[[BAD0:.*]] = arith.cmpi sle, %[[S]], %{{.*}} : index
// CHECK: scf.if %[[BAD0]] {
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[STEP0:.*]] = arith.select %[[BAD0]], %{{.*}}, %[[S]] : index
// CHECK: %[[END0:.*]] = arith.select %[[BAD0]], %{{.*}}, %{{.*}} : index
// CHECK: %[[BAD1:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[BAD1]] {
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[STEP1:.*]] = arith.select %[[BAD1]], %{{.*}}, %{{.*}} : index
// CHECK: %[[END1:.*]] = arith.select %[[BAD1]], %{{.*}}, %{{.*}} : index
// The checked steps are known at run time only: each such dimension's wrap
// check (not the third's, step 2 up to 10).
// CHECK: %[[W0:.*]] = arith.select %{{.*}}, %{{.*}}, %[[END0]] : index
// CHECK: %[[W1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[END1]] : index
// CHECK: %[[R:.*]] = scf.forall (%[[I:.*]], %[[J:.*]], %{{.*}}) = (0, 0, 0) to (%[[W0]], %[[W1]], 10) step (%[[STEP0]], %[[STEP1]], 2) shared_outs(%[[O:.*]] = %[[T]]) -> (tensor<10xi64>) {
// CHECK:   tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[I]]] [1] [1]
// CHECK: } {attic.step_checked}
// CHECK: return %[[R]]
func.func @forall(%t: tensor<10xi64>, %s: index) -> tensor<10xi64> {
  %r = scf.forall (%i, %j, %k) = (0, 0, 0) to (10, 10, 10) step (%s, 0, 2) shared_outs(%o = %t) -> tensor<10xi64> {
    %one = arith.constant dense<1> : tensor<1xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %one into %o[%i] [1] [1] : tensor<1xi64> into tensor<10xi64>
    }
  }
  return %r : tensor<10xi64>
}

// -----

// An induction variable that may wrap around its type before reaching the
// upper bound (the last value below it plus the step past the largest
// value): reported (code 14, a = line * 64, the upper bound, the step) and
// the loop runs no iteration there.
// CHECK-LABEL: func.func @may_wrap
// CHECK-SAME: (%[[LB:.*]]: i8, %[[UB:.*]]: i8, %[[X:.*]]: f32)
// CHECK: %[[S:.*]] = arith.constant 10 : i8
// CHECK: %[[ONE:.*]] = arith.constant 1 : i8
// CHECK: %[[SOME:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i8
// CHECK: %[[DIFF:.*]] = arith.subi %[[UB]], %[[LB]] : i8
// CHECK: %[[D1:.*]] = arith.subi %[[DIFF]], %[[ONE]] : i8
// CHECK: %[[N:.*]] = arith.divui %[[D1]], %[[S]] : i8
// CHECK: %[[NS:.*]] = arith.muli %[[N]], %[[S]] : i8
// CHECK: %[[LAST:.*]] = arith.addi %[[LB]], %[[NS]] : i8
// CHECK: %[[MAX:.*]] = arith.constant 127 : i8
// CHECK: %[[LIMIT:.*]] = arith.subi %[[MAX]], %[[S]] : i8
// CHECK: %[[OVER:.*]] = arith.cmpi sgt, %[[LAST]], %[[LIMIT]] : i8
// CHECK: %[[WRAPS:.*]] = arith.andi %[[SOME]], %[[OVER]] : i1
// CHECK: scf.if %[[WRAPS]] {
// CHECK:   arith.constant 14 : i32
// CHECK:   func.call @attic_rt_report_error
// CHECK: }
// CHECK: %[[END:.*]] = arith.select %[[WRAPS]], %[[LB]], %[[UB]] : i8
// CHECK: scf.for %{{.*}} = %[[LB]] to %[[END]] step %[[S]]
// CHECK: } {attic.step_checked}
func.func @may_wrap(%lb: i8, %ub: i8, %x: f32) -> f32 {
  %c10 = arith.constant 10 : i8
  %r = scf.for %i = %lb to %ub step %c10 iter_args(%a = %x) -> f32 : i8 {
    %y = arith.addf %a, %a : f32
    scf.yield %y : f32
  }
  return %r : f32
}

// -----

// Not checked: a step of 1 (the last value is below the upper bound, so at
// most the largest value minus 1), a constant upper bound and step with
// ub - 1 <= largest - step (unsigned: 245 - 1 <= 255 - 10). Checked: the
// constant upper bound 125 with step 10 (124 > 127 - 10).
// CHECK-LABEL: func.func @known_not_to_wrap
// CHECK-NOT: func.call
// CHECK: scf.for
// CHECK-NOT: func.call
// CHECK: scf.for unsigned
// CHECK: arith.constant 14 : i32
// CHECK: scf.for
func.func @known_not_to_wrap(%lb: i8, %ub: i8) {
  %c1 = arith.constant 1 : i8
  %c10 = arith.constant 10 : i8
  %c125 = arith.constant 125 : i8
  %c245 = arith.constant 245 : i8
  scf.for %i = %lb to %ub step %c1 : i8 {
  }
  scf.for unsigned %i = %lb to %c245 step %c10 : i8 {
  }
  scf.for %i = %lb to %c125 step %c10 : i8 {
  }
  return
}

// -----

// An unsigned i128 loop: its upper bound and step reach the report at most
// INT64_MAX (they were passed as i128: invalid IR).
// CHECK-LABEL: func.func @for_u128
// CHECK: arith.minui %{{.*}}, %{{.*}} : i128
// CHECK: func.call @attic_rt_report_error(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i64, i64, i64) -> ()
func.func @for_u128(%lb: i128, %ub: i128, %s: i128) {
  scf.for unsigned %i = %lb to %ub step %s : i128 {
  }
  return
}
