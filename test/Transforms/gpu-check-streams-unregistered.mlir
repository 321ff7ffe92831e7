// RUN: attic-opt %s --allow-unregistered-dialect --split-input-file --attic-gpu-check-streams | FileCheck %s

// Ops of unknown dialects with regions, empty blocks and no terminators:
// attic-gpu-check-streams checks around them (it crashed on an op of no
// registered dialect, a 2026-11-30 review).
// CHECK-LABEL: func.func @unknown_region
// CHECK: "test.region"
func.func @unknown_region(%d: memref<4xf32>) {
  "test.region"() ({
    "test.end"() : () -> ()
  }) : () -> ()
  "test.empty"() ({
  ^bb0:
  }) : () -> ()
  "test.none"() ({}) : () -> ()
  %t0 = gpu.wait async
  %f = arith.constant 1.0 : f32
  %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  gpu.wait [%t1]
  return
}
