// RUN: attic-opt %s --attic-cpu-pipeline | FileCheck %s
// RUN: attic-opt %s --attic-cpu-pipeline="block-q=16 block-k=8" | FileCheck %s

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
