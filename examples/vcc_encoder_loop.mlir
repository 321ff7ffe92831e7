// A VCC encoder written as a loop over its layers: examples/vcc_encoder.mlir
// (three VCC layers on one tree, 858 lines, one copy of the layer per
// layer) with ONE copy of the layer of examples/vcc_layer.mlir, in an
// scf.for whose iterations carry the tree (!attic.tree as an iter_arg),
// the P rows and the J of every layer. Layer l reads slice l of each
// stacked weight argument ([3, d, d] etc.): the number of layers is the
// loop bound and the weights' leading dim, nothing else. attic-expand-vcc
// replaces the tree iter_arg by its component tensors (upstream's 1:N type
// conversion with the scf structural patterns).
//
// The same inputs and outputs as examples/vcc_encoder.mlir, except that
// the J's come back as one [3, B, |J|] tensor; the unit test
// (test/unittests/Execution/VccLayerTest.cpp) checks both against three
// naive VCC layers (eq 7) in a row.
//
// Run it:
//   build/tools/attic-run examples/vcc_encoder_loop.mlir \
//       --entry=vcc_encoder_loop --seed=1 --mask-keep=0.9 \
//       --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5 --check

// Index maps of the row-wise linalg.generic ops on [rows, features].
#rows = affine_map<(i, e) -> (i, e)>
#row = affine_map<(i, e) -> (i)>
#feature = affine_map<(i, e) -> (e)>
// The same on [batch, rows, features].
#rows3 = affine_map<(b, i, e) -> (b, i, e)>
#row3 = affine_map<(b, i, e) -> (b, i)>
#feature3 = affine_map<(b, i, e) -> (e)>

