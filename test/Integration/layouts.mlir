// Every layout kind compiled and run against the reference semantics (the
// dense masked formula in plain C++), on odd shapes and tiles that leave
// partial blocks everywhere. The examples/ files run at larger sizes in
// layouts-examples.test.
// RUN: attic-run %s --entry=window_bottom_right --check | FileCheck %s
// RUN: attic-run %s --entry=window_bottom_right --check --block-q=7 --block-k=5 | FileCheck %s
// RUN: attic-run %s --entry=dilated_causal --check --block-q=16 --block-k=24 | FileCheck %s
// RUN: attic-run %s --entry=strided_fixed --check --block-q=13 --block-k=9 | FileCheck %s
// RUN: attic-run %s --entry=global_sinks --check --block-q=8 --block-k=8 | FileCheck %s
// RUN: attic-run %s --entry=documents_gqa --check --block-q=16 --block-k=32 | FileCheck %s
// RUN: attic-run %s --entry=documents_gqa --check --block-q=5 --block-k=3 | FileCheck %s
// RUN: attic-run %s --entry=random_blocks --check --block-q=12 --block-k=12 | FileCheck %s
// RUN: attic-run %s --entry=bigbird_f16 --check --block-q=32 --block-k=32 | FileCheck %s
// RUN: attic-run %s --entry=more_queries_than_keys --check --output=%t.npy | FileCheck %s
// RUN: %python -c "import numpy as n; o=n.load('%t.npy'); assert n.isfinite(o).all(); assert (o[:, :, :30] == 0).all(); assert (o[:, :, 30:] != 0).any(); print('rows without keys are 0')" | FileCheck %s --check-prefix=ZERO
// RUN: attic-run %s --entry=mask_bias_layout --seed=5 --mask-keep=0.4 --check --block-q=16 --block-k=16 | FileCheck %s
// Causal block-diagonal slices with key <= query - 2: a query tile whose
// last query sees none of its own slice still holds queries of the slice
// before, which see its keys. The tile's key range ended at the last
// query's reach and dropped them (rows of 0, no error) on every target and
// in attic.block_mask's lists, until 2026-11-30 (an audit).
// RUN: attic-run %s --entry=block_diagonal_causal_short --check --block-q=2 --block-k=2 | FileCheck %s
// RUN: attic-run %s --entry=block_diagonal_causal_short --check --block-q=4 --block-k=3 | FileCheck %s
// RUN: attic-run %s --entry=block_diagonal_causal_short --check --block-q=2 --block-k=2 --target=cuda-emulated | FileCheck %s
// RUN: attic-run %s --entry=block_diagonal_causal_lists --check | FileCheck %s --check-prefix=LISTS
// LISTS-COUNT-4: check: result #{{[0-3]}} ({{.*}} i32): max_abs_err=0.00e+00 {{.*}}: ok

// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok
// ZERO: rows without keys are 0

// Nq > Nk, bottom-right window: row i sees keys [i + Nk - Nq - 6, i + Nk - Nq + 2].
func.func @window_bottom_right(%q: tensor<2x3x70x16xf32>, %k: tensor<2x3x53x16xf32>, %v: tensor<2x3x53x24xf32>) -> tensor<2x3x70x24xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.window<left = 6, right = 2, align = bottom_right>) : tensor<2x3x70x16xf32>, tensor<2x3x53x16xf32>, tensor<2x3x53x24xf32> -> tensor<2x3x70x24xf32>
  return %o : tensor<2x3x70x24xf32>
}

