//===- TensorBuilders.h - small builders of upstream ops on tensors -*- C++
//-*-===//
//
// Private to lib/Transforms: the helpers with which the expansions of L1 ops
// (attic-expand-vcc, attic-expand-cst) build upstream ops on tensors before
// bufferization: constants, loops, element-wise tensors (linalg.generic
// without inputs, tensor.generate), extracts and selects.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_LIB_TRANSFORMS_TENSORBUILDERS_H
#define ATTIC_LIB_TRANSFORMS_TENSORBUILDERS_H

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cmath>
#include <limits>

namespace attic::detail {

using namespace mlir;

using Builder = ImplicitLocOpBuilder;
/// The value of one element, given the builder and the element's indices.
using ElementFn = llvm::function_ref<Value(Builder &, ValueRange)>;
/// Loop body: yields the new iter_args.
using LoopFn =
    llvm::function_ref<SmallVector<Value>(Builder &, Value, ValueRange)>;
using BranchFn = llvm::function_ref<SmallVector<Value>(Builder &)>;

inline Value cIndex(Builder &b, int64_t value) {
  return arith::ConstantIndexOp::create(b, value);
}
/// An i32 constant with the low 32 bits of `value` (bit patterns such as
/// 0xFF000000 included).
inline Value cI32(Builder &b, int64_t value) {
  return arith::ConstantOp::create(b, b.getI32IntegerAttr(int32_t(value)));
}
inline Value cI64(Builder &b, int64_t value) {
  return arith::ConstantOp::create(b, b.getI64IntegerAttr(value));
}
inline Value cF32(Builder &b, double value) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(float(value)));
}
inline Value cF64(Builder &b, double value) {
  return arith::ConstantOp::create(b, b.getF64FloatAttr(value));
}
/// `x` (f32) extended to f64, and `x` (f64) rounded to f32.
inline Value toF64(Builder &b, Value x) {
  return arith::ExtFOp::create(b, b.getF64Type(), x);
}
inline Value toF32(Builder &b, Value x) {
  return arith::TruncFOp::create(b, b.getF32Type(), x);
}

/// scf.for iv in [0, upper) with `inits` as iter_args.
inline SmallVector<Value> forLoop(Builder &b, int64_t upper, ValueRange inits,
                                  LoopFn body) {
  auto loop = scf::ForOp::create(
      b, cIndex(b, 0), cIndex(b, upper), cIndex(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value iv, ValueRange args) {
        Builder inner(loc, nested);
        SmallVector<Value> yields = body(inner, iv, args);
        scf::YieldOp::create(inner, yields);
      });
  return SmallVector<Value>(loop.getResults());
}

/// forLoop marked kRepeatedStepsAttrName (attic/Transforms/Passes.h): a
/// loop of repeated steps that the GPU pipelines unroll.
inline SmallVector<Value> stepLoop(Builder &b, int64_t upper, ValueRange inits,
                                   LoopFn body) {
  SmallVector<Value> results = forLoop(b, upper, inits, body);
  results.front().getDefiningOp()->setAttr(kRepeatedStepsAttrName,
                                           UnitAttr::get(b.getContext()));
  return results;
}

/// scf.for iv in [lb, ub) with `inits` as iter_args (bounds as values).
inline SmallVector<Value> rangeLoop(Builder &b, Value lb, Value ub,
                                    ValueRange inits, LoopFn body) {
  auto loop = scf::ForOp::create(
      b, lb, ub, cIndex(b, 1), inits,
      [&](OpBuilder &nested, Location loc, Value iv, ValueRange args) {
        Builder inner(loc, nested);
        scf::YieldOp::create(inner, body(inner, iv, args));
      });
  return SmallVector<Value>(loop.getResults());
}

/// The largest x in [0, size) with below(x) true, for a predicate that is
/// true at 0 and stays false once it is false (monotone): a bisection of
/// ceil(log2(size)) steps, an scf.for with a static trip count.
inline Value lastTrue(Builder &b, int64_t size,
                      llvm::function_ref<Value(Builder &, Value)> below) {
  int64_t steps = 0;
  while ((int64_t(1) << steps) < size)
    ++steps;
  // below(lo) holds; below(hi) does not (hi = size: past the end).
  SmallVector<Value> range =
      forLoop(b, steps, ValueRange{cIndex(b, 0), cIndex(b, size)},
              [&](Builder &lb, Value, ValueRange lh) {
                Value mid = arith::DivUIOp::create(
                    lb, arith::AddIOp::create(lb, lh[0], lh[1]), cIndex(lb, 2));
                Value holds = below(lb, mid);
                return SmallVector<Value>{
                    arith::SelectOp::create(lb, holds, mid, lh[0]),
                    arith::SelectOp::create(lb, holds, lh[1], mid)};
              });
  return range[0];
}

/// scf.if cond then ... else ... yielding values of `types`.
inline SmallVector<Value> ifElse(Builder &b, Value cond, TypeRange types,
                                 BranchFn thenBody, BranchFn elseBody) {
  auto ifOp = scf::IfOp::create(b, types, cond, /*withElseRegion=*/true);
  for (auto [block, body] :
       {std::pair<Block *, BranchFn>{ifOp.thenBlock(), thenBody},
        {ifOp.elseBlock(), elseBody}}) {
    Builder inner = Builder::atBlockEnd(b.getLoc(), block);
    SmallVector<Value> yields = body(inner);
    scf::YieldOp::create(inner, yields);
  }
  return SmallVector<Value>(ifOp.getResults());
}