func.func @vcc_encoder_loop(
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
    // The new hidden states in the original order, and J of each layer
    // (layer l's J at [l]).
    -> (tensor<2x128x32xf32>, tensor<3x2x43xi64>) {
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
  %p = tensor.extract_slice %xp[0, 0, 0] [2, 8, 32] [1, 1, 1]
      : tensor<2x128x32xf32> to tensor<2x8x32xf32>
  %c = tensor.extract_slice %xp[0, 8, 0] [2, 120, 32] [1, 1, 1]
      : tensor<2x128x32xf32> to tensor<2x120x32xf32>
  %valid = tensor.extract_slice %keep[0, 8] [2, 120] [1, 1]
      : tensor<2x128xi1> to tensor<2x120xi1>
  %tree = attic.tree_build %c, %valid : tensor<2x120x32xf32>, tensor<2x120xi1>
      -> !attic.tree<2x120x32xf32, fanouts = [8, 15]>

  //===--------------------------------------------------------------------===//
  // The layers: one body in a loop over l, the tree, the P rows and the J's
  // carried from one iteration to the next.
  //===--------------------------------------------------------------------===//
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %layers = arith.constant 3 : index
  %js_init = tensor.empty() : tensor<3x2x43xi64>
  %p_out, %tree_out, %js = scf.for %l = %c0 to %layers step %c1
      iter_args(%p_l = %p, %tree_l = %tree, %js_l = %js_init)
      -> (tensor<2x8x32xf32>, !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<3x2x43xi64>) {
    // Layer l's weights: slice l of each stacked argument.
    %ln1_gamma_l = tensor.extract_slice %ln1_gamma[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>
    %ln1_beta_l = tensor.extract_slice %ln1_beta[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>
    %wq_l = tensor.extract_slice %wq[%l, 0, 0] [1, 32, 32] [1, 1, 1]
        : tensor<3x32x32xf32> to tensor<32x32xf32>
    %bq_l = tensor.extract_slice %bq[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>
    %wk_l = tensor.extract_slice %wk[%l, 0, 0] [1, 32, 32] [1, 1, 1]
        : tensor<3x32x32xf32> to tensor<32x32xf32>
    %bk_l = tensor.extract_slice %bk[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>
    %wv_l = tensor.extract_slice %wv[%l, 0, 0] [1, 32, 32] [1, 1, 1]
        : tensor<3x32x32xf32> to tensor<32x32xf32>
    %bv_l = tensor.extract_slice %bv[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>
    %wo_l = tensor.extract_slice %wo[%l, 0, 0] [1, 32, 32] [1, 1, 1]
        : tensor<3x32x32xf32> to tensor<32x32xf32>
    %bo_l = tensor.extract_slice %bo[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>
    %ln2_gamma_l = tensor.extract_slice %ln2_gamma[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>
    %ln2_beta_l = tensor.extract_slice %ln2_beta[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>
    %w1_l = tensor.extract_slice %w1[%l, 0, 0] [1, 32, 64] [1, 1, 1]
        : tensor<3x32x64xf32> to tensor<32x64xf32>
    %b1_l = tensor.extract_slice %b1[%l, 0] [1, 64] [1, 1]
        : tensor<3x64xf32> to tensor<64xf32>
    %w2_l = tensor.extract_slice %w2[%l, 0, 0] [1, 64, 32] [1, 1, 1]
        : tensor<3x64x32xf32> to tensor<64x32xf32>
    %b2_l = tensor.extract_slice %b2[%l, 0] [1, 32] [1, 1]
        : tensor<3x32xf32> to tensor<32xf32>

    //===--------------------------------------------------------------------===//
    // Select J (Algorithm 1). The scores are the attention of the VIP rows'
    // queries (LN1 and the query projection of this layer) to the candidate
    // nodes' keys (tree_select applies LN1 and the key projection itself).
    //===--------------------------------------------------------------------===//
    // LN1 of the P rows, on [B, n_p, d] (a strided slice of the reordered
    // sequence; collapsing it would need a strided copy): row sums, sums of
    // squared deviations, normalize.
    %p_init = tensor.empty() : tensor<2x8xf32>
    %p_zero = linalg.fill ins(%zero : f32) outs(%p_init : tensor<2x8xf32>) -> tensor<2x8xf32>
    %p_sum = linalg.generic {indexing_maps = [#rows3, #row3],
                             iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%p_l : tensor<2x8x32xf32>) outs(%p_zero : tensor<2x8xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<2x8xf32>
    %p_sq = linalg.generic {indexing_maps = [#rows3, #row3, #row3],
                            iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%p_l, %p_sum : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%p_zero : tensor<2x8xf32>) {
    ^bb0(%v: f32, %sum: f32, %acc: f32):
      %mean = arith.divf %sum, %dim : f32
      %dev = arith.subf %v, %mean : f32
      %sq = arith.mulf %dev, %dev : f32
      %s = arith.addf %acc, %sq : f32
      linalg.yield %s : f32
    } -> tensor<2x8xf32>
    %p_ln_init = tensor.empty() : tensor<2x8x32xf32>
    %p_ln = linalg.generic {indexing_maps = [#rows3, #row3, #row3, #feature3, #feature3, #rows3],
                            iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%p_l, %p_sum, %p_sq, %ln1_gamma_l, %ln1_beta_l
            : tensor<2x8x32xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<32xf32>, tensor<32xf32>)
        outs(%p_ln_init : tensor<2x8x32xf32>) {
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
    %p_ln2 = tensor.collapse_shape %p_ln [[0, 1], [2]]
        : tensor<2x8x32xf32> into tensor<16x32xf32>
    %p_rows = tensor.empty() : tensor<16x32xf32>
    // Queries of the P rows: LN1(P) W_q + b_q, split into heads [B, H, n_p, Dh].
    %p_mm_zero = linalg.fill ins(%zero : f32) outs(%p_rows : tensor<16x32xf32>) -> tensor<16x32xf32>
    %p_qmm = linalg.matmul ins(%p_ln2, %wq_l : tensor<16x32xf32>, tensor<32x32xf32>)
        outs(%p_mm_zero : tensor<16x32xf32>) -> tensor<16x32xf32>
    %p_q = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                           iterator_types = ["parallel", "parallel"]}
        ins(%p_qmm, %bq_l : tensor<16x32xf32>, tensor<32xf32>) outs(%p_rows : tensor<16x32xf32>) {
    ^bb0(%v: f32, %b: f32, %out: f32):
      %y = arith.addf %v, %b : f32
      linalg.yield %y : f32
    } -> tensor<16x32xf32>
    %p_q4 = tensor.expand_shape %p_q [[0, 1], [2, 3]] output_shape [2, 8, 2, 16]
        : tensor<16x32xf32> into tensor<2x8x2x16xf32>
    %p_heads_init = tensor.empty() : tensor<2x2x8x16xf32>
    %q_vip = linalg.transpose ins(%p_q4 : tensor<2x8x2x16xf32>)
        outs(%p_heads_init : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
    %j = attic.tree_select %tree_l, %q_vip, %wk_l, %bk_l, %ln1_gamma_l, %ln1_beta_l
        {budgets = [4, 1], heads = 2 : i64, scale = 0.25 : f32}
        : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x2x8x16xf32>,
          tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
        -> tensor<2x43xi64>

    //===--------------------------------------------------------------------===//
    // Compress: sx = [P; means of J] (r = 51 rows) and the key bias (0 for P,
    // log of the node size for J nodes, -inf for fully padded nodes), which
    // makes attention over a node's mean count like its tokens.
    //===--------------------------------------------------------------------===//
    %sx, %bias = attic.vcc_compress %p_l, %tree_l, %j
        : tensor<2x8x32xf32>, !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>
        -> tensor<2x51x32xf32>, tensor<2x51xf32>

    //===--------------------------------------------------------------------===//
    // The transformer layer on the r rows: ordinary IR, rows collapsed to
    // [B * r, d] = [102, 32] for the row-wise parts and the matmuls.
    //===--------------------------------------------------------------------===//
    %x2 = tensor.collapse_shape %sx [[0, 1], [2]] : tensor<2x51x32xf32> into tensor<102x32xf32>
    %r_init = tensor.empty() : tensor<102xf32>
    %r_zero = linalg.fill ins(%zero : f32) outs(%r_init : tensor<102xf32>) -> tensor<102xf32>
    %rows_init = tensor.empty() : tensor<102x32xf32>
    %mm_zero = linalg.fill ins(%zero : f32) outs(%rows_init : tensor<102x32xf32>) -> tensor<102x32xf32>

    // LN1.
    %sum1 = linalg.generic {indexing_maps = [#rows, #row],
                            iterator_types = ["parallel", "reduction"]}
        ins(%x2 : tensor<102x32xf32>) outs(%r_zero : tensor<102xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<102xf32>
    %sq1 = linalg.generic {indexing_maps = [#rows, #row, #row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%x2, %sum1 : tensor<102x32xf32>, tensor<102xf32>) outs(%r_zero : tensor<102xf32>) {
    ^bb0(%v: f32, %sum: f32, %acc: f32):
      %mean = arith.divf %sum, %dim : f32
      %dev = arith.subf %v, %mean : f32
      %sq = arith.mulf %dev, %dev : f32
      %s = arith.addf %acc, %sq : f32
      linalg.yield %s : f32
    } -> tensor<102xf32>
    %ln1 = linalg.generic {indexing_maps = [#rows, #row, #row, #feature, #feature, #rows],
                           iterator_types = ["parallel", "parallel"]}
        ins(%x2, %sum1, %sq1, %ln1_gamma_l, %ln1_beta_l
            : tensor<102x32xf32>, tensor<102xf32>, tensor<102xf32>, tensor<32xf32>, tensor<32xf32>)
        outs(%rows_init : tensor<102x32xf32>) {
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

    // Q, K, V projections: LN1(x) W + b.
    %qmm = linalg.matmul ins(%ln1, %wq_l : tensor<102x32xf32>, tensor<32x32xf32>)
        outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
    %q = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
        ins(%qmm, %bq_l : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init : tensor<102x32xf32>) {
    ^bb0(%v: f32, %b: f32, %out: f32):
      %y = arith.addf %v, %b : f32
      linalg.yield %y : f32
    } -> tensor<102x32xf32>
    %kmm = linalg.matmul ins(%ln1, %wk_l : tensor<102x32xf32>, tensor<32x32xf32>)
        outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
    %k = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
        ins(%kmm, %bk_l : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init : tensor<102x32xf32>) {
    ^bb0(%v: f32, %b: f32, %out: f32):
      %y = arith.addf %v, %b : f32
      linalg.yield %y : f32
    } -> tensor<102x32xf32>
    %vmm = linalg.matmul ins(%ln1, %wv_l : tensor<102x32xf32>, tensor<32x32xf32>)
        outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
    %val = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
        ins(%vmm, %bv_l : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init : tensor<102x32xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %y = arith.addf %a, %b : f32
      linalg.yield %y : f32
    } -> tensor<102x32xf32>

    // Split heads: [B * r, H * Dh] -> [B, r, H, Dh] -> [B, H, r, Dh].
    %heads_init = tensor.empty() : tensor<2x2x51x16xf32>
    %q4 = tensor.expand_shape %q [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
        : tensor<102x32xf32> into tensor<2x51x2x16xf32>
    %qh = linalg.transpose ins(%q4 : tensor<2x51x2x16xf32>)
        outs(%heads_init : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]
    %k4 = tensor.expand_shape %k [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
        : tensor<102x32xf32> into tensor<2x51x2x16xf32>
    %kh = linalg.transpose ins(%k4 : tensor<2x51x2x16xf32>)
        outs(%heads_init : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]
    %v4 = tensor.expand_shape %val [[0, 1], [2, 3]] output_shape [2, 51, 2, 16]
        : tensor<102x32xf32> into tensor<2x51x2x16xf32>
    %vh = linalg.transpose ins(%v4 : tensor<2x51x2x16xf32>)
        outs(%heads_init : tensor<2x2x51x16xf32>) permutation = [0, 2, 1, 3]

    // Attention over the r rows with the compressed key bias (scale 1/sqrt(16)).
    %oh = attic.attention %qh, %kh, %vh bias(%bias : tensor<2x51xf32>)
        : tensor<2x2x51x16xf32>, tensor<2x2x51x16xf32>, tensor<2x2x51x16xf32>
        -> tensor<2x2x51x16xf32>

    // Merge heads: [B, H, r, Dh] -> [B, r, H, Dh] -> [B * r, d].
    %merged_init = tensor.empty() : tensor<2x51x2x16xf32>
    %o4 = linalg.transpose ins(%oh : tensor<2x2x51x16xf32>)
        outs(%merged_init : tensor<2x51x2x16xf32>) permutation = [0, 2, 1, 3]
    %o = tensor.collapse_shape %o4 [[0, 1], [2, 3]] : tensor<2x51x2x16xf32> into tensor<102x32xf32>

    // Output projection and residual: h = x + o W_o + b_o.
    %omm = linalg.matmul ins(%o, %wo_l : tensor<102x32xf32>, tensor<32x32xf32>)
        outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
    %h = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x2, %omm, %bo_l : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
        outs(%rows_init : tensor<102x32xf32>) {
    ^bb0(%a: f32, %m: f32, %b: f32, %out: f32):
      %mb = arith.addf %m, %b : f32
      %y = arith.addf %a, %mb : f32
      linalg.yield %y : f32
    } -> tensor<102x32xf32>

    // LN2.
    %sum2 = linalg.generic {indexing_maps = [#rows, #row],
                            iterator_types = ["parallel", "reduction"]}
        ins(%h : tensor<102x32xf32>) outs(%r_zero : tensor<102xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %acc, %a : f32
      linalg.yield %s : f32
    } -> tensor<102xf32>
    %sq2 = linalg.generic {indexing_maps = [#rows, #row, #row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%h, %sum2 : tensor<102x32xf32>, tensor<102xf32>) outs(%r_zero : tensor<102xf32>) {
    ^bb0(%a: f32, %sum: f32, %acc: f32):
      %mean = arith.divf %sum, %dim : f32
      %dev = arith.subf %a, %mean : f32
      %sq = arith.mulf %dev, %dev : f32
      %s = arith.addf %acc, %sq : f32
      linalg.yield %s : f32
    } -> tensor<102xf32>
    %ln2 = linalg.generic {indexing_maps = [#rows, #row, #row, #feature, #feature, #rows],
                           iterator_types = ["parallel", "parallel"]}
        ins(%h, %sum2, %sq2, %ln2_gamma_l, %ln2_beta_l
            : tensor<102x32xf32>, tensor<102xf32>, tensor<102xf32>, tensor<32xf32>, tensor<32xf32>)
        outs(%rows_init : tensor<102x32xf32>) {
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

    // FFN and residual: y = h + relu(LN2(h) W_1 + b_1) W_2 + b_2.
    %ffn_init = tensor.empty() : tensor<102x64xf32>
    %ffn_zero = linalg.fill ins(%zero : f32) outs(%ffn_init : tensor<102x64xf32>) -> tensor<102x64xf32>
    %f1mm = linalg.matmul ins(%ln2, %w1_l : tensor<102x32xf32>, tensor<32x64xf32>)
        outs(%ffn_zero : tensor<102x64xf32>) -> tensor<102x64xf32>
    %f1 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                          iterator_types = ["parallel", "parallel"]}
        ins(%f1mm, %b1_l : tensor<102x64xf32>, tensor<64xf32>) outs(%ffn_init : tensor<102x64xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %pre = arith.addf %a, %b : f32
      %relu = arith.maximumf %pre, %zero : f32
      linalg.yield %relu : f32
    } -> tensor<102x64xf32>
    %f2mm = linalg.matmul ins(%f1, %w2_l : tensor<102x64xf32>, tensor<64x32xf32>)
        outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
    %y2 = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                          iterator_types = ["parallel", "parallel"]}
        ins(%h, %f2mm, %b2_l : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
        outs(%rows_init : tensor<102x32xf32>) {
    ^bb0(%a: f32, %m: f32, %b: f32, %out: f32):
      %mb = arith.addf %m, %b : f32
      %y = arith.addf %a, %mb : f32
      linalg.yield %y : f32
    } -> tensor<102x32xf32>
    %layer_out = tensor.expand_shape %y2 [[0, 1], [2]] output_shape [2, 51, 32]
        : tensor<102x32xf32> into tensor<2x51x32xf32>

    //===--------------------------------------------------------------------===//
    // Write back: the first n_p rows are the new P (exact), the other |J| the
    // new means of the J nodes (Algorithm 2 moves every token of a node by
    // its row minus the node's old mean).
    //===--------------------------------------------------------------------===//
    %p_new = tensor.extract_slice %layer_out[0, 0, 0] [2, 8, 32] [1, 1, 1]
        : tensor<2x51x32xf32> to tensor<2x8x32xf32>
    %y_j = tensor.extract_slice %layer_out[0, 8, 0] [2, 43, 32] [1, 1, 1]
        : tensor<2x51x32xf32> to tensor<2x43x32xf32>
    %tree_new = attic.tree_update %tree_l, %j, %y_j
        : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>, tensor<2x43x32xf32>
        -> !attic.tree<2x120x32xf32, fanouts = [8, 15]>

    %js_next = tensor.insert_slice %j into %js_l[%l, 0, 0] [1, 2, 43] [1, 1, 1]
        : tensor<2x43xi64> into tensor<3x2x43xi64>
    scf.yield %p_new, %tree_new, %js_next
        : tensor<2x8x32xf32>, !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<3x2x43xi64>
  }

  //===--------------------------------------------------------------------===//
  // Once per stack: materialize C (padded rows 0), [P; C], original order.
  //===--------------------------------------------------------------------===//
  %c_new = attic.tree_materialize %tree_out
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]> -> tensor<2x120x32xf32>
  %x_new = tensor.concat dim(1) %p_out, %c_new
      : (tensor<2x8x32xf32>, tensor<2x120x32xf32>) -> tensor<2x128x32xf32>
  %result = attic.gather_rows %x_new[%inverse]
      : tensor<2x128x32xf32>, tensor<2x128xi64> -> tensor<2x128x32xf32>
  return %result, %js : tensor<2x128x32xf32>, tensor<3x2x43xi64>
}
