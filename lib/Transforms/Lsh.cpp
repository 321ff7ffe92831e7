//===- Lsh.cpp - LSH and clustered attention into the shared core -*- C++
//-*-===//
//
// Reformer's LSH attention and clustered attention (docs/lsh.md). Clustered
// attention: attic-decompose (decomposeClustered) rewrites it into
// attic.kmeans, one attic.attention of the centroids and an
// attic.gather_rows broadcast; attic-lower-state lowers attic.kmeans with
// its iterations in an scf.for, or unrolled for the GPU pipelines
// (lowerKMeans). LSH attention, in two steps, both
// on tensors:
//
//  - attic-decompose (decomposeLsh): attic.lsh_attention becomes, per hash
//    round, attic.lsh_hash with the round's rotations drawn here into a
//    constant, attic.bucket_sort, attic.gather_rows of the sorted queries
//    and of every chunk's key window ([previous chunk, chunk], laid out one
//    window after another), one attic.block_attention over
//    #attic.block_diagonal<query = c, key = 2c> (the shared tile loop; its
//    mask region is the causal and padding rules on the original positions,
//    its score region the self-key rule, its lse destination the round's
//    log-sum-exp) and attic.gather_rows back to the original order; the
//    rounds merge by their log-sum-exps. The rounds are an scf.for (one
//    round's IR; the rotations one constant, a slice per round) merging
//    online (a running maximum, numerator and denominator), or with
//    iteration-loops=false (the GPU pipelines) one copy per round merged
//    in one pass at the end.
//  - attic-lower-state (lowerHashOps): attic.lsh_hash becomes a
//    linalg.matmul of the [B*H*N, D] rows by the rotations (sgemm on the
//    CPU) and an argmax per row; attic.bucket_sort a counting sort per
//    (batch, head) in scf.for loops.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"

#include "RandomDraw.h"
#include "TensorBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace attic;
using namespace attic::detail;

namespace {

using Builder = attic::detail::Builder;

/// The Philox stream of round r's rotations (docs/lsh.md).
constexpr uint64_t kRotationStream = 16;
/// Reformer's logit for a query's own key.
constexpr double kSelfLogit = -1.0e5;

Value divI(Builder &b, Value x, int64_t y) {
  return arith::DivUIOp::create(b, x, cIndex(b, y));
}
Value remI(Builder &b, Value x, int64_t y) {
  return arith::RemUIOp::create(b, x, cIndex(b, y));
}
Value addI(Builder &b, Value x, Value y) {
  return arith::AddIOp::create(b, x, y);
}
Value mulI(Builder &b, Value x, int64_t y) {
  return arith::MulIOp::create(b, x, cIndex(b, y));
}

/// The sorted row that window position `j` holds: window i = j / 2c is
/// [chunk i - 1 (cyclically), chunk i].
Value windowRow(Builder &b, Value j, int64_t chunk, int64_t chunks) {
  Value window = divI(b, j, 2 * chunk), t = remI(b, j, 2 * chunk);
  Value previous = remI(b, addI(b, window, cIndex(b, chunks - 1)), chunks);
  Value inPrevious =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, t, cIndex(b, chunk));
  Value first = select(b, inPrevious, previous, window);
  Value offset =
      select(b, inPrevious, t, arith::SubIOp::create(b, t, cIndex(b, chunk)));
  return addI(b, mulI(b, first, chunk), offset);
}

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// A new block with arguments of `types` in the (empty) modifier region.
Block *regionBlock(Builder &b, Region &region, TypeRange types) {
  SmallVector<Location> locs(types.size(), b.getLoc());
  return b.createBlock(&region, region.end(), types, locs);
}

} // namespace

//===----------------------------------------------------------------------===//
// L1 -> L2
//===----------------------------------------------------------------------===//