/// A tensor with element `indices` = element(indices), computed by a
/// linalg.generic with no inputs (the indices from linalg.index): its
/// elements are independent, so it becomes a parallel loop after
/// bufferization, and unlike tensor.generate it is never inlined into its
/// readers. For scratch that is read many times (tree_select's scores).
inline Value parallelTensor(Builder &b, RankedTensorType type,
                            ElementFn element) {
  Value init =
      tensor::EmptyOp::create(b, type.getShape(), type.getElementType());
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, TypeRange{type}, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange) {
        Builder inner(loc, nested);
        SmallVector<Value> ivs;
        for (int64_t d = 0; d < rank; ++d)
          ivs.push_back(linalg::IndexOp::create(inner, d));
        linalg::YieldOp::create(inner, element(inner, ivs));
      });
  return generic.getResult(0);
}

/// Body of forEachColumn: the thread's sequence and feature and its
/// columns; yields the columns' new values.
using ColumnFn =
    llvm::function_ref<SmallVector<Value>(Builder &, Value, Value, ValueRange)>;

/// An scf.forall over (sequence bi, feature e) in [0, batch) x [0, dim)
/// whose thread owns column [bi, ..., e] of each of `outs` (tensors
/// [batch, ..., dim]): `body` gets the columns (tensors of the middle
/// dimensions; [1] for a [batch, dim] tensor) and yields their new values,
/// which tensor.parallel_insert_slice puts back. The columns of different
/// threads are disjoint, so the threads are independent; after
/// bufferization and scf-forall-to-parallel it is one parallel loop (one
/// kernel on the GPU, consecutive threads on consecutive features).
inline SmallVector<Value> forEachColumn(Builder &b, int64_t batch, int64_t dim,
                                        ValueRange outs, ColumnFn body) {
  auto forall = scf::ForallOp::create(
      b, ArrayRef<OpFoldResult>{b.getIndexAttr(batch), b.getIndexAttr(dim)},
      outs, std::nullopt);
  Block *block = forall.getBody();
  Value bi = block->getArgument(0), e = block->getArgument(1);
  Builder inner(b.getLoc(), b.getContext());
  inner.setInsertionPoint(forall.getTerminator());
  SmallVector<Value> columns;
  SmallVector<SmallVector<OpFoldResult>> offsets, sizes, strides;
  for (auto [i, out] : llvm::enumerate(outs)) {
    auto type = cast<RankedTensorType>(out.getType());
    int64_t rank = type.getRank();
    ArrayRef<int64_t> middle = type.getShape().slice(1, rank - 2);
    SmallVector<OpFoldResult> offset{bi}, size{b.getIndexAttr(1)};
    for (int64_t extent : middle) {
      offset.push_back(b.getIndexAttr(0));
      size.push_back(b.getIndexAttr(extent));
    }
    offset.push_back(e);
    size.push_back(b.getIndexAttr(1));
    offsets.push_back(offset);
    sizes.push_back(size);
    strides.push_back(SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
    auto columnType = RankedTensorType::get(
        middle.empty() ? ArrayRef<int64_t>{1} : middle, type.getElementType());
    columns.push_back(tensor::ExtractSliceOp::create(
        inner, columnType, forall.getRegionIterArgs()[i], offset, size,
        strides.back()));
  }
  SmallVector<Value> results = body(inner, bi, e, columns);
  Builder terminator(b.getLoc(), b.getContext());
  terminator.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [i, result] : llvm::enumerate(results))
    tensor::ParallelInsertSliceOp::create(terminator, result,
                                          forall.getRegionIterArgs()[i],
                                          offsets[i], sizes[i], strides[i]);
  return SmallVector<Value>(forall.getResults());
}

/// Exclusive scans over dim 1 of `x` ([batch, steps, width], f32 or
/// integer) as independent columns: a thread per (batch, w) of
/// forEachColumn combines its column in order, so each element is that of
/// a sequential scan, bitwise. The column's running value starts at
/// `identity` and takes `next(running, term, bi, s)` after step s; step s
/// gets the value before it.
inline Value columnExclusiveScan(
    Builder &b, Value x, Value identity,
    llvm::function_ref<Value(Builder &, Value, Value, Value, Value)> next) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t batch = type.getDimSize(0), steps = type.getDimSize(1),
          width = type.getDimSize(2);
  Value init =
      tensor::EmptyOp::create(b, type.getShape(), type.getElementType());
  return forEachColumn(
      b, batch, width, init,
      [&](Builder &cb, Value bi, Value w,
          ValueRange columns) -> SmallVector<Value> {
        return {forLoop(
            cb, steps, {columns[0], identity},
            [&](Builder &lb, Value s, ValueRange acc) {
              Value term =
                  tensor::ExtractOp::create(lb, x, ValueRange{bi, s, w});
              return SmallVector<Value>{
                  tensor::InsertOp::create(lb, acc[1], acc[0], ValueRange{s}),
                  next(lb, acc[1], term, bi, s)};
            })[0]};
      })[0];
}

/// Exclusive prefix sums over dim 1 of `x` ([batch, steps, width], f32 or
/// integer), a thread per column (columnExclusiveScan).
inline Value columnPrefixSums(Builder &b, Value x) {
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  bool isFloat = isa<FloatType>(element);
  Value zero = isFloat
                   ? arith::ConstantOp::create(b, b.getFloatAttr(element, 0))
                   : arith::ConstantOp::create(b, b.getIntegerAttr(element, 0));
  return columnExclusiveScan(
      b, x, zero, [&](Builder &lb, Value acc, Value term, Value, Value) {
        return isFloat ? Value(arith::AddFOp::create(lb, term, acc))
                       : Value(arith::AddIOp::create(lb, term, acc));
      });
}

/// Scans written as independent elements (attic-expand-vcc's
/// parallel-scans) count in chunks of this many elements.
constexpr int64_t kScanChunk = 64;

