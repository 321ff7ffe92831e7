//===- ExpandCst.cpp - slice attention into the shared core -----*- C++ -*-===//
//
// attic-expand-cst: attic.slice_attention (composite slice attention,
// docs/cst.md) becomes projections (linalg.matmul), element-wise gathers
// (linalg.generic without inputs), and the shared block-attention core
// twice: the local part an attic.block_attention with
// #attic.block_diagonal over the windows laid out one after another, one
// query block per slice, whose pooled epilogue is the masked slice means;
// the global part an attic.attention, dense (or causal) over the slice
// summaries, that attic-decompose lowers.
// The pass description in dialects/AtticPasses.td has the steps.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"

#include "PassRoots.h"
#include "TensorBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cmath>

namespace attic {
#define GEN_PASS_DEF_ATTICEXPANDCST
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;
using namespace attic::detail;

namespace {

using Builder = attic::detail::Builder;

Value addI(Builder &b, Value x, Value y) {
  return arith::AddIOp::create(b, x, y);
}
Value mulI(Builder &b, Value x, int64_t y) {
  return arith::MulIOp::create(b, x, cIndex(b, y));
}
Value divI(Builder &b, Value x, int64_t y) {
  return arith::DivUIOp::create(b, x, cIndex(b, y));
}
Value remI(Builder &b, Value x, int64_t y) {
  return arith::RemUIOp::create(b, x, cIndex(b, y));
}

/// The expansion of one op; sizes as in the op's description.
struct SliceExpansion {
  SliceAttentionOp op;
  int64_t B, N, D, L, H, d, n, E, W;
  bool causal;
  bool poolEpilogue;

  SliceExpansion(SliceAttentionOp op, bool poolEpilogue)
      : op(op), poolEpilogue(poolEpilogue) {
    auto type = op.getInput().getType();
    B = type.getDimSize(0);
    N = type.getDimSize(1);
    D = type.getDimSize(2);
    L = op.getSlice();
    H = op.getHeads();
    d = D / H;
    n = N / L;
    E = op.getBorrowed();
    W = op.getWindow();
    causal = op.getCausal();
  }

  /// t[b * len + i, h * d + c] (+ bias[i mod L, h * d + c], the periodic
  /// query embedding) as [B,H,len,d].
  Value heads(Builder &b, Value flat, int64_t len, Value bias = nullptr) {
    return parallelTensor(
        b, f32Tensor(b, {B, H, len, d}), [&](Builder &nb, ValueRange i) {
          Value row = addI(nb, mulI(nb, i[0], len), i[2]);
          Value col = addI(nb, mulI(nb, i[1], d), i[3]);
          Value v = extract(nb, flat, {row, col});
          if (bias)
            v = arith::AddFOp::create(
                nb, v, extract(nb, bias, {remI(nb, i[2], L), col}));
          return v;
        });
  }