LogicalResult attic::decomposeLsh(RewriterBase &rewriter, LshAttentionOp op,
                                  bool iterationLoop) {
  attic::detail::Builder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  RankedTensorType qkType = op.getQk().getType();
  int64_t B = qkType.getDimSize(0), H = qkType.getDimSize(1),
          N = qkType.getDimSize(2), D = qkType.getDimSize(3);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  int64_t buckets = op.getBucketsAttr().getInt();
  int64_t rounds = op.getRoundsAttr().getInt();
  int64_t c = op.getChunkAttr().getInt();
  int64_t chunks = N / c, K = buckets / 2, BH = B * H;
  bool causal = op.getCausal();
  Value mask = op.getMask();
  Type f32 = b.getF32Type(), i64 = b.getI64Type();
  auto i64Tensor = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, i64);
  };
  const double negInf = -std::numeric_limits<double>::infinity();

  Value qkFlat = reshape(b, op.getQk(), {BH, N, D});
  Value vFlat = reshape(b, op.getValue(), {BH, N, Dv});
  auto layout = BlockDiagonalLayoutAttr::get(b.getContext(), c, 2 * c,
                                             /*causal=*/false);
  // Tiles of one chunk and its window when they fit the kernels' limit;
  // else smaller tiles (the layout's visibility is exact either way).
  int64_t blockQ = 2 * c <= 1024 ? c : 64, blockK = 2 * c <= 1024 ? 2 * c : 64;

  // The rotations of the rounds [from, from + count), drawn here: [count *
  // D, K], round r's rows from (r - from) * D (one constant for the loop
  // over rounds, one per round unrolled).
  auto rotationsOf = [&](int64_t from, int64_t count) {
    std::vector<float> rotations(count * D * K);
    for (int64_t r = 0; r < count; ++r)
      for (int64_t i = 0; i < D * K; ++i)
        rotations[r * D * K + i] = float(
            normalDraw(uint64_t(*op.getSeed()),
                       kRotationStream + uint64_t(from + r), uint64_t(i)));
    auto type = RankedTensorType::get({count * D, K}, f32);
    return arith::ConstantOp::create(
        b, DenseElementsAttr::get(type, ArrayRef<float>(rotations)));
  };

  // One round with rotations `rotation` ([D, K]; null with one bucket):
  // its output [BH, N, Dv] and, with more than one round, each row's
  // log-sum-exp [BH, N], both in the original order.
  auto round = [&](attic::detail::Builder &b,
                   Value rotation) -> std::pair<Value, Value> {
    Value hashed;
    if (K == 0) {
      // One bucket: every token hashes to 0, the sort is the identity.
      Value empty = tensor::EmptyOp::create(b, ArrayRef<int64_t>{B, H, N}, i64);
      hashed =
          linalg::FillOp::create(b, ValueRange{cI64(b, 0)}, ValueRange{empty})
              .getResult(0);
    } else {
      hashed = LshHashOp::create(b, i64Tensor({B, H, N}), op.getQk(), rotation);
    }
    auto sort =
        BucketSortOp::create(b, i64Tensor({B, H, N}), i64Tensor({B, H, N}),
                             hashed, std::max<int64_t>(buckets, 1));
    Value perm = sort.getPerm();
    Value permFlat = reshape(b, perm, {BH, N});
    Value inverseFlat = reshape(b, sort.getInverse(), {BH, N});

    // Sorted queries; each window's keys and values one after another.
    Value queries =
        reshape(b,
                GatherRowsOp::create(b, RankedTensorType::get({BH, N, D}, f32),
                                     qkFlat, permFlat),
                {B, H, N, D});
    Value window = parallelTensor(
        b, i64Tensor({BH, 2 * N}),
        [&](attic::detail::Builder &nb, ValueRange i) {
          return extract(nb, permFlat, {i[0], windowRow(nb, i[1], c, chunks)});
        });
    Value keys = reshape(
        b,
        GatherRowsOp::create(b, RankedTensorType::get({BH, 2 * N, D}, f32),
                             qkFlat, window),
        {B, H, 2 * N, D});
    Value values = reshape(
        b,
        GatherRowsOp::create(b, RankedTensorType::get({BH, 2 * N, Dv}, f32),
                             vFlat, window),
        {B, H, 2 * N, Dv});

    // Captures of the mask region: each window key's original position (-1
    // for a padded key) and, causally, each sorted query's.
    SmallVector<Value> captures;
    if (causal || mask) {
      // Without padding, the window's positions themselves.
      Value windowPosition = reshape(b, window, {B, H, 2 * N});
      Value keyPosition = windowPosition;
      if (mask)
        keyPosition =
            parallelTensor(b, i64Tensor({B, H, 2 * N}),
                           [&](attic::detail::Builder &nb, ValueRange i) {
                             Value position = extract(nb, windowPosition, i);
                             Value at = arith::IndexCastOp::create(
                                 nb, nb.getIndexType(), position);
                             return select(nb, extract(nb, mask, {i[0], at}),
                                           position, cI64(nb, -1));
                           });
      captures.push_back(keyPosition);
      if (causal)
        captures.push_back(perm);
    }

    Value init =
        tensor::EmptyOp::create(b, ArrayRef<int64_t>{B, H, N, Dv}, f32);
    Value lseInit;
    SmallVector<Type> resultTypes = {typeOf(init)};
    if (rounds > 1) {
      lseInit = tensor::EmptyOp::create(b, ArrayRef<int64_t>{B, H, N}, f32);
      resultTypes.push_back(typeOf(lseInit));
    }
    auto attention = BlockAttentionOp::create(
        b, resultTypes, queries, keys, values, /*key_bias=*/Value(),
        /*key_mask=*/Value(), /*layout_operands=*/ValueRange{}, captures,
        Value(), Value(), Value(), Value(), /*pool_weights=*/Value(), init,
        lseInit, /*pool_init=*/Value(), layout,
        b.getF32FloatAttr(op.getEffectiveScale()), b.getI64IntegerAttr(blockQ),
        b.getI64IntegerAttr(blockK),
        /*mask_fn=*/nullptr, /*score_fn=*/nullptr);
    SmallVector<Type> captureTypes;
    for (Value v : captures)
      captureTypes.push_back(v.getType());
    Type index = b.getIndexType();
    {
      OpBuilder::InsertionGuard guard(b);
      if (!captures.empty()) {
        // visible(b, h, q, k) = position(k) >= 0 (a real key) and, causally,
        // position(k) <= position(q).
        SmallVector<Type> types = {index, index, index, index};
        llvm::append_range(types, captureTypes);
        Block *block = regionBlock(b, attention.getMaskRegion(), types);
        b.setInsertionPointToStart(block);
        ValueRange a = block->getArguments();
        Value keyPosition = extract(b, a[4], {a[0], a[1], a[3]});
        Value visible = arith::CmpIOp::create(b, arith::CmpIPredicate::sge,
                                              keyPosition, cI64(b, 0));
        if (causal) {
          Value queryPosition = extract(b, a[5], {a[0], a[1], a[2]});
          visible = arith::AndIOp::create(
              b, visible,
              arith::CmpIOp::create(b, arith::CmpIPredicate::sle, keyPosition,
                                    queryPosition));
        }
        YieldOp::create(b, ValueRange{visible});
      }
      // score(s, b, h, q, k) = the key is the query's own token ? -1e5 : s.
      SmallVector<Type> types = {f32, index, index, index, index};
      llvm::append_range(types, captureTypes);
      Block *block = regionBlock(b, attention.getScoreRegion(), types);
      b.setInsertionPointToStart(block);
      ValueRange a = block->getArguments();
      Value self = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                         windowRow(b, a[4], c, chunks), a[3]);
      YieldOp::create(b,
                      ValueRange{select(b, self, cF32(b, kSelfLogit), a[0])});
    }

    // Back to the original order.
    Value sortedOut = reshape(b, attention.getResult()[0], {BH, N, Dv});
    Value out = GatherRowsOp::create(b, RankedTensorType::get({BH, N, Dv}, f32),
                                     sortedOut, inverseFlat);
    Value lse;
    if (rounds > 1)
      lse = GatherRowsOp::create(b, RankedTensorType::get({BH, N}, f32),
                                 reshape(b, attention.getResult()[1], {BH, N}),
                                 inverseFlat);
    return {out, lse};
  };

  // The rounds merge by their log-sum-exps: out = sum_r exp(lse_r - L) o_r
  // with L = log sum_r exp(lse_r), 0 where no round saw a key (every
  // lse_r = -inf). In the loop over the rounds, online, as the shared core
  // merges key blocks: a running maximum m, numerator and denominator,
  // rescaled by exp(m - m') when the maximum grows.
  struct Merge {
    Value top, num, den;
  };
  auto mergeRound = [&](attic::detail::Builder &b, Merge merge, Value out,
                        Value lse) {
    auto tops = [&](attic::detail::Builder &nb, Value row, Value col) {
      Value top = extract(nb, merge.top, {row, col});
      Value l = extract(nb, lse, {row, col});
      Value newTop = arith::MaximumFOp::create(nb, top, l);
      // exp(top - newTop) and exp(l - newTop), 0 and 0 while both are -inf.
      Value none = arith::CmpFOp::create(nb, arith::CmpFPredicate::OEQ, newTop,
                                         cF32(nb, negInf));
      Value safe = select(nb, none, cF32(nb, 0.0), newTop);
      return std::make_tuple(
          newTop, math::ExpOp::create(nb, arith::SubFOp::create(nb, top, safe)),
          math::ExpOp::create(nb, arith::SubFOp::create(nb, l, safe)));
    };
    Merge next;
    next.top = parallelTensor(b, f32Tensor(b, {BH, N}),
                              [&](attic::detail::Builder &nb, ValueRange i) {
                                return std::get<0>(tops(nb, i[0], i[1]));
                              });
    // The two factors once per row (not per feature), then num <- keep num
    // + weight out in place (the iter_arg's buffer, no new [BH, N, Dv]
    // tensor per round).
    Value keep = parallelTensor(b, f32Tensor(b, {BH, N}),
                                [&](attic::detail::Builder &nb, ValueRange i) {
                                  return std::get<1>(tops(nb, i[0], i[1]));
                                });
    Value weight =
        parallelTensor(b, f32Tensor(b, {BH, N}),
                       [&](attic::detail::Builder &nb, ValueRange i) {
                         return std::get<2>(tops(nb, i[0], i[1]));
                       });
    MLIRContext *ctx = b.getContext();
    AffineMap all = AffineMap::getMultiDimIdentityMap(3, ctx);
    AffineMap rows = AffineMap::get(
        3, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
    next.num =
        linalg::GenericOp::create(
            b, TypeRange{merge.num.getType()}, ValueRange{out, keep, weight},
            ValueRange{merge.num}, ArrayRef<AffineMap>{all, rows, rows, all},
            SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
            [&](OpBuilder &nested, Location loc, ValueRange args) {
              attic::detail::Builder nb(loc, nested);
              Value scaled = arith::MulFOp::create(nb, args[1], args[3]);
              linalg::YieldOp::create(
                  nb, ValueRange{arith::AddFOp::create(
                          nb, scaled,
                          arith::MulFOp::create(nb, args[2], args[0]))});
            })
            .getResult(0);
    next.den =
        parallelTensor(b, f32Tensor(b, {BH, N}),
                       [&](attic::detail::Builder &nb, ValueRange i) {
                         return arith::AddFOp::create(
                             nb,
                             arith::MulFOp::create(nb, extract(nb, keep, i),
                                                   extract(nb, merge.den, i)),
                             extract(nb, weight, i));
                       });
    return next;
  };

  Value result;
  if (rounds == 1) {
    Value rotation = K == 0 ? Value() : Value(rotationsOf(0, 1));
    result = round(b, rotation).first;
  } else if (iterationLoop) {
    // One round's IR in an scf.for over the rounds (the CPU: compile time
    // independent of `rounds`); round r's rotations the rows [r D, r D + D)
    // of one constant.
    Merge init{filled(b, {BH, N}, negInf), zeros(b, {BH, N, Dv}),
               zeros(b, {BH, N})};
    Value all = K == 0 ? Value() : Value(rotationsOf(0, rounds));
    SmallVector<Value> carried = stepLoop(
        b, rounds, ValueRange{init.top, init.num, init.den},
        [&](attic::detail::Builder &nb, Value r, ValueRange args) {
          Value rotation;
          if (all) {
            Value row = arith::MulIOp::create(nb, r, cIndex(nb, D));
            SmallVector<OpFoldResult> offsets = {row, nb.getIndexAttr(0)};
            SmallVector<OpFoldResult> sizes = {nb.getIndexAttr(D),
                                               nb.getIndexAttr(K)};
            SmallVector<OpFoldResult> strides(2, nb.getIndexAttr(1));
            rotation = tensor::ExtractSliceOp::create(nb, all, offsets, sizes,
                                                      strides);
          }
          auto [out, lse] = round(nb, rotation);
          Merge next =
              mergeRound(nb, Merge{args[0], args[1], args[2]}, out, lse);
          return SmallVector<Value>{next.top, next.num, next.den};
        });
    Value num = carried[1], den = carried[2];
    // The quotient, 0 where no round saw a key (den is at least 1 where
    // one did: exp(0) from the round of the maximum).
    result = parallelTensor(
        b, f32Tensor(b, {BH, N, Dv}),
        [&](attic::detail::Builder &nb, ValueRange i) {
          Value d = extract(nb, den, {i[0], i[1]});
          Value none = arith::CmpFOp::create(nb, arith::CmpFPredicate::OEQ, d,
                                             cF32(nb, 0.0));
          Value quotient = arith::DivFOp::create(nb, extract(nb, num, i), d);
          return select(nb, none, cF32(nb, 0.0), quotient);
        });
  } else {
    // One copy per round (the GPU pipelines: kernels are launched from
    // straight-line host code), merged at the end in one element-wise pass
    // (one kernel, not three per round): L = max_r lse_r, out = sum_r
    // exp(lse_r - L) o_r / sum_r exp(lse_r - L), 0 where every lse_r is
    // -inf. Not bitwise the loop's sums, which rescale as the maximum
    // grows.
    SmallVector<Value> outs, lses;
    for (int64_t r = 0; r < rounds; ++r) {
      Value rotation = K == 0 ? Value() : Value(rotationsOf(r, 1));
      auto [out, lse] = round(b, rotation);
      outs.push_back(out);
      lses.push_back(lse);
    }
    result = parallelTensor(
        b, f32Tensor(b, {BH, N, Dv}),
        [&](attic::detail::Builder &nb, ValueRange i) {
          SmallVector<Value> l;
          Value top = cF32(nb, negInf);
          for (Value lse : lses) {
            l.push_back(extract(nb, lse, {i[0], i[1]}));
            top = arith::MaximumFOp::create(nb, top, l.back());
          }
          Value none = arith::CmpFOp::create(nb, arith::CmpFPredicate::OEQ, top,
                                             cF32(nb, negInf));
          Value safeTop = select(nb, none, cF32(nb, 0.0), top);
          Value num = cF32(nb, 0.0), den = cF32(nb, 0.0);
          for (auto [o, lr] : llvm::zip(outs, l)) {
            Value w =
                math::ExpOp::create(nb, arith::SubFOp::create(nb, lr, safeTop));
            den = arith::AddFOp::create(nb, den, w);
            num = arith::AddFOp::create(
                nb, num, arith::MulFOp::create(nb, w, extract(nb, o, i)));
          }
          return select(nb, none, cF32(nb, 0.0),
                        arith::DivFOp::create(nb, num, den));
        });
  }
  result = reshape(b, result, {B, H, N, Dv});
  rewriter.replaceOp(op, result);
  return success();
}

