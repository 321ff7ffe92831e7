// RUN: not attic-opt %s --split-input-file --attic-cpu-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_80 format=isa" -o /dev/null

// The CPU micro-kernels' code grows with the head dims: D = 2^20 did not
// lower in 2 minutes and 2^40 ran out of memory (a 2026-11-30 audit). Above
// 16384 (D or Dv) attic-cpu-pipeline refuses, naming the dim; 16384 lowers.
// The CUDA pipeline takes them (its kernels loop over the head dim).
// CHECK-NOT: error
// CHECK: error: attic-cpu-map-tiles: a head dim (D or Dv) of 16385 is above 16384, the most its micro-kernels are unrolled over (compile time and code size grow with it)
// CHECK: error: attic-cpu-map-tiles: a head dim (D or Dv) of 20000 is above 16384
// CHECK-NOT: error
func.func @at_limit(%q: tensor<1x1x16x16384xf32>) -> tensor<1x1x16x16384xf32> {
  %o = attic.attention %q, %q, %q : tensor<1x1x16x16384xf32>, tensor<1x1x16x16384xf32>, tensor<1x1x16x16384xf32> -> tensor<1x1x16x16384xf32>
  return %o : tensor<1x1x16x16384xf32>
}

// -----

func.func @above(%q: tensor<1x1x16x16385xf32>) -> tensor<1x1x16x16385xf32> {
  %o = attic.attention %q, %q, %q : tensor<1x1x16x16385xf32>, tensor<1x1x16x16385xf32>, tensor<1x1x16x16385xf32> -> tensor<1x1x16x16385xf32>
  return %o : tensor<1x1x16x16385xf32>
}

// -----

func.func @value_dim(%q: tensor<1x1x16x8xf32>, %v: tensor<1x1x16x20000xf32>) -> tensor<1x1x16x20000xf32> {
  %o = attic.attention %q, %q, %v : tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x20000xf32> -> tensor<1x1x16x20000xf32>
  return %o : tensor<1x1x16x20000xf32>
}
