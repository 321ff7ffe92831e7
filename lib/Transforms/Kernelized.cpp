//===- Kernelized.cpp - kernelized attention: L1 -> L2 -> tensors -*- C++
//-*-===//
//
// attic.kernelized_attention (docs/kernelized.md) in two steps:
//
//  - attic-decompose (decomposeKernelized): the L1 op becomes two
//    attic.feature_map ops, attic.state_reduce + the application of the
//    state (non-causal) or attic.state_scan (causal), and the normalization,
//    as upstream ops on tensors. Random features without a `projection`
//    operand are drawn here, at compile time, into a constant.
//  - attic-lower-state (lowerStateOps): the three L2 primitives become
//    linalg on tensors: matmul / batch_matmul for every product (BLAS on the
//    CPU, attic-linalg-to-blas), linalg.generic for element-wise maps and
//    reductions, and one scf.for over the chunks for the prefix scan (for
//    the GPU, parallel-scans: a thread per state element).
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"
#include "attic/runtime/Runtime.h"

#include "PassRoots.h"
#include "RandomDraw.h"
#include "TensorBuilders.h"

#include <limits>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cmath>
#include <vector>

namespace attic {
#define GEN_PASS_DEF_ATTICLOWERSTATE
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;
using namespace attic::detail;

namespace {

using Builder = attic::detail::Builder;
using utils::IteratorType;

//===----------------------------------------------------------------------===//
// Random features (compile time)
//===----------------------------------------------------------------------===//

/// FAVOR+'s positive orthogonal random features W [p, D]: blocks of D
/// Gaussian rows (stream 1) orthonormalized by modified Gram-Schmidt, row j
/// scaled by the norm of an independent Gaussian D-vector (stream 2).
FailureOr<std::vector<float>> drawRandomFeatures(uint64_t seed, int64_t p,
                                                 int64_t dim) {
  std::vector<float> w(p * dim);
  std::vector<double> block(dim * dim);
  for (int64_t first = 0; first < p; first += dim) {
    int64_t blockIndex = first / dim;
    for (int64_t i = 0; i < dim * dim; ++i)
      block[i] = normalDraw(seed, 1, uint64_t(blockIndex * dim * dim + i));
    int64_t rows = std::min(dim, p - first);
    for (int64_t i = 0; i < rows; ++i) {
      double *row = &block[i * dim];
      for (int64_t k = 0; k < i; ++k) {
        const double *prev = &block[k * dim];
        double dot = 0.0;
        for (int64_t c = 0; c < dim; ++c)
          dot += row[c] * prev[c];
        for (int64_t c = 0; c < dim; ++c)
          row[c] -= dot * prev[c];
      }
      double norm = 0.0;
      for (int64_t c = 0; c < dim; ++c)
        norm += row[c] * row[c];
      norm = std::sqrt(norm);
      if (!(norm > 1e-12))
        return failure();
      for (int64_t c = 0; c < dim; ++c)
        row[c] /= norm;
      int64_t j = first + i;
      double scale = 0.0;
      for (int64_t c = 0; c < dim; ++c) {
        double g = normalDraw(seed, 2, uint64_t(j * dim + c));
        scale += g * g;
      }
      scale = std::sqrt(scale);
      for (int64_t c = 0; c < dim; ++c)
        w[j * dim + c] = float(row[c] * scale);
    }
  }
  return w;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}



/// A linalg.generic with `inputs` and one output `init`, over
/// `iterators`, whose body gets the input and output elements.
Value generic(Builder &b, ValueRange inputs, Value init,
              ArrayRef<AffineMap> maps, ArrayRef<IteratorType> iterators,
              llvm::function_ref<Value(Builder &, ValueRange)> body) {
  auto op = linalg::GenericOp::create(
      b, TypeRange{init.getType()}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Builder inner(loc, nested);
        linalg::YieldOp::create(inner, body(inner, args));
      });
  return op.getResult(0);
}

/// Identity map of `rank` dims, and the map keeping the dims in `keep`.
AffineMap identity(Builder &b, unsigned rank) {
  return b.getMultiDimIdentityMap(rank);
}
AffineMap project(Builder &b, unsigned rank, ArrayRef<unsigned> keep) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d : keep)
    exprs.push_back(b.getAffineDimExpr(d));
  return AffineMap::get(rank, 0, exprs, b.getContext());
}

