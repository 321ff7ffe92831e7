// RUN: not attic-opt %s --attic-decompose="block-q=0" 2>&1 | FileCheck %s

// CHECK: attic-decompose: block-q and block-k must be in [1, 1024], got 0 and 128
// An option error is one line, not followed by a dump of the module.
// CHECK-NOT: see current operation
// CHECK-NOT: builtin.module
func.func @dense(%q: tensor<1x1x8x8xf32>, %k: tensor<1x1x8x8xf32>, %v: tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32> -> tensor<1x1x8x8xf32>
  return %o : tensor<1x1x8x8xf32>
}

// Nested on each function (two here), the option error is reported once,
// before the pass runs, and not at the module's 0:0.
// RUN: not attic-opt %s --pass-pipeline="builtin.module(func.func(attic-decompose{block-q=0}))" 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: <unknown>:0: error: attic-decompose: block-q and block-k must be in [1, 1024], got 0 and 128
// NESTED-NOT: must be in
func.func @second(%q: tensor<1x1x8x8xf32>, %k: tensor<1x1x8x8xf32>, %v: tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32> -> tensor<1x1x8x8xf32>
  return %o : tensor<1x1x8x8xf32>
}

// RUN: not attic-opt %s --attic-decompose="block-k=2048" 2>&1 | FileCheck %s --check-prefix=LARGE
// LARGE: attic-decompose: block-q and block-k must be in [1, 1024], got 128 and 2048

// RUN: not attic-opt %s --attic-decompose="wide-head-block-k=-1" 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: attic-decompose: wide-head-block-k must be in [0, 1024], got -1
