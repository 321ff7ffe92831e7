// A VCC encoder: three VCC layers (examples/vcc_layer.mlir, which explains
// every step) on one tree. The sequence is reordered into [P; C] and the
// tree T(C) is built ONCE; each layer selects its J on the current tree,
// runs its transformer layer on [P; means of J] (r = 51 of 128 rows) and
// writes the result back (tree_update), and the P rows go from one layer to
// the next; C is materialized ONCE at the end, then the original order is
// restored. Each layer costs O(r d) in the tree, not O(n d).
//
// Same shapes as examples/vcc_layer.mlir: B = 2, n = 128, n_p = 8, d = 32,
// 2 heads, FFN 64, fanouts [8, 15], budgets [4, 1] in every layer. Every
// layer has its own weights: weight arguments are stacked with a leading
// layer dim of 3 ([3, d, d] etc.), layer l uses slice l. The result equals
// three naive VCC layers (eq 7) in a row, each selecting its J on the
// previous layer's output (attic::ref::vcc::naiveVccLayer; the unit test
// test/unittests/Execution/VccLayerTest.cpp compares them).
//
// Run it:
//   build/tools/attic-run examples/vcc_encoder.mlir --entry=vcc_encoder \
//       --seed=1 --mask-keep=0.9 --mask-keep-arg=1:0.04 \
//       --range-lo=-0.5 --range-hi=0.5 --check
// (--check: the same function with the reference semantics, the VCC ops
// with attic::ref::vcc and the body's linalg ops interpreted in double.)

// Index maps of the row-wise linalg.generic ops on [rows, features].
#rows = affine_map<(i, e) -> (i, e)>
#row = affine_map<(i, e) -> (i)>
#feature = affine_map<(i, e) -> (e)>
// The same on [batch, rows, features].
#rows3 = affine_map<(b, i, e) -> (b, i, e)>
#row3 = affine_map<(b, i, e) -> (b, i)>
#feature3 = affine_map<(b, i, e) -> (e)>

