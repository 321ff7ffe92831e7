// Compiled code against the reference semantics (attic-run --check exits 1
// when the max relative error exceeds the tolerance).
// RUN: attic-run %s --entry=f32 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=f32_causal --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=cross_lengths --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=cross_lengths --check --block-q=7 --block-k=5 --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=causal_short_keys --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=f16 --check --tolerance=1e-2 | FileCheck %s
// RUN: attic-run %s --entry=bf16_causal --check --tolerance=1e-2 | FileCheck %s
// RUN: attic-run %s --entry=bias_mask --check --seed=3 --mask-keep=0.5 --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=bias_per_batch_f16 --check --seed=4 --tolerance=1e-2 | FileCheck %s
// RUN: attic-run %s --entry=dynamic --shape=0:2x3x50x16 --shape=1:2x3x77x16 --shape=2:2x3x77x24 --check --tolerance=1e-5 | FileCheck %s

// CHECK: compiled for {{.+}}
// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok

func.func @f32(%q: tensor<2x3x130x32xf32>, %k: tensor<2x3x130x32xf32>, %v: tensor<2x3x130x32xf32>) -> tensor<2x3x130x32xf32> {
  %o = attic.attention %q, %k, %v : tensor<2x3x130x32xf32>, tensor<2x3x130x32xf32>, tensor<2x3x130x32xf32> -> tensor<2x3x130x32xf32>
  return %o : tensor<2x3x130x32xf32>
}

func.func @f32_causal(%q: tensor<1x2x200x64xf32>, %k: tensor<1x2x200x64xf32>, %v: tensor<1x2x200x64xf32>) -> tensor<1x2x200x64xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x200x64xf32>, tensor<1x2x200x64xf32>, tensor<1x2x200x64xf32> -> tensor<1x2x200x64xf32>
  return %o : tensor<1x2x200x64xf32>
}

// Nq != Nk and Dv != D.
func.func @cross_lengths(%q: tensor<1x2x33x16xf32>, %k: tensor<1x2x150x16xf32>, %v: tensor<1x2x150x40xf32>) -> tensor<1x2x33x40xf32> {
  %o = attic.attention %q, %k, %v scale 0.3 : tensor<1x2x33x16xf32>, tensor<1x2x150x16xf32>, tensor<1x2x150x40xf32> -> tensor<1x2x33x40xf32>
  return %o : tensor<1x2x33x40xf32>
}

// Causal with fewer keys than queries: rows past Nk see every key.
func.func @causal_short_keys(%q: tensor<1x1x150x16xf32>, %k: tensor<1x1x70x16xf32>, %v: tensor<1x1x70x16xf32>) -> tensor<1x1x150x16xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x1x150x16xf32>, tensor<1x1x70x16xf32>, tensor<1x1x70x16xf32> -> tensor<1x1x150x16xf32>
  return %o : tensor<1x1x150x16xf32>
}

func.func @f16(%q: tensor<1x2x128x64xf16>, %k: tensor<1x2x128x64xf16>, %v: tensor<1x2x128x64xf16>) -> tensor<1x2x128x64xf16> {
  %o = attic.attention %q, %k, %v : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16> -> tensor<1x2x128x64xf16>
  return %o : tensor<1x2x128x64xf16>
}

func.func @bf16_causal(%q: tensor<1x2x128x64xbf16>, %k: tensor<1x2x128x64xbf16>, %v: tensor<1x2x128x64xbf16>) -> tensor<1x2x128x64xbf16> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16> -> tensor<1x2x128x64xbf16>
  return %o : tensor<1x2x128x64xbf16>
}

func.func @bias_mask(%q: tensor<2x2x90x16xf32>, %k: tensor<2x2x90x16xf32>, %v: tensor<2x2x90x16xf32>, %b: tensor<2x2x90xf32>, %m: tensor<2x90xi1>) -> tensor<2x2x90x16xf32> {
  %o = attic.attention %q, %k, %v causal bias(%b : tensor<2x2x90xf32>) mask(%m : tensor<2x90xi1>) : tensor<2x2x90x16xf32>, tensor<2x2x90x16xf32>, tensor<2x2x90x16xf32> -> tensor<2x2x90x16xf32>
  return %o : tensor<2x2x90x16xf32>
}

func.func @bias_per_batch_f16(%q: tensor<2x2x64x16xf16>, %k: tensor<2x2x80x16xf16>, %v: tensor<2x2x80x16xf16>, %b: tensor<2x80xf16>) -> tensor<2x2x64x16xf16> {
  %o = attic.attention %q, %k, %v bias(%b : tensor<2x80xf16>) : tensor<2x2x64x16xf16>, tensor<2x2x80x16xf16>, tensor<2x2x80x16xf16> -> tensor<2x2x64x16xf16>
  return %o : tensor<2x2x64x16xf16>
}

func.func @dynamic(%q: tensor<?x?x?x16xf32>, %k: tensor<?x?x?x16xf32>, %v: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %o = attic.attention %q, %k, %v : tensor<?x?x?x16xf32>, tensor<?x?x?x16xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %o : tensor<?x?x?x?xf32>
}

// attic.block_attention written directly (L2), executed against the same
// reference semantics, with odd tile sizes that leave partial blocks.
// RUN: attic-run %s --entry=block_causal --check --tolerance=1e-5 | FileCheck %s
func.func @block_causal(%q: tensor<1x2x45x16xf32>, %k: tensor<1x2x45x16xf32>, %v: tensor<1x2x45x8xf32>) -> tensor<1x2x45x8xf32> {
  %init = tensor.empty() : tensor<1x2x45x8xf32>
  %o = attic.block_attention ins(%q, %k, %v : tensor<1x2x45x16xf32>, tensor<1x2x45x16xf32>, tensor<1x2x45x8xf32>) outs(%init : tensor<1x2x45x8xf32>) {layout = #attic.causal, scale = 0.3 : f32, block_q = 7 : i64, block_k = 5 : i64} -> tensor<1x2x45x8xf32>
  return %o : tensor<1x2x45x8xf32>
}