/// The first element of chunk c of kScanChunk elements, and the end of
/// chunk c in a sequence of `length`.
inline Value chunkStart(Builder &b, Value c) {
  return arith::MulIOp::create(b, c, cIndex(b, kScanChunk));
}
inline Value chunkEnd(Builder &b, Value c, int64_t length) {
  return arith::MinSIOp::create(
      b, arith::AddIOp::create(b, chunkStart(b, c), cIndex(b, kScanChunk)),
      cIndex(b, length));
}

/// 1 (index) when element x of sequence bi is counted, else 0.
using MemberFn = llvm::function_ref<Value(Builder &, Value, Value)>;

/// Counts of a per-element predicate over [batch, length] by chunks of
/// kScanChunk: counts[b, c] in chunk c, before[b, c] in the chunks before c
/// (both i64, each element a loop of at most max(64, chunks) steps).
struct ChunkCounts {
  int64_t length = 0, chunks = 0;
  Value counts, before;

  static ChunkCounts build(Builder &b, int64_t batch, int64_t length,
                           MemberFn member) {
    ChunkCounts cc;
    cc.length = length;
    cc.chunks = (length + kScanChunk - 1) / kScanChunk;
    auto type = RankedTensorType::get({batch, cc.chunks}, b.getI64Type());
    cc.counts = parallelTensor(b, type, [&](Builder &nb, ValueRange i) {
      Value n =
          rangeLoop(nb, cc.start(nb, i[1]), cc.end(nb, i[1]), cIndex(nb, 0),
                    [&](Builder &lb, Value x, ValueRange acc) {
                      return SmallVector<Value>{arith::AddIOp::create(
                          lb, acc[0], member(lb, i[0], x))};
                    })
              .front();
      return arith::IndexCastOp::create(nb, nb.getI64Type(), n);
    });
    Value counts = cc.counts;
    cc.before = parallelTensor(b, type, [&](Builder &nb, ValueRange i) {
      return rangeLoop(nb, cIndex(nb, 0), i[1],
                       arith::ConstantOp::create(nb, nb.getI64IntegerAttr(0))
                           .getResult(),
                       [&](Builder &lb, Value c, ValueRange acc) {
                         return SmallVector<Value>{arith::AddIOp::create(
                             lb, acc[0],
                             tensor::ExtractOp::create(lb, counts,
                                                       ValueRange{i[0], c}))};
                       })
          .front();
    });
    return cc;
  }
  /// The first element of chunk c, and the end of chunk c.
  Value start(Builder &b, Value c) const { return chunkStart(b, c); }
  Value end(Builder &b, Value c) const { return chunkEnd(b, c, length); }
  /// before[bi, c] as an index.
  Value beforeChunk(Builder &b, Value bi, Value c) const {
    return arith::IndexCastOp::create(
        b, b.getIndexType(),
        tensor::ExtractOp::create(b, before, ValueRange{bi, c}));
  }
  /// The counted elements of sequence bi: before and in the last chunk.
  Value total(Builder &b, Value bi) const {
    Value last = cIndex(b, chunks - 1);
    Value inLast = arith::IndexCastOp::create(
        b, b.getIndexType(),
        tensor::ExtractOp::create(b, counts, ValueRange{bi, last}));
    return arith::AddIOp::create(b, beforeChunk(b, bi, last), inLast);
  }
  /// The counted elements of sequence bi in [0, x) (x < length): the
  /// chunks before x's, then a loop over x's chunk up to x.
  Value countBefore(Builder &b, Value bi, Value x, MemberFn member) const {
    Value c = arith::DivUIOp::create(b, x, cIndex(b, kScanChunk));
    return rangeLoop(b, start(b, c), x, beforeChunk(b, bi, c),
                     [&](Builder &lb, Value t, ValueRange acc) {
                       return SmallVector<Value>{arith::AddIOp::create(
                           lb, acc[0], member(lb, bi, t))};
                     })
        .front();
  }
};

/// tensor.generate: for the results of the ops (see the file comment).
inline Value generate(Builder &b, RankedTensorType type, ElementFn element) {
  return tensor::GenerateOp::create(
      b, type, ValueRange{},
      [&](OpBuilder &nested, Location loc, ValueRange ivs) {
        Builder inner(loc, nested);
        tensor::YieldOp::create(inner, element(inner, ivs));
      });
}

inline Value extract(Builder &b, Value tensor, ValueRange indices) {
  return tensor::ExtractOp::create(b, tensor, indices);
}
inline Value insert(Builder &b, Value value, Value tensor, ValueRange indices) {
  return tensor::InsertOp::create(b, value, tensor, indices);
}
inline Value select(Builder &b, Value cond, Value a, Value c) {
  return arith::SelectOp::create(b, cond, a, c);
}
inline Value positive(Builder &b, Value count) {
  return arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, count,
                               cF32(b, 0.0));
}
/// count > 0 ? sum / count : 0
inline Value meanOrZero(Builder &b, Value sum, Value count) {
  return select(b, positive(b, count), arith::DivFOp::create(b, sum, count),
                cF32(b, 0.0));
}
/// `index` (i64) clamped to [0, size) as an index.
inline Value clampIndex(Builder &b, Value index, int64_t size) {
  Value clamped = arith::MaxSIOp::create(b, index, cI64(b, 0));
  clamped = arith::MinSIOp::create(b, clamped, cI64(b, size - 1));
  return arith::IndexCastOp::create(b, b.getIndexType(), clamped);
}

inline RankedTensorType f32Tensor(Builder &b, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, b.getF32Type());
}

