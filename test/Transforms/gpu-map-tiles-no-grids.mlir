// RUN: attic-opt %s --attic-gpu-map-tiles | FileCheck %s

// A module without tile grids is left as it is: no gpu.container_module
// (which only launches need).
// CHECK-NOT: gpu.container_module
// CHECK-LABEL: func.func @no_grid
// CHECK-NEXT: arith.addf
func.func @no_grid(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
