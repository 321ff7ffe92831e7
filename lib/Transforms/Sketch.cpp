//===- Sketch.cpp - sketched and low-rank attention into the core -*- C++
//-*-===//
//
// attic-decompose for the ops of dialects/AtticSketchOps.td
// (docs/sketches.md). Every softmax over keys goes through the shared core
// (attic.attention, or attic.block_attention when the log-sum-exp is
// needed); what is left are tensor steps: gathers (attic.gather_rows),
// segment means, selections of the largest keys, and small matrix products
// (linalg, sgemm on the CPU).
//
//  - Skeinformer: the pilot rows are drawn here (constants), the pilot
//    queries attend to every key in one attic.block_attention (outputs and
//    log-sum-exps), the column norms come from one batch matmul of the
//    pilot logits, the sampled keys are the largest Gumbel-perturbed log
//    weights (the noise drawn inline), and the adaptive row normalization is
//    one attic.attention over the d sampled keys plus one fill key (the mean
//    of the sampled keys, bias ln(Nk - d), value the mean of the others).
//  - Informer: the sparsity measure per query (inline key samples), the
//    largest u per head, one attic.attention of the active queries, mean(V)
//    for the others.
//  - Linformer: E K and F V as one (batch) matmul over a transposed copy of
//    the keys and values, then attic.attention over the P projected keys.
//  - Nystromformer: segment means, attention(Qt, K, V) and
//    attention(Q, Kt, Z W) through the core, the p x p softmax and the
//    pseudo-inverse iteration as batch matmuls.
//  - Synthesizer: attic.attention with R1 and R2 as queries and keys.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"

#include "RandomDraw.h"
#include "TensorBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace attic;
using namespace attic::detail;

/// The builder of TensorBuilders.h (mlir::Builder is also visible here).
using ABuilder = attic::detail::Builder;

namespace {

/// Philox streams (docs/sketches.md, "Random draws").
constexpr uint64_t kPilotStream = 48;
constexpr uint64_t kGumbelStream = 49;
constexpr uint64_t kInformerStream = 50;

constexpr double kInf = std::numeric_limits<double>::infinity();

Value addF(ABuilder &b, Value x, Value y) {
  return arith::AddFOp::create(b, x, y);
}
Value mulF(ABuilder &b, Value x, Value y) {
  return arith::MulFOp::create(b, x, y);
}
Value subF(ABuilder &b, Value x, Value y) {
  return arith::SubFOp::create(b, x, y);
}
Value toIndex(ABuilder &b, Value v) {
  return arith::IndexCastOp::create(b, b.getIndexType(), v);
}
Value toI64(ABuilder &b, Value v) {
  return arith::IndexCastOp::create(b, b.getI64Type(), v);
}
Value divI(ABuilder &b, Value x, int64_t y) {
  return arith::DivUIOp::create(b, x, cIndex(b, y));
}
Value remI(ABuilder &b, Value x, int64_t y) {
  return arith::RemUIOp::create(b, x, cIndex(b, y));
}
Value addI(ABuilder &b, Value x, Value y) {
  return arith::AddIOp::create(b, x, y);
}
Value mulI(ABuilder &b, Value x, int64_t y) {
  return arith::MulIOp::create(b, x, cIndex(b, y));
}

/// The fold `acc = f(t, acc)` for t < n from `init`, in an scf.for (f32).
Value foldLoop(ABuilder &b, int64_t n, Value init,
               llvm::function_ref<Value(ABuilder &, Value, Value)> f) {
  return forLoop(b, n, init, [&](ABuilder &lb, Value t, ValueRange acc) {
    return SmallVector<Value>{f(lb, t, acc[0])};
  })[0];
}

/// sum_{t < n} f(t) in an scf.for (f32).
Value sumLoop(ABuilder &b, int64_t n,
              llvm::function_ref<Value(ABuilder &, Value)> f) {
  return foldLoop(b, n, cF32(b, 0.0), [&](ABuilder &lb, Value t, Value acc) {
    return addF(lb, acc, f(lb, t));
  });
}

RankedTensorType i64Tensor(ABuilder &b, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, b.getI64Type());
}

/// An attic.attention (the shared core) with no regions.
Value coreAttention(ABuilder &b, Value query, Value key, Value value,
                    Value keyBias, Value keyMask, bool causal, float scale) {
  auto q = cast<RankedTensorType>(query.getType());
  auto v = cast<RankedTensorType>(value.getType());
  auto type = f32Tensor(
      b, {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2), v.getDimSize(3)});
  return AttentionOp::create(b, type, query, key, value, keyBias, keyMask,
                             ValueRange{}, ValueRange{}, Value(), Value(),
                             Value(), Value(), causal, b.getF32FloatAttr(scale),
                             LayoutAttrInterface(), DenseI64ArrayAttr())
      .getResult();
}

