// attic.block_mask's lists are exact (every listed full block is full,
// every partial one partial, entries past a count 0), whatever the
// precision of the layout's own block visibility: document ids that are
// not sorted (per-block id ranges overlap without a shared id) and
// compositions (an intersection of two partial layouts can be empty).
// Checked against the reference's brute-force classification, and through
// an attention that reuses the lists with another layout (or none), where
// a block called partial instead of empty or full changes the result.
// Each run failed before the lists were made exact (found by
// scripts/sweep-layouts.py, seed 12); the full_tail runs failed before a
// listed full block with keys past Nk stopped applying the attention's
// layout (seed 13).
//
// RUN: attic-run %s --entry=lists_documents --check | FileCheck %s --check-prefix=LISTS
// RUN: attic-run %s --entry=lists_documents --check --target=cuda-emulated | FileCheck %s --check-prefix=LISTS
// RUN: attic-run %s --entry=lists_composition --check | FileCheck %s --check-prefix=LISTS
// RUN: attic-run %s --entry=lists_composition --check --target=cuda-emulated | FileCheck %s --check-prefix=LISTS
// RUN: attic-run %s --entry=reuse_dense --check | FileCheck %s
// RUN: attic-run %s --entry=reuse_dense --check --target=cuda-emulated | FileCheck %s
// RUN: attic-run %s --entry=reuse_other_layout --check | FileCheck %s
// RUN: attic-run %s --entry=reuse_other_layout --check --target=cuda-emulated | FileCheck %s
// RUN: attic-run %s --entry=reuse_dense_f16 --check --target=cuda-simulated | FileCheck %s
// RUN: attic-run %s --entry=reuse_dense_f16 --check --target=cuda-simulated --wgmma --kv-stages=2 | FileCheck %s
// RUN: attic-run %s --entry=full_tail --check | FileCheck %s
// RUN: attic-run %s --entry=full_tail --check --target=cuda-emulated | FileCheck %s
// RUN: attic-run %s --entry=full_tail --check --vector-width=4 --block-q=7 | FileCheck %s
// RUN: attic-run %s --entry=full_tail_f16 --check --target=cuda-simulated | FileCheck %s
// RUN: attic-run %s --entry=full_tail_f16 --check --target=cuda-simulated --wgmma --kv-stages=2 --tma | FileCheck %s
//
// LISTS-COUNT-4: check: result #{{[0-3]}} ({{.*}} i32): max_abs_err=0.00e+00 {{.*}}: ok
// LISTS-NOT: FAILED
// CHECK: check: result #0 {{.*}}: ok
// CHECK-NOT: FAILED

// Ids ((i / 66) * 7 + b) mod 3: documents of 66 tokens whose ids are not
// sorted, so that a block's id range can hold an id the block lacks: in
// batch 1, tokens [128, 192) have ids {2, 0}, whose range [0, 2] overlaps
// the id 1 of tokens [0, 64) with no id shared (an empty block pair that
// per-block id ranges call partial).
func.func private @ids() -> tensor<2x256xi32> {
  %ids = tensor.generate {
  ^bb0(%b: index, %i: index):
    %len = arith.constant 66 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %doc = arith.divui %i, %len : index
    %x = arith.muli %doc, %c7 : index
    %y = arith.addi %x, %b : index
    %z = arith.remui %y, %c3 : index
    %id = arith.index_cast %z : index to i32
    tensor.yield %id : i32
  } : tensor<2x256xi32>
  return %ids : tensor<2x256xi32>
}

func.func @lists_documents() -> (tensor<2x1x4xi32>, tensor<2x1x4x4xi32>, tensor<2x1x4xi32>, tensor<2x1x4x4xi32>) {
  %ids = func.call @ids() : () -> tensor<2x256xi32>
  %n = arith.constant 256 : index
  %e3 = tensor.empty() : tensor<2x1x4xi32>
  %e4 = tensor.empty() : tensor<2x1x4x4xi32>
  %r:4 = attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>)
      layout_operands(%ids : tensor<2x256xi32>) sizes(%n, %n)
      outs(%e3, %e4, %e3, %e4 : tensor<2x1x4xi32>, tensor<2x1x4x4xi32>, tensor<2x1x4xi32>, tensor<2x1x4x4xi32>)
      {block_q = 64 : i64, block_k = 64 : i64}
      -> tensor<2x1x4xi32>, tensor<2x1x4x4xi32>, tensor<2x1x4xi32>, tensor<2x1x4x4xi32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<2x1x4xi32>, tensor<2x1x4x4xi32>, tensor<2x1x4xi32>, tensor<2x1x4x4xi32>
}

