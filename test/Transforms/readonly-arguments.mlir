// RUN: attic-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(attic-readonly-arguments))" | FileCheck %s

// Ranked-tensor arguments of a public function become read-only for
// bufferization; other arguments are left alone.
// CHECK-LABEL: func.func @public
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {bufferization.writable = false}, %{{.*}}: f32, %{{.*}}: memref<4xf32>, %{{.*}}: tensor<2x3xf16> {bufferization.writable = false})
func.func @public(%a: tensor<4xf32>, %s: f32, %m: memref<4xf32>, %b: tensor<2x3xf16>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// An attribute already there is kept (a caller may allow in-place updates).
// CHECK-LABEL: func.func @annotated
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {bufferization.writable = true})
func.func @annotated(%a: tensor<4xf32> {bufferization.writable = true}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// Private functions (their callers are in the module and bufferize with
// them) and declarations are not touched.
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{[^:]*}}: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-LABEL: func.func private @external
// CHECK-SAME: (tensor<4xf32>)
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @external(tensor<4xf32>)