/// sum_j x[r, j, e] over the rows of `x [R, N, E]`: `[R, E]`.
Value columnSums(ABuilder &b, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rows = type.getDimSize(0), n = type.getDimSize(1),
          width = type.getDimSize(2);
  return parallelTensor(b, f32Tensor(b, {rows, width}),
                        [&](ABuilder &nb, ValueRange i) {
                          return sumLoop(nb, n, [&](ABuilder &lb, Value j) {
                            return extract(lb, x, {i[0], j, i[1]});
                          });
                        });
}

/// The means of `segments` runs of consecutive rows of `x [R, N, E]`.
Value segmentMeans(ABuilder &b, Value x, int64_t segments) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rows = type.getDimSize(0), n = type.getDimSize(1),
          width = type.getDimSize(2), length = n / segments;
  return parallelTensor(
      b, f32Tensor(b, {rows, segments, width}),
      [&](ABuilder &nb, ValueRange i) {
        Value first = mulI(nb, i[1], length);
        Value sum = sumLoop(nb, length, [&](ABuilder &lb, Value t) {
          return extract(lb, x, {i[0], addI(lb, first, t), i[2]});
        });
        return mulF(nb, sum, cF32(nb, 1.0 / double(length)));
      });
}

/// An i64 constant tensor.
Value constantI64(ABuilder &b, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> values) {
  return arith::ConstantOp::create(
      b, DenseElementsAttr::get(i64Tensor(b, shape), values));
}

} // namespace

//===----------------------------------------------------------------------===//
// Skeinformer
//===----------------------------------------------------------------------===//