/// Powers of two per row of `x` ([R, N, D], f32) that bring the row's
/// largest magnitude into [1, 2) ([2, 4) from 2^127): `{scale, inverse}`, both
/// [R] f32, with scale = 2^(127 - E) and inverse = 2^(E - 127) for the biased
/// exponent E of max |x| clamped to [1, 253] (a zero or subnormal maximum gets
/// 2^126, a maximum of 2^127 or more 2^-126). The maximum is over the row's
/// finite elements: a NaN or inf stays NaN or inf when scaled, and the other
/// points of its row keep their scale (a NaN query made every other query
/// of its head 2^-126 times smaller, subnormal or 0, and K-means put nearly
/// all of them in one cluster; a 2026-11-30 audit). Products by them are
/// exact for normal results, so sums, dot products and comparisons of scaled
/// rows round exactly as the unscaled ones would have wherever those did not
/// overflow: computations that are invariant to a positive factor (rankings,
/// nearest centroids) run on the scaled rows without overflowing f32 at
/// |x| up to FLT_MAX, and without underflowing at tiny |x|.
inline std::pair<Value, Value> rowExponentScales(Builder &b, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rows = type.getDimSize(0), n = type.getDimSize(1),
          d = type.getDimSize(2);
  // The largest magnitude per point of x, then per row (two parallel
  // steps, so that no thread loops over n * d elements).
  Value perPoint = parallelTensor(
      b, f32Tensor(b, {rows, n}), [&](Builder &nb, ValueRange i) {
        return forLoop(
            nb, d, cF32(nb, 0.0), [&](Builder &lb, Value k, ValueRange acc) {
              Value v =
                  tensor::ExtractOp::create(lb, x, ValueRange{i[0], i[1], k});
              Value magnitude = math::AbsFOp::create(lb, v);
              Value finite = arith::CmpFOp::create(
                  lb, arith::CmpFPredicate::OLT, magnitude,
                  cF32(lb, std::numeric_limits<double>::infinity()));
              magnitude = select(lb, finite, magnitude, cF32(lb, 0.0));
              return SmallVector<Value>{
                  arith::MaximumFOp::create(lb, acc[0], magnitude)};
            })[0];
      });
  Value largest =
      parallelTensor(b, f32Tensor(b, {rows}), [&](Builder &nb, ValueRange i) {
        return forLoop(
            nb, n, cF32(nb, 0.0), [&](Builder &lb, Value k, ValueRange acc) {
              Value v =
                  tensor::ExtractOp::create(lb, perPoint, ValueRange{i[0], k});
              return SmallVector<Value>{
                  arith::MaximumFOp::create(lb, acc[0], v)};
            })[0];
      });
  auto power = [&](bool inverse) {
    return parallelTensor(
        b, f32Tensor(b, {rows}), [&](Builder &nb, ValueRange i) {
          Value m = tensor::ExtractOp::create(nb, largest, i);
          Value bits = arith::BitcastOp::create(nb, nb.getI32Type(), m);
          Value e = arith::ShRUIOp::create(nb, bits, cI32(nb, 23));
          e = arith::MaxSIOp::create(nb, e, cI32(nb, 1));
          e = arith::MinSIOp::create(nb, e, cI32(nb, 253));
          if (!inverse)
            e = arith::SubIOp::create(nb, cI32(nb, 254), e);
          Value shifted = arith::ShLIOp::create(nb, e, cI32(nb, 23));
          return Value(arith::BitcastOp::create(nb, nb.getF32Type(), shifted));
        });
  };
  return {power(false), power(true)};
}

/// `x` ([R, N, D], f32) with each row times its power of two from
/// rowExponentScales, and the inverse powers ([R]) that undo it.
inline std::pair<Value, Value> rowsAtUnitExponent(Builder &b, Value x) {
  std::pair<Value, Value> scales = rowExponentScales(b, x);
  auto type = cast<RankedTensorType>(x.getType());
  Value scaled = parallelTensor(b, type, [&](Builder &nb, ValueRange i) {
    return Value(arith::MulFOp::create(nb, extract(nb, x, i),
                                       extract(nb, scales.first, {i[0]})));
  });
  return {scaled, scales.second};
}

/// lhs [M,K] x rhs [K,N] as a linalg.matmul into zeros (f32).
inline Value matmul(Builder &b, Value lhs, Value rhs) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  Value zero =
      linalg::FillOp::create(
          b, ValueRange{cF32(b, 0.0)},
          ValueRange{tensor::EmptyOp::create(
              b,
              ArrayRef<int64_t>{lhsType.getDimSize(0), rhsType.getDimSize(1)},
              b.getF32Type())})
          .getResult(0);
  return linalg::MatmulOp::create(b, ValueRange{lhs, rhs}, ValueRange{zero})
      .getResult(0);
}

/// `value` reshaped to `shape` (same element count, row-major): a
/// collapse to 1-D then an expand, both views after bufferization.
inline Value reshape(Builder &b, Value value, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  int64_t count = type.getNumElements();
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  Value flat = value;
  if (type.getRank() != 1)
    flat = tensor::CollapseShapeOp::create(
        b, RankedTensorType::get({count}, type.getElementType()), value,
        SmallVector<ReassociationIndices>{all});
  if (shape.size() == 1)
    return flat;
  ReassociationIndices target;
  for (size_t d = 0; d < shape.size(); ++d)
    target.push_back(d);
  return tensor::ExpandShapeOp::create(
      b, RankedTensorType::get(shape, type.getElementType()), flat,
      SmallVector<ReassociationIndices>{target});
}

/// A static f32 tensor of `shape` filled with `value`.
inline Value filled(Builder &b, ArrayRef<int64_t> shape, double value) {
  Value empty = tensor::EmptyOp::create(b, shape, b.getF32Type());
  return linalg::FillOp::create(b, ValueRange{cF32(b, value)},
                                ValueRange{empty})
      .getResult(0);
}

