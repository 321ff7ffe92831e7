// One VCC layer exactly as the VCC authors' VccEncoderLayer (mlpen/VCC,
// src/roberta/models/vcc.py) computes it in evaluation mode: the layer of
// examples/vcc_layer.mlir with exact GELU and the authors' selection votes.
//
// The authors' layer, on the rows x = [fine tokens; block means; VIP rows]
// (row order is irrelevant: attention is permutation-equivariant and every
// other step is row-wise):
//   a = dense(MHA(LN(x), key bias))                    WeightedAttention
//   y = x + (a + FFN(x + a)) * state_scores             VccEncoderLayer.encode
//   FFN(h) = Linear2(GELU(Linear1(LN2(h))))             nn.GELU(): exact, erf
// with state_scores = 1 + s - s.detach() = 1 in the forward pass, so
//   y = h + W_2 GELU(LN2(h) W_1 + b_1) + b_2,  h = x + a
// which is attic::ref::vcc::transformerLayer with Activation::Gelu. The
// block rows' updates reach their tokens through the authors' difference
// cache (fine = new block mean - (old mean - old token)): Algorithm 2's
// delta update here (attic.tree_update). Selection (selector.py): the
// attention probabilities of the VIP rows to the block means with this
// layer's LN, W_q, W_k, averaged over heads, multiplied by the importance
// mask and averaged over the n_p rows; the blocks with the highest averages
// are split. `vote_mask` on attic.tree_select is that importance mask:
// spare P rows (fewer VIP tokens than n_p) do not vote.
//
// The authors' epsilons are attributes here: `mean_eps = 1e-4` on
// tree_build and tree_update (a block mean is sum / (count + 1e-4), their
// to_coarse) and `bias_eps = 1e-4` on vcc_compress (a row's key bias is
// log(num_dups + 1e-4); their log(state_score + 1e-4) is the same for
// every key and cancels in the softmax). What remains different is exact
// in f32 and float64: padded keys get -inf (authors: -1000, exp(-1000) =
// 0), and the logits are scaled by Dh^(-1/2) (authors: q and k by
// Dh^(-1/4) each). test/unittests/Reference/VccTest.cpp
// (AuthorsLayerEqualsTheReferenceWithTheirEpsilons) writes the authors'
// layer out in their terms and finds it equal to attic's reference with
// these epsilons to 2e-15 in float64.
// Weights are [in][out]: nn.Linear's `weight` transposed.
//
// Shapes as in examples/vcc_layer.mlir: B = 2, n = 128, d = 32, n_p = 8
// VIP slots, fanouts [8, 15] (the authors' block_size 8), budgets [4, 1]
// (num_fine_blocks 4), H = 2 heads, FFN width 64.
//
// Run it:
//   build/tools/attic-run examples/vcc_roberta_layer.mlir \
//       --entry=vcc_roberta_layer --seed=1 --mask-keep=0.9 \
//       --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5 --check
// test/unittests/Execution/VccLayerTest.cpp (VccRobertaLayerExample)
// checks it against the float64 reference (buildTree, assemble, updateTree
// with the same epsilons, transformerLayer with GELU, J from selectJ with
// the importance votes), with sequences of fewer VIP tokens than n_p.

// Index maps of the row-wise linalg.generic ops on [rows, features].
#rows = affine_map<(i, e) -> (i, e)>
#row = affine_map<(i, e) -> (i)>
#feature = affine_map<(i, e) -> (e)>
// The same on [batch, rows, features].
#rows3 = affine_map<(b, i, e) -> (b, i, e)>
#row3 = affine_map<(b, i, e) -> (b, i)>
#feature3 = affine_map<(b, i, e) -> (e)>

