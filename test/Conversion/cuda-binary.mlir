// REQUIRES: ptxas
// format=bin: the gpu.binary holds a cubin (an ELF file from ptxas with the
// kernel's code and shared-memory sections) for the chip asked for.
// format=fatbin works too. Without a format the pipeline picks bin when
// ptxas is there.
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=bin" -o %t.bin.mlir
// RUN: FileCheck %s --check-prefix=BIN < %t.bin.mlir
// RUN: python3 %cuda_inputs/cuda_extract_binary.py attention_f16_kernel < %t.bin.mlir > %t.f16.cubin
// RUN: FileCheck %s --check-prefix=ELF16 < %t.f16.cubin
// RUN: python3 %cuda_inputs/cuda_extract_binary.py attention_bf16_kernel < %t.bin.mlir > %t.bf16.cubin
// RUN: FileCheck %s --check-prefix=ELFBF16 < %t.bf16.cubin
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_90" | FileCheck %s --check-prefix=DEFAULT
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_90 format=fatbin toolkit=/usr/local/cuda" | FileCheck %s --check-prefix=FATBIN

// One cubin for both functions' kernels (attic-gpu-merge-kernel-modules).
// BIN: gpu.binary @attention_f16_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, bin = "\7FELF
// BIN-NOT: gpu.binary

// ELF16: {{^}}{{.}}ELF
// ELF16: .text.attention_f16_kernel
// ELF16: .nv.shared.attention_f16_kernel

// ELFBF16: {{^}}{{.}}ELF
// ELFBF16: .text.attention_bf16_kernel
// ELFBF16: .nv.shared.attention_bf16_kernel

// DEFAULT: gpu.binary @attention_f16_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, bin = "\7FELF
// The fatbin (the gpu.object's default format, printed without a keyword)
// starts with the fatbin magic 0xBA55ED50.
// FATBIN: gpu.binary @attention_f16_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, "P\EDU\BA
func.func @attention_f16(%q: tensor<1x4x300x64xf16>, %k: tensor<1x4x300x64xf16>, %v: tensor<1x4x300x64xf16>) -> tensor<1x4x300x64xf16> {
  %o = attic.attention %q, %k, %v : tensor<1x4x300x64xf16>, tensor<1x4x300x64xf16>, tensor<1x4x300x64xf16> -> tensor<1x4x300x64xf16>
  return %o : tensor<1x4x300x64xf16>
}

func.func @attention_bf16(%q: tensor<1x4x300x128xbf16>, %k: tensor<1x4x300x128xbf16>, %v: tensor<1x4x300x128xbf16>) -> tensor<1x4x300x128xbf16> {
  %o = attic.attention %q, %k, %v causal : tensor<1x4x300x128xbf16>, tensor<1x4x300x128xbf16>, tensor<1x4x300x128xbf16> -> tensor<1x4x300x128xbf16>
  return %o : tensor<1x4x300x128xbf16>
}