inline Value zeros(Builder &b, ArrayRef<int64_t> shape) {
  return filled(b, shape, 0.0);
}

/// The power of two 2^e <= |scale| where |scale| is below 1, else 1: the
/// queries times it before Q K^T, and the products times scale / 2^e after,
/// overflow f32 only where the scaled logits do (as the tile loop's
/// query_scale; unscaled, Q K^T overflowed for finite logits). Both
/// multiplications by it are exact above f32's normal range's bottom.
inline double logitPrescale(double scale) {
  double magnitude = std::fabs(scale);
  if (!(magnitude < 1.0) || magnitude == 0.0)
    return 1.0;
  return std::exp2(std::floor(std::log2(magnitude)));
}

/// `value` (a static f32 tensor) times `factor`, elementwise.
inline Value scaledBy(Builder &b, Value value, double factor) {
  if (factor == 1.0)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  return parallelTensor(b, type, [&](Builder &nb, ValueRange i) {
    return Value(
        arith::MulFOp::create(nb, extract(nb, value, i), cF32(nb, factor)));
  });
}

/// out[b,m,n] (+)= sum_k lhs . rhs with `transposeLhs` (lhs is [b,k,m])
/// and `transposeRhs` (rhs is [b,n,k]); `init` accumulates when given.
inline Value batchMatmul(Builder &b, Value lhs, Value rhs, bool transposeLhs,
                         bool transposeRhs, Value init = Value()) {
  auto lt = cast<RankedTensorType>(lhs.getType()),
       rt = cast<RankedTensorType>(rhs.getType());
  int64_t batch = lt.getDimSize(0);
  int64_t m = transposeLhs ? lt.getDimSize(2) : lt.getDimSize(1);
  int64_t n = transposeRhs ? rt.getDimSize(1) : rt.getDimSize(2);
  if (!init)
    init = zeros(b, {batch, m, n});
  MLIRContext *ctx = b.getContext();
  AffineExpr db, dm, dn, dk;
  bindDims(ctx, db, dm, dn, dk);
  auto map = [&](AffineExpr x, AffineExpr y) {
    return AffineMap::get(4, 0, {db, x, y}, ctx);
  };
  SmallVector<AffineMap> maps{transposeLhs ? map(dk, dm) : map(dm, dk),
                              transposeRhs ? map(dn, dk) : map(dk, dn),
                              map(dm, dn)};
  auto op = linalg::BatchMatmulOp::create(
      b, TypeRange{init.getType()}, ValueRange{lhs, rhs}, ValueRange{init});
  op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  return op.getResult(0);
}

/// Rows of at most this many keys are ranked by comparing pairs in the
/// GPU forms (a thread per key, a loop over its row); longer ones use the
/// radix select.
constexpr int64_t kPairwiseRankLimit = 4096;

/// An f32 as an unsigned 32-bit key in the same order (i32): the sign bit
/// of a non-negative float flipped, every bit of a negative one (so -0 <
/// +0, and a NaN sorts by its bits).
inline Value orderKey(Builder &b, Value x) {
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, i32, x);
  Value negative =
      arith::CmpIOp::create(b, arith::CmpIPredicate::slt, bits, cI32(b, 0));
  return arith::SelectOp::create(
      b, negative, arith::XOrIOp::create(b, bits, cI32(b, -1)),
      arith::XOrIOp::create(b, bits, cI32(b, INT32_MIN)));
}