/// `x` ([B,H,N] or [B,H,N,F], one row per key) with the rows of masked keys
/// (mask[b, j] false) set to `fill`: 0 for features, -inf for FAVOR+'s
/// stabilizers (a masked key never sets a maximum); `x` unchanged without
/// a mask.
Value maskKeys(Builder &b, Value x, Value mask, double fill) {
  if (!mask)
    return x;
  RankedTensorType type = tensorOf(x);
  unsigned rank = type.getRank();
  return generic(
      b, {x, mask}, zeros(b, type.getShape()),
      {identity(b, rank), project(b, rank, {0, 2}), identity(b, rank)},
      SmallVector<IteratorType>(rank, IteratorType::parallel),
      [&](Builder &nb, ValueRange a) {
        return select(nb, a[1], a[0], cF32(nb, fill));
      });
}

/// FAVOR+'s stabilizers ([B,H,N]) with the rows of masked keys at -inf, the
/// mark of a key that is not there (see `weighted`), and every other -inf
/// made NaN: an unmasked key's stabilizer is -inf only when its exponents
/// overflowed f32 (|x|^2 past 3.4e38: inputs around 1e19), and such a key
/// must make the rows that see it NaN, as the NaN policy says, not drop out
/// as if masked (the causal form gave a silent 0 for every row, and both
/// forms did where only the keys overflowed; a 2026-11-30 audit).
Value keyStabilizers(Builder &b, Value stabilizer, Value mask) {
  RankedTensorType type = tensorOf(stabilizer);
  unsigned rank = type.getRank();
  Value overflowIsNaN =
      generic(b, {stabilizer}, zeros(b, type.getShape()),
              {identity(b, rank), identity(b, rank)},
              SmallVector<IteratorType>(rank, IteratorType::parallel),
              [](Builder &nb, ValueRange a) {
                Value overflowed = arith::CmpFOp::create(
                    nb, arith::CmpFPredicate::OEQ, a[0], cF32(nb, -INFINITY));
                return select(nb, overflowed, cF32(nb, NAN), a[0]);
              });
  return maskKeys(b, overflowIsNaN, mask, -INFINITY);
}

/// FAVOR+'s key scales: `x exp(a - m)` for a key of stabilizer `a` on the
/// scale `m >= a`, and 0 (not 0 * x: a masked row may hold NaN) where `a` is
/// -inf (a masked key, or none).
Value weighted(Builder &b, Value x, Value a, Value m) {
  Value none = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, a,
                                     cF32(b, -INFINITY));
  Value scale = math::ExpOp::create(b, arith::SubFOp::create(b, a, m));
  return select(b, none, cF32(b, 0.0), arith::MulFOp::create(b, x, scale));
}

/// In a linalg body over [chunk row, i, j]: whether key j of the chunk is
/// visible to query i (j <= i, causal).
Value onOrBelowDiagonal(Builder &b) {
  Value i = linalg::IndexOp::create(b, 1);
  Value j = linalg::IndexOp::create(b, 2);
  return arith::CmpIOp::create(b, arith::CmpIPredicate::ule, j, i);
}

/// The maximum over the last dim of `x` (rank 2 or 3), -inf when empty.
Value maxOverLast(Builder &b, Value x) {
  RankedTensorType type = tensorOf(x);
  unsigned rank = type.getRank();
  SmallVector<unsigned> kept;
  SmallVector<IteratorType> iterators(rank, IteratorType::parallel);
  iterators.back() = IteratorType::reduction;
  for (unsigned d = 0; d + 1 < rank; ++d)
    kept.push_back(d);
  return generic(b, {x}, filled(b, type.getShape().drop_back(), -INFINITY),
                 {identity(b, rank), project(b, rank, kept)}, iterators,
                 [](Builder &nb, ValueRange a) {
                   return Value(arith::MaximumFOp::create(nb, a[0], a[1]));
                 });
}

//===----------------------------------------------------------------------===//
// L2 -> tensors
//===----------------------------------------------------------------------===//