func.func @vcc_encoder(
    %x: tensor<2x128x32xf32>,     // hidden states, original order
    %vip: tensor<2x128xi1>,       // VIP tokens (at most 8 per sequence)
    %mask: tensor<2x128xi1>,      // padding mask, true = real token
    // Per layer l, slice l of each: the fields of attic::ref::vcc::LayerWeights.
    %ln1_gamma: tensor<3x32xf32>,
    %ln1_beta: tensor<3x32xf32>,
    %wq: tensor<3x32x32xf32>,
    %bq: tensor<3x32xf32>,
    %wk: tensor<3x32x32xf32>,
    %bk: tensor<3x32xf32>,
    %wv: tensor<3x32x32xf32>,
    %bv: tensor<3x32xf32>,
    %wo: tensor<3x32x32xf32>,
    %bo: tensor<3x32xf32>,
    %ln2_gamma: tensor<3x32xf32>,
    %ln2_beta: tensor<3x32xf32>,
    %w1: tensor<3x32x64xf32>,
    %b1: tensor<3x64xf32>,
    %w2: tensor<3x64x32xf32>,
    %b2: tensor<3x32xf32>)
    // The new hidden states in the original order, and J of each layer.
    -> (tensor<2x128x32xf32>, tensor<2x43xi64>, tensor<2x43xi64>, tensor<2x43xi64>) {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %dim = arith.constant 32.0 : f32

  //===--------------------------------------------------------------------===//
  // Once per stack of layers: reorder into [P; C] and build the tree T(C).
  //===--------------------------------------------------------------------===//
  %perm, %inverse = attic.vip_order %vip {num_vip = 8 : i64}
      : tensor<2x128xi1> -> tensor<2x128xi64>, tensor<2x128xi64>
  %xp = attic.gather_rows %x[%perm]
      : tensor<2x128x32xf32>, tensor<2x128xi64> -> tensor<2x128x32xf32>
  %keep = attic.gather_rows %mask[%perm]
      : tensor<2x128xi1>, tensor<2x128xi64> -> tensor<2x128xi1>
  %p_1 = tensor.extract_slice %xp[0, 0, 0] [2, 8, 32] [1, 1, 1]
      : tensor<2x128x32xf32> to tensor<2x8x32xf32>
  %c = tensor.extract_slice %xp[0, 8, 0] [2, 120, 32] [1, 1, 1]
      : tensor<2x128x32xf32> to tensor<2x120x32xf32>
  %valid = tensor.extract_slice %keep[0, 8] [2, 120] [1, 1]
      : tensor<2x128xi1> to tensor<2x120xi1>
  %tree_1 = attic.tree_build %c, %valid : tensor<2x120x32xf32>, tensor<2x120xi1>
      -> !attic.tree<2x120x32xf32, fanouts = [8, 15]>

  //===--------------------------------------------------------------------===//
  // Layer 1: slice 0 of the weights; select J on tree_1 with the
  // queries of p_1, compress, the transformer layer, write back: p_2
  // and tree_2.
  //===--------------------------------------------------------------------===//
  %ln1_gamma_1 = tensor.extract_slice %ln1_gamma[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln1_beta_1 = tensor.extract_slice %ln1_beta[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wq_1 = tensor.extract_slice %wq[0, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bq_1 = tensor.extract_slice %bq[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wk_1 = tensor.extract_slice %wk[0, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bk_1 = tensor.extract_slice %bk[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wv_1 = tensor.extract_slice %wv[0, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bv_1 = tensor.extract_slice %bv[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wo_1 = tensor.extract_slice %wo[0, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bo_1 = tensor.extract_slice %bo[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln2_gamma_1 = tensor.extract_slice %ln2_gamma[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln2_beta_1 = tensor.extract_slice %ln2_beta[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %w1_1 = tensor.extract_slice %w1[0, 0, 0] [1, 32, 64] [1, 1, 1] : tensor<3x32x64xf32> to tensor<32x64xf32>
  %b1_1 = tensor.extract_slice %b1[0, 0] [1, 64] [1, 1] : tensor<3x64xf32> to tensor<64xf32>
  %w2_1 = tensor.extract_slice %w2[0, 0, 0] [1, 64, 32] [1, 1, 1] : tensor<3x64x32xf32> to tensor<64x32xf32>
  %b2_1 = tensor.extract_slice %b2[0, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %p_init_1 = tensor.empty() : tensor<2x8xf32>
  %p_zero_1 = linalg.fill ins(%zero : f32) outs(%p_init_1 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %p_sum_1 = linalg.generic {indexing_maps = [#rows3, #row3],
                           iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p_1 : tensor<2x8x32xf32>) outs(%p_zero_1 : tensor<2x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %p_sq_1 = linalg.generic {indexing_maps = [#rows3, #row3, #row3],
                          iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p_1, %p_sum_1 : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%p_zero_1 : tensor<2x8xf32>) {
  ^bb0(%v: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %v, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %p_ln_init_1 = tensor.empty() : tensor<2x8x32xf32>
  %p_ln_1 = linalg.generic {indexing_maps = [#rows3, #row3, #row3, #feature3, #feature3, #rows3],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p_1, %p_sum_1, %p_sq_1, %ln1_gamma_1, %ln1_beta_1
          : tensor<2x8x32xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%p_ln_init_1 : tensor<2x8x32xf32>) {
  ^bb0(%v: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %v, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x8x32xf32>
  %p_ln2_1 = tensor.collapse_shape %p_ln_1 [[0, 1], [2]]
      : tensor<2x8x32xf32> into tensor<16x32xf32>
  %p_rows_1 = tensor.empty() : tensor<16x32xf32>
  %p_mm_zero_1 = linalg.fill ins(%zero : f32) outs(%p_rows_1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p_qmm_1 = linalg.matmul ins(%p_ln2_1, %wq_1 : tensor<16x32xf32>, tensor<32x32xf32>)
      outs(%p_mm_zero_1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p_q_1 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%p_qmm_1, %bq_1 : tensor<16x32xf32>, tensor<32xf32>) outs(%p_rows_1 : tensor<16x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %p_q4_1 = tensor.expand_shape %p_q_1 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16]
      : tensor<16x32xf32> into tensor<2x8x2x16xf32>
  %p_heads_init_1 = tensor.empty() : tensor<2x2x8x16xf32>
  %q_vip_1 = linalg.transpose ins(%p_q4_1 : tensor<2x8x2x16xf32>)
      outs(%p_heads_init_1 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %j_1 = attic.tree_select %tree_1, %q_vip_1, %wk_1, %bk_1, %ln1_gamma_1, %ln1_beta_1
      {budgets = [4, 1], heads = 2 : i64, scale = 0.25 : f32}
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x2x8x16xf32>,
        tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
      -> tensor<2x43xi64>

  %sx_1, %bias_1 = attic.vcc_compress %p_1, %tree_1, %j_1
      : tensor<2x8x32xf32>, !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>
      -> tensor<2x51x32xf32>, tensor<2x51xf32>

  %x2_1 = tensor.collapse_shape %sx_1 [[0, 1], [2]] : tensor<2x51x32xf32> into tensor<102x32xf32>
  %r_init_1 = tensor.empty() : tensor<102xf32>
  %r_zero_1 = linalg.fill ins(%zero : f32) outs(%r_init_1 : tensor<102xf32>) -> tensor<102xf32>
  %rows_init_1 = tensor.empty() : tensor<102x32xf32>
  %mm_zero_1 = linalg.fill ins(%zero : f32) outs(%rows_init_1 : tensor<102x32xf32>) -> tensor<102x32xf32>

  %sum1_1 = linalg.generic {indexing_maps = [#rows, #row],
                          iterator_types = ["parallel", "reduction"]}
      ins(%x2_1 : tensor<102x32xf32>) outs(%r_zero_1 : tensor<102xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %sq1_1 = linalg.generic {indexing_maps = [#rows, #row, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x2_1, %sum1_1 : tensor<102x32xf32>, tensor<102xf32>) outs(%r_zero_1 : tensor<102xf32>) {
  ^bb0(%v: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %v, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %ln1_1 = linalg.generic {indexing_maps = [#rows, #row, #row, #feature, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x2_1, %sum1_1, %sq1_1, %ln1_gamma_1, %ln1_beta_1
          : tensor<102x32xf32>, tensor<102xf32>, tensor<102xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%rows_init_1 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %v, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %qmm_1 = linalg.matmul ins(%ln1_1, %wq_1 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_1 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %q_1 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%qmm_1, %bq_1 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_1 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %kmm_1 = linalg.matmul ins(%ln1_1, %wk_1 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_1 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %k_1 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%kmm_1, %bk_1 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_1 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %vmm_1 = linalg.matmul ins(%ln1_1, %wv_1 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_1 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %val_1 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%vmm_1, %bv_1 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_1 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %heads_init_1 = tensor.empty() : tensor<2x2x51x16xf32>
  %q4_1 = tensor.expand_shape %q_1 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %qh_1 = linalg.transpose ins(%q4_1 : tensor<2x51x2x16xf32>)
      outs(%heads_init_1 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]
  %k4_1 = tensor.expand_shape %k_1 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %kh_1 = linalg.transpose ins(%k4_1 : tensor<2x51x2x16xf32>)
      outs(%heads_init_1 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]
  %v4_1 = tensor.expand_shape %val_1 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %vh_1 = linalg.transpose ins(%v4_1 : tensor<2x51x2x16xf32>)
      outs(%heads_init_1 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]

  %oh_1 = attic.attention %qh_1, %kh_1, %vh_1 bias(%bias_1 : tensor<2x51xf32>)
      : tensor<2x2x51x16xf32>, tensor<2x2x51x16xf32>, tensor<2x2x51x16xf32>
      -> tensor<2x2x51x16xf32>

  %merged_init_1 = tensor.empty() : tensor<2x51x2x16xf32>
  %o4_1 = linalg.transpose ins(%oh_1 : tensor<2x2x51x16xf32>)
      outs(%merged_init_1 : tensor<2x51x2x16xf32>) permutation = [0, 2, 1, 3]
  %o_1 = tensor.collapse_shape %o4_1 [[0, 1], [2, 3]] : tensor<2x51x2x16xf32> into tensor<102x32xf32>

  %omm_1 = linalg.matmul ins(%o_1, %wo_1 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_1 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %h_1 = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x2_1, %omm_1, %bo_1 : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
      outs(%rows_init_1 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32, %out: f32):
    %mb = arith.addf %m, %b : f32
    %y = arith.addf %a, %mb : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %sum2_1 = linalg.generic {indexing_maps = [#rows, #row],
                          iterator_types = ["parallel", "reduction"]}
      ins(%h_1 : tensor<102x32xf32>) outs(%r_zero_1 : tensor<102xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %sq2_1 = linalg.generic {indexing_maps = [#rows, #row, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%h_1, %sum2_1 : tensor<102x32xf32>, tensor<102xf32>) outs(%r_zero_1 : tensor<102xf32>) {
  ^bb0(%a: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %a, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %ln2_1 = linalg.generic {indexing_maps = [#rows, #row, #row, #feature, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%h_1, %sum2_1, %sq2_1, %ln2_gamma_1, %ln2_beta_1
          : tensor<102x32xf32>, tensor<102xf32>, tensor<102xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%rows_init_1 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %a, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %ffn_init_1 = tensor.empty() : tensor<102x64xf32>
  %ffn_zero_1 = linalg.fill ins(%zero : f32) outs(%ffn_init_1 : tensor<102x64xf32>) -> tensor<102x64xf32>
  %f1mm_1 = linalg.matmul ins(%ln2_1, %w1_1 : tensor<102x32xf32>, tensor<32x64xf32>)
      outs(%ffn_zero_1 : tensor<102x64xf32>) -> tensor<102x64xf32>
  %f1_1 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                        iterator_types = ["parallel", "parallel"]}
      ins(%f1mm_1, %b1_1 : tensor<102x64xf32>, tensor<64xf32>) outs(%ffn_init_1 : tensor<102x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %pre = arith.addf %a, %b : f32
    %relu = arith.maximumf %pre, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<102x64xf32>
  %f2mm_1 = linalg.matmul ins(%f1_1, %w2_1 : tensor<102x64xf32>, tensor<64x32xf32>)
      outs(%mm_zero_1 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %y2_1 = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h_1, %f2mm_1, %b2_1 : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
      outs(%rows_init_1 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32, %out: f32):
    %mb = arith.addf %m, %b : f32
    %y = arith.addf %a, %mb : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %layer_out_1 = tensor.expand_shape %y2_1 [[0, 1], [2]] output_shape [2, 51, 32]
      : tensor<102x32xf32> into tensor<2x51x32xf32>

  %p_2 = tensor.extract_slice %layer_out_1[0, 0, 0] [2, 8, 32] [1, 1, 1]
      : tensor<2x51x32xf32> to tensor<2x8x32xf32>
  %y_j_1 = tensor.extract_slice %layer_out_1[0, 8, 0] [2, 43, 32] [1, 1, 1]
      : tensor<2x51x32xf32> to tensor<2x43x32xf32>
  %tree_2 = attic.tree_update %tree_1, %j_1, %y_j_1
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>, tensor<2x43x32xf32>
      -> !attic.tree<2x120x32xf32, fanouts = [8, 15]>

  //===--------------------------------------------------------------------===//
  // Layer 2: slice 1 of the weights; select J on tree_2 with the
  // queries of p_2, compress, the transformer layer, write back: p_3
  // and tree_3.
  //===--------------------------------------------------------------------===//
  %ln1_gamma_2 = tensor.extract_slice %ln1_gamma[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln1_beta_2 = tensor.extract_slice %ln1_beta[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wq_2 = tensor.extract_slice %wq[1, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bq_2 = tensor.extract_slice %bq[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wk_2 = tensor.extract_slice %wk[1, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bk_2 = tensor.extract_slice %bk[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wv_2 = tensor.extract_slice %wv[1, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bv_2 = tensor.extract_slice %bv[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wo_2 = tensor.extract_slice %wo[1, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bo_2 = tensor.extract_slice %bo[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln2_gamma_2 = tensor.extract_slice %ln2_gamma[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln2_beta_2 = tensor.extract_slice %ln2_beta[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %w1_2 = tensor.extract_slice %w1[1, 0, 0] [1, 32, 64] [1, 1, 1] : tensor<3x32x64xf32> to tensor<32x64xf32>
  %b1_2 = tensor.extract_slice %b1[1, 0] [1, 64] [1, 1] : tensor<3x64xf32> to tensor<64xf32>
  %w2_2 = tensor.extract_slice %w2[1, 0, 0] [1, 64, 32] [1, 1, 1] : tensor<3x64x32xf32> to tensor<64x32xf32>
  %b2_2 = tensor.extract_slice %b2[1, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %p_init_2 = tensor.empty() : tensor<2x8xf32>
  %p_zero_2 = linalg.fill ins(%zero : f32) outs(%p_init_2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %p_sum_2 = linalg.generic {indexing_maps = [#rows3, #row3],
                           iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p_2 : tensor<2x8x32xf32>) outs(%p_zero_2 : tensor<2x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %p_sq_2 = linalg.generic {indexing_maps = [#rows3, #row3, #row3],
                          iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p_2, %p_sum_2 : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%p_zero_2 : tensor<2x8xf32>) {
  ^bb0(%v: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %v, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %p_ln_init_2 = tensor.empty() : tensor<2x8x32xf32>
  %p_ln_2 = linalg.generic {indexing_maps = [#rows3, #row3, #row3, #feature3, #feature3, #rows3],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p_2, %p_sum_2, %p_sq_2, %ln1_gamma_2, %ln1_beta_2
          : tensor<2x8x32xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%p_ln_init_2 : tensor<2x8x32xf32>) {
  ^bb0(%v: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %v, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x8x32xf32>
  %p_ln2_2 = tensor.collapse_shape %p_ln_2 [[0, 1], [2]]
      : tensor<2x8x32xf32> into tensor<16x32xf32>
  %p_rows_2 = tensor.empty() : tensor<16x32xf32>
  %p_mm_zero_2 = linalg.fill ins(%zero : f32) outs(%p_rows_2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p_qmm_2 = linalg.matmul ins(%p_ln2_2, %wq_2 : tensor<16x32xf32>, tensor<32x32xf32>)
      outs(%p_mm_zero_2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p_q_2 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%p_qmm_2, %bq_2 : tensor<16x32xf32>, tensor<32xf32>) outs(%p_rows_2 : tensor<16x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %p_q4_2 = tensor.expand_shape %p_q_2 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16]
      : tensor<16x32xf32> into tensor<2x8x2x16xf32>
  %p_heads_init_2 = tensor.empty() : tensor<2x2x8x16xf32>
  %q_vip_2 = linalg.transpose ins(%p_q4_2 : tensor<2x8x2x16xf32>)
      outs(%p_heads_init_2 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %j_2 = attic.tree_select %tree_2, %q_vip_2, %wk_2, %bk_2, %ln1_gamma_2, %ln1_beta_2
      {budgets = [4, 1], heads = 2 : i64, scale = 0.25 : f32}
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x2x8x16xf32>,
        tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
      -> tensor<2x43xi64>

  %sx_2, %bias_2 = attic.vcc_compress %p_2, %tree_2, %j_2
      : tensor<2x8x32xf32>, !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>
      -> tensor<2x51x32xf32>, tensor<2x51xf32>

  %x2_2 = tensor.collapse_shape %sx_2 [[0, 1], [2]] : tensor<2x51x32xf32> into tensor<102x32xf32>
  %r_init_2 = tensor.empty() : tensor<102xf32>
  %r_zero_2 = linalg.fill ins(%zero : f32) outs(%r_init_2 : tensor<102xf32>) -> tensor<102xf32>
  %rows_init_2 = tensor.empty() : tensor<102x32xf32>
  %mm_zero_2 = linalg.fill ins(%zero : f32) outs(%rows_init_2 : tensor<102x32xf32>) -> tensor<102x32xf32>

  %sum1_2 = linalg.generic {indexing_maps = [#rows, #row],
                          iterator_types = ["parallel", "reduction"]}
      ins(%x2_2 : tensor<102x32xf32>) outs(%r_zero_2 : tensor<102xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %sq1_2 = linalg.generic {indexing_maps = [#rows, #row, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x2_2, %sum1_2 : tensor<102x32xf32>, tensor<102xf32>) outs(%r_zero_2 : tensor<102xf32>) {
  ^bb0(%v: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %v, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %ln1_2 = linalg.generic {indexing_maps = [#rows, #row, #row, #feature, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x2_2, %sum1_2, %sq1_2, %ln1_gamma_2, %ln1_beta_2
          : tensor<102x32xf32>, tensor<102xf32>, tensor<102xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%rows_init_2 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %v, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %qmm_2 = linalg.matmul ins(%ln1_2, %wq_2 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_2 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %q_2 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%qmm_2, %bq_2 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_2 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %kmm_2 = linalg.matmul ins(%ln1_2, %wk_2 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_2 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %k_2 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%kmm_2, %bk_2 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_2 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %vmm_2 = linalg.matmul ins(%ln1_2, %wv_2 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_2 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %val_2 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%vmm_2, %bv_2 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_2 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %heads_init_2 = tensor.empty() : tensor<2x2x51x16xf32>
  %q4_2 = tensor.expand_shape %q_2 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %qh_2 = linalg.transpose ins(%q4_2 : tensor<2x51x2x16xf32>)
      outs(%heads_init_2 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]
  %k4_2 = tensor.expand_shape %k_2 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %kh_2 = linalg.transpose ins(%k4_2 : tensor<2x51x2x16xf32>)
      outs(%heads_init_2 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]
  %v4_2 = tensor.expand_shape %val_2 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %vh_2 = linalg.transpose ins(%v4_2 : tensor<2x51x2x16xf32>)
      outs(%heads_init_2 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]

  %oh_2 = attic.attention %qh_2, %kh_2, %vh_2 bias(%bias_2 : tensor<2x51xf32>)
      : tensor<2x2x51x16xf32>, tensor<2x2x51x16xf32>, tensor<2x2x51x16xf32>
      -> tensor<2x2x51x16xf32>

  %merged_init_2 = tensor.empty() : tensor<2x51x2x16xf32>
  %o4_2 = linalg.transpose ins(%oh_2 : tensor<2x2x51x16xf32>)
      outs(%merged_init_2 : tensor<2x51x2x16xf32>) permutation = [0, 2, 1, 3]
  %o_2 = tensor.collapse_shape %o4_2 [[0, 1], [2, 3]] : tensor<2x51x2x16xf32> into tensor<102x32xf32>

  %omm_2 = linalg.matmul ins(%o_2, %wo_2 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_2 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %h_2 = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x2_2, %omm_2, %bo_2 : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
      outs(%rows_init_2 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32, %out: f32):
    %mb = arith.addf %m, %b : f32
    %y = arith.addf %a, %mb : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %sum2_2 = linalg.generic {indexing_maps = [#rows, #row],
                          iterator_types = ["parallel", "reduction"]}
      ins(%h_2 : tensor<102x32xf32>) outs(%r_zero_2 : tensor<102xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %sq2_2 = linalg.generic {indexing_maps = [#rows, #row, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%h_2, %sum2_2 : tensor<102x32xf32>, tensor<102xf32>) outs(%r_zero_2 : tensor<102xf32>) {
  ^bb0(%a: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %a, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %ln2_2 = linalg.generic {indexing_maps = [#rows, #row, #row, #feature, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%h_2, %sum2_2, %sq2_2, %ln2_gamma_2, %ln2_beta_2
          : tensor<102x32xf32>, tensor<102xf32>, tensor<102xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%rows_init_2 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %a, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %ffn_init_2 = tensor.empty() : tensor<102x64xf32>
  %ffn_zero_2 = linalg.fill ins(%zero : f32) outs(%ffn_init_2 : tensor<102x64xf32>) -> tensor<102x64xf32>
  %f1mm_2 = linalg.matmul ins(%ln2_2, %w1_2 : tensor<102x32xf32>, tensor<32x64xf32>)
      outs(%ffn_zero_2 : tensor<102x64xf32>) -> tensor<102x64xf32>
  %f1_2 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                        iterator_types = ["parallel", "parallel"]}
      ins(%f1mm_2, %b1_2 : tensor<102x64xf32>, tensor<64xf32>) outs(%ffn_init_2 : tensor<102x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %pre = arith.addf %a, %b : f32
    %relu = arith.maximumf %pre, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<102x64xf32>
  %f2mm_2 = linalg.matmul ins(%f1_2, %w2_2 : tensor<102x64xf32>, tensor<64x32xf32>)
      outs(%mm_zero_2 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %y2_2 = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h_2, %f2mm_2, %b2_2 : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
      outs(%rows_init_2 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32, %out: f32):
    %mb = arith.addf %m, %b : f32
    %y = arith.addf %a, %mb : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %layer_out_2 = tensor.expand_shape %y2_2 [[0, 1], [2]] output_shape [2, 51, 32]
      : tensor<102x32xf32> into tensor<2x51x32xf32>

  %p_3 = tensor.extract_slice %layer_out_2[0, 0, 0] [2, 8, 32] [1, 1, 1]
      : tensor<2x51x32xf32> to tensor<2x8x32xf32>
  %y_j_2 = tensor.extract_slice %layer_out_2[0, 8, 0] [2, 43, 32] [1, 1, 1]
      : tensor<2x51x32xf32> to tensor<2x43x32xf32>
  %tree_3 = attic.tree_update %tree_2, %j_2, %y_j_2
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>, tensor<2x43x32xf32>
      -> !attic.tree<2x120x32xf32, fanouts = [8, 15]>

  //===--------------------------------------------------------------------===//
  // Layer 3: slice 2 of the weights; select J on tree_3 with the
  // queries of p_3, compress, the transformer layer, write back: p_4
  // and tree_4.
  //===--------------------------------------------------------------------===//
  %ln1_gamma_3 = tensor.extract_slice %ln1_gamma[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln1_beta_3 = tensor.extract_slice %ln1_beta[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wq_3 = tensor.extract_slice %wq[2, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bq_3 = tensor.extract_slice %bq[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wk_3 = tensor.extract_slice %wk[2, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bk_3 = tensor.extract_slice %bk[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wv_3 = tensor.extract_slice %wv[2, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bv_3 = tensor.extract_slice %bv[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %wo_3 = tensor.extract_slice %wo[2, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x32xf32>
  %bo_3 = tensor.extract_slice %bo[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln2_gamma_3 = tensor.extract_slice %ln2_gamma[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %ln2_beta_3 = tensor.extract_slice %ln2_beta[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %w1_3 = tensor.extract_slice %w1[2, 0, 0] [1, 32, 64] [1, 1, 1] : tensor<3x32x64xf32> to tensor<32x64xf32>
  %b1_3 = tensor.extract_slice %b1[2, 0] [1, 64] [1, 1] : tensor<3x64xf32> to tensor<64xf32>
  %w2_3 = tensor.extract_slice %w2[2, 0, 0] [1, 64, 32] [1, 1, 1] : tensor<3x64x32xf32> to tensor<64x32xf32>
  %b2_3 = tensor.extract_slice %b2[2, 0] [1, 32] [1, 1] : tensor<3x32xf32> to tensor<32xf32>
  %p_init_3 = tensor.empty() : tensor<2x8xf32>
  %p_zero_3 = linalg.fill ins(%zero : f32) outs(%p_init_3 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %p_sum_3 = linalg.generic {indexing_maps = [#rows3, #row3],
                           iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p_3 : tensor<2x8x32xf32>) outs(%p_zero_3 : tensor<2x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %p_sq_3 = linalg.generic {indexing_maps = [#rows3, #row3, #row3],
                          iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p_3, %p_sum_3 : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%p_zero_3 : tensor<2x8xf32>) {
  ^bb0(%v: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %v, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %p_ln_init_3 = tensor.empty() : tensor<2x8x32xf32>
  %p_ln_3 = linalg.generic {indexing_maps = [#rows3, #row3, #row3, #feature3, #feature3, #rows3],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p_3, %p_sum_3, %p_sq_3, %ln1_gamma_3, %ln1_beta_3
          : tensor<2x8x32xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%p_ln_init_3 : tensor<2x8x32xf32>) {
  ^bb0(%v: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %v, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x8x32xf32>
  %p_ln2_3 = tensor.collapse_shape %p_ln_3 [[0, 1], [2]]
      : tensor<2x8x32xf32> into tensor<16x32xf32>
  %p_rows_3 = tensor.empty() : tensor<16x32xf32>
  %p_mm_zero_3 = linalg.fill ins(%zero : f32) outs(%p_rows_3 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p_qmm_3 = linalg.matmul ins(%p_ln2_3, %wq_3 : tensor<16x32xf32>, tensor<32x32xf32>)
      outs(%p_mm_zero_3 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p_q_3 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%p_qmm_3, %bq_3 : tensor<16x32xf32>, tensor<32xf32>) outs(%p_rows_3 : tensor<16x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %p_q4_3 = tensor.expand_shape %p_q_3 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16]
      : tensor<16x32xf32> into tensor<2x8x2x16xf32>
  %p_heads_init_3 = tensor.empty() : tensor<2x2x8x16xf32>
  %q_vip_3 = linalg.transpose ins(%p_q4_3 : tensor<2x8x2x16xf32>)
      outs(%p_heads_init_3 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %j_3 = attic.tree_select %tree_3, %q_vip_3, %wk_3, %bk_3, %ln1_gamma_3, %ln1_beta_3
      {budgets = [4, 1], heads = 2 : i64, scale = 0.25 : f32}
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x2x8x16xf32>,
        tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
      -> tensor<2x43xi64>

  %sx_3, %bias_3 = attic.vcc_compress %p_3, %tree_3, %j_3
      : tensor<2x8x32xf32>, !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>
      -> tensor<2x51x32xf32>, tensor<2x51xf32>

  %x2_3 = tensor.collapse_shape %sx_3 [[0, 1], [2]] : tensor<2x51x32xf32> into tensor<102x32xf32>
  %r_init_3 = tensor.empty() : tensor<102xf32>
  %r_zero_3 = linalg.fill ins(%zero : f32) outs(%r_init_3 : tensor<102xf32>) -> tensor<102xf32>
  %rows_init_3 = tensor.empty() : tensor<102x32xf32>
  %mm_zero_3 = linalg.fill ins(%zero : f32) outs(%rows_init_3 : tensor<102x32xf32>) -> tensor<102x32xf32>

  %sum1_3 = linalg.generic {indexing_maps = [#rows, #row],
                          iterator_types = ["parallel", "reduction"]}
      ins(%x2_3 : tensor<102x32xf32>) outs(%r_zero_3 : tensor<102xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %sq1_3 = linalg.generic {indexing_maps = [#rows, #row, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x2_3, %sum1_3 : tensor<102x32xf32>, tensor<102xf32>) outs(%r_zero_3 : tensor<102xf32>) {
  ^bb0(%v: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %v, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %ln1_3 = linalg.generic {indexing_maps = [#rows, #row, #row, #feature, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x2_3, %sum1_3, %sq1_3, %ln1_gamma_3, %ln1_beta_3
          : tensor<102x32xf32>, tensor<102xf32>, tensor<102xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%rows_init_3 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %v, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %qmm_3 = linalg.matmul ins(%ln1_3, %wq_3 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_3 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %q_3 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%qmm_3, %bq_3 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_3 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %kmm_3 = linalg.matmul ins(%ln1_3, %wk_3 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_3 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %k_3 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%kmm_3, %bk_3 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_3 : tensor<102x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %vmm_3 = linalg.matmul ins(%ln1_3, %wv_3 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_3 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %val_3 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%vmm_3, %bv_3 : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init_3 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %heads_init_3 = tensor.empty() : tensor<2x2x51x16xf32>
  %q4_3 = tensor.expand_shape %q_3 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %qh_3 = linalg.transpose ins(%q4_3 : tensor<2x51x2x16xf32>)
      outs(%heads_init_3 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]
  %k4_3 = tensor.expand_shape %k_3 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %kh_3 = linalg.transpose ins(%k4_3 : tensor<2x51x2x16xf32>)
      outs(%heads_init_3 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]
  %v4_3 = tensor.expand_shape %val_3 [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
      : tensor<102x32xf32> into tensor<2x51x2x16xf32>
  %vh_3 = linalg.transpose ins(%v4_3 : tensor<2x51x2x16xf32>)
      outs(%heads_init_3 : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]

  %oh_3 = attic.attention %qh_3, %kh_3, %vh_3 bias(%bias_3 : tensor<2x51xf32>)
      : tensor<2x2x51x16xf32>, tensor<2x2x51x16xf32>, tensor<2x2x51x16xf32>
      -> tensor<2x2x51x16xf32>

  %merged_init_3 = tensor.empty() : tensor<2x51x2x16xf32>
  %o4_3 = linalg.transpose ins(%oh_3 : tensor<2x2x51x16xf32>)
      outs(%merged_init_3 : tensor<2x51x2x16xf32>) permutation = [0, 2, 1, 3]
  %o_3 = tensor.collapse_shape %o4_3 [[0, 1], [2, 3]] : tensor<2x51x2x16xf32> into tensor<102x32xf32>

  %omm_3 = linalg.matmul ins(%o_3, %wo_3 : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero_3 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %h_3 = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x2_3, %omm_3, %bo_3 : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
      outs(%rows_init_3 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32, %out: f32):
    %mb = arith.addf %m, %b : f32
    %y = arith.addf %a, %mb : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %sum2_3 = linalg.generic {indexing_maps = [#rows, #row],
                          iterator_types = ["parallel", "reduction"]}
      ins(%h_3 : tensor<102x32xf32>) outs(%r_zero_3 : tensor<102xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %sq2_3 = linalg.generic {indexing_maps = [#rows, #row, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%h_3, %sum2_3 : tensor<102x32xf32>, tensor<102xf32>) outs(%r_zero_3 : tensor<102xf32>) {
  ^bb0(%a: f32, %sum: f32, %acc: f32):
    %mean = arith.divf %sum, %dim : f32
    %dev = arith.subf %a, %mean : f32
    %sq = arith.mulf %dev, %dev : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<102xf32>
  %ln2_3 = linalg.generic {indexing_maps = [#rows, #row, #row, #feature, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%h_3, %sum2_3, %sq2_3, %ln2_gamma_3, %ln2_beta_3
          : tensor<102x32xf32>, tensor<102xf32>, tensor<102xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%rows_init_3 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %out: f32):
    %mean = arith.divf %sum, %dim : f32
    %var = arith.divf %sq, %dim : f32
    %var_eps = arith.addf %var, %eps : f32
    %stddev = math.sqrt %var_eps : f32
    %dev = arith.subf %a, %mean : f32
    %norm = arith.divf %dev, %stddev : f32
    %scaled = arith.mulf %norm, %g : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>

  %ffn_init_3 = tensor.empty() : tensor<102x64xf32>
  %ffn_zero_3 = linalg.fill ins(%zero : f32) outs(%ffn_init_3 : tensor<102x64xf32>) -> tensor<102x64xf32>
  %f1mm_3 = linalg.matmul ins(%ln2_3, %w1_3 : tensor<102x32xf32>, tensor<32x64xf32>)
      outs(%ffn_zero_3 : tensor<102x64xf32>) -> tensor<102x64xf32>
  %f1_3 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                        iterator_types = ["parallel", "parallel"]}
      ins(%f1mm_3, %b1_3 : tensor<102x64xf32>, tensor<64xf32>) outs(%ffn_init_3 : tensor<102x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %pre = arith.addf %a, %b : f32
    %relu = arith.maximumf %pre, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<102x64xf32>
  %f2mm_3 = linalg.matmul ins(%f1_3, %w2_3 : tensor<102x64xf32>, tensor<64x32xf32>)
      outs(%mm_zero_3 : tensor<102x32xf32>) -> tensor<102x32xf32>
  %y2_3 = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h_3, %f2mm_3, %b2_3 : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
      outs(%rows_init_3 : tensor<102x32xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32, %out: f32):
    %mb = arith.addf %m, %b : f32
    %y = arith.addf %a, %mb : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %layer_out_3 = tensor.expand_shape %y2_3 [[0, 1], [2]] output_shape [2, 51, 32]
      : tensor<102x32xf32> into tensor<2x51x32xf32>

  %p_4 = tensor.extract_slice %layer_out_3[0, 0, 0] [2, 8, 32] [1, 1, 1]
      : tensor<2x51x32xf32> to tensor<2x8x32xf32>
  %y_j_3 = tensor.extract_slice %layer_out_3[0, 8, 0] [2, 43, 32] [1, 1, 1]
      : tensor<2x51x32xf32> to tensor<2x43x32xf32>
  %tree_4 = attic.tree_update %tree_3, %j_3, %y_j_3
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>, tensor<2x43x32xf32>
      -> !attic.tree<2x120x32xf32, fanouts = [8, 15]>

  //===--------------------------------------------------------------------===//
  // Once per stack: materialize C (padded rows 0), [P; C], original order.
  //===--------------------------------------------------------------------===//
  %c_new = attic.tree_materialize %tree_4
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]> -> tensor<2x120x32xf32>
  // x_new = [P; C].
  %x_new = tensor.concat dim(1) %p_4, %c_new
      : (tensor<2x8x32xf32>, tensor<2x120x32xf32>) -> tensor<2x128x32xf32>
  %result = attic.gather_rows %x_new[%inverse]
      : tensor<2x128x32xf32>, tensor<2x128xi64> -> tensor<2x128x32xf32>
  return %result, %j_1, %j_2, %j_3
      : tensor<2x128x32xf32>, tensor<2x43xi64>, tensor<2x43xi64>, tensor<2x43xi64>
}