//===----------------------------------------------------------------------===//
// L2 -> tensors
//===----------------------------------------------------------------------===//

namespace {

/// buckets = argmax([x R; -x R]): the projections as one matmul of the
/// [B*H*N, D] rows, then the first maximum of each row.
///
/// The argmax does not change when a row of x, or all of R, is multiplied
/// by a positive factor, so each row of x and the rotations are first
/// brought by a power of two to a largest magnitude in [1, 2)
/// (rowExponentScales): exact, so the products round as before wherever
/// they did not overflow, and they no longer overflow. Rows around 1e38
/// made projections of +-inf, whose ties went to the first bucket: wrong
/// buckets with exit 0 (a 2026-12-02 audit).
Value lowerHash(Builder &b, LshHashOp op) {
  RankedTensorType xType = op.getX().getType();
  int64_t B = xType.getDimSize(0), H = xType.getDimSize(1),
          N = xType.getDimSize(2), D = xType.getDimSize(3);
  int64_t K = op.getRotations().getType().getDimSize(1);
  Value x =
      rowsAtUnitExponent(b, reshape(b, op.getX(), {B * H * N, 1, D})).first;
  Value rotations =
      rowsAtUnitExponent(b, reshape(b, op.getRotations(), {1, D, K})).first;
  Value projected =
      matmul(b, reshape(b, x, {B * H * N, D}), reshape(b, rotations, {D, K}));
  Value flat = parallelTensor(
      b, RankedTensorType::get({B * H * N}, b.getI64Type()),
      [&](Builder &nb, ValueRange i) {
        Value init[] = {cF32(nb, -std::numeric_limits<double>::infinity()),
                        cI64(nb, 0)};
        SmallVector<Value> best =
            forLoop(nb, 2 * K, init, [&](Builder &lb, Value j, ValueRange acc) {
              Value negated = arith::CmpIOp::create(
                  lb, arith::CmpIPredicate::uge, j, cIndex(lb, K));
              Value column = select(
                  lb, negated, arith::SubIOp::create(lb, j, cIndex(lb, K)), j);
              Value p = extract(lb, projected, {i[0], column});
              p = select(lb, negated, arith::NegFOp::create(lb, p), p);
              Value better = arith::CmpFOp::create(
                  lb, arith::CmpFPredicate::OGT, p, acc[0]);
              Value j64 = arith::IndexCastOp::create(lb, lb.getI64Type(), j);
              return SmallVector<Value>{select(lb, better, p, acc[0]),
                                        select(lb, better, j64, acc[1])};
            });
        return best[1];
      });
  return reshape(b, flat, {B, H, N});
}

/// A stable counting sort per (batch, head): counts, their exclusive
/// prefix sums, then each token in order to the next free row of its
/// bucket.
std::pair<Value, Value> lowerBucketSort(Builder &b, BucketSortOp op) {
  RankedTensorType type = op.getBuckets().getType();
  int64_t B = type.getDimSize(0), H = type.getDimSize(1),
          N = type.getDimSize(2);
  int64_t S = op.getNumBucketsAttr().getInt();
  Value buckets = op.getBuckets();
  Value perm = tensor::EmptyOp::create(b, type.getShape(), b.getI64Type());
  Value inverse = tensor::EmptyOp::create(b, type.getShape(), b.getI64Type());
  // One counts buffer for all rows (kernels cannot allocate), reset per row.
  Value counts =
      tensor::EmptyOp::create(b, ArrayRef<int64_t>{S}, b.getI64Type());
  SmallVector<Value> done = forLoop(
      b, B * H, {perm, inverse, counts},
      [&](Builder &bb, Value row, ValueRange outs) {
        Value bi = divI(bb, row, H), hi = remI(bb, row, H);
        auto bucketOf = [&](Builder &lb, Value i) {
          return clampIndex(lb, extract(lb, buckets, {bi, hi, i}), S);
        };
        Value counted =
            forLoop(bb, S, outs[2], [&](Builder &lb, Value k, ValueRange acc) {
              return SmallVector<Value>{insert(lb, cI64(lb, 0), acc[0], {k})};
            })[0];
        counted =
            forLoop(bb, N, counted, [&](Builder &lb, Value i, ValueRange acc) {
              Value k = bucketOf(lb, i);
              Value n = arith::AddIOp::create(lb, extract(lb, acc[0], {k}),
                                              cI64(lb, 1));
              return SmallVector<Value>{insert(lb, n, acc[0], {k})};
            })[0];
        // counts -> the first row of each bucket.
        counted = forLoop(bb, S, {counted, cI64(bb, 0)},
                          [&](Builder &lb, Value k, ValueRange acc) {
                            Value n = extract(lb, acc[0], {k});
                            return SmallVector<Value>{
                                insert(lb, acc[1], acc[0], {k}),
                                arith::AddIOp::create(lb, acc[1], n)};
                          })[0];
        SmallVector<Value> placed = forLoop(
            bb, N, {outs[0], outs[1], counted},
            [&](Builder &lb, Value i, ValueRange acc) {
              Value k = bucketOf(lb, i);
              Value next = extract(lb, acc[2], {k});
              Value at =
                  arith::IndexCastOp::create(lb, lb.getIndexType(), next);
              Value i64 = arith::IndexCastOp::create(lb, lb.getI64Type(), i);
              return SmallVector<Value>{
                  insert(lb, i64, acc[0], {bi, hi, at}),
                  insert(lb, next, acc[1], {bi, hi, i}),
                  insert(lb, arith::AddIOp::create(lb, next, cI64(lb, 1)),
                         acc[2], {k})};
            });
        return placed;
      });
  return {done[0], done[1]};
}

/// The same stable counting sort as independent elements (for the GPU),
/// in chunks of kScanChunk tokens: the tokens of each chunk in each bucket,
/// those of the chunks before it (a thread per (row, bucket) adding over
/// the chunks), the first row of each bucket; then each token's row is its
/// bucket's first row plus the tokens of its bucket before it (in the
/// chunks before, then in its own chunk), and perm is inverse scattered. No
/// thread loops over more than max(N / kScanChunk, buckets, kScanChunk)
/// steps, where the sequential sort loops over B*H*N in one thread.
std::pair<Value, Value> lowerBucketSortParallel(Builder &b, BucketSortOp op) {
  RankedTensorType type = op.getBuckets().getType();
  int64_t B = type.getDimSize(0), H = type.getDimSize(1),
          N = type.getDimSize(2), BH = B * H;
  int64_t S = op.getNumBucketsAttr().getInt();
  int64_t chunks = (N + kScanChunk - 1) / kScanChunk;
  Type i64 = b.getI64Type();
  Value buckets = reshape(b, op.getBuckets(), {BH, N});
  auto bucketOf = [&](Builder &lb, Value row, Value i) {
    return clampIndex(lb, extract(lb, buckets, {row, i}), S);
  };
  // The tokens of bucket k in [from, to) of row `row`.
  auto countIn = [&](Builder &nb, Value row, Value k, Value from, Value to) {
    return rangeLoop(
        nb, from, to, cI64(nb, 0), [&](Builder &lb, Value t, ValueRange acc) {
          Value member = arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                               bucketOf(lb, row, t), k);
          Value more = arith::AddIOp::create(lb, acc[0], cI64(lb, 1));
          return SmallVector<Value>{select(lb, member, more, acc[0])};
        })[0];
  };
  Value counts =
      parallelTensor(b, RankedTensorType::get({BH, chunks, S}, i64),
                     [&](Builder &nb, ValueRange i) {
                       return countIn(nb, i[0], i[2], chunkStart(nb, i[1]),
                                      chunkEnd(nb, i[1], N));
                     });
  Value before = columnPrefixSums(b, counts);
  // The first row of bucket k: the tokens of the buckets below it, an
  // exclusive prefix sum over the buckets (a thread per row, S steps; each
  // bucket summing the ones below it took S^2 / 2 steps per row, which
  // dominated with thousands of buckets: 16384 took 30 s in the simulator
  // for 8 tokens; an audit).
  Value last = cIndex(b, chunks - 1);
  Value totals =
      parallelTensor(b, RankedTensorType::get({BH, S, 1}, i64),
                     [&](Builder &nb, ValueRange i) {
                       return Value(arith::AddIOp::create(
                           nb, extract(nb, before, {i[0], last, i[1]}),
                           extract(nb, counts, {i[0], last, i[1]})));
                     });
  Value starts = reshape(b, columnPrefixSums(b, totals), {BH, S});
  Value inverse = parallelTensor(
      b, RankedTensorType::get({BH, N}, i64), [&](Builder &nb, ValueRange i) {
        Value k = bucketOf(nb, i[0], i[1]);
        Value chunk = divI(nb, i[1], kScanChunk);
        Value row =
            arith::AddIOp::create(nb, extract(nb, starts, {i[0], k}),
                                  extract(nb, before, {i[0], chunk, k}));
        return Value(arith::AddIOp::create(
            nb, row, countIn(nb, i[0], k, chunkStart(nb, chunk), i[1])));
      });
  // perm[row, inverse[row, i]] = i: the rows are a permutation, so the
  // threads write disjoint elements.
  Value empty = tensor::EmptyOp::create(b, ArrayRef<int64_t>{BH, N}, i64);
  auto scatter = scf::ForallOp::create(
      b, ArrayRef<OpFoldResult>{b.getIndexAttr(BH), b.getIndexAttr(N)},
      ValueRange{empty}, std::nullopt);
  {
    Builder inner(b.getLoc(), b.getContext());
    inner.setInsertionPoint(scatter.getTerminator());
    Value rowIndex = scatter.getBody()->getArgument(0);
    Value token = scatter.getBody()->getArgument(1);
    Value at = clampIndex(inner, extract(inner, inverse, {rowIndex, token}), N);
    SmallVector<OpFoldResult> offsets{rowIndex, at};
    SmallVector<OpFoldResult> ones(2, inner.getIndexAttr(1));
    Value slot = tensor::ExtractSliceOp::create(
        inner, RankedTensorType::get({1}, i64), scatter.getRegionIterArgs()[0],
        offsets, ones, ones);
    slot = insert(inner, arith::IndexCastOp::create(inner, i64, token), slot,
                  {cIndex(inner, 0)});
    Builder terminator(b.getLoc(), b.getContext());
    terminator.setInsertionPointToStart(scatter.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(
        terminator, slot, scatter.getRegionIterArgs()[0], offsets, ones, ones);
  }
  return {reshape(b, scatter.getResult(0), {B, H, N}),
          reshape(b, inverse, {B, H, N})};
}

} // namespace

