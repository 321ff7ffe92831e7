// attic-cuda-pipeline's kernels on a GPU against the reference semantics
// (attic-run --check exits 1 when the max relative error exceeds the
// tolerance or a value is not finite): f16/bf16, D = 64 and 128, causal and
// not, key bias and padding mask, sequence lengths that are not multiples of
// the blocks, Nq != Nk. Skipped without a CUDA device.
// REQUIRES: cuda-device
// RUN: attic-run %s --target=cuda --entry=f16_d64 --check | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=f16_d128_causal --check | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=bf16_d64_causal --check | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=bf16_d128 --check | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=f16_tails --check | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=f16_tails_causal --check | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=bf16_cross_lengths --check | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=f16_bias_mask --check --seed=3 --mask-keep=0.5 | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=bf16_bias_per_batch_causal --check --seed=5 | FileCheck %s
// Nearly every key masked out (a batch may keep none): rows without a visible
// key are 0, never NaN.
// RUN: attic-run %s --target=cuda --entry=f16_bias_mask --check --seed=7 --mask-keep=0.02 | FileCheck %s
// Other tile sizes, through the pipeline's options.
// RUN: attic-run %s --target=cuda --entry=f16_tails --check --block-k=32 | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=f16_tails --check --block-q=128 --block-k=128 | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=f16_d128_causal --check --block-q=32 --block-k=32 | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=bf16_cross_lengths --check --block-q=16 --block-k=16 | FileCheck %s
// RUN: attic-run %s --target=cuda --entry=f16_tails_causal --check --block-q=16 --block-k=48 | FileCheck %s
// Repeated runs: results stay right and the kernel time comes from events.
// RUN: attic-run %s --target=cuda --entry=f16_d64 --check --bench=3 | FileCheck %s --check-prefix=BENCH

// CHECK: compiled for {{.+}} ({{[0-9.]+}}, sm_{{[0-9]+}})
// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok

// BENCH: check: result #0 {{.*}}: ok
// BENCH: time: median {{[0-9.]+}} ms over 3 runs
// BENCH: kernel time: median {{[0-9.]+}} ms over 3 runs (min {{[0-9.]+}}, max {{[0-9.]+}}), {{[1-9][0-9]*}} launches per run, {{[0-9.]+}} TFLOP/s on {{.+}} ({{[0-9.]+}}, sm_{{[0-9]+}})

func.func @f16_d64(%q: tensor<2x4x256x64xf16>, %k: tensor<2x4x256x64xf16>, %v: tensor<2x4x256x64xf16>) -> tensor<2x4x256x64xf16> {
  %o = attic.attention %q, %k, %v : tensor<2x4x256x64xf16>, tensor<2x4x256x64xf16>, tensor<2x4x256x64xf16> -> tensor<2x4x256x64xf16>
  return %o : tensor<2x4x256x64xf16>
}

func.func @f16_d128_causal(%q: tensor<1x4x256x128xf16>, %k: tensor<1x4x256x128xf16>, %v: tensor<1x4x256x128xf16>) -> tensor<1x4x256x128xf16> {
  %o = attic.attention %q, %k, %v causal : tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16> -> tensor<1x4x256x128xf16>
  return %o : tensor<1x4x256x128xf16>
}

func.func @bf16_d64_causal(%q: tensor<2x2x192x64xbf16>, %k: tensor<2x2x192x64xbf16>, %v: tensor<2x2x192x64xbf16>) -> tensor<2x2x192x64xbf16> {
  %o = attic.attention %q, %k, %v causal : tensor<2x2x192x64xbf16>, tensor<2x2x192x64xbf16>, tensor<2x2x192x64xbf16> -> tensor<2x2x192x64xbf16>
  return %o : tensor<2x2x192x64xbf16>
}

func.func @bf16_d128(%q: tensor<1x2x128x128xbf16>, %k: tensor<1x2x128x128xbf16>, %v: tensor<1x2x128x128xbf16>) -> tensor<1x2x128x128xbf16> {
  %o = attic.attention %q, %k, %v : tensor<1x2x128x128xbf16>, tensor<1x2x128x128xbf16>, tensor<1x2x128x128xbf16> -> tensor<1x2x128x128xbf16>
  return %o : tensor<1x2x128x128xbf16>
}

// 200 and 77 are not multiples of the blocks.
func.func @f16_tails(%q: tensor<1x3x200x64xf16>, %k: tensor<1x3x200x64xf16>, %v: tensor<1x3x200x64xf16>) -> tensor<1x3x200x64xf16> {
  %o = attic.attention %q, %k, %v : tensor<1x3x200x64xf16>, tensor<1x3x200x64xf16>, tensor<1x3x200x64xf16> -> tensor<1x3x200x64xf16>
  return %o : tensor<1x3x200x64xf16>
}

func.func @f16_tails_causal(%q: tensor<1x2x77x128xf16>, %k: tensor<1x2x77x128xf16>, %v: tensor<1x2x77x128xf16>) -> tensor<1x2x77x128xf16> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x77x128xf16>, tensor<1x2x77x128xf16>, tensor<1x2x77x128xf16> -> tensor<1x2x77x128xf16>
  return %o : tensor<1x2x77x128xf16>
}

func.func @bf16_cross_lengths(%q: tensor<1x2x33x64xbf16>, %k: tensor<1x2x150x64xbf16>, %v: tensor<1x2x150x64xbf16>) -> tensor<1x2x33x64xbf16> {
  %o = attic.attention %q, %k, %v scale 0.2 : tensor<1x2x33x64xbf16>, tensor<1x2x150x64xbf16>, tensor<1x2x150x64xbf16> -> tensor<1x2x33x64xbf16>
  return %o : tensor<1x2x33x64xbf16>
}

func.func @f16_bias_mask(%q: tensor<2x2x90x64xf16>, %k: tensor<2x2x90x64xf16>, %v: tensor<2x2x90x64xf16>, %b: tensor<2x2x90xf16>, %m: tensor<2x90xi1>) -> tensor<2x2x90x64xf16> {
  %o = attic.attention %q, %k, %v bias(%b : tensor<2x2x90xf16>) mask(%m : tensor<2x90xi1>) : tensor<2x2x90x64xf16>, tensor<2x2x90x64xf16>, tensor<2x2x90x64xf16> -> tensor<2x2x90x64xf16>
  return %o : tensor<2x2x90x64xf16>
}

func.func @bf16_bias_per_batch_causal(%q: tensor<2x2x130x64xbf16>, %k: tensor<2x2x130x64xbf16>, %v: tensor<2x2x130x64xbf16>, %b: tensor<2x130xbf16>) -> tensor<2x2x130x64xbf16> {
  %o = attic.attention %q, %k, %v causal bias(%b : tensor<2x130xbf16>) : tensor<2x2x130x64xbf16>, tensor<2x2x130x64xbf16>, tensor<2x2x130x64xbf16> -> tensor<2x2x130x64xbf16>
  return %o : tensor<2x2x130x64xbf16>
}