  /// Window position j = s W + e of the laid-out windows: the token
  /// s L - E + e (clamped into the sequence) and whether it is inside.
  std::pair<Value, Value> windowToken(Builder &b, Value j) {
    Value s = divI(b, j, W), e = remI(b, j, W);
    // t + E = s L + e >= 0 always; inside iff E <= s L + e < N + E.
    Value shifted = addI(b, mulI(b, s, L), e);
    Value inside = arith::AndIOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::uge, shifted,
                              cIndex(b, E)),
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, shifted,
                              cIndex(b, N + E)));
    Value clamped = arith::MinUIOp::create(
        b, arith::MaxUIOp::create(b, shifted, cIndex(b, E)),
        cIndex(b, N + E - 1));
    return {arith::SubIOp::create(b, clamped, cIndex(b, E)), inside};
  }

  /// Keys (with P_l Wk) or values of the windows: [B,H,n*W,d].
  Value windows(Builder &b, Value flat, Value bias) {
    return parallelTensor(
        b, f32Tensor(b, {B, H, n * W, d}), [&](Builder &nb, ValueRange i) {
          auto [token, inside] = windowToken(nb, i[2]);
          Value row = addI(nb, mulI(nb, i[0], N), token);
          Value col = addI(nb, mulI(nb, i[1], d), i[3]);
          Value v = extract(nb, flat, {row, col});
          if (bias)
            v = arith::AddFOp::create(
                nb, v, extract(nb, bias, {remI(nb, i[2], W), col}));
          return select(nb, inside, v, cF32(nb, 0.0));
        });
  }

  Value build(Builder &b) {
    auto f32 = b.getF32Type();
    Value x = tensor::CollapseShapeOp::create(
        b, RankedTensorType::get({B * N, D}, f32), op.getInput(),
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    Value q0 = matmul(b, x, op.getWq());
    Value k0 = matmul(b, x, op.getWk());
    Value v0 = matmul(b, x, op.getWv());
    // P_l rows E..E+L are the queries' embeddings (the window's centre).
    Value centre = tensor::ExtractSliceOp::create(
        b, RankedTensorType::get({L, D}, f32), op.getPosLocal(), ValueRange{},
        ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr({E, 0}),
        b.getDenseI64ArrayAttr({L, D}), b.getDenseI64ArrayAttr({1, 1}));
    Value posQ = matmul(b, centre, op.getWq());
    Value posK = matmul(b, op.getPosLocal(), op.getWk());

    Value queries = heads(b, q0, N, posQ);
    Value keys = windows(b, k0, posK);
    Value values = windows(b, v0, nullptr);

    Value mask = op.getMask();
    // Window positions outside the sequence or on padded tokens.
    Value keyMask;
    if (E > 0 || mask)
      keyMask = parallelTensor(
          b, RankedTensorType::get({B, n * W}, b.getI1Type()),
          [&](Builder &nb, ValueRange i) {
            auto [token, inside] = windowToken(nb, i[1]);
            if (!mask)
              return inside;
            Value real = extract(nb, mask, {i[0], token});
            return Value(arith::AndIOp::create(nb, inside, real));
          });

    auto heads4 = [&](int64_t len) {
      return RankedTensorType::get({B, H, len, d}, f32);
    };
    // 1/sqrt(d) rounded once to f32, as every attic op's default scale
    // (detail::defaultScale); 1.0f / sqrtf(d) is an ulp off for some d.
    auto scale =
        b.getF32FloatAttr(static_cast<float>(1.0 / std::sqrt(double(d))));
    auto localLayout =
        BlockDiagonalLayoutAttr::get(b.getContext(), L, W, causal);

    // Slice counts and the pooling weights m / max(1, count).
    Value count;
    if (mask)
      count = parallelTensor(
          b, f32Tensor(b, {B, n}), [&](Builder &nb, ValueRange i) {
            return forLoop(nb, L, ValueRange{cF32(nb, 0.0)},
                           [&](Builder &lb, Value j, ValueRange acc) {
                             Value t = addI(lb, mulI(lb, i[1], L), j);
                             Value real = extract(lb, mask, {i[0], t});
                             Value one =
                                 select(lb, real, cF32(lb, 1.0), cF32(lb, 0.0));
                             return SmallVector<Value>{
                                 arith::AddFOp::create(lb, acc[0], one)};
                           })[0];
          });
    // w[b, t] = m[b, t] / max(1, count[b, t / L]), 1 / L without a mask.
    auto weight = [&](Builder &nb, Value batch, Value t) -> Value {
      if (!mask)
        return cF32(nb, 1.0 / static_cast<double>(L));
      Value denominator = arith::MaximumFOp::create(
          nb, extract(nb, count, {batch, divI(nb, t, L)}), cF32(nb, 1.0));
      return select(nb, extract(nb, mask, {batch, t}),
                    arith::DivFOp::create(nb, cF32(nb, 1.0), denominator),
                    cF32(nb, 0.0));
    };

    // The local attention, and S[b, s, h d + c] = sum_j w[b, s L + j]
    // Y_l[b, h, s L + j, c]: with one slice per query block (L <= 1024,
    // the tile loop's limit), S is the pooled epilogue of the local
    // attention's block_attention; else (or with pool-epilogue=false) the
    // local attention is an attic.attention (one slice per block when it
    // fits, else the default tiles) and S a pass over Y_l.
    Value yl, summary;
    if (poolEpilogue && L <= 1024 && W <= 1024) {
      Value weights = parallelTensor(
          b, f32Tensor(b, {B, N}), [&](Builder &nb, ValueRange i) {
            return weight(nb, i[0], i[1]);
          });
      RankedTensorType ylType = heads4(N), pooledType = heads4(n);
      Value init = tensor::EmptyOp::create(b, ylType.getShape(), f32);
      Value poolInit = tensor::EmptyOp::create(b, pooledType.getShape(), f32);
      auto local = BlockAttentionOp::create(
          b, TypeRange{ylType, pooledType}, queries, keys, values,
          /*key_bias=*/Value(), keyMask, ValueRange{}, ValueRange{}, Value(),
          Value(), Value(), Value(), weights, init, /*lse_init=*/Value(),
          poolInit, localLayout, scale, b.getI64IntegerAttr(L),
          b.getI64IntegerAttr(W), /*mask_fn=*/nullptr, /*score_fn=*/nullptr);
      yl = local.getResult()[0];
      Value pooled = local.getResult()[1];
      summary = parallelTensor(
          b, f32Tensor(b, {B, n, D}), [&](Builder &nb, ValueRange i) {
            return extract(nb, pooled,
                           {i[0], divI(nb, i[2], d), i[1], remI(nb, i[2], d)});
          });
    } else {
      auto local = AttentionOp::create(
          b, heads4(N), queries, keys, values, /*key_bias=*/Value(), keyMask,
          ValueRange{}, ValueRange{}, Value(), Value(), Value(), Value(),
          /*causal=*/false, scale, localLayout,
          (L <= 1024 && W <= 1024) ? b.getDenseI64ArrayAttr({L, W})
                                   : DenseI64ArrayAttr());
      yl = local.getResult();
      summary = parallelTensor(
          b, f32Tensor(b, {B, n, D}), [&](Builder &nb, ValueRange i) {
            Value h = divI(nb, i[2], d), c = remI(nb, i[2], d);
            return forLoop(nb, L, ValueRange{cF32(nb, 0.0)},
                           [&](Builder &lb, Value j, ValueRange acc) {
                             Value t = addI(lb, mulI(lb, i[1], L), j);
                             Value v = arith::MulFOp::create(
                                 lb, weight(lb, i[0], t),
                                 extract(lb, yl, {i[0], h, t, c}));
                             return SmallVector<Value>{
                                 arith::AddFOp::create(lb, acc[0], v)};
                           })[0];
          });
    }
    // Global projections: (S + P_g) Wq, (S + P_g) Wk, S Wv.
    Value withPos = parallelTensor(
        b, f32Tensor(b, {B * n, D}), [&](Builder &nb, ValueRange i) {
          Value s = remI(nb, i[0], n);
          return Value(arith::AddFOp::create(
              nb, extract(nb, summary, {divI(nb, i[0], n), s, i[1]}),
              extract(nb, op.getPosGlobal(), {s, i[1]})));
        });
    Value flatSummary = tensor::CollapseShapeOp::create(
        b, RankedTensorType::get({B * n, D}, f32), summary,
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    Value gq = heads(b, matmul(b, withPos, op.getWq()), n);
    Value gk = heads(b, matmul(b, withPos, op.getWk()), n);
    Value gv = heads(b, matmul(b, flatSummary, op.getWv()), n);
    Value globalMask;
    if (mask)
      globalMask =
          parallelTensor(b, RankedTensorType::get({B, n}, b.getI1Type()),
                         [&](Builder &nb, ValueRange i) {
                           return Value(arith::CmpFOp::create(
                               nb, arith::CmpFPredicate::OGT,
                               extract(nb, count, i), cF32(nb, 0.0)));
                         });
    auto global = AttentionOp::create(
        b, heads4(n), gq, gk, gv, Value(), globalMask, ValueRange{},
        ValueRange{}, Value(), Value(), Value(), Value(), causal, scale,
        LayoutAttrInterface(), DenseI64ArrayAttr());
    Value yg = global.getResult();

    // Y[b, i, h d + c] = Y_l[b, h, i, c] + Y_g[b, h, s', c], s' = i / L
    // (causal: the slice before, 0 for slice 0).
    return parallelTensor(
        b, f32Tensor(b, {B, N, D}), [&](Builder &nb, ValueRange i) {
          Value h = divI(nb, i[2], d), c = remI(nb, i[2], d);
          Value lv = extract(nb, yl, {i[0], h, i[1], c});
          Value s = divI(nb, i[1], L);
          if (!causal)
            return Value(arith::AddFOp::create(
                nb, lv, extract(nb, yg, {i[0], h, s, c})));
          Value first = arith::CmpIOp::create(nb, arith::CmpIPredicate::eq, s,
                                              cIndex(nb, 0));
          Value before = arith::SelectOp::create(
              nb, first, cIndex(nb, 0),
              arith::SubIOp::create(nb, s, cIndex(nb, 1)));
          Value gvv = select(nb, first, cF32(nb, 0.0),
                             extract(nb, yg, {i[0], h, before, c}));
          return Value(arith::AddFOp::create(nb, lv, gvv));
        });
  }
};

struct AtticExpandCstPass
    : public attic::impl::AtticExpandCstBase<AtticExpandCstPass> {
  using AtticExpandCstBase::AtticExpandCstBase;
  void runOnOperation() override {
    if (failed(attic::detail::refuseAtticRoot(getOperation(),
                                              "attic-expand-cst")) ||
        failed(expandCst(getOperation(), poolEpilogue)))
      signalPassFailure();
  }
};

} // namespace

LogicalResult attic::expandCst(Operation *root, bool poolEpilogue) {
  SmallVector<SliceAttentionOp> ops;
  root->walk([&](SliceAttentionOp op) { ops.push_back(op); });
  for (SliceAttentionOp op : ops) {
    ImplicitLocOpBuilder b(op.getLoc(), op);
    Value result = SliceExpansion(op, poolEpilogue).build(b);
    op.getResult().replaceAllUsesWith(result);
    op.erase();
  }
  return success();
}