SmallVector<Value> lowerFeatureMap(Builder &b, FeatureMapOp op) {
  Value x = op.getInput();
  RankedTensorType type = tensorOf(x);
  int64_t B = type.getDimSize(0), H = type.getDimSize(1),
          N = type.getDimSize(2), D = type.getDimSize(3);
  RankedTensorType resultType = op.getResult().getType();
  SmallVector<IteratorType> parallel4(4, IteratorType::parallel);
  switch (op.getMap()) {
  case FeatureMap::EluPlusOne:
  case FeatureMap::Relu: {
    bool elu = op.getMap() == FeatureMap::EluPlusOne;
    return {generic(
        b, {x}, zeros(b, resultType.getShape()),
        {identity(b, 4), identity(b, 4)}, parallel4,
        [&](Builder &nb, ValueRange a) -> Value {
          Value zero = cF32(nb, 0.0);
          if (!elu)
            return arith::MaximumFOp::create(nb, a[0], zero);
          // elu(x) + 1 = x + 1 for x > 0, exp(x) otherwise.
          Value positiveX =
              arith::CmpFOp::create(nb, arith::CmpFPredicate::OGT, a[0], zero);
          return select(nb, positiveX,
                        arith::AddFOp::create(nb, a[0], cF32(nb, 1.0)),
                        math::ExpOp::create(nb, a[0]));
        })};
  }
  case FeatureMap::Cosformer: {
    // [relu(x) sin a_t, relu(x) cos a_t], a_t = pi (t + 1) / (2 m).
    double step = M_PI / (2.0 * double(*op.getPeriod()));
    return {parallelTensor(b, resultType, [&](Builder &nb, ValueRange i) {
      Value dIndex = cIndex(nb, D);
      Value second =
          arith::CmpIOp::create(nb, arith::CmpIPredicate::uge, i[3], dIndex);
      Value c =
          select(nb, second, arith::SubIOp::create(nb, i[3], dIndex), i[3]);
      Value xv = extract(nb, x, {i[0], i[1], i[2], c});
      Value relu = arith::MaximumFOp::create(nb, xv, cF32(nb, 0.0));
      Value t = arith::IndexCastOp::create(nb, nb.getI64Type(), i[2]);
      t = arith::AddIOp::create(nb, t, cI64(nb, 1));
      Value tf = arith::SIToFPOp::create(nb, nb.getF32Type(), t);
      Value angle = arith::MulFOp::create(nb, tf, cF32(nb, step));
      Value weight = select(nb, second, math::CosOp::create(nb, angle),
                            math::SinOp::create(nb, angle));
      return Value(arith::MulFOp::create(nb, relu, weight));
    })};
  }
  case FeatureMap::PerformerRelu:
  case FeatureMap::FavorPlus:
    break;
  }
  // Random features: P = x W^T on [B*H*N, D] x [p, D]^T (one GEMM).
  Value w = op.getProjection();
  int64_t p = tensorOf(w).getDimSize(0);
  int64_t rows = B * H * N;
  Value flat = reshape(b, x, {rows, D});
  MLIRContext *ctx = b.getContext();
  AffineExpr dm, dn, dk;
  bindDims(ctx, dm, dn, dk);
  auto matmul = linalg::MatmulOp::create(
      b, TypeRange{RankedTensorType::get({rows, p}, b.getF32Type())},
      ValueRange{flat, w}, ValueRange{zeros(b, {rows, p})});
  matmul.setIndexingMapsAttr(b.getAffineMapArrayAttr(
      {AffineMap::get(3, 0, {dm, dk}, ctx), AffineMap::get(3, 0, {dn, dk}, ctx),
       AffineMap::get(3, 0, {dm, dn}, ctx)}));
  Value projected = matmul.getResult(0);
  double c = std::pow(double(D), -0.25);
  SmallVector<IteratorType> parallel2(2, IteratorType::parallel);
  if (op.getMap() == FeatureMap::PerformerRelu) {
    Value phi = generic(
        b, {projected}, zeros(b, {rows, p}), {identity(b, 2), identity(b, 2)},
        parallel2, [&](Builder &nb, ValueRange a) -> Value {
          Value scaled = arith::MulFOp::create(nb, a[0], cF32(nb, c));
          Value relu = arith::MaximumFOp::create(nb, scaled, cF32(nb, 0.0));
          return arith::AddFOp::create(nb, relu, cF32(nb, 1e-3));
        });
    return {reshape(b, phi, resultType.getShape())};
  }
  // FAVOR+: E = c x.w - c^2 |x|^2 / 2; phi = exp(E - stabilizer) / sqrt(p).
  Value squares =
      generic(b, {flat}, zeros(b, {rows}), {identity(b, 2), project(b, 2, {0})},
              {IteratorType::parallel, IteratorType::reduction},
              [](Builder &nb, ValueRange a) {
                return Value(arith::AddFOp::create(
                    nb, arith::MulFOp::create(nb, a[0], a[0]), a[1]));
              });
  Value exponent =
      generic(b, {projected, squares}, zeros(b, {rows, p}),
              {identity(b, 2), project(b, 2, {0}), identity(b, 2)}, parallel2,
              [&](Builder &nb, ValueRange a) {
                Value dot = arith::MulFOp::create(nb, a[0], cF32(nb, c));
                Value half =
                    arith::MulFOp::create(nb, a[1], cF32(nb, c * c * 0.5));
                return Value(arith::SubFOp::create(nb, dot, half));
              });
  // The stabilizer: the maximum of each row, returned for the keys (the
  // state ops put the keys of a query on one scale).
  Value maxima = maxOverLast(b, exponent);
  double inverseRoot = 1.0 / std::sqrt(double(p));
  Value phi = generic(
      b, {exponent, maxima}, zeros(b, {rows, p}),
      {identity(b, 2), project(b, 2, {0}), identity(b, 2)}, parallel2,
      [&](Builder &nb, ValueRange a) {
        Value e =
            math::ExpOp::create(nb, arith::SubFOp::create(nb, a[0], a[1]));
        return Value(arith::MulFOp::create(nb, e, cF32(nb, inverseRoot)));
      });
  SmallVector<Value> results{reshape(b, phi, resultType.getShape())};
  if (op.getStabilizer())
    results.push_back(reshape(b, maxima, {B, H, N}));
  return results;
}

