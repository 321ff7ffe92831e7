// The layouts of layouts.mlir in f16 and bf16, where attic-cuda-pipeline
// maps the tile loop onto tensor cores (the mma.sync pattern of
// attic-gpu-map-tiles): partial blocks everywhere, Nq != Nk, GQA, document
// ids, block lists, a key mask with a bias, and rows that see no key. Run
// against the reference semantics by cuda-simulated-layouts.test (the
// kernels interpreted on the CPU, always) and cuda-device-layouts-tc.test
// (on a GPU, when there is one). On the CPU the same functions go through
// the vector kernel (RUN lines below).
// RUN: attic-run %s --entry=window_bottom_right_f16 --check | FileCheck %s
// RUN: attic-run %s --entry=documents_gqa_bf16 --check --block-q=16 --block-k=32 | FileCheck %s
// RUN: attic-run %s --entry=more_queries_than_keys_f16 --check | FileCheck %s
// RUN: attic-run %s --entry=random_blocks_d128_bf16 --check | FileCheck %s

// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok

// Nq > Nk, bottom-right window, D = 16, Dv = 32.
func.func @window_bottom_right_f16(%q: tensor<2x3x70x16xf16>, %k: tensor<2x3x53x16xf16>, %v: tensor<2x3x53x32xf16>) -> tensor<2x3x70x32xf16> {
  %o = attic.attention %q, %k, %v layout(#attic.window<left = 6, right = 2, align = bottom_right>) : tensor<2x3x70x16xf16>, tensor<2x3x53x16xf16>, tensor<2x3x53x32xf16> -> tensor<2x3x70x32xf16>
  return %o : tensor<2x3x70x32xf16>
}

func.func @dilated_causal_bf16(%q: tensor<1x2x100x32xbf16>, %k: tensor<1x2x100x32xbf16>, %v: tensor<1x2x100x32xbf16>) -> tensor<1x2x100x32xbf16> {
  %o = attic.attention %q, %k, %v causal layout(#attic.dilated<left = 60, right = 60, dilation = 3>) : tensor<1x2x100x32xbf16>, tensor<1x2x100x32xbf16>, tensor<1x2x100x32xbf16> -> tensor<1x2x100x32xbf16>
  return %o : tensor<1x2x100x32xbf16>
}

func.func @strided_fixed_f16(%q: tensor<1x2x90x64xf16>, %k: tensor<1x2x90x64xf16>, %v: tensor<1x2x90x64xf16>) -> tensor<1x2x90x64xf16> {
  %o = attic.attention %q, %k, %v causal layout(#attic.union<[#attic.strided<stride = 11>, #attic.fixed<block = 16, summary = 3>]>) : tensor<1x2x90x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x64xf16> -> tensor<1x2x90x64xf16>
  return %o : tensor<1x2x90x64xf16>
}

// D = 128.
func.func @global_sinks_bf16(%q: tensor<1x2x64x128xbf16>, %k: tensor<1x2x64x128xbf16>, %v: tensor<1x2x64x128xbf16>) -> tensor<1x2x64x128xbf16> {
  %o = attic.attention %q, %k, %v layout(#attic.intersect<[#attic.union<[#attic.window<left = 3, right = 3>, #attic.global<tokens = [9, 10, 11, 40]>]>, #attic.union<[#attic.causal<bottom_right>, #attic.sinks<count = 2>]>]>) : tensor<1x2x64x128xbf16>, tensor<1x2x64x128xbf16>, tensor<1x2x64x128xbf16> -> tensor<1x2x64x128xbf16>
  return %o : tensor<1x2x64x128xbf16>
}

// Unsorted document ids, GQA (6 query heads on 2 kv heads), causal.
func.func @documents_gqa_bf16(%q: tensor<2x6x77x16xbf16>, %k: tensor<2x2x77x16xbf16>, %v: tensor<2x2x77x16xbf16>) -> tensor<2x6x77x16xbf16> {
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
  %o = attic.attention %q, %k, %v causal layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<2x77xi64>) : tensor<2x6x77x16xbf16>, tensor<2x2x77x16xbf16>, tensor<2x2x77x16xbf16> -> tensor<2x6x77x16xbf16>
  return %o : tensor<2x6x77x16xbf16>
}

func.func @random_blocks_f16(%q: tensor<1x3x96x32xf16>, %k: tensor<1x3x96x32xf16>, %v: tensor<1x3x96x32xf16>) -> tensor<1x3x96x32xf16> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.window<left = 4, right = 4>, #attic.random<block = 8, count = 2, seed = 1234>]>) : tensor<1x3x96x32xf16>, tensor<1x3x96x32xf16>, tensor<1x3x96x32xf16> -> tensor<1x3x96x32xf16>
  return %o : tensor<1x3x96x32xf16>
}

// Nq = 50 > Nk = 20, bottom-right causal: the first 30 rows see no key and
// are 0, never NaN.
func.func @more_queries_than_keys_f16(%q: tensor<1x2x50x16xf16>, %k: tensor<1x2x20x16xf16>, %v: tensor<1x2x20x16xf16>) -> tensor<1x2x50x16xf16> {
  %o = attic.attention %q, %k, %v layout(#attic.causal<bottom_right>) : tensor<1x2x50x16xf16>, tensor<1x2x20x16xf16>, tensor<1x2x20x16xf16> -> tensor<1x2x50x16xf16>
  return %o : tensor<1x2x50x16xf16>
}

// A key padding mask and a per-head bias together with a layout.
func.func @mask_bias_layout_bf16(%q: tensor<2x2x60x64xbf16>, %k: tensor<2x2x60x64xbf16>, %v: tensor<2x2x60x64xbf16>, %b: tensor<2x2x60xbf16>, %m: tensor<2x60xi1>) -> tensor<2x2x60x64xbf16> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.window<left = 10, right = 0>, #attic.sinks<count = 3>]>) bias(%b : tensor<2x2x60xbf16>) mask(%m : tensor<2x60xi1>) : tensor<2x2x60x64xbf16>, tensor<2x2x60x64xbf16>, tensor<2x2x60x64xbf16> -> tensor<2x2x60x64xbf16>
  return %o : tensor<2x2x60x64xbf16>
}

// Block lists at D = 128 (no wide-head key block then): with block_k = 128,
// K and V do not fit in 48 KiB together and share one buffer.
func.func @random_blocks_d128_bf16(%q: tensor<1x2x200x128xbf16>, %k: tensor<1x2x200x128xbf16>, %v: tensor<1x2x200x128xbf16>) -> tensor<1x2x200x128xbf16> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.window<left = 4, right = 4>, #attic.random<block = 8, count = 2, seed = 99>]>) : tensor<1x2x200x128xbf16>, tensor<1x2x200x128xbf16>, tensor<1x2x200x128xbf16> -> tensor<1x2x200x128xbf16>
  return %o : tensor<1x2x200x128xbf16>
}

// With block lists at block_k = 128 (@..._bk128 below); D = 64 and Dv = 112 take exactly 48 KiB
// for one K and one V block, so with the key mask's column tile they share
// one buffer, while two of each (96 KiB) still fit the ring of
// --kv-stages=2.
func.func @lists_wide_value_masked_f16(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x112xf16>, %m: tensor<1x300xi1>) -> tensor<1x2x300x112xf16> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.window<left = 4, right = 4>, #attic.random<block = 8, count = 2, seed = 99>]>) mask(%m : tensor<1x300xi1>) : tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x112xf16> -> tensor<1x2x300x112xf16>
  return %o : tensor<1x2x300x112xf16>
}