//===----------------------------------------------------------------------===//
// Clustered attention
//===----------------------------------------------------------------------===//

namespace {

/// The seeded initial centroids of K-means: one row from each of `clusters`
/// equal segments of `rows` (attic.clustered_attention's description).
std::vector<int64_t> initialRows(uint64_t seed, int64_t rows,
                                 int64_t clusters) {
  std::vector<int64_t> picks(static_cast<size_t>(clusters));
  for (int64_t c = 0; c < clusters; ++c) {
    // c * rows needs more than 64 bits beyond 2^32 rows and clusters.
    int64_t lo = int64_t(__int128(c) * rows / clusters),
            hi = int64_t(__int128(c + 1) * rows / clusters);
    uint64_t span = uint64_t(hi - lo);
    uint32_t words[4];
    attic_philox4x32(seed, 32, uint64_t(c), words);
    // A segment of 2^32 rows or more takes the second word as the high
    // half (the first alone divided by zero at a multiple of 2^32).
    uint64_t u = span >> 32 ? uint64_t(words[1]) << 32 | words[0] : words[0];
    picks[size_t(c)] = lo + int64_t(u % span);
  }
  return picks;
}

/// K-means, the iterations an scf.for, or with `iterationLoop` false
/// unrolled (no loop around tensor ops, so that the CUDA mapping can make
/// each step a kernel): distances by a batch matmul
/// (up to head dim 4 row by row, sum (x - c)^2),
/// the nearest centroid per row, then sums and counts in one sequential
/// loop over the rows (with `parallelScans`: each sum and count on its own,
/// a loop over the rows that skips the other clusters' rows; the same
/// additions in the same order, so the same values bitwise) and the new
/// centroids element-wise.
std::pair<Value, Value> lowerKMeans(attic::detail::Builder &b, KMeansOp op,
                                    bool parallelScans, bool iterationLoop) {
  RankedTensorType xType = op.getX().getType();
  int64_t B = xType.getDimSize(0), H = xType.getDimSize(1),
          N = xType.getDimSize(2), D = xType.getDimSize(3);
  int64_t C = op.getClustersAttr().getInt(), BH = B * H;
  Value raw = reshape(b, op.getX(), {BH, N, D});
  // K-means runs on x - s (s: each column's mean rounded to an integer, 0
  // if not finite), which moves no point relative to another, and s is
  // added back to the centroids. The distances |c|^2 - 2 x.c cancel when
  // the rows share a large offset (rows at 1000 + U(-1, 1) assigned 25 of
  // 64 queries differently from sum (x - c)^2 before); the shifted rows
  // are exact there (Sterbenz), and an integer shift keeps integer inputs
  // exact, so their exact ties stay ties. Rows with |mean| < 0.5 are not
  // shifted at all.
  Value shift = parallelTensor(
      b, f32Tensor(b, {BH, D}), [&](attic::detail::Builder &nb, ValueRange i) {
        Value sum =
            forLoop(nb, N, cF32(nb, 0.0),
                    [&](attic::detail::Builder &lb, Value r, ValueRange acc) {
                      return SmallVector<Value>{arith::AddFOp::create(
                          lb, acc[0], extract(lb, raw, {i[0], r, i[1]}))};
                    })[0];
        Value mean = arith::DivFOp::create(nb, sum, cF32(nb, double(N)));
        Value rounded = math::FloorOp::create(
            nb, arith::AddFOp::create(nb, mean, cF32(nb, 0.5)));
        Value finite = arith::CmpFOp::create(
            nb, arith::CmpFPredicate::OLT, math::AbsFOp::create(nb, rounded),
            cF32(nb, std::numeric_limits<double>::infinity()));
        return select(nb, finite, rounded, cF32(nb, 0.0));
      });
  Value shiftedRows = parallelTensor(
      b, f32Tensor(b, {BH, N, D}),
      [&](attic::detail::Builder &nb, ValueRange i) {
        return arith::SubFOp::create(nb, extract(nb, raw, i),
                                     extract(nb, shift, {i[0], i[2]}));
      });
  // ... and on those rows scaled per head by a power of two
  // (rowExponentScales), which the centroids lose again at the end: exact,
  // the same nearest centroids, and |c|^2 and x.c no longer overflow f32
  // for rows around 1e19 (every query went to one cluster before, while
  // the attention's logits were finite).
  std::pair<Value, Value> scaled = rowsAtUnitExponent(b, shiftedRows);
  Value x = scaled.first, rowInverse = scaled.second;
  std::vector<int64_t> picks =
      initialRows(uint64_t(op.getSeedAttr().getInt()), N, C);
  auto pickType = RankedTensorType::get({C}, b.getI64Type());
  Value rows = arith::ConstantOp::create(
      b, DenseElementsAttr::get(pickType, ArrayRef<int64_t>(picks)));
  Value centroids =
      parallelTensor(b, f32Tensor(b, {BH, C, D}),
                     [&](attic::detail::Builder &nb, ValueRange i) {
                       Value row = arith::IndexCastOp::create(
                           nb, nb.getIndexType(), extract(nb, rows, {i[1]}));
                       return extract(nb, x, {i[0], row, i[2]});
                     });
  // Up to this head dim the distances are sum (x - c)^2, row by row: the
  // form |c|^2 - 2 x.c (an sgemm) rounds at the scale of |x|^2, and at
  // D = 1 a row that is a centroid's initial row (distance 0) went to a
  // centroid 6.5e-5 away in 16 of 20 seeds (none at D = 4; a 2026-11-30
  // audit). The direct form has the same flops without the sgemm's
  // speed: 1.25x slower at D = 8 and 2x at D = 16
  // (bench/results/cpu_kmeans_distances).
  constexpr int64_t kDirectDistanceMaxDim = 4;
  bool direct = D <= kDirectDistanceMaxDim;
  // One iteration: the nearest centroid of each row, then the new
  // centroids (a cluster without rows keeps its centroid).
  auto iterate = [&](attic::detail::Builder &b,
                     Value centroids) -> std::pair<Value, Value> {
    Value dots, norms;
    if (!direct) {
      dots = batchMatmul(b, x, centroids, /*transposeLhs=*/false,
                         /*transposeRhs=*/true); // [BH, N, C]
      norms = parallelTensor(
          b, f32Tensor(b, {BH, C}),
          [&](attic::detail::Builder &nb, ValueRange i) {
            return forLoop(
                nb, D, cF32(nb, 0.0),
                [&](attic::detail::Builder &lb, Value d, ValueRange acc) {
                  Value c = extract(lb, centroids, {i[0], i[1], d});
                  return SmallVector<Value>{arith::AddFOp::create(
                      lb, acc[0], arith::MulFOp::create(lb, c, c))};
                })[0];
          });
    }
    Value assignment = parallelTensor(
        b, RankedTensorType::get({BH, N}, b.getI64Type()),
        [&](attic::detail::Builder &nb, ValueRange i) {
          Value init[] = {cF32(nb, std::numeric_limits<double>::infinity()),
                          cI64(nb, 0)};
          return forLoop(
              nb, C, init,
              [&](attic::detail::Builder &lb, Value c, ValueRange acc) {
                Value dist =
                    direct
                        ? forLoop(
                              lb, D, cF32(lb, 0.0),
                              [&](attic::detail::Builder &db, Value d,
                                  ValueRange sum) {
                                Value diff = arith::SubFOp::create(
                                    db, extract(db, x, {i[0], i[1], d}),
                                    extract(db, centroids, {i[0], c, d}));
                                return SmallVector<Value>{arith::AddFOp::create(
                                    db, sum[0],
                                    arith::MulFOp::create(db, diff, diff))};
                              })[0]
                        : arith::SubFOp::create(
                              lb, extract(lb, norms, {i[0], c}),
                              arith::MulFOp::create(
                                  lb, cF32(lb, 2.0),
                                  extract(lb, dots, {i[0], i[1], c})));
                Value closer = arith::CmpFOp::create(
                    lb, arith::CmpFPredicate::OLT, dist, acc[0]);
                Value c64 = arith::IndexCastOp::create(lb, lb.getI64Type(), c);
                return SmallVector<Value>{select(lb, closer, dist, acc[0]),
                                          select(lb, closer, c64, acc[1])};
              })[1];
        });
    // Sums and counts per cluster: one sequential pass over the rows, or
    // for the GPU a thread per sum and per count.
    SmallVector<Value> totals;
    if (parallelScans) {
      auto overMembers = [&](attic::detail::Builder &nb, Value bh, Value c,
                             Value d) {
        return forLoop(
            nb, N, cF32(nb, 0.0),
            [&](attic::detail::Builder &lb, Value i, ValueRange acc) {
              Value member = arith::CmpIOp::create(
                  lb, arith::CmpIPredicate::eq,
                  clampIndex(lb, extract(lb, assignment, {bh, i}), C), c);
              Value term = d ? extract(lb, x, {bh, i, d}) : cF32(lb, 1.0);
              Value sum = arith::AddFOp::create(lb, acc[0], term);
              return SmallVector<Value>{select(lb, member, sum, acc[0])};
            })[0];
      };
      totals = {parallelTensor(b, f32Tensor(b, {BH, C, D}),
                               [&](attic::detail::Builder &nb, ValueRange i) {
                                 return overMembers(nb, i[0], i[1], i[2]);
                               }),
                parallelTensor(b, f32Tensor(b, {BH, C}),
                               [&](attic::detail::Builder &nb, ValueRange i) {
                                 return overMembers(nb, i[0], i[1], Value());
                               })};
    } else {
      totals = forLoop(
          b, BH * N, {zeros(b, {BH, C, D}), zeros(b, {BH, C})},
          [&](attic::detail::Builder &lb, Value r, ValueRange acc) {
            Value bh = divI(lb, r, N), i = remI(lb, r, N);
            Value c = clampIndex(lb, extract(lb, assignment, {bh, i}), C);
            Value count = arith::AddFOp::create(
                lb, extract(lb, acc[1], {bh, c}), cF32(lb, 1.0));
            Value sums = forLoop(
                lb, D, acc[0],
                [&](attic::detail::Builder &db, Value d, ValueRange s) {
                  Value v =
                      arith::AddFOp::create(db, extract(db, s[0], {bh, c, d}),
                                            extract(db, x, {bh, i, d}));
                  return SmallVector<Value>{insert(db, v, s[0], {bh, c, d})};
                })[0];
            return SmallVector<Value>{sums, insert(lb, count, acc[1], {bh, c})};
          });
    }
    Value next =
        parallelTensor(b, f32Tensor(b, {BH, C, D}),
                       [&](attic::detail::Builder &nb, ValueRange i) {
                         Value count = extract(nb, totals[1], {i[0], i[1]});
                         Value mean = arith::DivFOp::create(
                             nb, extract(nb, totals[0], i), count);
                         return select(nb, positive(nb, count), mean,
                                       extract(nb, centroids, i));
                       });
    return {next, assignment};
  };
  int64_t iterations = op.getIterationsAttr().getInt();
  Value assignment;
  if (iterationLoop) {
    // An scf.for over the iterations (the CPU): the IR of one iteration
    // (unrolled, compile time grew faster than the iterations: 17 s at
    // 100; bench/results/cpu/iteration-loops.md). The first iteration
    // overwrites the assignment's initial zeros.
    Value empty =
        tensor::EmptyOp::create(b, ArrayRef<int64_t>{BH, N}, b.getI64Type());
    Value none =
        linalg::FillOp::create(b, ValueRange{cI64(b, 0)}, ValueRange{empty})
            .getResult(0);
    SmallVector<Value> carried =
        stepLoop(b, iterations, ValueRange{centroids, none},
                 [&](attic::detail::Builder &lb, Value, ValueRange args) {
                   auto step = iterate(lb, args[0]);
                   return SmallVector<Value>{step.first, step.second};
                 });
    centroids = carried[0];
    assignment = carried[1];
  } else {
    // One copy per iteration (the GPU pipelines: each step a kernel,
    // launched from straight-line host code).
    for (int64_t t = 0; t < iterations; ++t)
      std::tie(centroids, assignment) = iterate(b, centroids);
  }
  Value shifted = parallelTensor(
      b, f32Tensor(b, {BH, C, D}),
      [&](attic::detail::Builder &nb, ValueRange i) {
        Value c = arith::MulFOp::create(nb, extract(nb, centroids, i),
                                        extract(nb, rowInverse, {i[0]}));
        return arith::AddFOp::create(nb, c, extract(nb, shift, {i[0], i[2]}));
      });
  return {reshape(b, shifted, {B, H, C, D}), reshape(b, assignment, {B, H, N})};
}

// The long sums of improved clustered attention (over Nk keys, over the
// top keys) add in f64 (cF64, toF64, toF32): in f32 their errors added up
// in one direction on quantized logits, and with topk = Nk (exact
// attention) the result was 4e-5 off at Nk = 4100 (a 2026-12-02 audit).

/// The improved variant (`topk`): the centroids' attention matrix on
/// tensors, the top keys per cluster, the exact attention of every query
/// over its cluster's top keys (the shared core, queries sorted by
/// cluster), and the centroid weights for the other keys.
Value buildImprovedClustered(attic::detail::Builder &b, ClusteredAttentionOp op,
                             Value centroids, Value assignment,
                             bool parallelScans) {
  RankedTensorType qType = op.getQuery().getType();
  int64_t B = qType.getDimSize(0), H = qType.getDimSize(1),
          N = qType.getDimSize(2), D = qType.getDimSize(3);
  int64_t Nk = op.getKey().getType().getDimSize(2);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  int64_t C = op.getClustersAttr().getInt(), T = op.getTopkAttr().getInt();
  int64_t BH = B * H;
  double scale = op.getEffectiveScale();
  Value mask = op.getMask();
  Value ninf = cF32(b, -std::numeric_limits<double>::infinity());
  Value keys = reshape(b, op.getKey(), {BH, Nk, D});
  Value values = reshape(b, op.getValue(), {BH, Nk, Dv});
  Value cents = reshape(b, centroids, {BH, C, D});

  // Logits (-inf for padded keys) and the softmax rows A [BH, C, Nk]. The
  // centroids times the scale's power of two first, as the dense path's
  // queries: unscaled, C K^T overflowed for finite logits (inputs around
  // 1.2e19 with logits of 1.9e38 gave NaN, and different counts of them
  // on the CPU and the GPU mappings; a 2026-12-02 audit).
  double prescale = logitPrescale(scale);
  Value dots = batchMatmul(b, scaledBy(b, cents, prescale), keys,
                           /*transposeLhs=*/false,
                           /*transposeRhs=*/true);
  Value logits = parallelTensor(
      b, f32Tensor(b, {BH, C, Nk}),
      [&](attic::detail::Builder &nb, ValueRange i) {
        Value s = arith::MulFOp::create(nb, extract(nb, dots, i),
                                        cF32(nb, scale / prescale));
        if (!mask)
          return s;
        Value real = extract(nb, mask, {divI(nb, i[0], H), i[2]});
        return select(nb, real, s, ninf);
      });
  auto rowReduce = [&](bool isMax, Value top) {
    return parallelTensor(
        b, f32Tensor(b, {BH, C}),
        [&](attic::detail::Builder &nb, ValueRange i) {
          Value init = isMax ? ninf : cF64(nb, 0.0);
          Value total = forLoop(
              nb, Nk, init,
              [&](attic::detail::Builder &lb, Value j, ValueRange acc) {
                Value s = extract(lb, logits, {i[0], i[1], j});
                if (isMax)
                  return SmallVector<Value>{
                      arith::MaximumFOp::create(lb, acc[0], s)};
                Value m = extract(lb, top, {i[0], i[1]});
                Value safe = select(lb,
                                    arith::CmpFOp::create(
                                        lb, arith::CmpFPredicate::OEQ, m, ninf),
                                    cF32(lb, 0.0), m);
                Value e =
                    math::ExpOp::create(lb, arith::SubFOp::create(lb, s, safe));
                return SmallVector<Value>{
                    arith::AddFOp::create(lb, acc[0], toF64(lb, e))};
              })[0];
          return isMax ? total : toF32(nb, total);
        });
  };
  Value rowMax = rowReduce(true, Value());
  Value rowSum = rowReduce(false, rowMax);
  Value weights = parallelTensor(
      b, f32Tensor(b, {BH, C, Nk}),
      [&](attic::detail::Builder &nb, ValueRange i) {
        Value m = extract(nb, rowMax, {i[0], i[1]});
        Value l = extract(nb, rowSum, {i[0], i[1]});
        Value none =
            arith::CmpFOp::create(nb, arith::CmpFPredicate::OEQ, m, ninf);
        Value safe = select(nb, none, cF32(nb, 0.0), m);
        Value p = arith::DivFOp::create(
            nb,
            math::ExpOp::create(
                nb, arith::SubFOp::create(nb, extract(nb, logits, i), safe)),
            l);
        return select(nb, none, cF32(nb, 0.0), p);
      });
  Value centroidRows = batchMatmul(b, weights, values, false, false);

  // The top keys of each cluster in decreasing logit order (the first on
  // ties; topk <= Nk, so every pick is a key).
  Value picks = reshape(
      b, largestIndices(b, reshape(b, logits, {BH * C, Nk}), T, parallelScans),
      {BH, C * T});

  // Per pick: its weight A (0 for a padded key) and whether it is real.
  Value pickWeight = parallelTensor(
      b, f32Tensor(b, {BH, C * T}),
      [&](attic::detail::Builder &nb, ValueRange i) {
        Value j = clampIndex(nb, extract(nb, picks, i), Nk);
        return extract(nb, weights, {i[0], divI(nb, i[1], T), j});
      });
  Value pickReal = parallelTensor(
      b, RankedTensorType::get({B, H, C * T}, b.getI1Type()),
      [&](attic::detail::Builder &nb, ValueRange i) {
        Value bh = addI(nb, mulI(nb, i[0], H), i[1]);
        Value j = clampIndex(nb, extract(nb, picks, {bh, i[2]}), Nk);
        Value s = extract(nb, logits, {bh, divI(nb, i[2], T), j});
        return Value(
            arith::CmpFOp::create(nb, arith::CmpFPredicate::OGT, s, ninf));
      });
  // m_c = sum of the picks' weights; R_c = A_c V - sum_picks A_cj v_j.
  Value mass = parallelTensor(
      b, f32Tensor(b, {BH, C}), [&](attic::detail::Builder &nb, ValueRange i) {
        return toF32(
            nb,
            forLoop(nb, T, cF64(nb, 0.0),
                    [&](attic::detail::Builder &lb, Value t, ValueRange acc) {
                      Value w = extract(lb, pickWeight,
                                        {i[0], addI(lb, mulI(lb, i[1], T), t)});
                      return SmallVector<Value>{
                          arith::AddFOp::create(lb, acc[0], toF64(lb, w))};
                    })[0]);
      });
  Value rest = parallelTensor(
      b, f32Tensor(b, {BH, C, Dv}),
      [&](attic::detail::Builder &nb, ValueRange i) {
        Value picked = forLoop(
            nb, T, cF64(nb, 0.0),
            [&](attic::detail::Builder &lb, Value t, ValueRange acc) {
              Value at = addI(lb, mulI(lb, i[1], T), t);
              Value w = extract(lb, pickWeight, {i[0], at});
              Value j = clampIndex(lb, extract(lb, picks, {i[0], at}), Nk);
              Value v = extract(lb, values, {i[0], j, i[2]});
              return SmallVector<Value>{arith::AddFOp::create(
                  lb, acc[0],
                  arith::MulFOp::create(lb, toF64(lb, w), toF64(lb, v)))};
            })[0];
        return toF32(nb,
                     arith::SubFOp::create(
                         nb, toF64(nb, extract(nb, centroidRows, i)), picked));
      });

  // The queries sorted by cluster; the picked keys and values per cluster.
  auto sort = BucketSortOp::create(
      b, RankedTensorType::get({B, H, N}, b.getI64Type()),
      RankedTensorType::get({B, H, N}, b.getI64Type()), assignment, C);
  Value permFlat = reshape(b, sort.getPerm(), {BH, N});
  Value inverseFlat = reshape(b, sort.getInverse(), {BH, N});
  Value assignFlat = reshape(b, assignment, {BH, N});
  Value sortedQueries = reshape(
      b,
      GatherRowsOp::create(b, f32Tensor(b, {BH, N, D}),
                           reshape(b, op.getQuery(), {BH, N, D}), permFlat),
      {B, H, N, D});
  Value sortedCluster = parallelTensor(
      b, RankedTensorType::get({B, H, N}, b.getI64Type()),
      [&](attic::detail::Builder &nb, ValueRange i) {
        Value bh = addI(nb, mulI(nb, i[0], H), i[1]);
        Value token = clampIndex(nb, extract(nb, permFlat, {bh, i[2]}), N);
        return extract(nb, assignFlat, {bh, token});
      });
  Value pickedKeys = reshape(
      b, GatherRowsOp::create(b, f32Tensor(b, {BH, C * T, D}), keys, picks),
      {B, H, C * T, D});
  Value pickedValues = reshape(
      b, GatherRowsOp::create(b, f32Tensor(b, {BH, C * T, Dv}), values, picks),
      {B, H, C * T, Dv});

  // Exact attention of each query over its cluster's real picks.
  SmallVector<Value> captures = {sortedCluster, pickReal};
  auto exact = AttentionOp::create(
      b, f32Tensor(b, {B, H, N, Dv}), sortedQueries, pickedKeys, pickedValues,
      /*key_bias=*/Value(), /*key_mask=*/Value(), ValueRange{}, captures,
      Value(), Value(), Value(), Value(), /*causal=*/false,
      b.getF32FloatAttr(float(scale)), LayoutAttrInterface(),
      DenseI64ArrayAttr());
  {
    OpBuilder::InsertionGuard guard(b);
    Type index = b.getIndexType();
    SmallVector<Type> types = {index,
                               index,
                               index,
                               index,
                               sortedCluster.getType(),
                               pickReal.getType()};
    SmallVector<Location> locs(types.size(), b.getLoc());
    Block *block = b.createBlock(&exact.getMaskRegion(),
                                 exact.getMaskRegion().end(), types, locs);
    b.setInsertionPointToStart(block);
    ValueRange a = block->getArguments();
    Value cluster = extract(b, a[4], {a[0], a[1], a[2]});
    Value keyCluster =
        arith::IndexCastOp::create(b, b.getI64Type(), divI(b, a[3], T));
    Value visible = arith::AndIOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, cluster, keyCluster),
        extract(b, a[5], {a[0], a[1], a[3]}));
    YieldOp::create(b, ValueRange{visible});
  }
  Value exactFlat = reshape(b, exact.getResult(), {BH, N, Dv});
  Value combined = parallelTensor(
      b, f32Tensor(b, {BH, N, Dv}),
      [&](attic::detail::Builder &nb, ValueRange i) {
        Value bh = i[0];
        Value token = clampIndex(nb, extract(nb, permFlat, {bh, i[1]}), N);
        Value c = clampIndex(nb, extract(nb, assignFlat, {bh, token}), C);
        Value m = extract(nb, mass, {bh, c});
        return Value(arith::AddFOp::create(
            nb, arith::MulFOp::create(nb, m, extract(nb, exactFlat, i)),
            extract(nb, rest, {bh, c, i[2]})));
      });
  return reshape(
      b,
      GatherRowsOp::create(b, f32Tensor(b, {BH, N, Dv}), combined, inverseFlat),
      {B, H, N, Dv});
}

} // namespace

