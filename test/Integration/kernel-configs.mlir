// Execution of the vector kernels against the double-precision reference
// under every code-generation choice: vector widths 4/8/16 (SSE-, AVX2- and
// AVX-512-shaped code; LLVM legalizes wider vectors on narrower hosts),
// register tiles, block sizes that are not multiples of the vector width,
// threads, sequential loops, odd and wide head dims, and dynamic dims.
//
// RUN: attic-run %s --entry=odd_dims --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=odd_dims --vector-width=4 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=odd_dims --vector-width=8 --register-rows=3 --register-chunks=1 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=odd_dims --vector-width=16 --block-q=5 --block-k=7 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=wide_value --vector-width=4 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=wide_value --vector-width=16 --register-chunks=2 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=causal_more_queries --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=causal_more_queries --vector-width=8 --block-q=24 --block-k=40 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=causal_more_keys --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=causal_more_keys --cpu-threads=1 --block-q=16 --block-k=16 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=causal_more_keys --sequential --block-q=128 --block-k=256 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=dynamic_dims --shape=0:1x3x67x20 --shape=1:1x3x93x20 --shape=2:1x3x93x70 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=dynamic_dims --shape=0:1x3x67x20 --shape=1:1x3x93x20 --shape=2:1x3x93x70 --vector-width=4 --register-chunks=3 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=bias_mask_causal --seed=9 --mask-keep=0.3 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=bias_mask_causal --seed=9 --mask-keep=0.3 --vector-width=8 --block-k=8 --check --tolerance=1e-5 | FileCheck %s
// Key blocks wider than 4 x register-chunks vectors and not a multiple of
// register-chunks vectors (300 keys at width 16; 68 at width 4 with 4
// chunks): their score tiles once took the value tiles' group padding, so
// the row reductions of full blocks saw columns past the block (and the
// products read past the key panel): silently wrong before the fix.
// RUN: attic-run %s --entry=wide_value --vector-width=4 --block-k=68 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=wide_key_block --block-k=300 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=wide_key_block --vector-width=4 --block-k=68 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=wide_key_block_bias --block-k=300 --check --tolerance=1e-5 | FileCheck %s
// RUN: attic-run %s --entry=wide_key_block_bias --vector-width=4 --block-k=70 --check --tolerance=1e-5 | FileCheck %s
// The term's 1-D key tile once took whole register tiles of rows only:
// 141 keys at 3 register rows and 2 lanes, 141 entries written as 71
// vectors (found by a random sweep of these options).
// RUN: attic-run %s --entry=wide_key_block_bias --vector-width=2 --block-k=141 --register-rows=3 --register-chunks=1 --check --tolerance=1e-5 | FileCheck %s
// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok

func.func @odd_dims(%q: tensor<2x2x37x5xf32>, %k: tensor<2x2x41x5xf32>, %v: tensor<2x2x41x3xf32>) -> tensor<2x2x37x3xf32> {
  %o = attic.attention %q, %k, %v : tensor<2x2x37x5xf32>, tensor<2x2x41x5xf32>, tensor<2x2x41x3xf32> -> tensor<2x2x37x3xf32>
  return %o : tensor<2x2x37x3xf32>
}

func.func @wide_value(%q: tensor<1x2x50x8xf32>, %k: tensor<1x2x70x8xf32>, %v: tensor<1x2x70x200xf32>) -> tensor<1x2x50x200xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x2x50x8xf32>, tensor<1x2x70x8xf32>, tensor<1x2x70x200xf32> -> tensor<1x2x50x200xf32>
  return %o : tensor<1x2x50x200xf32>
}

func.func @causal_more_queries(%q: tensor<1x2x300x32xf32>, %k: tensor<1x2x130x32xf32>, %v: tensor<1x2x130x32xf32>) -> tensor<1x2x300x32xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x300x32xf32>, tensor<1x2x130x32xf32>, tensor<1x2x130x32xf32> -> tensor<1x2x300x32xf32>
  return %o : tensor<1x2x300x32xf32>
}

func.func @causal_more_keys(%q: tensor<2x3x129x64xf32>, %k: tensor<2x3x400x64xf32>, %v: tensor<2x3x400x64xf32>) -> tensor<2x3x129x64xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<2x3x129x64xf32>, tensor<2x3x400x64xf32>, tensor<2x3x400x64xf32> -> tensor<2x3x129x64xf32>
  return %o : tensor<2x3x129x64xf32>
}

func.func @dynamic_dims(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>, %v: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %o = attic.attention %q, %k, %v scale 0.2 : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %o : tensor<?x?x?x?xf32>
}

func.func @bias_mask_causal(%q: tensor<2x2x100x16xf32>, %k: tensor<2x2x100x16xf32>, %v: tensor<2x2x100x16xf32>, %b: tensor<2x2x100xf32>, %m: tensor<2x100xi1>) -> tensor<2x2x100x16xf32> {
  %o = attic.attention %q, %k, %v causal bias(%b : tensor<2x2x100xf32>) mask(%m : tensor<2x100xi1>) : tensor<2x2x100x16xf32>, tensor<2x2x100x16xf32>, tensor<2x2x100x16xf32> -> tensor<2x2x100x16xf32>
  return %o : tensor<2x2x100x16xf32>
}

func.func @wide_key_block(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x600x16xf32>, %v: tensor<1x2x600x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x2x64x16xf32>, tensor<1x2x600x16xf32>, tensor<1x2x600x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @wide_key_block_bias(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x600x16xf32>, %v: tensor<1x2x600x16xf32>, %b: tensor<1x2x600xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v bias(%b : tensor<1x2x600xf32>) : tensor<1x2x64x16xf32>, tensor<1x2x600x16xf32>, tensor<1x2x600x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
