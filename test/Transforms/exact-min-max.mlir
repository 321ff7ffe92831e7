// RUN: attic-opt %s --split-input-file --attic-exact-min-max | FileCheck %s

// maximumf: compare and select; where equal, the and of the bits (+0 from
// +0 and -0); a NaN b gives b.
// CHECK-LABEL: func.func @maximum
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK: %[[GT:.*]] = arith.cmpf ugt, %[[A]], %[[B]] : f32
// CHECK: %[[S:.*]] = arith.select %[[GT]], %[[A]], %[[B]] : f32
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[A]], %[[B]] : f32
// CHECK: %[[AI:.*]] = arith.bitcast %[[A]] : f32 to i32
// CHECK: %[[BI:.*]] = arith.bitcast %[[B]] : f32 to i32
// CHECK: %[[AND:.*]] = arith.andi %[[AI]], %[[BI]] : i32
// CHECK: %[[Z:.*]] = arith.bitcast %[[AND]] : i32 to f32
// CHECK: %[[E:.*]] = arith.select %[[EQ]], %[[Z]], %[[S]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[B]], %[[B]] : f32
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[B]], %[[E]] : f32
// CHECK-NOT: arith.maximumf
// CHECK: return %[[R]]
func.func @maximum(%a: f32, %b: f32) -> f32 {
  %m = arith.maximumf %a, %b : f32
  return %m : f32
}

// -----

// minimumf: ult, and the or of the bits (-0 from +0 and -0).
// CHECK-LABEL: func.func @minimum
// CHECK: arith.cmpf ult, %{{.*}}, %{{.*}} : f64
// CHECK: arith.bitcast %{{.*}} : f64 to i64
// CHECK: arith.ori %{{.*}}, %{{.*}} : i64
// CHECK: arith.cmpf uno
// CHECK-NOT: arith.minimumf
func.func @minimum(%a: f64, %b: f64) -> f64 {
  %m = arith.minimumf %a, %b : f64
  return %m : f64
}

// -----

// Vectors and f16 / bf16: integer vectors of the element's width.
// CHECK-LABEL: func.func @vectors
// CHECK: arith.bitcast %{{.*}} : vector<8xf16> to vector<8xi16>
// CHECK: arith.andi %{{.*}}, %{{.*}} : vector<8xi16>
// CHECK: arith.bitcast %{{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK: arith.ori %{{.*}}, %{{.*}} : vector<4xi16>
// CHECK-NOT: arith.maximumf
// CHECK-NOT: arith.minimumf
func.func @vectors(%a: vector<8xf16>, %b: vector<8xf16>,
                   %c: vector<4xbf16>, %d: vector<4xbf16>)
    -> (vector<8xf16>, vector<4xbf16>) {
  %m = arith.maximumf %a, %b : vector<8xf16>
  %n = arith.minimumf %c, %d : vector<4xbf16>
  return %m, %n : vector<8xf16>, vector<4xbf16>
}

// -----

// nsz (and fast, which holds it): signed zeros may be ignored, the op is
// left to arith-expand.
// CHECK-LABEL: func.func @no_signed_zeros
// CHECK: arith.maximumf %{{.*}}, %{{.*}} fastmath<nsz> : f32
// CHECK: arith.minimumf %{{.*}}, %{{.*}} fastmath<fast> : f32
// CHECK-NOT: arith.bitcast
func.func @no_signed_zeros(%a: f32, %b: f32) -> (f32, f32) {
  %m = arith.maximumf %a, %b fastmath<nsz> : f32
  %n = arith.minimumf %a, %b fastmath<fast> : f32
  return %m, %n : f32, f32
}
