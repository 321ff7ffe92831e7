//===- VccEncoder.cpp - a VCC encoder built from a few numbers ------------===//
//
// See include/attic/Builders/VccEncoder.h. The function is built in the
// order of examples/vcc_encoder_loop.mlir: reorder and build the tree once;
// per layer (an scf.for) select J with this layer's LN1 and projections,
// compress, run the transformer layer on the n_p + |J| rows, write P and
// the J means back; then materialize and restore the order. Every
// row-wise step is a linalg.generic on [rows, features] (LN as sums, sums
// of squared deviations, normalize; bias adds and the activation fused
// into one generic after each matmul).
//
//===----------------------------------------------------------------------===//

#include "attic/Builders/VccEncoder.h"
#include "attic/Dialect/Attic/AtticDialect.h"

#include "../Transforms/TensorBuilders.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Verifier.h"

#include <cmath>

using namespace mlir;
using namespace attic::detail;

std::string attic::checkVccEncoderSpec(const VccEncoderSpec &s) {
  auto positive = [](int64_t v) { return v > 0 && v <= (int64_t(1) << 20); };
  if (!positive(s.batch) || !positive(s.tokens) || !positive(s.dim) ||
      !positive(s.heads) || !positive(s.ffnDim) || !positive(s.layers))
    return "batch, tokens, dim, heads, ffn-dim and layers must be in "
           "[1, 2^20]";
  if (s.dim % s.heads)
    return "heads (" + std::to_string(s.heads) + ") must divide dim (" +
           std::to_string(s.dim) + ")";
  // attic's ops take at most 2^40 elements a tensor (a larger model was
  // built, and its verifier blamed the builder: an audit). Each factor is
  // at most 2^20, so the products fit in int64.
  const int64_t limit = int64_t(1) << 40;
  int64_t wide = std::max(s.dim, s.ffnDim);
  if (s.batch * s.tokens * wide > limit)
    return "batch * tokens * max(dim, ffn-dim) must be at most 2^40 (the "
           "elements of the activations), got " +
           std::to_string(s.batch * s.tokens * wide);
  if (s.layers * s.dim * wide > limit)
    return "layers * dim * max(dim, ffn-dim) must be at most 2^40 (the "
           "elements of the stacked weights), got " +
           std::to_string(s.layers * s.dim * wide);
  if (s.numVip < 1 || s.numVip >= s.tokens)
    return "num-vip must be in [1, tokens - 1], got " +
           std::to_string(s.numVip);
  if (s.fanouts.empty() || s.fanouts.size() != s.budgets.size())
    return "fanouts and budgets need one entry per tree level (got " +
           std::to_string(s.fanouts.size()) + " and " +
           std::to_string(s.budgets.size()) + ")";
  // The tree holds the tokens - num-vip others (the bound was "[2,
  // tokens]" before 2026-12-02, which no fanout can meet when one token is
  // left; an audit).
  const int64_t others = s.tokens - s.numVip;
  if (others < 2)
    return "tokens - num-vip (" + std::to_string(others) +
           ") must be at least 2: the tree holds the tokens that are not "
           "VIP, and each fanout is at least 2";
  int64_t product = 1;
  for (auto [level, f] : llvm::enumerate(s.fanouts)) {
    if (f < 2 || f > others)
      return "every fanout must be in [2, tokens - num-vip] = [2, " +
             std::to_string(others) + "], got " + std::to_string(f);
    product *= f;
    // Stopped before it can overflow (f <= tokens <= 2^20).
    if (product > others)
      return std::string("the product of the fanouts (") +
             (level + 1 < s.fanouts.size() ? "at least " : "") +
             std::to_string(product) + ") must be tokens - num-vip (" +
             std::to_string(others) + ")";
  }
  if (product != s.tokens - s.numVip)
    return "the product of the fanouts (" + std::to_string(product) +
           ") must be tokens - num-vip (" +
           std::to_string(s.tokens - s.numVip) + ")";
  // h_L <= 1 and h_j <= f_{j+1} h_{j+1}: tree_select's rule (its verifier
  // says it again with the op's words).
  int64_t levels = int64_t(s.fanouts.size());
  if (s.budgets.back() < 0 || s.budgets.back() > 1)
    return "the last budget (the root's) must be 0 or 1";
  for (int64_t j = levels - 2; j >= 0; --j)
    if (s.budgets[j] < 0 || s.budgets[j] > s.fanouts[j + 1] * s.budgets[j + 1])
      return "budget " + std::to_string(j) + " (" +
             std::to_string(s.budgets[j]) +
             ") must be in [0, fanout * budget of the level above]";
  for (double eps : {s.lnEps, s.meanEps, s.biasEps})
    if (!std::isfinite(eps) || eps < 0 || eps > 1)
      return "the epsilons must be in [0, 1]";
  // Positive as the f32 constant the model computes with, too: 1e-50 was
  // accepted and became 0, and padding rows' LayerNorm gave NaN (a
  // 2026-11-30 audit).
  if (float(s.lnEps) <= 0)
    return "ln-eps must be positive, and at least the smallest f32 "
           "(1.4e-45): the model computes in f32";
  return "";
}