LogicalResult attic::decomposeSkeinformer(RewriterBase &rewriter,
                                          SkeinformerAttentionOp op,
                                          bool parallelScans) {
  ABuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  RankedTensorType qType = op.getQuery().getType();
  int64_t B = qType.getDimSize(0), H = qType.getDimSize(1),
          Nq = qType.getDimSize(2), D = qType.getDimSize(3);
  int64_t Nk = op.getKey().getType().getDimSize(2);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  int64_t d = op.getSamplesAttr().getInt(), BH = B * H;
  uint64_t seed = uint64_t(op.getSeed().value_or(0));
  float scale = op.getEffectiveScale();
  bool importance = op.getSampling() == SketchSampling::Importance;
  bool adaptive = op.getNormalization() == SketchNormalization::Adaptive;
  Value qFlat = reshape(b, op.getQuery(), {BH, Nq, D});
  Value kFlat = reshape(b, op.getKey(), {BH, Nk, D});
  Value vFlat = reshape(b, op.getValue(), {BH, Nk, Dv});

  // The per-key sampling keys [BH, Nk]: Gumbel noise, plus ln w_j.
  Value pilotOut;
  std::vector<int64_t> pilotRows;
  Value logWeights;
  if (importance) {
    for (int64_t k = 0; k < d; ++k) {
      uint64_t w = philoxWordNow(seed, kPilotStream, uint64_t(k));
      pilotRows.push_back(int64_t((w * uint64_t(Nq)) >> 32));
    }
    std::vector<int64_t> broadcast;
    for (int64_t r = 0; r < BH; ++r)
      llvm::append_range(broadcast, pilotRows);
    Value pilotIndex = constantI64(b, {BH, d}, broadcast);
    Value pilotQueries =
        GatherRowsOp::create(b, f32Tensor(b, {BH, d, D}), qFlat, pilotIndex);
    // Pilot outputs B_J V and log-sum-exps, from the shared core.
    Value init = tensor::EmptyOp::create(b, ArrayRef<int64_t>{B, H, d, Dv},
                                         b.getF32Type());
    Value lseInit =
        tensor::EmptyOp::create(b, ArrayRef<int64_t>{B, H, d}, b.getF32Type());
    auto pilot = BlockAttentionOp::create(
        b, TypeRange{init.getType(), lseInit.getType()},
        reshape(b, pilotQueries, {B, H, d, D}), op.getKey(), op.getValue(),
        /*key_bias=*/Value(), /*key_mask=*/Value(), ValueRange{}, ValueRange{},
        Value(), Value(), Value(), Value(), /*pool_weights=*/Value(), init,
        lseInit, /*pool_init=*/Value(),
        DenseLayoutAttr::get(b.getContext()), b.getF32FloatAttr(scale),
        b.getI64IntegerAttr(64), b.getI64IntegerAttr(64), nullptr, nullptr);
    pilotOut = reshape(b, pilot.getResult()[0], {BH, d, Dv});
    Value lse = reshape(b, pilot.getResult()[1], {BH, d});
    // ln w_j = ln |B_J[:, j]|_2 + ln |v_j|_2 with B_J = exp(s - lse), in
    // log space: with logit spreads above about 44 the squares
    // exp(2 (s - lse)) underflow f32, and with values above about 1e19
    // |v_j|^2 or the product overflows it, and the key would fall to
    // ln 0 = -inf or rank as +inf instead of following its weight.
    //   ln |B_J[:, j]|_2 = m + 0.5 ln sum_k exp(2 (e_k - m)),
    //     e_k = s_kj - lse_k, m = max_k e_k (<= 0, finite for finite s);
    //   ln |v_j|_2 = 0.5 ln sum_e (v_e u_j)^2 - ln u_j, u_j the power of
    //     two of rowExponentScales for the row v_j.
    Value vScale = reshape(
        b, rowExponentScales(b, reshape(b, vFlat, {BH * Nk, 1, Dv})).first,
        {BH, Nk});
    // The queries times the power of two of the scale first: unscaled,
    // Q K^T overflowed for finite logits (inputs around 1e19 with logits
    // of 2e38), and keys were dropped with samples = Nk (an audit).
    double prescale = logitPrescale(scale);
    Value logits = batchMatmul(b, scaledBy(b, pilotQueries, prescale), kFlat,
                               /*transposeLhs=*/false,
                               /*transposeRhs=*/true); // [BH, d, Nk]
    logWeights = parallelTensor(
        b, f32Tensor(b, {BH, Nk}), [&](ABuilder &nb, ValueRange i) {
          auto logProb = [&](ABuilder &lb, Value k) {
            Value s = mulF(lb, extract(lb, logits, {i[0], k, i[1]}),
                           cF32(lb, double(scale) / prescale));
            return subF(lb, s, extract(lb, lse, {i[0], k}));
          };
          Value top = foldLoop(nb, d, cF32(nb, -INFINITY),
                               [&](ABuilder &lb, Value k, Value acc) {
                                 return Value(arith::MaximumFOp::create(
                                     lb, acc, logProb(lb, k)));
                               });
          Value column = sumLoop(nb, d, [&](ABuilder &lb, Value k) {
            Value e = subF(lb, logProb(lb, k), top);
            return Value(math::ExpOp::create(lb, mulF(lb, e, cF32(lb, 2.0))));
          });
          Value logColumn =
              addF(nb, top,
                   mulF(nb, math::LogOp::create(nb, column), cF32(nb, 0.5)));
          // |v_j| on the row scaled by a power of two (exact; a zero row
          // gives ln 0 = -inf).
          Value up = extract(nb, vScale, {i[0], i[1]});
          Value norm = sumLoop(nb, Dv, [&](ABuilder &lb, Value e) {
            Value x = mulF(lb, extract(lb, vFlat, {i[0], i[1], e}), up);
            return mulF(lb, x, x);
          });
          Value logNorm =
              subF(nb, mulF(nb, math::LogOp::create(nb, norm), cF32(nb, 0.5)),
                   math::LogOp::create(nb, up));
          return addF(nb, logColumn, logNorm);
        });
  }
  Value keys = parallelTensor(
      b, f32Tensor(b, {BH, Nk}), [&](ABuilder &nb, ValueRange i) {
        Value counter = toI64(nb, addI(nb, mulI(nb, i[0], Nk), i[1]));
        Value g = wordGumbel(nb, philoxWord(nb, seed, kGumbelStream, counter));
        return logWeights ? addF(nb, extract(nb, logWeights, i), g) : g;
      });
  Value picks = largestIndices(b, keys, d, parallelScans);
  Value sampledKeys =
      GatherRowsOp::create(b, f32Tensor(b, {BH, d, D}), kFlat, picks);
  Value sampledValues =
      GatherRowsOp::create(b, f32Tensor(b, {BH, d, Dv}), vFlat, picks);

  Value main;
  if (adaptive && d < Nk) {
    // One more key: the mean of the sampled keys (its logit is the mean
    // sampled logit g_i) with bias ln(Nk - d) and the mean of the other
    // values, so that its softmax weight is (Nk - d) e^{g_i} / Z.
    Value keyMean = columnSums(b, sampledKeys);
    // The other values' sum, over the keys not picked: whether each key
    // was picked (d compares per key, once), then the sum. Until
    // 2026-12-02 it was the sum of all values minus the sampled ones,
    // which cancelled to 0 in f32 when a sampled value row was large (1e8
    // next to values in [-1, 1): every row off by 3e-3 relative; an
    // audit).
    Value picked = parallelTensor(
        b, RankedTensorType::get({BH, Nk}, b.getI1Type()),
        [&](ABuilder &nb, ValueRange i) {
          Value key = toI64(nb, i[1]);
          return foldLoop(
              nb, d,
              arith::ConstantIntOp::create(nb, nb.getI1Type(), 0).getResult(),
              [&](ABuilder &lb, Value t, Value any) {
                Value same =
                    arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                          extract(lb, picks, {i[0], t}), key);
                return arith::OrIOp::create(lb, any, same).getResult();
              });
        });
    Value restSum = parallelTensor(
        b, f32Tensor(b, {BH, Dv}), [&](ABuilder &nb, ValueRange i) {
          return sumLoop(nb, Nk, [&](ABuilder &lb, Value j) {
            return select(lb, extract(lb, picked, {i[0], j}), cF32(lb, 0.0),
                          extract(lb, vFlat, {i[0], j, i[1]}));
          });
        });
    Value augKeys = parallelTensor(
        b, f32Tensor(b, {BH, d + 1, D}), [&](ABuilder &nb, ValueRange i) {
          Value isFill = arith::CmpIOp::create(nb, arith::CmpIPredicate::eq,
                                               i[1], cIndex(nb, d));
          Value row = arith::MinUIOp::create(nb, i[1], cIndex(nb, d - 1));
          Value mean = mulF(nb, extract(nb, keyMean, {i[0], i[2]}),
                            cF32(nb, 1.0 / double(d)));
          return select(nb, isFill, mean,
                        extract(nb, sampledKeys, {i[0], row, i[2]}));
        });
    Value augValues = parallelTensor(
        b, f32Tensor(b, {BH, d + 1, Dv}), [&](ABuilder &nb, ValueRange i) {
          Value isFill = arith::CmpIOp::create(nb, arith::CmpIPredicate::eq,
                                               i[1], cIndex(nb, d));
          Value row = arith::MinUIOp::create(nb, i[1], cIndex(nb, d - 1));
          Value mean = mulF(nb, extract(nb, restSum, {i[0], i[2]}),
                            cF32(nb, 1.0 / double(Nk - d)));
          return select(nb, isFill, mean,
                        extract(nb, sampledValues, {i[0], row, i[2]}));
        });
    std::vector<float> bias(size_t(B * (d + 1)), 0.0f);
    for (int64_t i = 0; i < B; ++i)
      bias[size_t(i * (d + 1) + d)] = float(std::log(double(Nk - d)));
    Value biasConst = arith::ConstantOp::create(
        b, DenseElementsAttr::get(f32Tensor(b, {B, d + 1}),
                                  ArrayRef<float>(bias)));
    main =
        coreAttention(b, op.getQuery(), reshape(b, augKeys, {B, H, d + 1, D}),
                      reshape(b, augValues, {B, H, d + 1, Dv}), biasConst,
                      Value(), /*causal=*/false, scale);
  } else {
    main =
        coreAttention(b, op.getQuery(), reshape(b, sampledKeys, {B, H, d, D}),
                      reshape(b, sampledValues, {B, H, d, Dv}), Value(),
                      Value(), /*causal=*/false, scale);
  }

  Value result = main;
  if (importance && op.getPilotReuse()) {
    // Row i takes pilot output pilotOf[i] (the last k with J_k = i).
    std::vector<int64_t> pilotOf(size_t(Nq), -1);
    for (int64_t k = 0; k < d; ++k)
      pilotOf[size_t(pilotRows[size_t(k)])] = k;
    Value slot = constantI64(b, {Nq}, pilotOf);
    result = parallelTensor(
        b, f32Tensor(b, {B, H, Nq, Dv}), [&](ABuilder &nb, ValueRange i) {
          Value k = extract(nb, slot, {i[2]});
          Value isPilot = arith::CmpIOp::create(nb, arith::CmpIPredicate::sge,
                                                k, cI64(nb, 0));
          Value row = addI(nb, mulI(nb, i[0], H), i[1]);
          Value pilotValue =
              extract(nb, pilotOut, {row, clampIndex(nb, k, d), i[3]});
          return select(nb, isPilot, pilotValue, extract(nb, main, i));
        });
  }
  rewriter.replaceOp(op, result);
  return success();
}