func.func @dilated_causal(%q: tensor<1x2x100x32xf32>, %k: tensor<1x2x100x32xf32>, %v: tensor<1x2x100x32xf32>) -> tensor<1x2x100x32xf32> {
  %o = attic.attention %q, %k, %v causal layout(#attic.dilated<left = 60, right = 60, dilation = 3>) : tensor<1x2x100x32xf32>, tensor<1x2x100x32xf32>, tensor<1x2x100x32xf32> -> tensor<1x2x100x32xf32>
  return %o : tensor<1x2x100x32xf32>
}

func.func @strided_fixed(%q: tensor<1x2x90x16xf32>, %k: tensor<1x2x90x16xf32>, %v: tensor<1x2x90x16xf32>) -> tensor<1x2x90x16xf32> {
  %o = attic.attention %q, %k, %v causal layout(#attic.union<[#attic.strided<stride = 11>, #attic.fixed<block = 16, summary = 3>]>) : tensor<1x2x90x16xf32>, tensor<1x2x90x16xf32>, tensor<1x2x90x16xf32> -> tensor<1x2x90x16xf32>
  return %o : tensor<1x2x90x16xf32>
}

func.func @global_sinks(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.intersect<[#attic.union<[#attic.window<left = 3, right = 3>, #attic.global<tokens = [9, 10, 11, 40]>]>, #attic.union<[#attic.causal<bottom_right>, #attic.sinks<count = 2>]>]>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// Unsorted document ids (a key block pair may have overlapping id ranges
// without a shared id: partial, decided per element), with GQA (6 query
// heads on 2 kv heads) and causal.
func.func @documents_gqa(%q: tensor<2x6x77x16xf32>, %k: tensor<2x2x77x16xf32>, %v: tensor<2x2x77x8xf32>) -> tensor<2x6x77x8xf32> {
  %ids = tensor.generate {
  ^bb0(%b: index, %i: index):
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %x = arith.muli %i, %c7 : index
    %y = arith.addi %x, %b : index
    %z = arith.remui %y, %c3 : index
    %id = arith.index_cast %z : index to i64
    tensor.yield %id : i64
  } : tensor<2x77xi64>
  %o = attic.attention %q, %k, %v causal layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<2x77xi64>) : tensor<2x6x77x16xf32>, tensor<2x2x77x16xf32>, tensor<2x2x77x8xf32> -> tensor<2x6x77x8xf32>
  return %o : tensor<2x6x77x8xf32>
}

func.func @random_blocks(%q: tensor<1x3x96x16xf32>, %k: tensor<1x3x96x16xf32>, %v: tensor<1x3x96x16xf32>) -> tensor<1x3x96x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.window<left = 4, right = 4>, #attic.random<block = 8, count = 2, seed = 1234>]>) : tensor<1x3x96x16xf32>, tensor<1x3x96x16xf32>, tensor<1x3x96x16xf32> -> tensor<1x3x96x16xf32>
  return %o : tensor<1x3x96x16xf32>
}

func.func @bigbird_f16(%q: tensor<1x2x256x64xf16>, %k: tensor<1x2x256x64xf16>, %v: tensor<1x2x256x64xf16>) -> tensor<1x2x256x64xf16> {
  %o = attic.attention %q, %k, %v layout(#attic.blocked<size = 32, layout = #attic.union<[#attic.window<left = 1, right = 1>, #attic.global<tokens = [0]>, #attic.random<block = 1, count = 2, seed = 7>]>>) : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16> -> tensor<1x2x256x64xf16>
  return %o : tensor<1x2x256x64xf16>
}

// Nq = 50 > Nk = 20, bottom-right causal: the first 30 rows see no key and
// are 0, never NaN.
func.func @more_queries_than_keys(%q: tensor<1x2x50x16xf32>, %k: tensor<1x2x20x16xf32>, %v: tensor<1x2x20x16xf32>) -> tensor<1x2x50x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.causal<bottom_right>) : tensor<1x2x50x16xf32>, tensor<1x2x20x16xf32>, tensor<1x2x20x16xf32> -> tensor<1x2x50x16xf32>
  return %o : tensor<1x2x50x16xf32>
}

// A key padding mask and a per-head bias together with a layout.
func.func @mask_bias_layout(%q: tensor<2x2x60x16xf32>, %k: tensor<2x2x60x16xf32>, %v: tensor<2x2x60x16xf32>, %b: tensor<2x2x60xf32>, %m: tensor<2x60xi1>) -> tensor<2x2x60x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.window<left = 10, right = 0>, #attic.sinks<count = 3>]>) bias(%b : tensor<2x2x60xf32>) mask(%m : tensor<2x60xi1>) : tensor<2x2x60x16xf32>, tensor<2x2x60x16xf32>, tensor<2x2x60x16xf32> -> tensor<2x2x60x16xf32>
  return %o : tensor<2x2x60x16xf32>
}

// Slices of 3 queries and 1 key (then 4 and 1), causal: query q sees key
// q / 3 only where q mod 3 == 2 (and q / 4 where q mod 4 == 3).
func.func @block_diagonal_causal_short(%q: tensor<1x2x30x8xf32>, %k: tensor<1x2x10x8xf32>, %v: tensor<1x2x10x8xf32>) -> (tensor<1x2x30x8xf32>, tensor<1x2x30x8xf32>) {
  %o = attic.attention %q, %k, %v layout(#attic.block_diagonal<query = 3, key = 1, causal = true>) : tensor<1x2x30x8xf32>, tensor<1x2x10x8xf32>, tensor<1x2x10x8xf32> -> tensor<1x2x30x8xf32>
  %p = attic.attention %q, %k, %v layout(#attic.block_diagonal<query = 4, key = 1, causal = true>) : tensor<1x2x30x8xf32>, tensor<1x2x10x8xf32>, tensor<1x2x10x8xf32> -> tensor<1x2x30x8xf32>
  return %o, %p : tensor<1x2x30x8xf32>, tensor<1x2x30x8xf32>
}

func.func @block_diagonal_causal_lists() -> (tensor<1x1x17xi32>, tensor<1x1x17x7xi32>, tensor<1x1x17xi32>, tensor<1x1x17x7xi32>) {
  %n = arith.constant 33 : index
  %e3 = tensor.empty() : tensor<1x1x17xi32>
  %e4 = tensor.empty() : tensor<1x1x17x7xi32>
  %r:4 = attic.block_mask
      layout(#attic.intersect<[#attic.block_diagonal<query = 3, key = 1, causal = true>, #attic.causal]>)
      sizes(%n, %n)
      outs(%e3, %e4, %e3, %e4 : tensor<1x1x17xi32>, tensor<1x1x17x7xi32>, tensor<1x1x17xi32>, tensor<1x1x17x7xi32>)
      {block_q = 2 : i64, block_k = 5 : i64}
      -> tensor<1x1x17xi32>, tensor<1x1x17x7xi32>, tensor<1x1x17xi32>, tensor<1x1x17x7xi32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<1x1x17xi32>, tensor<1x1x17x7xi32>, tensor<1x1x17xi32>, tensor<1x1x17x7xi32>
}