SmallVector<Value> lowerStateReduce(Builder &b, StateReduceOp op) {
  RankedTensorType type = op.getFeatures().getType();
  int64_t B = type.getDimSize(0), H = type.getDimSize(1),
          N = type.getDimSize(2), F = type.getDimSize(3);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  Value features;
  if (Value stabilizer = op.getStabilizer()) {
    // Every key on the scale of the largest unmasked one.
    Value c = keyStabilizers(b, stabilizer, op.getMask());
    Value top = maxOverLast(b, c);
    features = generic(b, {op.getFeatures(), c, top}, zeros(b, {B, H, N, F}),
                       {identity(b, 4), project(b, 4, {0, 1, 2}),
                        project(b, 4, {0, 1}), identity(b, 4)},
                       SmallVector<IteratorType>(4, IteratorType::parallel),
                       [](Builder &nb, ValueRange a) {
                         return weighted(nb, a[0], a[1], a[2]);
                       });
  } else {
    features = maskKeys(b, op.getFeatures(), op.getMask(), 0.0);
  }
  Value state = batchMatmul(b, reshape(b, features, {B * H, N, F}),
                            reshape(b, op.getValue(), {B * H, N, Dv}),
                            /*transposeLhs=*/true, /*transposeRhs=*/false);
  // normalizer[b,h,f] = sum_j features[b,h,j,f]
  Value normalizer =
      generic(b, {features}, zeros(b, {B, H, F}),
              {identity(b, 4), project(b, 4, {0, 1, 3})},
              {IteratorType::parallel, IteratorType::parallel,
               IteratorType::reduction, IteratorType::parallel},
              [](Builder &nb, ValueRange a) {
                return Value(arith::AddFOp::create(nb, a[0], a[1]));
              });
  return {reshape(b, state, {B, H, F, Dv}), normalizer};
}

/// `acc alpha + term beta`: a step of the rescaled chunk scan (both forms
/// of the scan write it in this order).
Value rescaledSum(Builder &b, Value acc, Value term, Value alpha, Value beta) {
  return arith::AddFOp::create(b, arith::MulFOp::create(b, acc, alpha),
                               arith::MulFOp::create(b, term, beta));
}

