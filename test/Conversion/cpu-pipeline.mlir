// RUN: attic-opt %s --attic-cpu-pipeline | FileCheck %s
// RUN: attic-opt %s --attic-cpu-pipeline="block-q=16 block-k=8" | FileCheck %s
// RUN: attic-opt %s --attic-cpu-pipeline="vector-width=8" | FileCheck %s --check-prefix=OMP
// RUN: attic-opt %s --attic-cpu-pipeline="parallel=false vector-width=8" | FileCheck %s --check-prefix=SEQ

// Bad options are attic-cpu-pipeline's errors, at the module: the inner
// passes' own checks named attic-decompose or attic-cpu-map-tiles, at
// <unknown>:0 (a 2026-11-30 audit).
// RUN: not attic-opt %s --attic-cpu-pipeline="block-q=0" 2>&1 | FileCheck %s --check-prefix=BADBLOCK
// BADBLOCK: error: attic-cpu-pipeline: block-q and block-k must be in [1, 1024], got 0 and 128
// RUN: not attic-opt %s --attic-cpu-pipeline="vector-width=3" 2>&1 | FileCheck %s --check-prefix=BADWIDTH
// BADWIDTH: error: attic-cpu-pipeline: vector-width must be 0 (the target CPU's own) or a power of two up to 64, got 3
// RUN: not attic-opt %s --attic-cpu-pipeline="register-rows=17" 2>&1 | FileCheck %s --check-prefix=BADROWS
// BADROWS: error: attic-cpu-pipeline: register-rows and register-chunks must be in [0, 16] (0: derived from the vector width), got 17 and 0

// The two parallel loops (packing, query blocks) become OpenMP worksharing
// loops in LLVM-dialect form (translated to __kmpc_* calls by the JIT); the
// kernels use 8-lane vectors with vector-width=8.
// OMP-LABEL: llvm.func @attention
// OMP: omp.parallel
// OMP: omp.wsloop
// OMP: omp.parallel
// OMP: omp.wsloop
// OMP: llvm.intr.fma{{.*}}vector<8xf32>
// SEQ-LABEL: llvm.func @attention
// SEQ-NOT: omp.
// SEQ: llvm.intr.fma{{.*}}vector<8xf32>
// SEQ-NOT: omp.

// The whole pipeline: everything ends in the LLVM dialect, with no call to
// libm's exp and no attic, memref, scf or tensor op left.
// CHECK-LABEL: llvm.func @attention
// CHECK-NOT: attic.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// CHECK-NOT: tensor.
// CHECK-NOT: @expf
// CHECK: llvm.intr.fma
// CHECK: llvm.return
func.func @attention(%q: tensor<1x2x64x32xbf16>, %k: tensor<1x2x64x32xbf16>, %v: tensor<1x2x64x32xbf16>, %m: tensor<1x64xi1>) -> tensor<1x2x64x32xbf16> {
  %o = attic.attention %q, %k, %v causal mask(%m : tensor<1x64xi1>) : tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16> -> tensor<1x2x64x32xbf16>
  return %o : tensor<1x2x64x32xbf16>
}