LogicalResult attic::decomposeClustered(RewriterBase &rewriter,
                                        ClusteredAttentionOp op,
                                        bool parallelScans) {
  attic::detail::Builder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  RankedTensorType qType = op.getQuery().getType();
  int64_t B = qType.getDimSize(0), H = qType.getDimSize(1),
          N = qType.getDimSize(2), D = qType.getDimSize(3);
  int64_t Dv = op.getValue().getType().getDimSize(3);
  int64_t C = op.getClustersAttr().getInt();
  auto kmeans = KMeansOp::create(
      b, f32Tensor(b, {B, H, C, D}),
      RankedTensorType::get({B, H, N}, b.getI64Type()), op.getQuery(), C,
      op.getIterationsAttr().getInt(), op.getSeed().value_or(0));
  if (op.getTopkAttr()) {
    rewriter.replaceOp(op, buildImprovedClustered(b, op, kmeans.getCentroids(),
                                                  kmeans.getAssignment(),
                                                  parallelScans));
    return success();
  }
  // The centroids attend to every key through the shared core.
  auto centroidAttention = AttentionOp::create(
      b, f32Tensor(b, {B, H, C, Dv}), kmeans.getCentroids(), op.getKey(),
      op.getValue(), /*key_bias=*/Value(), op.getMask(), ValueRange{},
      ValueRange{}, Value(), Value(), Value(), Value(), /*causal=*/false,
      b.getF32FloatAttr(op.getEffectiveScale()), LayoutAttrInterface(),
      DenseI64ArrayAttr());
  // Each query takes its cluster's row.
  Value broadcast = GatherRowsOp::create(
      b, f32Tensor(b, {B * H, N, Dv}),
      reshape(b, centroidAttention.getResult(), {B * H, C, Dv}),
      reshape(b, kmeans.getAssignment(), {B * H, N}));
  rewriter.replaceOp(op, reshape(b, broadcast, {B, H, N, Dv}));
  return success();
}

LogicalResult attic::lowerHashOps(Operation *root, bool parallelScans,
                                  bool iterationLoops) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<LshHashOp, BucketSortOp, KMeansOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    attic::detail::Builder b(op->getLoc(), op);
    if (auto hash = dyn_cast<LshHashOp>(op)) {
      hash.getBuckets().replaceAllUsesWith(lowerHash(b, hash));
    } else if (auto kmeans = dyn_cast<KMeansOp>(op)) {
      auto [centroids, assignment] =
          lowerKMeans(b, kmeans, parallelScans, iterationLoops);
      kmeans.getCentroids().replaceAllUsesWith(centroids);
      kmeans.getAssignment().replaceAllUsesWith(assignment);
    } else {
      auto sort = cast<BucketSortOp>(op);
      auto [perm, inverse] = parallelScans ? lowerBucketSortParallel(b, sort)
                                           : lowerBucketSort(b, sort);
      sort.getPerm().replaceAllUsesWith(perm);
      sort.getInverse().replaceAllUsesWith(inverse);
    }
    op->erase();
  }
  return success();
}
