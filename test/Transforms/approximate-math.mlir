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

// Math on tensors is left alone (upstream's approximations built invalid
// IR for it: an arith.constant f32 of tensor type, an arith.cmpf of a
// tensor and a scalar); the pipelines meet it as loops after bufferization.
// CHECK-LABEL: func.func @on_tensors
// CHECK-NEXT: math.exp %{{.*}} : tensor<4xf32>
// CHECK-NEXT: math.exp2 %{{.*}} : tensor<4xf32>
// CHECK-NEXT: math.erf %{{.*}} : tensor<4xf32>
func.func @on_tensors(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32>
  %b = math.exp2 %x : tensor<4xf32>
  %c = math.erf %x : tensor<4xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// An exponential of NaN stays NaN: the approximation's fptosi is poison for
// NaN, and LLVM folded a constant NaN's exponential to 0 (a score region
// yielding NaN gave a row of 0 on the CPU and NaN elsewhere). The select
// takes the argument where it is NaN, in the original element type.
// CHECK-LABEL: func.func @exp_keeps_nan
// CHECK-SAME: (%[[X:.*]]: vector<8xf32>, %[[H:.*]]: f16)
// CHECK-DAG: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : vector<8xf32>
// CHECK-DAG: arith.select %[[NAN]], %[[X]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-DAG: %[[HNAN:.*]] = arith.cmpf uno, %[[H]], %[[H]] : f16
// CHECK-DAG: arith.select %[[HNAN]], %[[H]], %{{.*}} : f16
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp_keeps_nan(%x: vector<8xf32>, %h: f16) -> (vector<8xf32>, f16) {
  %e = math.exp2 %x : vector<8xf32>
  %f = math.exp %h : f16
  return %e, %f : vector<8xf32>, f16
}

// math.log1p and its kin inside an attic op's region stay: a region admits
// no call (they become calls when the pass runs again after the map-tiles
// passes, as the pipelines run it). Before, running the pass alone made a
// func.call in the score region, which the verifier refused (an audit).
// CHECK-LABEL: func.func @in_modifier_region
// CHECK: score_mod {
// CHECK: math.log1p %{{.*}} : f32
// CHECK-NOT: call
// CHECK: attic.yield
// CHECK-NOT: func.func private @log1pf
func.func @in_modifier_region(%q: tensor<1x1x8x4xf32>) -> tensor<1x1x8x4xf32> {
  %o = attic.attention %q, %q, %q score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %l = math.log1p %s : f32
    attic.yield %l : f32
  } : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}