//===----------------------------------------------------------------------===//
// Informer
//===----------------------------------------------------------------------===//

LogicalResult attic::decomposeInformer(RewriterBase &rewriter,
                                       InformerAttentionOp op,
                                       bool parallelScans) {
  ABuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  RankedTensorType qType = op.getQuery().getType();
  int64_t B = qType.getDimSize(0), H = qType.getDimSize(1),
          Nq = qType.getDimSize(2), D = qType.getDimSize(3);
  int64_t Nk = op.getKey().getType().getDimSize(2);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  int64_t u = op.getActiveCount(), U = op.getSampleCount(), BH = B * H;
  uint64_t seed = uint64_t(op.getSeed().value_or(0));
  float scale = op.getEffectiveScale();
  if (u == Nq) {
    // Every query is active: exact attention.
    rewriter.replaceOp(op, coreAttention(b, op.getQuery(), op.getKey(),
                                         op.getValue(), Value(), Value(),
                                         /*causal=*/false, scale));
    return success();
  }
  Value qFlat = reshape(b, op.getQuery(), {BH, Nq, D});
  Value kFlat = reshape(b, op.getKey(), {BH, Nk, D});
  Value vFlat = reshape(b, op.getValue(), {BH, Nk, Dv});
  // M_i = max_t q_i . k_{j_t} - (sum_t q_i . k_{j_t}) / Nk, ranked as
  // r M_i = max r - sum 2^-e with 2^e the largest power of two <= Nk and
  // r = Nk 2^-e in [1, 2): the same order, and exact where Nk max - sum is
  // (Nk max and the sums integers below 2^24), so queries whose M_i are equal
  // in exact arithmetic tie as in the reference. Multiplying by 1/Nk instead
  // rounds, and equal measures can round apart (two queries of M = 9/7 on
  // 0/1 data); multiplying by Nk would overflow Nk times sooner.
  // The dot products are of q and k scaled per head by powers of two
  // (rowExponentScales): exact, the same order, and no overflow of the
  // products or sums from inputs around 1e19 (nor underflow of products
  // of inputs around 1e-20), which ranked the queries wrongly before.
  double pow2 = std::exp2(std::floor(std::log2(double(Nk))));
  Value qScale = rowExponentScales(b, qFlat).first;
  Value kScale = rowExponentScales(b, kFlat).first;
  Value measure = parallelTensor(
      b, f32Tensor(b, {BH, Nq}), [&](ABuilder &nb, ValueRange i) {
        Value init[] = {cF32(nb, -kInf), cF32(nb, 0.0)};
        SmallVector<Value> stats =
            forLoop(nb, U, init, [&](ABuilder &lb, Value t, ValueRange acc) {
              Value counter = toI64(lb, addI(lb, mulI(lb, i[1], U), t));
              Value j = toIndex(
                  lb,
                  wordIndex(lb, philoxWord(lb, seed, kInformerStream, counter),
                            Nk));
              Value dot = sumLoop(lb, D, [&](ABuilder &db, Value e) {
                return mulF(db,
                            mulF(db, extract(db, qFlat, {i[0], i[1], e}),
                                 extract(db, qScale, {i[0]})),
                            mulF(db, extract(db, kFlat, {i[0], j, e}),
                                 extract(db, kScale, {i[0]})));
              });
              return SmallVector<Value>{
                  arith::MaximumFOp::create(lb, acc[0], dot),
                  addF(lb, acc[1], dot)};
            });
        return subF(nb, mulF(nb, stats[0], cF32(nb, double(Nk) / pow2)),
                    mulF(nb, stats[1], cF32(nb, 1.0 / pow2)));
      });
  Value active = largestIndices(b, measure, u, parallelScans); // [BH, u]
  Value activeQueries =
      GatherRowsOp::create(b, f32Tensor(b, {BH, u, D}), qFlat, active);
  Value exact = reshape(
      b,
      coreAttention(b, reshape(b, activeQueries, {B, H, u, D}), op.getKey(),
                    op.getValue(), Value(), Value(), /*causal=*/false, scale),
      {BH, u, Dv});
  Value total = columnSums(b, vFlat); // [BH, Dv]
  // slot[r, i] = t when query i is the t-th active one, else -1.
  Value slot;
  if (parallelScans) {
    // For the GPU: each query looks for itself among the u active ones.
    slot = parallelTensor(
        b, i64Tensor(b, {BH, Nq}), [&](ABuilder &nb, ValueRange i) {
          return forLoop(nb, u, cI64(nb, -1),
                         [&](ABuilder &lb, Value t, ValueRange acc) {
                           Value hit = arith::CmpIOp::create(
                               lb, arith::CmpIPredicate::eq,
                               extract(lb, active, {i[0], t}), toI64(lb, i[1]));
                           return SmallVector<Value>{
                               select(lb, hit, toI64(lb, t), acc[0])};
                         })[0];
        });
  } else {
    Value none =
        tensor::EmptyOp::create(b, ArrayRef<int64_t>{BH, Nq}, b.getI64Type());
    none = linalg::FillOp::create(b, ValueRange{cI64(b, -1)}, ValueRange{none})
               .getResult(0);
    slot = forLoop(b, BH * u, none, [&](ABuilder &lb, Value n, ValueRange acc) {
      Value r = divI(lb, n, u), t = remI(lb, n, u);
      Value i = clampIndex(lb, extract(lb, active, {r, t}), Nq);
      return SmallVector<Value>{insert(lb, toI64(lb, t), acc[0], {r, i})};
    })[0];
  }
  Value result = parallelTensor(
      b, f32Tensor(b, {BH, Nq, Dv}), [&](ABuilder &nb, ValueRange i) {
        Value t = extract(nb, slot, {i[0], i[1]});
        Value isActive = arith::CmpIOp::create(nb, arith::CmpIPredicate::sge, t,
                                               cI64(nb, 0));
        Value mean = mulF(nb, extract(nb, total, {i[0], i[2]}),
                          cF32(nb, 1.0 / double(Nk)));
        return select(nb, isActive,
                      extract(nb, exact, {i[0], clampIndex(nb, t, u), i[2]}),
                      mean);
      });
  rewriter.replaceOp(op, reshape(b, result, {B, H, Nq, Dv}));
  return success();
}

