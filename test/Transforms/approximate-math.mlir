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