namespace {

/// The row-wise pieces of a layer, on [rows, features] or
/// [batch, rows, features] tensors of f32.
struct LayerEmitter {
  ImplicitLocOpBuilder &b;
  const attic::VccEncoderSpec &s;
  Value zero, eps, dimF;

  /// linalg.generic over `out`'s shape: inputs indexed by the identity or,
  /// for each `broadcast` entry, by the leading dims (a per-row value) or
  /// the last dim (a per-feature value); `reduce` makes the last dim a
  /// reduction into `out` of one rank less.
  enum Access { Full, Row, Feature };
  Value generic(ArrayRef<std::pair<Value, Access>> inputs, Value out,
                bool reduce,
                function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
    auto outType = cast<RankedTensorType>(out.getType());
    int64_t rank = outType.getRank() + (reduce ? 1 : 0);
    MLIRContext *ctx = b.getContext();
    auto full = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<AffineExpr> leading;
    for (int64_t d = 0; d + 1 < rank; ++d)
      leading.push_back(getAffineDimExpr(d, ctx));
    auto rows = AffineMap::get(rank, 0, leading, ctx);
    auto feature = AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx));
    SmallVector<AffineMap> maps;
    SmallVector<Value> values;
    for (auto [value, access] : inputs) {
      values.push_back(value);
      maps.push_back(access == Full ? full : access == Row ? rows : feature);
    }
    maps.push_back(reduce ? rows : full);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    if (reduce)
      iterators.back() = utils::IteratorType::reduction;
    return linalg::GenericOp::create(
               b, TypeRange{outType}, values, ValueRange{out}, maps, iterators,
               [&](OpBuilder &nested, Location loc, ValueRange args) {
                 linalg::YieldOp::create(nested, loc, body(nested, loc, args));
               })
        .getResult(0);
  }

  /// LayerNorm over the last dim with the biased variance, as
  /// examples/vcc_encoder_loop.mlir writes it.
  Value layerNorm(Value x, Value gamma, Value beta) {
    auto xType = cast<RankedTensorType>(x.getType());
    ArrayRef<int64_t> shape = xType.getShape();
    Value rowZeros = zeros(b, shape.drop_back());
    Value sum = generic({{x, Full}}, rowZeros, /*reduce=*/true,
                        [&](OpBuilder &nb, Location loc, ValueRange a) {
                          return arith::AddFOp::create(nb, loc, a[1], a[0]);
                        });
    Value sq = generic({{x, Full}, {sum, Row}}, rowZeros, /*reduce=*/true,
                       [&](OpBuilder &nb, Location loc, ValueRange a) -> Value {
                         Value mean =
                             arith::DivFOp::create(nb, loc, a[1], dimF);
                         Value dev = arith::SubFOp::create(nb, loc, a[0], mean);
                         Value sqr = arith::MulFOp::create(nb, loc, dev, dev);
                         return arith::AddFOp::create(nb, loc, a[2], sqr);
                       });
    Value out = tensor::EmptyOp::create(b, shape, b.getF32Type());
    return generic(
        {{x, Full}, {sum, Row}, {sq, Row}, {gamma, Feature}, {beta, Feature}},
        out, /*reduce=*/false,
        [&](OpBuilder &nb, Location loc, ValueRange a) -> Value {
          Value mean = arith::DivFOp::create(nb, loc, a[1], dimF);
          Value var = arith::DivFOp::create(nb, loc, a[2], dimF);
          Value varEps = arith::AddFOp::create(nb, loc, var, eps);
          Value stddev = math::SqrtOp::create(nb, loc, varEps);
          Value dev = arith::SubFOp::create(nb, loc, a[0], mean);
          Value norm = arith::DivFOp::create(nb, loc, dev, stddev);
          Value scaled = arith::MulFOp::create(nb, loc, norm, a[3]);
          return arith::AddFOp::create(nb, loc, scaled, a[4]);
        });
  }

  /// x [R, in] W [in, out] + bias, then the FFN activation when `activate`,
  /// then + residual [R, out] when given.
  Value linear(Value x, Value w, Value bias, bool activate = false,
               Value residual = Value()) {
    Value mm = matmul(b, x, w);
    auto mmType = cast<RankedTensorType>(mm.getType());
    Value out = tensor::EmptyOp::create(b, mmType.getShape(), b.getF32Type());
    SmallVector<std::pair<Value, Access>> inputs;
    if (residual)
      inputs.push_back({residual, Full});
    inputs.push_back({mm, Full});
    inputs.push_back({bias, Feature});
    return generic(
        inputs, out, /*reduce=*/false,
        [&](OpBuilder &nb, Location loc, ValueRange a) -> Value {
          if (residual) {
            Value mb = arith::AddFOp::create(nb, loc, a[1], a[2]);
            return arith::AddFOp::create(nb, loc, a[0], mb);
          }
          Value pre = arith::AddFOp::create(nb, loc, a[0], a[1]);
          if (!activate)
            return pre;
          if (!s.gelu)
            return arith::MaximumFOp::create(nb, loc, pre, zero);
          // Exact GELU: x/2 (1 + erf(x / sqrt(2))).
          auto c = [&](double v) -> Value {
            return arith::ConstantOp::create(nb, loc,
                                             nb.getF32FloatAttr(float(v)));
          };
          Value scaled = arith::MulFOp::create(nb, loc, pre, c(M_SQRT1_2));
          Value erf = math::ErfOp::create(nb, loc, scaled);
          Value onePlus = arith::AddFOp::create(nb, loc, erf, c(1.0));
          Value half = arith::MulFOp::create(nb, loc, pre, c(0.5));
          return arith::MulFOp::create(nb, loc, half, onePlus);
        });
  }

  /// [B * r, H * Dh] -> [B, H, r, Dh].
  Value splitHeads(Value x, int64_t batch, int64_t rows) {
    int64_t dh = s.dim / s.heads;
    Value x4 = reshape(b, x, {batch, rows, s.heads, dh});
    Value out = tensor::EmptyOp::create(
        b, ArrayRef<int64_t>{batch, s.heads, rows, dh}, b.getF32Type());
    return linalg::TransposeOp::create(b, x4, out,
                                       ArrayRef<int64_t>{0, 2, 1, 3})
        .getResult()[0];
  }

  /// [B, H, r, Dh] -> [B * r, H * Dh].
  Value mergeHeads(Value x, int64_t batch, int64_t rows) {
    int64_t dh = s.dim / s.heads;
    Value out = tensor::EmptyOp::create(
        b, ArrayRef<int64_t>{batch, rows, s.heads, dh}, b.getF32Type());
    Value t =
        linalg::TransposeOp::create(b, x, out, ArrayRef<int64_t>{0, 2, 1, 3})
            .getResult()[0];
    return reshape(b, t, {batch * rows, s.dim});
  }
};