/// Exclusive prefix sums over dim 1 of the chunk states `states4` ([BH,
/// chunks, F, Dv]) and key sums `sums3` ([BH, chunks, F]): one parallel
/// addition of the [BH, F, Dv] states per chunk, in an scf.for over the
/// chunks. With `alpha` and `beta` ([BH, chunks]), the step of chunk c is
/// `acc alpha[c] + chunk beta[c]` (FAVOR+'s rescaling).
std::pair<Value, Value> chunkPrefixSums(Builder &b, Value states4, Value sums3,
                                        Value alpha, Value beta, int64_t BH,
                                        int64_t chunks, int64_t F, int64_t Dv) {
  Value prefixStates = tensor::EmptyOp::create(
      b, ArrayRef<int64_t>{BH, chunks, F, Dv}, b.getF32Type());
  Value prefixSums = tensor::EmptyOp::create(
      b, ArrayRef<int64_t>{BH, chunks, F}, b.getF32Type());
  SmallVector<Value> scanned = forLoop(
      b, chunks,
      {zeros(b, {BH, F, Dv}), zeros(b, {BH, F}), prefixStates, prefixSums},
      [&](Builder &nb, Value c, ValueRange acc) -> SmallVector<Value> {
        auto slice = [&](Value source, Value into, ArrayRef<int64_t> rest,
                         bool insertIt) -> Value {
          SmallVector<OpFoldResult> offsets{nb.getIndexAttr(0), c};
          SmallVector<OpFoldResult> sizes{nb.getIndexAttr(BH),
                                          nb.getIndexAttr(1)};
          SmallVector<OpFoldResult> strides(2 + rest.size(),
                                            nb.getIndexAttr(1));
          for (int64_t r : rest) {
            offsets.push_back(nb.getIndexAttr(0));
            sizes.push_back(nb.getIndexAttr(r));
          }
          SmallVector<int64_t> shape{BH};
          shape.append(rest.begin(), rest.end());
          auto sliceType = RankedTensorType::get(shape, nb.getF32Type());
          if (insertIt)
            return tensor::InsertSliceOp::create(nb, source, into, offsets,
                                                 sizes, strides);
          return tensor::ExtractSliceOp::create(nb, sliceType, source, offsets,
                                                sizes, strides);
        };
        Value outStates = slice(acc[0], acc[2], {F, Dv}, true);
        Value outSums = slice(acc[1], acc[3], {F}, true);
        auto add = [&](Value x, Value y) {
          unsigned rank = tensorOf(x).getRank();
          SmallVector<IteratorType> parallel(rank, IteratorType::parallel);
          if (!alpha)
            return generic(nb, {y}, x, {identity(nb, rank), identity(nb, rank)},
                           parallel, [](Builder &bb, ValueRange a) {
                             return Value(
                                 arith::AddFOp::create(bb, a[0], a[1]));
                           });
          Value scales[2] = {slice(alpha, Value(), {}, false),
                             slice(beta, Value(), {}, false)};
          return generic(nb, {y, scales[0], scales[1]}, x,
                         {identity(nb, rank), project(nb, rank, {0}),
                          project(nb, rank, {0}), identity(nb, rank)},
                         parallel, [](Builder &bb, ValueRange a) {
                           return rescaledSum(bb, a[3], a[0], a[1], a[2]);
                         });
        };
        Value nextState = add(acc[0], slice(states4, Value(), {F, Dv}, false));
        Value nextSum = add(acc[1], slice(sums3, Value(), {F}, false));
        return {nextState, nextSum, outStates, outSums};
      });
  return {scanned[2], scanned[3]};
}

