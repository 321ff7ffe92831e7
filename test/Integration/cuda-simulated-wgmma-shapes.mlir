// wgmma (--wgmma) where D != Dv, in the GPU simulator against the reference:
// D = 64 with Dv = 128 (P V's N = 128 spans two 64-column groups of V,
// the leading byte offset apart) and D = 128 with Dv = 64, causal and not,
// f16 and bf16, one slot and rings, block_q 128 and 64. Every product is a
// wgmma (no mma.sync left). cuda-device-wgmma.test runs them on a GPU.
// RUN: attic-run --target=cuda-simulated %s --entry=dv128_f16 --check --wgmma | FileCheck %s
// RUN: attic-run --target=cuda-simulated %s --entry=dv128_f16 --check --wgmma --block-q=64 --block-k=64 --kv-stages=2 | FileCheck %s
// RUN: attic-run --target=cuda-simulated %s --entry=d128_dv64_bf16 --check --wgmma | FileCheck %s
// RUN: attic-run --target=cuda-simulated %s --entry=d128_dv64_bf16 --check --wgmma --kv-stages=2 | FileCheck %s
// CHECK: simulated: {{[0-9]+}} launches, {{[0-9]+}} blocks, 0 mma.sync, {{[0-9]+}} barriers, {{[0-9]+}} thread-ops, {{[1-9][0-9]*}} wgmma
// CHECK: check: result #0 {{.*}}: ok

// D = 32, which wgmma does not take: mma.sync, and a note that names what
// wgmma needs (it pointed to --help, which did not say; a 2026-12-02 audit).
// RUN: attic-run --target=cuda-simulated %s --entry=d32_f16 --check --wgmma 2> %t.err | FileCheck %s --check-prefix=D32
// RUN: FileCheck %s --check-prefix=D32-NOTE < %t.err
// D32-NOTE: note: --wgmma had no effect: the tensor-core kernels of @d32_f16 ran mma.sync (wgmma needs D = 64 or 128, block_q 64 or 128, cp.async copies, and K and V within 48 KiB, or 99 KiB with --kv-stages=2: see --help)
// D32: simulated: {{[0-9]+}} launches, {{[0-9]+}} blocks, {{[1-9][0-9]*}} mma.sync,
// D32-NOT: wgmma
// D32: check: result #0 {{.*}}: ok

func.func @dv128_f16(%q: tensor<1x2x100x64xf16>, %k: tensor<1x2x150x64xf16>, %v: tensor<1x2x150x128xf16>) -> tensor<1x2x100x128xf16> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x100x64xf16>, tensor<1x2x150x64xf16>, tensor<1x2x150x128xf16> -> tensor<1x2x100x128xf16>
  return %o : tensor<1x2x100x128xf16>
}

func.func @d128_dv64_bf16(%q: tensor<1x2x130x128xbf16>, %k: tensor<1x2x130x128xbf16>, %v: tensor<1x2x130x64xbf16>) -> tensor<1x2x130x64xbf16> {
  %o = attic.attention %q, %k, %v : tensor<1x2x130x128xbf16>, tensor<1x2x130x128xbf16>, tensor<1x2x130x64xbf16> -> tensor<1x2x130x64xbf16>
  return %o : tensor<1x2x130x64xbf16>
}

func.func @d32_f16(%q: tensor<1x2x64x32xf16>, %k: tensor<1x2x64x32xf16>, %v: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
  %o = attic.attention %q, %k, %v : tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
  return %o : tensor<1x2x64x32xf16>
}