/// The h-th largest of the unsigned 32-bit keys ([rows, m] i32, 1 <= h
/// <= m) of each row ([rows] i32), as parallel kernels: found 8 bits at a
/// time. Per digit, from the top: a histogram of the digit per chunk of
/// kScanChunk keys among the keys that match the prefix found so far (a
/// thread per sequence, chunk and digit value, a loop over the chunk), the
/// chunks summed (a thread per sequence and digit value), then a thread per
/// sequence walks the 256 digit values down until the keys at or above one
/// reach the number still needed: that value is the digit, and the keys
/// above it are no longer needed. The same key as the bitwise select's.
inline Value radixSelect(Builder &b, Value keys, int64_t h) {
  auto keysType = cast<RankedTensorType>(keys.getType());
  int64_t batch = keysType.getDimSize(0), m = keysType.getDimSize(1);
  int64_t chunks = (m + kScanChunk - 1) / kScanChunk;
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // state[b] = (prefix of the threshold so far, keys still needed).
  Value state =
      parallelTensor(b, RankedTensorType::get({batch, 2}, i64),
                     [&](Builder &nb, ValueRange i) {
                       return arith::SelectOp::create(
                           nb,
                           arith::CmpIOp::create(nb, arith::CmpIPredicate::eq,
                                                 i[1], cIndex(nb, 0)),
                           cI64(nb, 0), cI64(nb, h));
                     });
  for (int64_t digit = 0; digit < 4; ++digit) {
    int64_t shift = 24 - 8 * digit;
    // The bits above this digit, which the prefix fixes.
    int64_t high = digit == 0 ? 0 : int64_t(uint32_t(~0u) << (shift + 8));
    auto prefixOf = [&](Builder &nb, Value bi) -> Value {
      return arith::TruncIOp::create(nb, i32,
                                     extract(nb, state, {bi, cIndex(nb, 0)}));
    };
    auto digitOf = [&](Builder &nb, Value key) -> Value {
      return arith::AndIOp::create(
          nb, arith::ShRUIOp::create(nb, key, cI32(nb, shift)), cI32(nb, 255));
    };
    Value histogram = parallelTensor(
        b, RankedTensorType::get({batch, chunks, 256}, i64),
        [&](Builder &nb, ValueRange i) {
          Value start = chunkStart(nb, i[1]), end = chunkEnd(nb, i[1], m);
          Value value = arith::IndexCastOp::create(nb, i32, i[2]);
          Value prefix = prefixOf(nb, i[0]);
          return rangeLoop(
                     nb, start, end, cI64(nb, 0),
                     [&](Builder &lb, Value x, ValueRange acc) {
                       Value key = extract(lb, keys, {i[0], x});
                       Value matches = arith::AndIOp::create(
                           lb,
                           arith::CmpIOp::create(
                               lb, arith::CmpIPredicate::eq,
                               arith::AndIOp::create(lb, key, cI32(lb, high)),
                               prefix),
                           arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                                 digitOf(lb, key), value));
                       return SmallVector<Value>{arith::AddIOp::create(
                           lb, acc[0],
                           arith::SelectOp::create(lb, matches, cI64(lb, 1),
                                                   cI64(lb, 0)))};
                     })
              .front();
        });
    Value totals = parallelTensor(
        b, RankedTensorType::get({batch, 256}, i64),
        [&](Builder &nb, ValueRange i) {
          return forLoop(nb, chunks, cI64(nb, 0),
                         [&](Builder &lb, Value c, ValueRange acc) {
                           return SmallVector<Value>{arith::AddIOp::create(
                               lb, acc[0],
                               extract(lb, histogram, {i[0], c, i[1]}))};
                         })
              .front();
        });
    Value previous = state;
    state = parallelTensor(
        b, RankedTensorType::get({batch, 2}, i64),
        [&](Builder &nb, ValueRange i) {
          Value need = extract(nb, previous, {i[0], cIndex(nb, 1)});
          // Down from 255: (found, the digit, the keys above it).
          SmallVector<Value> init{
              arith::ConstantOp::create(nb, nb.getBoolAttr(false)), cI64(nb, 0),
              cI64(nb, 0)};
          SmallVector<Value> walk =
              forLoop(nb, 256, init, [&](Builder &lb, Value k, ValueRange st) {
                Value value = arith::SubIOp::create(lb, cIndex(lb, 255), k);
                Value count = extract(lb, totals, {i[0], value});
                Value atOrAbove = arith::AddIOp::create(lb, st[2], count);
                Value here = arith::AndIOp::create(
                    lb,
                    arith::XOrIOp::create(
                        lb, st[0],
                        arith::ConstantOp::create(lb, lb.getBoolAttr(true))),
                    arith::CmpIOp::create(lb, arith::CmpIPredicate::sge,
                                          atOrAbove, need));
                return SmallVector<Value>{
                    arith::OrIOp::create(lb, st[0], here),
                    arith::SelectOp::create(
                        lb, here, arith::IndexCastOp::create(lb, i64, value),
                        st[1]),
                    arith::SelectOp::create(
                        lb, arith::OrIOp::create(lb, st[0], here), st[2],
                        atOrAbove)};
              });
          Value prefix = arith::OrIOp::create(
              nb, extract(nb, previous, {i[0], cIndex(nb, 0)}),
              arith::ShLIOp::create(nb, walk[1], cI64(nb, shift)));
          Value left = arith::SubIOp::create(nb, need, walk[2]);
          return arith::SelectOp::create(
              nb,
              arith::CmpIOp::create(nb, arith::CmpIPredicate::eq, i[1],
                                    cIndex(nb, 0)),
              prefix, left);
        });
  }
  Value last = state;
  return parallelTensor(
      b, RankedTensorType::get({batch}, i32), [&](Builder &nb, ValueRange i) {
        return arith::TruncIOp::create(
            nb, i32, extract(nb, last, {i[0], cIndex(nb, 0)}));
      });
}

/// flags[r, x] (i1): whether key x of row r ([rows, m] unsigned i32 keys)
/// ranks among the h best of its row, where x ranks before y when its key
/// is higher, or the same with a lower index, given each row's h-th
/// largest key T (`thresholds`, [rows] i32, from radixSelect): key above T,
/// or equal to T with fewer than need = h - #(keys above T) keys equal to T
/// before it. As parallel kernels: chunk counts of kScanChunk, then a loop
/// over x's chunk. Exactly h flags per row.
inline Value topFlagsAt(Builder &b, Value keys, Value thresholds, int64_t h) {
  auto keysType = cast<RankedTensorType>(keys.getType());
  int64_t batch = keysType.getDimSize(0), m = keysType.getDimSize(1);
  auto compared = [&](Builder &nb, arith::CmpIPredicate predicate, Value bi,
                      Value x) -> Value {
    return arith::CmpIOp::create(nb, predicate, extract(nb, keys, {bi, x}),
                                 extract(nb, thresholds, {bi}));
  };
  auto member = [&](arith::CmpIPredicate predicate) {
    return [&, predicate](Builder &nb, Value bi, Value x) -> Value {
      return arith::SelectOp::create(nb, compared(nb, predicate, bi, x),
                                     cIndex(nb, 1), cIndex(nb, 0));
    };
  };
  auto aboveMember = member(arith::CmpIPredicate::ugt);
  auto sameMember = member(arith::CmpIPredicate::eq);
  ChunkCounts above = ChunkCounts::build(b, batch, m, aboveMember);
  ChunkCounts same = ChunkCounts::build(b, batch, m, sameMember);
  return parallelTensor(
      b, RankedTensorType::get({batch, m}, b.getI1Type()),
      [&](Builder &nb, ValueRange i) {
        Value need =
            arith::SubIOp::create(nb, cIndex(nb, h), above.total(nb, i[0]));
        Value early = arith::CmpIOp::create(
            nb, arith::CmpIPredicate::ult,
            same.countBefore(nb, i[0], i[1], sameMember), need);
        return arith::OrIOp::create(
            nb, compared(nb, arith::CmpIPredicate::ugt, i[0], i[1]),
            arith::AndIOp::create(
                nb, compared(nb, arith::CmpIPredicate::eq, i[0], i[1]), early));
      });
}