SmallVector<Value> lowerStateScan(Builder &b, StateScanOp op,
                                  bool parallelScans) {
  RankedTensorType type = op.getQueryFeatures().getType();
  int64_t B = type.getDimSize(0), H = type.getDimSize(1),
          N = type.getDimSize(2), F = type.getDimSize(3);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  int64_t C = op.getChunk(), chunks = N / C, BH = B * H;
  int64_t all = BH * chunks;
  Value q = reshape(b, op.getQueryFeatures(), {all, C, F});
  Value v = reshape(b, op.getValue(), {all, C, Dv});
  SmallVector<IteratorType> parallel3(3, IteratorType::parallel);

  // The keys of the chunk states k (masked rows 0) and of the intra-chunk
  // scores kScores. With FAVOR+'s stabilizer c (masked keys at -inf), a
  // chunk's keys are on the scale of its largest c, chunkMax.
  Value c, chunkMax, k, kScores;
  if (Value stabilizer = op.getStabilizer()) {
    c = reshape(b, keyStabilizers(b, stabilizer, op.getMask()), {all, C});
    chunkMax = maxOverLast(b, c);
    kScores = reshape(b, op.getKeyFeatures(), {all, C, F});
    k = generic(b, {kScores, c, chunkMax}, zeros(b, {all, C, F}),
                {identity(b, 3), project(b, 3, {0, 1}), project(b, 3, {0}),
                 identity(b, 3)},
                parallel3, [](Builder &nb, ValueRange a) {
                  return weighted(nb, a[0], a[1], a[2]);
                });
  } else {
    k = kScores = reshape(
        b, maskKeys(b, op.getKeyFeatures(), op.getMask(), 0.0), {all, C, F});
  }

  // Each chunk's state phi(K_c)^T V_c [F, Dv] and key sum [F].
  Value chunkStates = batchMatmul(b, k, v, /*transposeLhs=*/true, false);
  Value chunkSums = generic(
      b, {k}, zeros(b, {all, F}), {identity(b, 3), project(b, 3, {0, 2})},
      {IteratorType::parallel, IteratorType::reduction, IteratorType::parallel},
      [](Builder &nb, ValueRange a) {
        return Value(arith::AddFOp::create(nb, a[0], a[1]));
      });

  // FAVOR+: the largest c before each chunk (an exclusive prefix maximum
  // over the chunks, a thread per head), and the scan's rescaling: the
  // state before chunk t is on the scale `before[t]`, so the step of chunk
  // t is `acc exp(before[t] - next) + chunk exp(chunkMax[t] - next)`,
  // `next = max(before[t], chunkMax[t])`.
  Value before, alpha, beta;
  if (c) {
    before = reshape(
        b,
        columnExclusiveScan(
            b, reshape(b, chunkMax, {BH, chunks, 1}), cF32(b, -INFINITY),
            [](Builder &lb, Value acc, Value term, Value, Value) {
              return Value(arith::MaximumFOp::create(lb, acc, term));
            }),
        {BH, chunks});
    auto scale = [&](bool ofChunk) {
      return generic(b, {before, reshape(b, chunkMax, {BH, chunks})},
                     zeros(b, {BH, chunks}),
                     {identity(b, 2), identity(b, 2), identity(b, 2)},
                     {IteratorType::parallel, IteratorType::parallel},
                     [&](Builder &nb, ValueRange a) {
                       Value next = arith::MaximumFOp::create(nb, a[0], a[1]);
                       return weighted(nb, cF32(nb, 1.0), a[ofChunk ? 1 : 0],
                                       next);
                     });
    };
    alpha = scale(false);
    beta = scale(true);
  }

  // Exclusive prefix sums over the chunks: for the GPU a thread per state
  // element; else one parallel addition of the [BH, F, Dv] states per
  // chunk.
  Value sums3 = reshape(b, chunkSums, {BH, chunks, F});
  Value beforeStates, beforeSums;
  if (parallelScans) {
    auto scan = [&](Value x) {
      if (!alpha)
        return columnPrefixSums(b, x);
      return columnExclusiveScan(
          b, x, cF32(b, 0.0),
          [&](Builder &lb, Value acc, Value term, Value bi, Value s) {
            return rescaledSum(lb, acc, term, extract(lb, alpha, {bi, s}),
                               extract(lb, beta, {bi, s}));
          });
    };
    beforeStates = reshape(
        b, scan(reshape(b, chunkStates, {BH, chunks, F * Dv})), {all, F, Dv});
    beforeSums = reshape(b, scan(sums3), {all, F});
  } else {
    Value states4 = reshape(b, chunkStates, {BH, chunks, F, Dv});
    std::tie(beforeStates, beforeSums) =
        chunkPrefixSums(b, states4, sums3, alpha, beta, BH, chunks, F, Dv);
    beforeStates = reshape(b, beforeStates, {all, F, Dv});
    beforeSums = reshape(b, beforeSums, {all, F});
  }

  // FAVOR+: row i's scale m_i = max(before, c_j for j <= i in its chunk);
  // the queries of the inter-chunk products take exp(before - m_i).
  Value rowScale, qInter = q;
  if (c) {
    Value beforeAll = reshape(b, before, {all});
    rowScale = generic(
        b, {c, beforeAll}, filled(b, {all, C}, -INFINITY),
        {project(b, 3, {0, 2}), project(b, 3, {0}), project(b, 3, {0, 1})},
        {IteratorType::parallel, IteratorType::parallel,
         IteratorType::reduction},
        [](Builder &nb, ValueRange a) {
          Value visible = onOrBelowDiagonal(nb);
          Value candidate = arith::MaximumFOp::create(
              nb, select(nb, visible, a[0], cF32(nb, -INFINITY)), a[1]);
          return Value(arith::MaximumFOp::create(nb, candidate, a[2]));
        });
    qInter = generic(b, {q, beforeAll, rowScale}, zeros(b, {all, C, F}),
                     {identity(b, 3), project(b, 3, {0}), project(b, 3, {0, 1}),
                      identity(b, 3)},
                     parallel3, [](Builder &nb, ValueRange a) {
                       return weighted(nb, a[0], a[1], a[2]);
                     });
  }

  // Inter-chunk: phi(q_i) . S_(before c) and phi(q_i) . z_(before c).
  Value numerator = batchMatmul(b, qInter, beforeStates, false, false);
  Value denominator = generic(
      b, {qInter, beforeSums}, zeros(b, {all, C}),
      {project(b, 3, {0, 1, 2}), project(b, 3, {0, 2}), project(b, 3, {0, 1})},
      {IteratorType::parallel, IteratorType::parallel, IteratorType::reduction},
      [](Builder &nb, ValueRange a) {
        return Value(arith::AddFOp::create(
            nb, arith::MulFOp::create(nb, a[0], a[1]), a[2]));
      });
  // Intra-chunk: the lower triangle of phi(Q_c) phi(K_c)^T (FAVOR+: key j
  // of row i times exp(c_j - m_i)).
  Value scores = batchMatmul(b, q, kScores, false, /*transposeRhs=*/true);
  SmallVector<Value> lowerInputs{scores};
  SmallVector<AffineMap> lowerMaps{identity(b, 3)};
  if (c) {
    lowerInputs.append({c, rowScale});
    lowerMaps.append({project(b, 3, {0, 2}), project(b, 3, {0, 1})});
  }
  lowerMaps.push_back(identity(b, 3));
  Value lower = generic(b, lowerInputs, zeros(b, {all, C, C}), lowerMaps,
                        parallel3, [&](Builder &nb, ValueRange a) {
                          Value visible = onOrBelowDiagonal(nb);
                          Value score =
                              c ? weighted(nb, a[0], a[1], a[2]) : a[0];
                          return select(nb, visible, score, cF32(nb, 0.0));
                        });
  numerator = batchMatmul(b, lower, v, false, false, numerator);
  denominator = generic(
      b, {lower}, denominator, {identity(b, 3), project(b, 3, {0, 1})},
      {IteratorType::parallel, IteratorType::parallel, IteratorType::reduction},
      [](Builder &nb, ValueRange a) {
        return Value(arith::AddFOp::create(nb, a[0], a[1]));
      });
  return {reshape(b, numerator, {B, H, N, Dv}),
          reshape(b, denominator, {B, H, N})};
}