// The two above with block_sizes [64, 128] of their own: their lists are
// built for block_k = 128, which the GPU pipelines otherwise narrow to 64
// for heads wider than 64 (attic-decompose's wide-head-block-k), for the
// simulator's tests of a shared K/V buffer and of a ring that does not fit.
func.func @random_blocks_d128_bf16_bk128(%q: tensor<1x2x200x128xbf16>, %k: tensor<1x2x200x128xbf16>, %v: tensor<1x2x200x128xbf16>) -> tensor<1x2x200x128xbf16> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.window<left = 4, right = 4>, #attic.random<block = 8, count = 2, seed = 99>]>) block_sizes [64, 128] : tensor<1x2x200x128xbf16>, tensor<1x2x200x128xbf16>, tensor<1x2x200x128xbf16> -> tensor<1x2x200x128xbf16>
  return %o : tensor<1x2x200x128xbf16>
}

func.func @lists_wide_value_masked_f16_bk128(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x112xf16>, %m: tensor<1x300xi1>) -> tensor<1x2x300x112xf16> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.window<left = 4, right = 4>, #attic.random<block = 8, count = 2, seed = 99>]>) mask(%m : tensor<1x300xi1>) block_sizes [64, 128] : tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x112xf16> -> tensor<1x2x300x112xf16>
  return %o : tensor<1x2x300x112xf16>
}