/// largestIndices' parallel form for long rows (n > kPairwiseRankLimit,
/// count <= n): O(n + count^2) work per row instead of O(n^2).
///   1. each key as an unsigned 32-bit key (orderKey of the float, -0 as
///      +0, a NaN as 0: below every other key);
///   2. the count-th largest key T (radixSelect) and the flags of the
///      count best keys of the row (topFlagsAt: exactly count, ties to the
///      lower index);
///   3. slot p of the flagged keys in index order: the chunk whose flags
///      before it reach p (a bisection of the chunk counts), then a loop
///      over that chunk;
///   4. each slot's rank among the count slots (a greater key, or an equal
///      one at a lower index) and pick t the slot of rank t; a pick whose
///      key is NaN is -1.
/// The picks are those of the pairwise ranks (a NaN is never picked and
/// there is one rank order), including the -1 where a row has fewer than
/// `count` keys that are not NaN.
inline Value largestIndicesByRadix(Builder &b, Value keys, int64_t count) {
  auto type = cast<RankedTensorType>(keys.getType());
  int64_t rows = type.getDimSize(0), n = type.getDimSize(1);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value order = parallelTensor(
      b, RankedTensorType::get({rows, n}, i32), [&](Builder &nb, ValueRange i) {
        Value x = extract(nb, keys, i);
        Value isZero = arith::CmpFOp::create(nb, arith::CmpFPredicate::OEQ, x,
                                             cF32(nb, 0.0));
        Value key = orderKey(nb, select(nb, isZero, cF32(nb, 0.0), x));
        Value isNaN =
            arith::CmpFOp::create(nb, arith::CmpFPredicate::UNO, x, x);
        return select(nb, isNaN, cI32(nb, 0), key);
      });
  Value flags = topFlagsAt(b, order, radixSelect(b, order, count), count);
  auto flagged = [&](Builder &nb, Value r, Value x) -> Value {
    return select(nb, extract(nb, flags, {r, x}), cIndex(nb, 1), cIndex(nb, 0));
  };
  ChunkCounts counts = ChunkCounts::build(b, rows, n, flagged);
  Value slots = parallelTensor(
      b, RankedTensorType::get({rows, count}, i64),
      [&](Builder &nb, ValueRange i) {
        // The last chunk with at most p flags before it holds flag p.
        Value c = lastTrue(nb, counts.chunks, [&](Builder &lb, Value chunk) {
          return arith::CmpIOp::create(lb, arith::CmpIPredicate::ule,
                                       counts.beforeChunk(lb, i[0], chunk),
                                       i[1]);
        });
        SmallVector<Value> init{counts.beforeChunk(nb, i[0], c), cI64(nb, -1)};
        return rangeLoop(
            nb, counts.start(nb, c), counts.end(nb, c), init,
            [&](Builder &lb, Value x, ValueRange acc) {
              Value flag = extract(lb, flags, {i[0], x});
              Value hit = arith::AndIOp::create(
                  lb, flag,
                  arith::CmpIOp::create(lb, arith::CmpIPredicate::eq, acc[0],
                                        i[1]));
              Value seen = arith::AddIOp::create(
                  lb, acc[0], select(lb, flag, cIndex(lb, 1), cIndex(lb, 0)));
              Value x64 = arith::IndexCastOp::create(lb, i64, x);
              return SmallVector<Value>{seen, select(lb, hit, x64, acc[1])};
            })[1];
      });
  auto slotKey = [&](Builder &nb, Value r, Value p, Value &index) {
    Value x = extract(nb, slots, {r, p});
    index = x;
    return extract(nb, order,
                   {r, arith::IndexCastOp::create(nb, nb.getIndexType(), x)});
  };
  Value ranks = parallelTensor(
      b, RankedTensorType::get({rows, count}, i64),
      [&](Builder &nb, ValueRange i) {
        Value x;
        Value key = slotKey(nb, i[0], i[1], x);
        return forLoop(
            nb, count, cI64(nb, 0), [&](Builder &lb, Value q, ValueRange acc) {
              Value y;
              Value other = slotKey(lb, i[0], q, y);
              Value ahead = arith::OrIOp::create(
                  lb,
                  arith::CmpIOp::create(lb, arith::CmpIPredicate::ugt, other,
                                        key),
                  arith::AndIOp::create(
                      lb,
                      arith::CmpIOp::create(lb, arith::CmpIPredicate::eq, other,
                                            key),
                      arith::CmpIOp::create(lb, arith::CmpIPredicate::slt, y,
                                            x)));
              return SmallVector<Value>{select(
                  lb, ahead, arith::AddIOp::create(lb, acc[0], cI64(lb, 1)),
                  acc[0])};
            })[0];
      });
  return parallelTensor(
      b, RankedTensorType::get({rows, count}, i64),
      [&](Builder &nb, ValueRange i) {
        Value t = arith::IndexCastOp::create(nb, i64, i[1]);
        Value pick = forLoop(
            nb, count, cI64(nb, -1), [&](Builder &lb, Value p, ValueRange acc) {
              Value hit =
                  arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                        extract(lb, ranks, {i[0], p}), t);
              return SmallVector<Value>{
                  select(lb, hit, extract(lb, slots, {i[0], p}), acc[0])};
            })[0];
        // A NaN key is never picked.
        Value key =
            extract(nb, keys,
                    {i[0], arith::IndexCastOp::create(
                               nb, nb.getIndexType(),
                               arith::MaxSIOp::create(nb, pick, cI64(nb, 0)))});
        Value isNaN =
            arith::CmpFOp::create(nb, arith::CmpFPredicate::UNO, key, key);
        return select(nb, isNaN, cI64(nb, -1), pick);
      });
}

