// REQUIRES: libdevice
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa" -o %t.1.mlir
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa" -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s --input-file=%t.1.mlir

// The same input gives the same output: gpu-module-to-binary records its
// wall-clock compile times in the objects' properties
// (LLVMIRToISATimeInMs), which attic-gpu-strip-compile-times removes.
// CHECK: gpu.binary @attention_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, properties = {O = 3 : i32}
// CHECK-NOT: TimeInMs

func.func @attention(%q: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
  %o = attic.attention %q, %q, %q causal : tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
  return %o : tensor<1x2x64x32xf16>
}