// A window of 10 on each side intersected with every 7th diagonal: in
// blocks of 8, the pairs two blocks off the diagonal (k - q in [9, 23])
// are partial for both, and empty for the intersection (9 and 10 are not
// multiples of 7).
func.func @lists_composition() -> (tensor<1x1x12xi32>, tensor<1x1x12x12xi32>, tensor<1x1x12xi32>, tensor<1x1x12x12xi32>) {
  %n = arith.constant 96 : index
  %e3 = tensor.empty() : tensor<1x1x12xi32>
  %e4 = tensor.empty() : tensor<1x1x12x12xi32>
  %r:4 = attic.block_mask
      layout(#attic.intersect<[#attic.window<left = 10, right = 10>, #attic.dilated<left = 96, right = 96, dilation = 7>]>)
      sizes(%n, %n)
      outs(%e3, %e4, %e3, %e4 : tensor<1x1x12xi32>, tensor<1x1x12x12xi32>, tensor<1x1x12xi32>, tensor<1x1x12x12xi32>)
      {block_q = 8 : i64, block_k = 8 : i64}
      -> tensor<1x1x12xi32>, tensor<1x1x12x12xi32>, tensor<1x1x12xi32>, tensor<1x1x12x12xi32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<1x1x12xi32>, tensor<1x1x12x12xi32>, tensor<1x1x12xi32>, tensor<1x1x12x12xi32>
}

// The documents' lists, with no layout on the attention: every key of a
// listed block is visible, so a block called partial that has no shared
// id would add keys.
func.func @reuse_dense(%q: tensor<2x2x256x16xf32>, %k: tensor<2x2x256x16xf32>, %v: tensor<2x2x256x16xf32>) -> tensor<2x2x256x16xf32> {
  %n, %i, %fn, %fi = func.call @lists_documents() : () -> (tensor<2x1x4xi32>, tensor<2x1x4x4xi32>, tensor<2x1x4xi32>, tensor<2x1x4x4xi32>)
  %o = attic.attention %q, %k, %v
      blocks(%n, %i, %fn, %fi : tensor<2x1x4xi32>, tensor<2x1x4x4xi32>, tensor<2x1x4xi32>, tensor<2x1x4x4xi32>) block_sizes [64, 64]
      : tensor<2x2x256x16xf32>, tensor<2x2x256x16xf32>, tensor<2x2x256x16xf32> -> tensor<2x2x256x16xf32>
  return %o : tensor<2x2x256x16xf32>
}

func.func @reuse_dense_f16(%q: tensor<2x2x256x64xf16>, %k: tensor<2x2x256x64xf16>, %v: tensor<2x2x256x64xf16>) -> tensor<2x2x256x64xf16> {
  %n, %i, %fn, %fi = func.call @lists_documents() : () -> (tensor<2x1x4xi32>, tensor<2x1x4x4xi32>, tensor<2x1x4xi32>, tensor<2x1x4x4xi32>)
  %o = attic.attention %q, %k, %v
      blocks(%n, %i, %fn, %fi : tensor<2x1x4xi32>, tensor<2x1x4x4xi32>, tensor<2x1x4xi32>, tensor<2x1x4x4xi32>) block_sizes [64, 64]
      : tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16>, tensor<2x2x256x64xf16> -> tensor<2x2x256x64xf16>
  return %o : tensor<2x2x256x64xf16>
}

// The lists of causal documents (blocks 58 x 24), reused by a strided
// attention: a full block skips the strided layout's predicate, a partial
// one applies it.
func.func @reuse_other_layout(%q: tensor<2x3x256x16xf32>, %k: tensor<2x3x256x16xf32>, %v: tensor<2x3x256x16xf32>) -> tensor<2x3x256x16xf32> {
  %ids = func.call @ids() : () -> tensor<2x256xi32>
  %c = arith.constant 256 : index
  %e3 = tensor.empty() : tensor<2x1x5xi32>
  %e4 = tensor.empty() : tensor<2x1x5x11xi32>
  %n, %i, %fn, %fi = attic.block_mask
      layout(#attic.intersect<[#attic.causal, #attic.documents<query_ids = 0, key_ids = 0>]>)
      layout_operands(%ids : tensor<2x256xi32>) sizes(%c, %c)
      outs(%e3, %e4, %e3, %e4 : tensor<2x1x5xi32>, tensor<2x1x5x11xi32>, tensor<2x1x5xi32>, tensor<2x1x5x11xi32>)
      {block_q = 58 : i64, block_k = 24 : i64}
      -> tensor<2x1x5xi32>, tensor<2x1x5x11xi32>, tensor<2x1x5xi32>, tensor<2x1x5x11xi32>
  %o = attic.attention %q, %k, %v layout(#attic.strided<stride = 36, align = bottom_right>)
      blocks(%n, %i, %fn, %fi : tensor<2x1x5xi32>, tensor<2x1x5x11xi32>, tensor<2x1x5xi32>, tensor<2x1x5x11xi32>) block_sizes [58, 24]
      : tensor<2x3x256x16xf32>, tensor<2x3x256x16xf32>, tensor<2x3x256x16xf32> -> tensor<2x3x256x16xf32>
  return %o : tensor<2x3x256x16xf32>
}

// Every block listed full (the lists of #attic.dense) and a causal
// attention: a full block skips the layout, so the result is that of dense
// attention, the last key block (keys 96..99 of blocks of 32) included,
// which runs partial because it holds keys past Nk; before, it also took
// the causal predicate.
func.func @full_tail(%q: tensor<1x2x100x16xf32>, %k: tensor<1x2x100x16xf32>, %v: tensor<1x2x100x16xf32>) -> tensor<1x2x100x16xf32> {
  %c = arith.constant 100 : index
  %e3 = tensor.empty() : tensor<1x1x2xi32>
  %e4 = tensor.empty() : tensor<1x1x2x4xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.dense) sizes(%c, %c)
      outs(%e3, %e4, %e3, %e4 : tensor<1x1x2xi32>, tensor<1x1x2x4xi32>, tensor<1x1x2xi32>, tensor<1x1x2x4xi32>)
      {block_q = 64 : i64, block_k = 32 : i64}
      -> tensor<1x1x2xi32>, tensor<1x1x2x4xi32>, tensor<1x1x2xi32>, tensor<1x1x2x4xi32>
  %o = attic.attention %q, %k, %v causal
      blocks(%n, %i, %fn, %fi : tensor<1x1x2xi32>, tensor<1x1x2x4xi32>, tensor<1x1x2xi32>, tensor<1x1x2x4xi32>) block_sizes [64, 32]
      : tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32> -> tensor<1x2x100x16xf32>
  return %o : tensor<1x2x100x16xf32>
}

func.func @full_tail_f16(%q: tensor<1x2x100x64xf16>, %k: tensor<1x2x100x64xf16>, %v: tensor<1x2x100x64xf16>) -> tensor<1x2x100x64xf16> {
  %c = arith.constant 100 : index
  %e3 = tensor.empty() : tensor<1x1x2xi32>
  %e4 = tensor.empty() : tensor<1x1x2x4xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.dense) sizes(%c, %c)
      outs(%e3, %e4, %e3, %e4 : tensor<1x1x2xi32>, tensor<1x1x2x4xi32>, tensor<1x1x2xi32>, tensor<1x1x2x4xi32>)
      {block_q = 64 : i64, block_k = 32 : i64}
      -> tensor<1x1x2xi32>, tensor<1x1x2x4xi32>, tensor<1x1x2xi32>, tensor<1x1x2x4xi32>
  %o = attic.attention %q, %k, %v layout(#attic.window<left = 10, right = 0>)
      blocks(%n, %i, %fn, %fi : tensor<1x1x2xi32>, tensor<1x1x2x4xi32>, tensor<1x1x2xi32>, tensor<1x1x2x4xi32>) block_sizes [64, 32]
      : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}