//===----------------------------------------------------------------------===//
// Linformer
//===----------------------------------------------------------------------===//

namespace {

/// E X for every (batch, head): `x [B,H,N,E]` is copied (with padded rows
/// zeroed) into `[Hp, N, (B*H/Hp)*E]` so that one batch matmul over the
/// `Hp` projections `proj [Hp,P,N]` computes all heads; `[B,H,P,E]`.
Value projectAlongSequence(ABuilder &b, Value proj, Value x, Value mask) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto pType = cast<RankedTensorType>(proj.getType());
  int64_t B = xType.getDimSize(0), H = xType.getDimSize(1),
          N = xType.getDimSize(2), E = xType.getDimSize(3);
  int64_t Hp = pType.getDimSize(0), P = pType.getDimSize(1);
  int64_t groups = B * H / Hp; // the heads each projection serves
  // Column c of projection h holds head (b, hh) = group c / E, feature c % E:
  // with Hp = 1 the group is b*H + hh, with Hp = H it is b (hh = h).
  auto headOf = [&](ABuilder &nb, Value h, Value group) {
    if (Hp == 1)
      return std::pair<Value, Value>{divI(nb, group, H), remI(nb, group, H)};
    return std::pair<Value, Value>{group, h};
  };
  Value gathered = parallelTensor(
      b, f32Tensor(b, {Hp, N, groups * E}), [&](ABuilder &nb, ValueRange i) {
        auto [bi, hi] = headOf(nb, i[0], divI(nb, i[2], E));
        Value v = extract(nb, x, {bi, hi, i[1], remI(nb, i[2], E)});
        if (!mask)
          return v;
        return select(nb, extract(nb, mask, {bi, i[1]}), v, cF32(nb, 0.0));
      });
  Value projected = batchMatmul(b, proj, gathered, false, false); // [Hp,P,G*E]
  return parallelTensor(
      b, f32Tensor(b, {B, H, P, E}), [&](ABuilder &nb, ValueRange i) {
        Value h = Hp == 1 ? cIndex(nb, 0) : i[1];
        Value group = Hp == 1 ? addI(nb, mulI(nb, i[0], H), i[1]) : i[0];
        return extract(nb, projected,
                       {h, i[2], addI(nb, mulI(nb, group, E), i[3])});
      });
}

} // namespace

