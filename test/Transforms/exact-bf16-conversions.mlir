// RUN: attic-opt %s --split-input-file --attic-exact-bf16-conversions | FileCheck %s

// truncf f64 -> bf16: to f32 rounded to odd, then to bf16.
// CHECK-LABEL: func.func @trunc_f64
// CHECK: %[[N:.*]] = arith.truncf %[[X:.*]] : f64 to f32
// CHECK: %[[B:.*]] = arith.extf %[[N]] : f32 to f64
// CHECK: arith.cmpf one, %[[B]], %[[X]] : f64
// CHECK: arith.bitcast %[[N]] : f32 to i32
// CHECK: arith.ori
// CHECK: %[[ODD:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.truncf %[[ODD]] : f32 to bf16
func.func @trunc_f64(%x: f64) -> bf16 {
  %h = arith.truncf %x : f64 to bf16
  return %h : bf16
}

// -----

// Vectors: the same ops on vectors, splat constants.
// CHECK-LABEL: func.func @trunc_f64_vector
// CHECK: arith.constant dense<1> : vector<4xi32>
// CHECK: arith.truncf %{{.*}} : vector<4xf64> to vector<4xf32>
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
func.func @trunc_f64_vector(%x: vector<4xf64>) -> vector<4xbf16> {
  %h = arith.truncf %x : vector<4xf64> to vector<4xbf16>
  return %h : vector<4xbf16>
}

// -----

// 32-bit integers reach f64 exactly, 64-bit ones as two halves whose sum
// is rounded to odd; up to 24 bits, f32 is exact and nothing changes.
// CHECK-LABEL: func.func @integers
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.uitofp %{{.*}} : i32 to f64
// CHECK: arith.shrsi %{{.*}} : i64
// CHECK: arith.shrui %{{.*}} : i64
// CHECK: arith.sitofp %{{.*}} : i16 to bf16
// CHECK: arith.sitofp %{{.*}} : i32 to f32
func.func @integers(%a: i32, %b: i64, %c: i16) -> (bf16, bf16, bf16, bf16, bf16, f32) {
  %0 = arith.sitofp %a : i32 to bf16
  %1 = arith.uitofp %a : i32 to bf16
  %2 = arith.sitofp %b : i64 to bf16
  %3 = arith.uitofp %b : i64 to bf16
  %4 = arith.sitofp %c : i16 to bf16
  %5 = arith.sitofp %a : i32 to f32
  return %0, %1, %2, %3, %4, %5 : bf16, bf16, bf16, bf16, bf16, f32
}

// -----

// f32 -> bf16 is one rounding already; a rounding mode is left for
// attic-check-scope to refuse.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT: arith.truncf %{{.*}} downward : f64 to bf16
// CHECK-NEXT: return
func.func @left_alone(%x: f32, %y: f64) -> (bf16, bf16) {
  %0 = arith.truncf %x : f32 to bf16
  %1 = arith.truncf %y downward : f64 to bf16
  return %0, %1 : bf16, bf16
}