func.func @vcc_roberta_layer(
    %x: tensor<2x128x32xf32>,     // hidden states, original order
    %vip: tensor<2x128xi1>,       // VIP tokens (at most 8 per sequence)
    %mask: tensor<2x128xi1>,      // padding mask, true = real token
    // The layer's weights, as in attic::ref::vcc::LayerWeights.
    %ln1_gamma: tensor<32xf32>, %ln1_beta: tensor<32xf32>,
    %wq: tensor<32x32xf32>, %bq: tensor<32xf32>,
    %wk: tensor<32x32xf32>, %bk: tensor<32xf32>,
    %wv: tensor<32x32xf32>, %bv: tensor<32xf32>,
    %wo: tensor<32x32xf32>, %bo: tensor<32xf32>,
    %ln2_gamma: tensor<32xf32>, %ln2_beta: tensor<32xf32>,
    %w1: tensor<32x64xf32>, %b1: tensor<64xf32>,
    %w2: tensor<64x32xf32>, %b2: tensor<32xf32>)
    // The new hidden states in the original order, and J (global node ids:
    // tokens 0..119, blocks 120..134, root 135).
    -> (tensor<2x128x32xf32>, tensor<2x43xi64>) {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %dim = arith.constant 32.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %inv_sqrt2 = arith.constant 0.707106781186547524 : f32

  //===--------------------------------------------------------------------===//
  // Once per stack of layers: reorder into [P; C] and build the tree T(C).
  //===--------------------------------------------------------------------===//
  %perm, %inverse = attic.vip_order %vip {num_vip = 8 : i64}
      : tensor<2x128xi1> -> tensor<2x128xi64>, tensor<2x128xi64>
  %xp = attic.gather_rows %x[%perm]
      : tensor<2x128x32xf32>, tensor<2x128xi64> -> tensor<2x128x32xf32>
  %keep = attic.gather_rows %mask[%perm]
      : tensor<2x128xi1>, tensor<2x128xi64> -> tensor<2x128xi1>
  // The importance mask in [P; C] order; its P part (true for the VIP
  // tokens, false for spare P slots) weights the selection votes.
  %vip_p = attic.gather_rows %vip[%perm]
      : tensor<2x128xi1>, tensor<2x128xi64> -> tensor<2x128xi1>
  %votes = tensor.extract_slice %vip_p[0, 0] [2, 8] [1, 1]
      : tensor<2x128xi1> to tensor<2x8xi1>
  %p = tensor.extract_slice %xp[0, 0, 0] [2, 8, 32] [1, 1, 1]
      : tensor<2x128x32xf32> to tensor<2x8x32xf32>
  %c = tensor.extract_slice %xp[0, 8, 0] [2, 120, 32] [1, 1, 1]
      : tensor<2x128x32xf32> to tensor<2x120x32xf32>
  %valid = tensor.extract_slice %keep[0, 8] [2, 120] [1, 1]
      : tensor<2x128xi1> to tensor<2x120xi1>
  %tree = attic.tree_build %c, %valid {mean_eps = 1.0e-4 : f32} : tensor<2x120x32xf32>, tensor<2x120xi1>
      -> !attic.tree<2x120x32xf32, fanouts = [8, 15]>

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
      ins(%p : tensor<2x8x32xf32>) outs(%p_zero : tensor<2x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %p_sq = linalg.generic {indexing_maps = [#rows3, #row3, #row3],
                          iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %p_sum : tensor<2x8x32xf32>, tensor<2x8xf32>) outs(%p_zero : tensor<2x8xf32>) {
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
      ins(%p, %p_sum, %p_sq, %ln1_gamma, %ln1_beta
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
  %p_qmm = linalg.matmul ins(%p_ln2, %wq : tensor<16x32xf32>, tensor<32x32xf32>)
      outs(%p_mm_zero : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p_q = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%p_qmm, %bq : tensor<16x32xf32>, tensor<32xf32>) outs(%p_rows : tensor<16x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %p_q4 = tensor.expand_shape %p_q [[0, 1], [2, 3]] output_shape [2, 8, 2, 16]
      : tensor<16x32xf32> into tensor<2x8x2x16xf32>
  %p_heads_init = tensor.empty() : tensor<2x2x8x16xf32>
  %q_vip = linalg.transpose ins(%p_q4 : tensor<2x8x2x16xf32>)
      outs(%p_heads_init : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %j = attic.tree_select %tree, %q_vip, %wk, %bk, %ln1_gamma, %ln1_beta
      vote_mask(%votes : tensor<2x8xi1>) {budgets = [4, 1], heads = 2 : i64, scale = 0.25 : f32}
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x2x8x16xf32>,
        tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
      -> tensor<2x43xi64>

  //===--------------------------------------------------------------------===//
  // Compress: sx = [P; means of J] (r = 51 rows) and the key bias (0 for P,
  // log of the node size for J nodes, -inf for fully padded nodes), which
  // makes attention over a node's mean count like its tokens.
  //===--------------------------------------------------------------------===//
  %sx, %bias = attic.vcc_compress %p, %tree, %j {bias_eps = 1.0e-4 : f32}
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
      ins(%x2, %sum1, %sq1, %ln1_gamma, %ln1_beta
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
  %qmm = linalg.matmul ins(%ln1, %wq : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
  %q = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%qmm, %bq : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init : tensor<102x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %kmm = linalg.matmul ins(%ln1, %wk : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
  %k = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%kmm, %bk : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init : tensor<102x32xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %y = arith.addf %v, %b : f32
    linalg.yield %y : f32
  } -> tensor<102x32xf32>
  %vmm = linalg.matmul ins(%ln1, %wv : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
  %val = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%vmm, %bv : tensor<102x32xf32>, tensor<32xf32>) outs(%rows_init : tensor<102x32xf32>) {
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
  %omm = linalg.matmul ins(%o, %wo : tensor<102x32xf32>, tensor<32x32xf32>)
      outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
  %h = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x2, %omm, %bo : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
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
      ins(%h, %sum2, %sq2, %ln2_gamma, %ln2_beta
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

  // FFN and residual: y = h + GELU(LN2(h) W_1 + b_1) W_2 + b_2.
  %ffn_init = tensor.empty() : tensor<102x64xf32>
  %ffn_zero = linalg.fill ins(%zero : f32) outs(%ffn_init : tensor<102x64xf32>) -> tensor<102x64xf32>
  %f1mm = linalg.matmul ins(%ln2, %w1 : tensor<102x32xf32>, tensor<32x64xf32>)
      outs(%ffn_zero : tensor<102x64xf32>) -> tensor<102x64xf32>
  %f1 = linalg.generic {indexing_maps = [#rows, #feature, #rows],
                        iterator_types = ["parallel", "parallel"]}
      ins(%f1mm, %b1 : tensor<102x64xf32>, tensor<64xf32>) outs(%ffn_init : tensor<102x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %pre = arith.addf %a, %b : f32
    // Exact GELU: x/2 (1 + erf(x / sqrt(2))).
    %scaled = arith.mulf %pre, %inv_sqrt2 : f32
    %erf = math.erf %scaled : f32
    %one_erf = arith.addf %erf, %one : f32
    %half_x = arith.mulf %pre, %half : f32
    %gelu = arith.mulf %half_x, %one_erf : f32
    linalg.yield %gelu : f32
  } -> tensor<102x64xf32>
  %f2mm = linalg.matmul ins(%f1, %w2 : tensor<102x64xf32>, tensor<64x32xf32>)
      outs(%mm_zero : tensor<102x32xf32>) -> tensor<102x32xf32>
  %y2 = linalg.generic {indexing_maps = [#rows, #rows, #feature, #rows],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h, %f2mm, %b2 : tensor<102x32xf32>, tensor<102x32xf32>, tensor<32xf32>)
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
  %tree_new = attic.tree_update %tree, %j, %y_j {mean_eps = 1.0e-4 : f32}
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]>, tensor<2x43xi64>, tensor<2x43x32xf32>
      -> !attic.tree<2x120x32xf32, fanouts = [8, 15]>

  //===--------------------------------------------------------------------===//
  // Once per stack: materialize C (padded rows 0), [P; C], original order.
  //===--------------------------------------------------------------------===//
  %c_new = attic.tree_materialize %tree_new
      : !attic.tree<2x120x32xf32, fanouts = [8, 15]> -> tensor<2x120x32xf32>
  // x_new = [P; C].
  %x_new = tensor.concat dim(1) %p_new, %c_new
      : (tensor<2x8x32xf32>, tensor<2x120x32xf32>) -> tensor<2x128x32xf32>
  %result = attic.gather_rows %x_new[%inverse]
      : tensor<2x128x32xf32>, tensor<2x128xi64> -> tensor<2x128x32xf32>
  return %result, %j : tensor<2x128x32xf32>, tensor<2x43xi64>
}