LogicalResult attic::decomposeLinformer(RewriterBase &rewriter,
                                        LinformerAttentionOp op) {
  ABuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value e = op.getKeyProjection();
  Value f = op.getValueProjection() ? op.getValueProjection() : e;
  Value keys = projectAlongSequence(b, e, op.getKey(), op.getMask());
  Value values = projectAlongSequence(b, f, op.getValue(), op.getMask());
  rewriter.replaceOp(op, coreAttention(b, op.getQuery(), keys, values, Value(),
                                       Value(), /*causal=*/false,
                                       op.getEffectiveScale()));
  return success();
}

//===----------------------------------------------------------------------===//
// Nystromformer
//===----------------------------------------------------------------------===//

LogicalResult attic::decomposeNystrom(RewriterBase &rewriter,
                                      NystromAttentionOp op,
                                      bool iterationLoop) {
  ABuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  RankedTensorType qType = op.getQuery().getType();
  int64_t B = qType.getDimSize(0), H = qType.getDimSize(1),
          Nq = qType.getDimSize(2), D = qType.getDimSize(3);
  int64_t Nk = op.getKey().getType().getDimSize(2);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  int64_t p = op.getLandmarksAttr().getInt(), BH = B * H;
  float scale = op.getEffectiveScale();
  Value qLand = segmentMeans(b, reshape(b, op.getQuery(), {BH, Nq, D}), p);
  Value kLand = segmentMeans(b, reshape(b, op.getKey(), {BH, Nk, D}), p);

  // W = softmax(Qt K^T) V through the core.
  Value w = coreAttention(b, reshape(b, qLand, {B, H, p, D}), op.getKey(),
                          op.getValue(), Value(), Value(), false, scale);
  // A = softmax(Qt Kt^T) [BH, p, p] on tensors.
  // The landmark queries times the power of two of the scale first, as
  // the tile loop's (unscaled, the products overflowed for finite logits).
  double prescale = logitPrescale(scale);
  Value dots = batchMatmul(b, scaledBy(b, qLand, prescale), kLand, false,
                           /*transposeRhs=*/true);
  Value rowMax =
      parallelTensor(b, f32Tensor(b, {BH, p}), [&](ABuilder &nb, ValueRange i) {
        return forLoop(nb, p, cF32(nb, -kInf),
                       [&](ABuilder &lb, Value j, ValueRange acc) {
                         return SmallVector<Value>{arith::MaximumFOp::create(
                             lb, acc[0], extract(lb, dots, {i[0], i[1], j}))};
                       })[0];
      });
  auto expOf = [&](ABuilder &nb, Value r, Value i, Value j) {
    Value s =
        subF(nb, extract(nb, dots, {r, i, j}), extract(nb, rowMax, {r, i}));
    return Value(math::ExpOp::create(
        nb, mulF(nb, s, cF32(nb, double(scale) / prescale))));
  };
  Value rowSum =
      parallelTensor(b, f32Tensor(b, {BH, p}), [&](ABuilder &nb, ValueRange i) {
        return sumLoop(nb, p, [&](ABuilder &lb, Value j) {
          return expOf(lb, i[0], i[1], j);
        });
      });
  Value a = parallelTensor(
      b, f32Tensor(b, {BH, p, p}), [&](ABuilder &nb, ValueRange i) {
        return Value(arith::DivFOp::create(nb, expOf(nb, i[0], i[1], i[2]),
                                           extract(nb, rowSum, {i[0], i[1]})));
      });
  // Z_0 = A^T / (max column sum * max row sum) of |A| per head.
  Value norm =
      parallelTensor(b, f32Tensor(b, {BH}), [&](ABuilder &nb, ValueRange i) {
        auto maxSum = [&](bool rows) {
          return forLoop(nb, p, cF32(nb, 0.0),
                         [&](ABuilder &lb, Value x, ValueRange acc) {
                           Value s = sumLoop(lb, p, [&](ABuilder &db, Value y) {
                             Value at = rows ? extract(db, a, {i[0], x, y})
                                             : extract(db, a, {i[0], y, x});
                             return Value(math::AbsFOp::create(db, at));
                           });
                           return SmallVector<Value>{
                               arith::MaximumFOp::create(lb, acc[0], s)};
                         })[0];
        };
        return mulF(nb, maxSum(true), maxSum(false));
      });
  Value z = parallelTensor(
      b, f32Tensor(b, {BH, p, p}), [&](ABuilder &nb, ValueRange i) {
        return Value(arith::DivFOp::create(
            nb, extract(nb, a, {i[0], i[2], i[1]}), extract(nb, norm, {i[0]})));
      });
  // c I - X.
  auto shifted = [&](ABuilder &b, double c, Value x) {
    return parallelTensor(
        b, f32Tensor(b, {BH, p, p}), [&](ABuilder &nb, ValueRange i) {
          Value diag =
              arith::CmpIOp::create(nb, arith::CmpIPredicate::eq, i[1], i[2]);
          Value ci = select(nb, diag, cF32(nb, c), cF32(nb, 0.0));
          return subF(nb, ci, extract(nb, x, i));
        });
  };
  // One step Z <- 1/4 Z (13 I - A Z (15 I - A Z (7 I - A Z))).
  auto step = [&](ABuilder &b, Value z) {
    Value az = batchMatmul(b, a, z, false, false);
    Value inner = batchMatmul(b, az, shifted(b, 7.0, az), false, false);
    Value middle = batchMatmul(b, az, shifted(b, 15.0, inner), false, false);
    Value next = batchMatmul(b, z, shifted(b, 13.0, middle), false, false);
    return parallelTensor(
        b, f32Tensor(b, {BH, p, p}), [&](ABuilder &nb, ValueRange i) {
          return mulF(nb, extract(nb, next, i), cF32(nb, 0.25));
        });
  };
  int64_t iterations = op.getIterationsAttr().getInt();
  if (iterationLoop)
    // An scf.for over the iterations: one step's IR (unrolled, 100
    // iterations took 7.1 s to compile; bench/results/cpu/iteration-loops.md).
    z = stepLoop(b, iterations, ValueRange{z},
                 [&](ABuilder &lb, Value, ValueRange args) {
                   return SmallVector<Value>{step(lb, args[0])};
                 })[0];
  else
    // One copy per iteration (the GPU pipelines).
    for (int64_t t = 0; t < iterations; ++t)
      z = step(b, z);
  Value zw = batchMatmul(b, z, reshape(b, w, {BH, p, Dv}), false, false);
  Value out = coreAttention(b, op.getQuery(), reshape(b, kLand, {B, H, p, D}),
                            reshape(b, zw, {B, H, p, Dv}), Value(), Value(),
                            false, scale);
  if (Value conv = op.getConv()) {
    int64_t W = cast<RankedTensorType>(conv.getType()).getDimSize(1);
    Value value = op.getValue();
    out = parallelTensor(
        b, f32Tensor(b, {B, H, Nq, Dv}), [&](ABuilder &nb, ValueRange i) {
          Value skip = sumLoop(nb, W, [&](ABuilder &lb, Value t) {
            // Row i + t - W/2, zero outside [0, N).
            Value row = arith::SubIOp::create(
                lb, addI(lb, toI64(lb, i[2]), toI64(lb, t)), cI64(lb, W / 2));
            Value inside = arith::AndIOp::create(
                lb,
                arith::CmpIOp::create(lb, arith::CmpIPredicate::sge, row,
                                      cI64(lb, 0)),
                arith::CmpIOp::create(lb, arith::CmpIPredicate::slt, row,
                                      cI64(lb, Nk)));
            Value x =
                extract(lb, value, {i[0], i[1], clampIndex(lb, row, Nk), i[3]});
            Value term = mulF(lb, extract(lb, conv, {i[1], t}), x);
            return select(lb, inside, term, cF32(lb, 0.0));
          });
          return addF(nb, extract(nb, out, i), skip);
        });
  }
  rewriter.replaceOp(op, out);
  return success();
}

//===----------------------------------------------------------------------===//
// Synthesizer
//===----------------------------------------------------------------------===//

LogicalResult attic::decomposeSynthesizer(RewriterBase &rewriter,
                                          SynthesizerAttentionOp op) {
  ABuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  int64_t B = op.getValue().getType().getDimSize(0);
  auto broadcast = [&](Value factor) {
    auto type = cast<RankedTensorType>(factor.getType());
    int64_t H = type.getDimSize(0), N = type.getDimSize(1),
            k = type.getDimSize(2);
    if (B == 1)
      return reshape(b, factor, {1, H, N, k});
    return parallelTensor(b, f32Tensor(b, {B, H, N, k}),
                          [&](ABuilder &nb, ValueRange i) {
                            return extract(nb, factor, {i[1], i[2], i[3]});
                          });
  };
  rewriter.replaceOp(op, coreAttention(b, broadcast(op.getR1()),
                                       broadcast(op.getR2()), op.getValue(),
                                       Value(), op.getMask(), op.getCausal(),
                                       op.getScale().convertToFloat()));
  return success();
}