/// The indices of the `count` largest keys of each row of `keys` ([rows,
/// n] f32), in decreasing order, the lower index first on ties (-inf keys
/// last; NaN keys are never picked): [rows, count] i64.
///
/// Sequential (the CPU): pick t is the largest (key, -index) below pick
/// t - 1, `count` passes over the row in an scf.for per row; on the GPU
/// that is one thread looping over rows * count * n. With `parallel` (the
/// GPU pipelines): each key's rank (the keys ahead of it) on its own, then
/// pick t is the index of the key of rank t, n steps per element. Both
/// give the same picks when a row has at least `count` keys that are not
/// NaN (where it has fewer, the missing picks are -1 in the parallel form
/// and the sequential one repeats its -inf keys after a -1). Rows longer
/// than kPairwiseRankLimit take largestIndicesByRadix in the parallel
/// form: the same picks in O(n + count^2) per row instead of O(n^2).
inline Value largestIndices(Builder &b, Value keys, int64_t count,
                            bool parallel) {
  auto type = cast<RankedTensorType>(keys.getType());
  int64_t rows = type.getDimSize(0), n = type.getDimSize(1);
  Type i64 = b.getI64Type();
  double inf = std::numeric_limits<double>::infinity();
  auto cmpF = [](Builder &lb, arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(lb, p, x, y);
  };
  if (parallel && n > kPairwiseRankLimit && count <= n)
    return largestIndicesByRadix(b, keys, count);
  if (parallel) {
    // Ahead of key (x, i): a greater key, or an equal one at a lower index.
    Value ranks = parallelTensor(
        b, RankedTensorType::get({rows, n}, i64),
        [&](Builder &nb, ValueRange i) {
          Value key = extract(nb, keys, {i[0], i[1]});
          Value rank = forLoop(
              nb, n, cI64(nb, 0), [&](Builder &lb, Value j, ValueRange acc) {
                Value other = extract(lb, keys, {i[0], j});
                Value ahead = arith::OrIOp::create(
                    lb, cmpF(lb, arith::CmpFPredicate::OGT, other, key),
                    arith::AndIOp::create(
                        lb, cmpF(lb, arith::CmpFPredicate::OEQ, other, key),
                        arith::CmpIOp::create(lb, arith::CmpIPredicate::ult, j,
                                              i[1])));
                Value more = arith::AddIOp::create(lb, acc[0], cI64(lb, 1));
                return SmallVector<Value>{select(lb, ahead, more, acc[0])};
              })[0];
          // A NaN key is never ahead of another nor picked: rank -1.
          Value isNaN = cmpF(nb, arith::CmpFPredicate::UNO, key, key);
          return select(nb, isNaN, cI64(nb, -1), rank);
        });
    return parallelTensor(
        b, RankedTensorType::get({rows, count}, i64),
        [&](Builder &nb, ValueRange i) {
          Value t = arith::IndexCastOp::create(nb, i64, i[1]);
          return forLoop(
              nb, n, cI64(nb, -1), [&](Builder &lb, Value j, ValueRange acc) {
                Value hit =
                    arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                          extract(lb, ranks, {i[0], j}), t);
                Value j64 = arith::IndexCastOp::create(lb, i64, j);
                return SmallVector<Value>{select(lb, hit, j64, acc[0])};
              })[0];
        });
  }
  Value picks = tensor::EmptyOp::create(b, ArrayRef<int64_t>{rows, count}, i64);
  return forLoop(
      b, rows, picks, [&](Builder &rb, Value row, ValueRange rowAcc) {
        Value init[] = {rowAcc[0], cF32(rb, inf), cI64(rb, -1)};
        return SmallVector<Value>{
            forLoop(rb, count, init, [&](Builder &tb, Value t, ValueRange acc) {
              Value prevKey = acc[1], prevIndex = acc[2];
              Value best[] = {cF32(tb, -inf), cI64(tb, -1)};
              SmallVector<Value> found = forLoop(
                  tb, n, best, [&](Builder &lb, Value j, ValueRange cur) {
                    Value key = extract(lb, keys, {row, j});
                    Value j64 = arith::IndexCastOp::create(lb, i64, j);
                    // (key, -j) < (prevKey, -prevIndex): below the last pick.
                    Value below = arith::OrIOp::create(
                        lb, cmpF(lb, arith::CmpFPredicate::OLT, key, prevKey),
                        arith::AndIOp::create(
                            lb,
                            cmpF(lb, arith::CmpFPredicate::OEQ, key, prevKey),
                            arith::CmpIOp::create(lb, arith::CmpIPredicate::sgt,
                                                  j64, prevIndex)));
                    // Above the current best: greater, or the first seen.
                    Value better = arith::OrIOp::create(
                        lb, cmpF(lb, arith::CmpFPredicate::OGT, key, cur[0]),
                        arith::CmpIOp::create(lb, arith::CmpIPredicate::slt,
                                              cur[1], cI64(lb, 0)));
                    Value take = arith::AndIOp::create(lb, below, better);
                    return SmallVector<Value>{select(lb, take, key, cur[0]),
                                              select(lb, take, j64, cur[1])};
                  });
              Value next = insert(tb, found[1], acc[0], {row, t});
              return SmallVector<Value>{next, found[0], found[1]};
            })[0]};
      })[0];
}

} // namespace attic::detail

#endif // ATTIC_LIB_TRANSFORMS_TENSORBUILDERS_H