/// Slice `l` of a stacked [N, ...] weight, without the layer dim.
Value layerSlice(ImplicitLocOpBuilder &b, Value stacked, Value l) {
  auto type = cast<RankedTensorType>(stacked.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
      strides(rank, b.getIndexAttr(1));
  offsets[0] = l;
  sizes.push_back(b.getIndexAttr(1));
  for (int64_t d = 1; d < rank; ++d)
    sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
  auto resultType = RankedTensorType::get(type.getShape().drop_front(),
                                          type.getElementType());
  return tensor::ExtractSliceOp::create(b, resultType, stacked, offsets, sizes,
                                        strides);
}

/// Rows [first, first + count) of dim 1 of a [B, rows, ...] tensor.
Value rowSlice(ImplicitLocOpBuilder &b, Value x, int64_t first, int64_t count) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> offsets(rank, 0), sizes(type.getShape()),
      strides(rank, 1);
  offsets[1] = first;
  sizes[1] = count;
  MLIRContext *ctx = b.getContext();
  return tensor::ExtractSliceOp::create(
      b, x, getAsIndexOpFoldResult(ctx, offsets),
      getAsIndexOpFoldResult(ctx, sizes), getAsIndexOpFoldResult(ctx, strides));
}

} // namespace

func::FuncOp attic::buildVccEncoder(OpBuilder &builder, Location loc,
                                    StringRef name, const VccEncoderSpec &s,
                                    std::string &error) {
  error = name.empty() ? "the function needs a name" : checkVccEncoderSpec(s);
  if (!error.empty())
    return nullptr;
  MLIRContext *ctx = builder.getContext();
  ImplicitLocOpBuilder b(loc, builder);
  Type f32 = b.getF32Type(), i1 = b.getI1Type(), i64 = b.getI64Type();
  const int64_t B = s.batch, n = s.tokens, d = s.dim, f = s.ffnDim,
                N = s.layers, np = s.numVip, nc = n - np;
  auto treeType = TreeType::get(ctx, B, nc, d, f32, s.fanouts);
  int64_t selected = 0;
  for (int64_t count : treeType.getSelectedNodesPerLevel(s.budgets))
    selected += count;
  const int64_t r = np + selected;

  auto t = [&](ArrayRef<int64_t> shape, Type element) -> RankedTensorType {
    return RankedTensorType::get(shape, element);
  };
  // The stacked weights, in the order of attic::ref::vcc::LayerWeights.
  struct Weight {
    const char *name; // as in examples/vcc_encoder_loop.mlir
    SmallVector<int64_t> shape;
  };
  const Weight weights[] = {
      {"ln1_gamma", {N, d}}, {"ln1_beta", {N, d}},  {"wq", {N, d, d}},
      {"bq", {N, d}},        {"wk", {N, d, d}},     {"bk", {N, d}},
      {"wv", {N, d, d}},     {"bv", {N, d}},        {"wo", {N, d, d}},
      {"bo", {N, d}},        {"ln2_gamma", {N, d}}, {"ln2_beta", {N, d}},
      {"w1", {N, d, f}},     {"b1", {N, f}},        {"w2", {N, f, d}},
      {"b2", {N, d}}};
  SmallVector<Type> inputs = {t({B, n, d}, f32), t({B, n}, i1), t({B, n}, i1)};
  for (const Weight &w : weights)
    inputs.push_back(t(w.shape, f32));
  auto jsType = t({N, B, selected}, i64);
  auto func = func::FuncOp::create(
      b, name, FunctionType::get(ctx, inputs, {t({B, n, d}, f32), jsType}));
  Block *entry = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  Value x = entry->getArgument(0), vip = entry->getArgument(1),
        mask = entry->getArgument(2);
  auto weight = [&](int64_t i) { return entry->getArgument(3 + i); };

  LayerEmitter e{b, s, cF32(b, 0.0), cF32(b, s.lnEps), cF32(b, double(d))};

  // Once per stack: [P; C] order and the tree over C.
  auto order = VipOrderOp::create(b, t({B, n}, i64), t({B, n}, i64), vip,
                                  b.getI64IntegerAttr(np));
  Value xp = GatherRowsOp::create(b, x.getType(), x, order.getPerm());
  Value keep = GatherRowsOp::create(b, mask.getType(), mask, order.getPerm());
  Value p = rowSlice(b, xp, 0, np);
  Value c = rowSlice(b, xp, np, nc);
  Value valid = rowSlice(b, keep, np, nc);
  // The authors' importance mask: which P rows hold VIP tokens.
  Value votes;
  if (s.vipVotes)
    votes = rowSlice(
        b, GatherRowsOp::create(b, vip.getType(), vip, order.getPerm()), 0, np);
  Value tree = TreeBuildOp::create(b, treeType, c, valid,
                                   b.getF32FloatAttr(float(s.meanEps)));

  Value jsInit = tensor::EmptyOp::create(b, jsType.getShape(), i64);
  int64_t dh = d / s.heads;
  float scale = float(1.0 / std::sqrt(double(dh)));
  SmallVector<Value> carried = forLoop(
      b, N, ValueRange{p, tree, jsInit},
      [&](ImplicitLocOpBuilder &lb, Value l,
          ValueRange args) -> SmallVector<Value> {
        LayerEmitter le{lb, s, e.zero, e.eps, e.dimF};
        Value pl = args[0], treeL = args[1], jsL = args[2];
        SmallVector<Value> w;
        for (int64_t i = 0; i < int64_t(std::size(weights)); ++i)
          w.push_back(layerSlice(lb, weight(i), l));
        enum {
          Ln1G,
          Ln1B,
          Wq,
          Bq,
          Wk,
          Bk,
          Wv,
          Bv,
          Wo,
          Bo,
          Ln2G,
          Ln2B,
          W1,
          B1,
          W2,
          B2
        };

        // Select J: the P rows' queries (LN1, W_q) against the candidates.
        Value pLn =
            reshape(lb, le.layerNorm(pl, w[Ln1G], w[Ln1B]), {B * np, d});
        Value qVip = le.splitHeads(le.linear(pLn, w[Wq], w[Bq]), B, np);
        Value j = TreeSelectOp::create(
            lb, t({B, selected}, i64), treeL, qVip, w[Wk], w[Bk], w[Ln1G],
            w[Ln1B], votes, lb.getI64ArrayAttr(s.budgets),
            lb.getI64IntegerAttr(s.heads), lb.getF32FloatAttr(scale));

        // Compress to r rows and the key bias.
        auto compress = VccCompressOp::create(
            lb, t({B, r, d}, f32), t({B, r}, f32), pl, treeL, j,
            lb.getF32FloatAttr(float(s.biasEps)));

        // The transformer layer on [B * r, d].
        Value x2 = reshape(lb, compress.getCompressed(), {B * r, d});
        Value ln1 = le.layerNorm(x2, w[Ln1G], w[Ln1B]);
        Value qh = le.splitHeads(le.linear(ln1, w[Wq], w[Bq]), B, r);
        Value kh = le.splitHeads(le.linear(ln1, w[Wk], w[Bk]), B, r);
        Value vh = le.splitHeads(le.linear(ln1, w[Wv], w[Bv]), B, r);
        Value oh = AttentionOp::create(
            lb, qh.getType(), qh, kh, vh, compress.getKeyBias(),
            /*key_mask=*/Value(), ValueRange{}, ValueRange{}, Value(), Value(),
            Value(), Value(), UnitAttr(), FloatAttr(), LayoutAttrInterface(),
            DenseI64ArrayAttr());
        Value h = le.linear(le.mergeHeads(oh, B, r), w[Wo], w[Bo],
                            /*activate=*/false, /*residual=*/x2);
        Value ln2 = le.layerNorm(h, w[Ln2G], w[Ln2B]);
        Value f1 = le.linear(ln2, w[W1], w[B1], /*activate=*/true);
        Value y = le.linear(f1, w[W2], w[B2], /*activate=*/false,
                            /*residual=*/h);
        Value out = reshape(lb, y, {B, r, d});

        // Write back: P exactly, the J rows as the nodes' new means.
        Value pNew = rowSlice(lb, out, 0, np);
        Value yJ = rowSlice(lb, out, np, selected);
        Value treeNew = TreeUpdateOp::create(
            lb, treeType, treeL, j, yJ, lb.getF32FloatAttr(float(s.meanEps)));
        SmallVector<OpFoldResult> offsets = {l, lb.getIndexAttr(0),
                                             lb.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes = {
            lb.getIndexAttr(1), lb.getIndexAttr(B), lb.getIndexAttr(selected)};
        SmallVector<OpFoldResult> strides(3, lb.getIndexAttr(1));
        Value jsNext =
            tensor::InsertSliceOp::create(lb, j, jsL, offsets, sizes, strides);
        return {pNew, treeNew, jsNext};
      });

  // Once per stack: C back from the tree, [P; C] in the original order.
  Value cNew = TreeMaterializeOp::create(b, t({B, nc, d}, f32), carried[1]);
  Value xNew =
      tensor::ConcatOp::create(b, /*dim=*/1, ValueRange{carried[0], cNew});
  Value result = GatherRowsOp::create(b, x.getType(), xNew, order.getInverse());
  func::ReturnOp::create(b, ValueRange{result, carried[2]});

  if (failed(verify(func))) {
    error = "the built encoder does not verify (a bug in the builder)";
    func.erase();
    return nullptr;
  }
  return func;
}