struct AtticLowerStatePass
    : public attic::impl::AtticLowerStateBase<AtticLowerStatePass> {
  using AtticLowerStateBase::AtticLowerStateBase;
  void runOnOperation() override {
    if (failed(attic::detail::refuseAtticRoot(getOperation(),
                                              "attic-lower-state")) ||
        failed(lowerStateOps(getOperation(), parallelScans, iterationLoops)))
      signalPassFailure();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// L1 -> L2
//===----------------------------------------------------------------------===//

/// `value`, or NaN where `sum` (a denominator's sum, or the sum of squares
/// of RMSNorm) overflowed to +inf: a finite numerator over it would be a
/// silent 0 (q = k = 5e17 made every output 0, exit 0), where the true
/// result is finite; NaN is reported by the run (non-finite results from
/// finite inputs).
static Value overflowIsNaN(attic::detail::Builder &nb, Value sum, Value value) {
  Value inf = cF32(nb, std::numeric_limits<double>::infinity());
  Value nan = cF32(nb, std::numeric_limits<double>::quiet_NaN());
  Value overflowed =
      arith::CmpFOp::create(nb, arith::CmpFPredicate::OEQ, sum, inf);
  return select(nb, overflowed, nan, value);
}

LogicalResult attic::decomposeKernelized(RewriterBase &rewriter,
                                         KernelizedAttentionOp op) {
  attic::detail::Builder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  RankedTensorType queryType = op.getQuery().getType();
  RankedTensorType keyType = op.getKey().getType();
  int64_t B = queryType.getDimSize(0), H = queryType.getDimSize(1),
          Nq = queryType.getDimSize(2), D = queryType.getDimSize(3);
  int64_t Nk = keyType.getDimSize(2);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  int64_t F = op.getFeatureCount();
  FeatureMap map = op.getFeatureMap();

  Value projection = op.getProjection();
  if (op.isRandomFeatureMap() && !projection) {
    FailureOr<std::vector<float>> w =
        drawRandomFeatures(uint64_t(*op.getSeed()), F, D);
    if (failed(w))
      return op.emitOpError("drawing the random features failed (a "
                            "degenerate Gaussian block)");
    auto wType = RankedTensorType::get({F, D}, b.getF32Type());
    projection = arith::ConstantOp::create(
        b, DenseElementsAttr::get(wType, ArrayRef<float>(*w)));
  }
  IntegerAttr period;
  if (map == FeatureMap::Cosformer)
    period = b.getI64IntegerAttr(std::max(Nq, Nk));
  // FAVOR+'s keys also return their stabilizers, for the state ops.
  auto featureMap = [&](Value x, int64_t n, bool keys) {
    Type stabilizer;
    if (keys && map == FeatureMap::FavorPlus)
      stabilizer = RankedTensorType::get({B, H, n}, b.getF32Type());
    return FeatureMapOp::create(
        b, RankedTensorType::get({B, H, n, F}, b.getF32Type()), stabilizer, map,
        x, projection, period);
  };
  Value phiq = featureMap(op.getQuery(), Nq, false).getResult();
  FeatureMapOp keyMap = featureMap(op.getKey(), Nk, true);
  Value phik = keyMap.getResult(), keyStabilizer = keyMap.getStabilizer();

  Value numerator, denominator;
  if (op.getCausal()) {
    auto scan = StateScanOp::create(
        b, RankedTensorType::get({B, H, Nq, Dv}, b.getF32Type()),
        RankedTensorType::get({B, H, Nq}, b.getF32Type()), phiq, phik,
        op.getValue(), op.getMask(), keyStabilizer, op.getChunkOr());
    numerator = scan.getNumerator();
    denominator = scan.getDenominator();
  } else {
    auto reduce = StateReduceOp::create(
        b, RankedTensorType::get({B, H, F, Dv}, b.getF32Type()),
        RankedTensorType::get({B, H, F}, b.getF32Type()), phik, op.getValue(),
        op.getMask(), keyStabilizer);
    numerator =
        reshape(b,
                batchMatmul(b, reshape(b, phiq, {B * H, Nq, F}),
                            reshape(b, reduce.getState(), {B * H, F, Dv}),
                            false, false),
                {B, H, Nq, Dv});
    denominator = generic(
        b, {phiq, reduce.getNormalizer()}, zeros(b, {B, H, Nq}),
        {identity(b, 4), project(b, 4, {0, 1, 3}), project(b, 4, {0, 1, 2})},
        {IteratorType::parallel, IteratorType::parallel, IteratorType::parallel,
         IteratorType::reduction},
        [](attic::detail::Builder &nb, ValueRange a) {
          return Value(arith::AddFOp::create(
              nb, arith::MulFOp::create(nb, a[0], a[1]), a[2]));
        });
  }

  double eps = op.getEps().convertToDouble();
  SmallVector<IteratorType> parallel4(4, IteratorType::parallel);
  Value result;
  if (op.getNormalize() == KernelNorm::Linear) {
    result = generic(b, {numerator, denominator}, zeros(b, {B, H, Nq, Dv}),
                     {identity(b, 4), project(b, 4, {0, 1, 2}), identity(b, 4)},
                     parallel4, [&](attic::detail::Builder &nb, ValueRange a) {
                       Value clamped =
                           arith::MaximumFOp::create(nb, a[1], cF32(nb, eps));
                       Value quotient =
                           arith::DivFOp::create(nb, a[0], clamped);
                       return overflowIsNaN(nb, a[1], quotient);
                     });
  } else {
    // RMSNorm: o / (sqrt(mean_e o^2) + eps), no learned scale.
    Value squares =
        generic(b, {numerator}, zeros(b, {B, H, Nq}),
                {identity(b, 4), project(b, 4, {0, 1, 2})},
                {IteratorType::parallel, IteratorType::parallel,
                 IteratorType::parallel, IteratorType::reduction},
                [](attic::detail::Builder &nb, ValueRange a) {
                  return Value(arith::AddFOp::create(
                      nb, arith::MulFOp::create(nb, a[0], a[0]), a[1]));
                });
    result = generic(b, {numerator, squares}, zeros(b, {B, H, Nq, Dv}),
                     {identity(b, 4), project(b, 4, {0, 1, 2}), identity(b, 4)},
                     parallel4, [&](attic::detail::Builder &nb, ValueRange a) {
                       Value mean = arith::MulFOp::create(
                           nb, a[1], cF32(nb, 1.0 / double(Dv)));
                       Value rms = math::SqrtOp::create(nb, mean);
                       Value denom =
                           arith::AddFOp::create(nb, rms, cF32(nb, eps));
                       return overflowIsNaN(
                           nb, a[1], arith::DivFOp::create(nb, a[0], denom));
                     });
  }
  rewriter.replaceOp(op, result);
  return success();
}

LogicalResult attic::lowerStateOps(Operation *root, bool parallelScans,
                                   bool iterationLoops) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<FeatureMapOp, StateReduceOp, StateScanOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    attic::detail::Builder b(op->getLoc(), op);
    SmallVector<Value> results;
    if (auto map = dyn_cast<FeatureMapOp>(op))
      results = lowerFeatureMap(b, map);
    else if (auto reduce = dyn_cast<StateReduceOp>(op))
      results = lowerStateReduce(b, reduce);
    else
      results = lowerStateScan(b, cast<StateScanOp>(op), parallelScans);
    op->replaceAllUsesWith(results);
    op->erase();
  }
  return lowerHashOps(root, parallelScans, iterationLoops);
}
