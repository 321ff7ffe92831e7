//===- TileBlockAttention.cpp - the one tile loop ---------------*- C++ -*-===//
//
// attic-tile-block-attention: the memref form of attic.block_attention
// becomes the target-independent tile loop. Everything that decides the
// result is written here, once, for every target:
//
//   scf.parallel (b, h, qb) {attic.tile_grid}        one query block each
//     hk = h / (Hq / Hkv); q0 = qb * BQ; q1 = min(q0 + BQ, Nq)
//     m = -inf, l = 0, acc = 0                          (f32 tiles)
//     for each visited key block kb:                    (layout or lists)
//       step(kb, partial = the layout's predicate must be evaluated)
//     r = l == 0 ? (m == -inf ? 0 : NaN) : 1 / l        (no key: 0, not NaN;
//         acc = r == 0 ? 0 : acc * r          every visible logit overflowed:
//                                             NaN, see checkOverflow)
//     out[b, h, q0:q1] = acc
//     lse[b, h, q0:q1] = l == 0 ? -inf : ln 2 (m + log2 l)   (with `lse`;
//         NaN where the row is NaN for overflow)
//     pool[b, h, qb] = sum_i w[b, q0 + i] out[b, h, q0 + i]  (with `pool`)
//
//   step(kb, partial):
//     term[j] = k < Nk && mask[b, k] ? log2(e) * bias[b, (h,) k] : -inf
//         (a finite bias saturates to -FLT_MAX where the product overflows)
//     s = (2^e Q) K^T                                   (attic.tile.qk;
//         2^e <= 1 the power of two of |c| = |scale * log2(e)| (of
//         |scale| with a score region) where it is below 1, else 1, so
//         that s overflows only where the logits do; see queryScale)
//     x = s * (c / 2^e) + term[j]                       (base-2 logits;
//         -inf where term[j] is, whatever s or the score region gives;
//         no term without a bias or key mask: then the keys past Nk
//         are masked by classification, a block with k0 + BK > Nk being
//         partial and the partial predicate including k < Nk)
//         score region: log2(e) * score(s * (scale / 2^e), b, h, q, k)
//                       + term[j]
//         partial: predicate(q, k) ? x : -inf           (the layout's IR
//                                            and the mask region's clone)
//     mBlk = rowmax(x); mNew = maxnum(m, mBlk)
//     mSafe = mNew == -inf ? 0 : mNew; alpha = exp2(m - mSafe)
//       without a term and a score region (overflow checked):
//         partial: predicate(q, k) ? (x < -FLT_MAX ? -FLT_MAX : x) : -inf
//         full: mBlk = maxnum(rowmax(x), -FLT_MAX)
//         mSafe = mNew <= -FLT_MAX ? +inf : mNew
//     p = exp2(x - mSafe); l = alpha * l + rowsum(p); m = mNew
//     acc = alpha * acc + p V                           (attic.tile.pv)
//
//   Without a term and a score region, with c = scale * log2(e) > 0 (c / 2^e
//   where the query is scaled), the scale is folded in full blocks: x = s (no
//   map before the maximum), mBlk = c * rowmax(x) (exact: rounding is
//   monotonic), p = exp2(c * x - mSafe), the product rounded before the
//   subtraction (never fused: see foldScale), so every value is the unfolded
//   one. A partial block scales in its predicate's map, as unfolded.
//
// Visited blocks. Without lists: the key blocks of the layout's key range
// for the query block, each classified by the layout's block visibility
// intersected with the mask region's (interval arithmetic, Modifiers.h):
// skip (no tile op runs: nothing is loaded), full (no predicate) or
// partial. A layout that needs run-time classification and has no lists is
// iterated over its key range with every block partial. With lists
// (`blocks(...)`): the full list's blocks as full, the partial list's as
// partial; counts are clamped to [0, L] and indices outside [0, nKB) are
// skipped, after a check loop in front of the grid has reported them to
// the runtime (attic_rt_report_error), so that nothing is ever read out of
// bounds.
//
// Modifier regions read their captures with clamped indices; in front of
// the grid, a check that folds away when the reads are provably inside the
// captures (else a loop over the domain) reports the reads outside.
//
// NaN policy (the same on every target, because it is this IR): a query
// row without a visible key gives 0 (l == 0); without a bias, key mask or
// score region, a row whose visible logits all overflowed f32 to -inf
// gives NaN (reported by attic-run, not read as empty); with them, a
// visible -inf logit is how a key is masked; a NaN or +inf logit that is
// visible makes the row's l, and so the row, NaN (exp2(NaN) and
// exp2(inf - inf) are NaN, and sums keep NaN); masked and skipped keys
// never contribute a logit. Values are multiplied by p, so a NaN or inf in
// a value row reaches every row whose block of keys includes it, masked or
// not (0 * NaN is NaN), as with PyTorch's math SDPA.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Dialect/Attic/Modifiers.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"
#include "attic/runtime/Runtime.h"

#include "PassRoots.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICTILEBLOCKATTENTION
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

namespace {

constexpr double kLog2e = 1.4426950408889634;

bool isConstantTrue(Value v) { return matchPattern(v, m_One()); }

/// An f32 constant at `at`, for the tile ops' region builders.
Value f32At(OpBuilder &nb, Location at, const APFloat &v) {
  return arith::ConstantFloatOp::create(nb, at, nb.getF32Type(), v);
}
Value infAt(OpBuilder &nb, Location at, bool negative) {
  return f32At(nb, at, APFloat::getInf(APFloat::IEEEsingle(), negative));
}

/// Builds the tile loop of one memref-form block_attention op.
class TileLoopBuilder {
public:
  TileLoopBuilder(OpBuilder &b, BlockAttentionOp op)
      : b(b), loc(op.getLoc()), op(op), m(b, op.getLoc()),
        layout(op.getLayout()), blockQ(op.getBlockQ()),
        blockK(op.getBlockK()) {}

  LogicalResult build();

private:
  Value dim(Value memref, int64_t d) {
    return b.createOrFold<memref::DimOp>(loc, memref, d);
  }
  Value f32(double v) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                          APFloat(static_cast<float>(v)));
  }
  Value negInf() { return f32(-std::numeric_limits<double>::infinity()); }
  Value tile(ArrayRef<int64_t> shape, ValueRange dynamic = {}) {
    auto type = MemRefType::get(shape, b.getF32Type());
    return memref::AllocOp::create(b, loc, type, dynamic,
                                   b.getI64IntegerAttr(64));
  }
  LayoutEnv env(OpBuilder &nested, Location at) {
    return LayoutEnv{nested, at,   queryLen,
                     keyLen, batch, head,
                     op.getLayoutOperands(), op.getCaptures()};
  }
  Region *maskRegion() { return op.getMaskModifier(); }
  Region *scoreRegion() { return op.getScoreModifier(); }
  /// Whether there is a per-key term: with a key bias or mask (it then
  /// also gives the keys past Nk -inf). Without them there is no term
  /// tile, and no column tile to compute or add in any block.
  bool hasTerm() { return op.getKeyBias() || op.getKeyMask(); }
  /// Whether a visible logit of -inf is an f32 overflow of scale * q . k
  /// (reported as a NaN row) rather than a mask: without a term and a
  /// score region, where -inf is how a bias or a score region masks a key.
  /// Visible logits then count as at least -FLT_MAX in the row maximum
  /// (per row in a full block; per element in a partial one, where the
  /// predicate's -inf must stay apart), and a row maximum of -FLT_MAX
  /// (every visible logit overflowed) gets exponents relative to +inf, so
  /// that l stays 0 while m says that a key was visible; the epilogue makes
  /// such a row NaN. A clamped logit's exponent is exp2(-inf) = 0 whatever
  /// m is (f32's ulp near FLT_MAX is 2^104).
  bool checkOverflow() { return !hasTerm() && !scoreRegion(); }

  void buildListCheck(func::FuncOp report);
  FailureOr<Value> buildShapeCheck();
  void buildGridBody(ValueRange ivs);
  void buildStaticVisits();
  void buildListOverlapCheck(func::FuncOp report, ValueRange ivs, Value row);
  void buildListVisits();
  /// `tailOnly`: a partial step whose only hidden keys are those past Nk
  /// (a listed full block at the tail), whatever the layout.
  void buildStep(Value kb, bool partial, bool tailOnly = false);
  void buildFullOrPartialStep(Location at, Value kb, Value full,
                              bool tailOnly = false);
  void buildKeyTerm(Value k0);
  /// Whether the key block at k0 ends within the keys: k0 + block_k <= Nk.
  Value notTail(IndexMath &n, Value k0) {
    return n.le(n.add(k0, blockK), keyLen);
  }
  void buildLogits(Value k0, bool partial, bool tailOnly);
  static Value lowestFinite(OpBuilder &nb, Location at) {
    return f32At(nb, at,
                 APFloat::getLargest(APFloat::IEEEsingle(), /*Negative=*/true));
  }
  Value logitScaleConstant(OpBuilder &nb, Location at) {
    return arith::ConstantFloatOp::create(nb, at, nb.getF32Type(),
                                          APFloat(logitScale));
  }

  OpBuilder &b;
  Location loc;
  BlockAttentionOp op;
  IndexMath m;
  LayoutAttrInterface layout;
  int64_t blockQ, blockK;

  // Function-level sizes.
  Value batches, queryHeads, queryLen, keyLen, kvHeads, valueDim;
  Value lastKey; // Nk - 1: key reads are clamped to it
  Value numQueryBlocks, numKeyBlocks;
  // Per query block (inside the grid).
  Value batch, head, kvHead, queryBlock, q0, q1;
  Value scores, term, rowMax, rowSum, blockMax, safeMax, alpha, blockSum, acc;
  // Without a term, whether the last key block may hold keys past Nk (Nk
  // not a static multiple of block_k): such a block is classified partial,
  // and the element predicate of partial blocks includes k < Nk.
  bool classifyTail = false;
  // scale * log2(e), and whether it is folded into the exponent: without a
  // term or a score region and with a positive finite c, the scores stay
  // unscaled until the exponent: max(c * s) = c * max(s) exactly for c > 0
  // (rounding is monotonic), and the exponent is round(c * s) - m, so the
  // maximum's is exactly 0, as unfolded. A full block then has no map
  // before its row maximum. The product and the subtraction are not fused
  // (FlashAttention's one FMA): fma(s, c, -m) is s * c - round(s * c) at
  // the maximum, up to half an ulp of m, which for logits beyond 2^30
  // makes exp2 of it overflow or underflow, the row inf/NaN or, worse, an
  // empty row's 0 (test/Integration/bad-input.test, huge-logits).
  float logitScale = 0.0f;
  bool foldScale = false;
  // The query's scale in front of Q K^T (attic.tile.qk's query_scale), a
  // power of two 2^e with e <= 0, and the scales after it: logitScale and
  // scoreScale are c and scale divided by 2^e. Where c (with a score
  // region, the scale) is below 1, 2^e is its power of two, so that the
  // products overflow f32 only where the scaled logits would; unscaled,
  // Q K^T overflowed for finite logits (at D = 64 and scale 1/8, inputs
  // around 2.6e18; a 2026-11-30 audit). Multiplying by 2^e and dividing
  // the scale by it are exact (below f32's normal range excepted), so
  // every logit is the one computed unscaled. f32 queries only: f16 ones'
  // products cannot overflow (|q . k| <= D * 65504^2), and bf16 ones feed
  // the tensor-core kernels, which would scale them in bf16, whose
  // subnormals are coarser (queries around 1e-37 lost bits: max_rel_err
  // 7e-2; a review), so bf16 keeps the limit (docs/layouts.md).
  float queryScale = 1.0f;
  float scoreScale = 0.0f;
};

LogicalResult TileLoopBuilder::build() {
  Value query = op.getQuery(), key = op.getKey();
  batches = dim(query, 0);
  queryHeads = dim(query, 1);
  queryLen = dim(query, 2);
  kvHeads = dim(key, 1);
  keyLen = dim(key, 2);
  valueDim = dim(op.getValue(), 3);
  numQueryBlocks = m.ceilDiv(queryLen, m.c(blockQ));
  numKeyBlocks = m.ceilDiv(keyLen, m.c(blockK));
  lastKey = m.sub(keyLen, 1);
  std::optional<int64_t> staticKeys = getConstantIntValue(keyLen);
  classifyTail = !hasTerm() && (!staticKeys || *staticKeys % blockK != 0);
  float scale = op.getScale().convertToFloat();
  logitScale = static_cast<float>(scale * kLog2e);
  scoreScale = scale;
  float unit = std::fabs(scoreRegion() ? scale : logitScale);
  Type elem = cast<MemRefType>(query.getType()).getElementType();
  if (elem.isF32() && unit > 0.0f && unit < 1.0f) {
    int e = std::max(std::ilogb(unit), -126);
    queryScale = std::ldexp(1.0f, e);
    logitScale = std::ldexp(logitScale, -e);
    scoreScale = std::ldexp(scale, -e);
  }
  foldScale = !hasTerm() && !scoreRegion() && logitScale > 0.0f &&
              std::isfinite(logitScale);

  FailureOr<Value> badShape = buildShapeCheck();
  if (failed(badShape))
    return failure();
  if (op.hasBlockLists()) {
    FailureOr<func::FuncOp> report = declareReportError(op);
    if (failed(report))
      return failure();
    buildListCheck(*report);
  }
  // Operands of mismatched shapes have been reported: nothing runs.
  Value gridBatches =
      *badShape ? m.select(*badShape, m.c(0), batches) : batches;
  if ((maskRegion() && readsCaptures(*maskRegion())) ||
      (scoreRegion() && readsCaptures(*scoreRegion()))) {
    FailureOr<func::FuncOp> report = declareReportError(op);
    if (failed(report))
      return failure();
    SmallVector<std::pair<Region *, ModifierKind>> regions;
    if (maskRegion())
      regions.push_back({maskRegion(), ModifierKind::Mask});
    if (scoreRegion())
      regions.push_back({scoreRegion(), ModifierKind::Score});
    Value empty = buildCaptureCheck(
        b, loc, *report, regions,
        op.getCaptures(), batches, queryHeads, queryLen, keyLen);
    // A capture with an empty dimension has been reported: nothing runs
    // that would read it.
    gridBatches = m.select(empty, m.c(0), gridBatches);
  }

  auto grid =
      TileGridOp::create(b, loc, gridBatches, queryHeads, numQueryBlocks);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(grid.getBody()->getTerminator());
  buildGridBody(grid.getInductionVars());
  return success();
}

/// The operands' sizes that the verifier could not compare (dynamic ones,
/// from the data) compared in front of the grid, as it compares static
/// ones: each mismatch is reported to the runtime (ATTIC_RT_OPERAND_SHAPE)
/// and the result, an i1, says whether there was one (null where every
/// size is static: nothing is emitted). Unchecked, a query
/// of fewer heads than the key divided by zero in the grid (Hq / Hkv = 0:
/// SIGFPE), and a key or value of fewer batches, heads, keys or features
/// than the query implies was read past its end (a silently wrong result;
/// an audit).
FailureOr<Value> TileLoopBuilder::buildShapeCheck() {
  // attic_rt_error_code's operand numbers.
  enum {
    Key = 1,
    Value_ = 2,
    Bias2 = 3,
    Bias3 = 4,
    Mask = 5,
    Out = 6,
    Lse = 7
  };
  Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
  SmallVector<std::tuple<int, Value, int64_t, Value>> checks = {
      {Key, key, 0, batches},
      {Key, key, 3, dim(query, 3)},
      {Value_, value, 0, batches},
      {Value_, value, 1, kvHeads},
      {Value_, value, 2, keyLen}};
  if (Value bias = op.getKeyBias()) {
    if (cast<MemRefType>(bias.getType()).getRank() == 2)
      checks.append({{Bias2, bias, 0, batches}, {Bias2, bias, 1, keyLen}});
    else
      checks.append({{Bias3, bias, 0, batches},
                     {Bias3, bias, 1, queryHeads},
                     {Bias3, bias, 2, keyLen}});
  }
  if (Value mask = op.getKeyMask())
    checks.append({{Mask, mask, 0, batches}, {Mask, mask, 1, keyLen}});
  Value init = op.getInit();
  checks.append({{Out, init, 0, batches},
                 {Out, init, 1, queryHeads},
                 {Out, init, 2, queryLen},
                 {Out, init, 3, valueDim}});
  if (Value lse = op.getLseInit())
    checks.append({{Lse, lse, 0, batches},
                   {Lse, lse, 1, queryHeads},
                   {Lse, lse, 2, queryLen}});
  auto isDynamic = [](Value v) {
    return !cast<MemRefType>(v.getType()).hasStaticShape();
  };
  if (!isDynamic(query) && llvm::none_of(checks, [&](auto &check) {
        return isDynamic(std::get<1>(check));
      }))
    return Value();
  int64_t line = sourceLineOf(loc) * 64;
  Value any;
  std::optional<func::FuncOp> report;
  auto reportIf = [&](Value bad, int64_t field, Value actual,
                      Value expected) -> LogicalResult {
    if (matchPattern(bad, m_Zero()))
      return success();
    if (!report) {
      FailureOr<func::FuncOp> declared = declareReportError(op);
      if (failed(declared))
        return failure();
      report = *declared;
    }
    emitReportErrorIf(b, loc, *report, bad, ATTIC_RT_OPERAND_SHAPE,
                      m.c(line + field), actual, expected);
    any = any ? m.orI(any, bad) : bad;
    return success();
  };
  for (auto [operand, memref, d, expected] : checks) {
    Value actual = dim(memref, d);
    if (failed(reportIf(m.ne(actual, expected), operand * 8 + d, actual,
                        expected)))
      return failure();
  }
  // Hkv >= 1 and Hq a multiple of it (63: the heads' field).
  Value divisor = m.max(kvHeads, m.c(1));
  Value remainder = b.createOrFold<arith::RemUIOp>(loc, queryHeads, divisor);
  Value badHeads = m.orI(m.eq(kvHeads, m.c(0)), m.ne(remainder, m.c(0)));
  if (failed(reportIf(badHeads, 63, queryHeads, kvHeads)))
    return failure();
  return any ? any : m.boolean(false);
}

/// A loop nest in front of the grid that reports every count outside
/// [0, L], every listed index outside [0, nKB) and every list that is not
/// strictly ascending (a block listed twice would be visited, and count,
/// twice) to the runtime, plus the list shapes that the verifier could not
/// check (dynamic sizes).
void TileLoopBuilder::buildListCheck(func::FuncOp report) {
  Value counts[2] = {op.getKvNumBlocks(), op.getFullKvNumBlocks()};
  Value lists[2] = {op.getKvIndices(), op.getFullKvIndices()};
  Value listBatches = dim(counts[0], 0), listHeads = dim(counts[0], 1);
  Value listBlocks = dim(counts[0], 2);
  emitReportErrorIf(b, loc, report, m.ne(listBlocks, numQueryBlocks),
                    ATTIC_RT_BLOCK_SHAPE, listBlocks, numQueryBlocks, m.c(0));
  emitReportErrorIf(
      b, loc, report,
      m.andI(m.ne(listBatches, m.c(1)), m.ne(listBatches, batches)),
      ATTIC_RT_BLOCK_SHAPE, listBatches, batches, m.c(1));
  emitReportErrorIf(
      b, loc, report,
      m.andI(m.ne(listHeads, m.c(1)), m.ne(listHeads, queryHeads)),
      ATTIC_RT_BLOCK_SHAPE, listHeads, queryHeads, m.c(2));
  for (int which = 0; which < 2; ++which) {
    Value count = counts[which], list = lists[which];
    Value capacity = dim(list, 3);
    auto nest = scf::ParallelOp::create(
        b, loc, ValueRange{m.c(0), m.c(0), m.c(0)},
        ValueRange{m.min(listBatches, dim(list, 0)),
                   m.min(listHeads, dim(list, 1)),
                   m.min(listBlocks, dim(list, 2))},
        ValueRange{m.c(1), m.c(1), m.c(1)});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(nest.getBody()->getTerminator());
    SmallVector<Value> ivs(nest.getInductionVars());
    // The list and row that reports name (kv_indices[b, h, qb, :]).
    Value row = emitBlockListRow(b, loc, ivs[0], ivs[1], ivs[2], listHeads,
                                 listBlocks, which);
    Value n = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        memref::LoadOp::create(b, loc, count, ivs));
    Value bad = m.orI(m.lt(n, m.c(0)), m.lt(capacity, n));
    emitReportErrorIf(b, loc, report, bad, ATTIC_RT_BLOCK_COUNT, row, n,
                      capacity);
    Value used = m.max(m.min(n, capacity), m.c(0));
    scf::ForOp::create(
        b, loc, m.c(0), used, m.c(1), ValueRange{},
        [&](OpBuilder &nested, Location at, Value t, ValueRange) {
          IndexMath n2(nested, at);
          Value kb = arith::IndexCastOp::create(
              nested, at, nested.getIndexType(),
              memref::LoadOp::create(nested, at, list,
                                     ValueRange{ivs[0], ivs[1], ivs[2], t}));
          Value outside = n2.orI(n2.lt(kb, n2.c(0)), n2.le(numKeyBlocks, kb));
          scf::IfOp::create(
              nested, at, outside, [&](OpBuilder &inner, Location at2) {
                emitReportError(inner, at2, report, ATTIC_RT_BLOCK_INDEX, row,
                                kb, numKeyBlocks);
                scf::YieldOp::create(inner, at2);
              });
          // Strictly ascending, so that no block is visited twice.
          Value prev = arith::IndexCastOp::create(
              nested, at, nested.getIndexType(),
              memref::LoadOp::create(
                  nested, at, list,
                  ValueRange{ivs[0], ivs[1], ivs[2],
                             n2.max(n2.sub(t, 1), n2.c(0))}));
          Value unordered = n2.andI(n2.lt(n2.c(0), t), n2.le(kb, prev));
          scf::IfOp::create(
              nested, at, unordered, [&](OpBuilder &inner, Location at2) {
                emitReportError(inner, at2, report, ATTIC_RT_BLOCK_ORDER, row,
                                kb, prev);
                scf::YieldOp::create(inner, at2);
              });
          scf::YieldOp::create(nested, at);
        });
    // After the full list's own checks: the two lists against each other.
    if (which == 1)
      buildListOverlapCheck(report, ivs, row);
  }
}

/// In the check's loop nest over the full list's (b, h, qb): reports every
/// key block in both lists of the query block, a merge of the two ascending
/// lists (where a list is not ascending, that is reported already, and this
/// may miss a block). Nothing is read outside the partial list's shape.
void TileLoopBuilder::buildListOverlapCheck(func::FuncOp report, ValueRange ivs,
                                            Value row) {
  Value counts[2] = {op.getKvNumBlocks(), op.getFullKvNumBlocks()};
  Value lists[2] = {op.getKvIndices(), op.getFullKvIndices()};
  Value inside = m.boolean(true);
  for (Value v : {counts[0], lists[0]})
    for (int d = 0; d < 3; ++d)
      inside = m.andI(inside, m.lt(ivs[d], dim(v, d)));
  auto ifInside = scf::IfOp::create(b, loc, inside, /*else=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifInside.thenBlock()->getTerminator());
  Value used[2];
  for (int which = 0; which < 2; ++which) {
    Value n = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        memref::LoadOp::create(b, loc, counts[which], ivs));
    used[which] = m.max(m.min(n, dim(lists[which], 3)), m.c(0));
  }
  Type index = b.getIndexType();
  scf::WhileOp::create(
      b, loc, TypeRange{index, index}, ValueRange{m.c(0), m.c(0)},
      [&](OpBuilder &ob, Location at, ValueRange ij) {
        IndexMath n(ob, at);
        scf::ConditionOp::create(
            ob, at, n.andI(n.lt(ij[0], used[0]), n.lt(ij[1], used[1])), ij);
      },
      [&](OpBuilder &ob, Location at, ValueRange ij) {
        IndexMath n(ob, at);
        auto entry = [&](int which, Value t) -> Value {
          return arith::IndexCastOp::create(
              ob, at, ob.getIndexType(),
              memref::LoadOp::create(ob, at, lists[which],
                                     ValueRange{ivs[0], ivs[1], ivs[2], t}));
        };
        Value partial = entry(0, ij[0]), full = entry(1, ij[1]);
        scf::IfOp::create(
            ob, at, n.eq(partial, full), [&](OpBuilder &inner, Location at2) {
              emitReportError(inner, at2, report, ATTIC_RT_BLOCK_BOTH, row,
                              partial, IndexMath(inner, at2).c(0));
              scf::YieldOp::create(inner, at2);
            });
        Value one = n.c(1), zero = n.c(0);
        Value stepI = n.select(n.le(partial, full), one, zero);
        Value stepJ = n.select(n.le(full, partial), one, zero);
        scf::YieldOp::create(
            ob, at, ValueRange{n.add(ij[0], stepI), n.add(ij[1], stepJ)});
      });
}

void TileLoopBuilder::buildGridBody(ValueRange ivs) {
  batch = ivs[0];
  head = ivs[1];
  queryBlock = ivs[2];
  // Grouped-query attention: Hq / Hkv query heads share a key/value head.
  // (Both divisors at least 1: with Hq < Hkv or Hkv = 0 the shape check
  // has reported and the grid is empty, but a division by zero must not be
  // there to be hoisted.)
  Value group;
  if (getConstantIntValue(queryHeads) && getConstantIntValue(kvHeads))
    group = b.createOrFold<arith::DivUIOp>(loc, queryHeads, kvHeads);
  else
    group = m.max(
        b.createOrFold<arith::DivUIOp>(loc, queryHeads, m.max(kvHeads, m.c(1))),
        m.c(1));
  kvHead = b.createOrFold<arith::DivUIOp>(loc, head, group);
  q0 = m.mul(queryBlock, blockQ);
  q1 = m.min(m.add(q0, blockQ), queryLen);

  auto valueType = cast<MemRefType>(op.getValue().getType());
  SmallVector<Value> dynamicDv;
  if (valueType.isDynamicDim(3))
    dynamicDv.push_back(valueDim);
  scores = tile({blockQ, blockK});
  if (hasTerm())
    term = tile({blockK});
  rowMax = tile({blockQ});
  rowSum = tile({blockQ});
  blockMax = tile({blockQ});
  safeMax = tile({blockQ});
  alpha = tile({blockQ});
  blockSum = tile({blockQ});
  acc = tile({blockQ, valueType.getDimSize(3)}, dynamicDv);

  TileMapRowsOp::create(
      b, loc, q0, ValueRange{}, ValueRange{rowMax, rowSum},
      [&](OpBuilder &nb, Location at, ValueRange) -> SmallVector<Value> {
        return {infAt(nb, at, /*negative=*/true), f32At(nb, at, APFloat(0.0f))};
      });
  TileMapOp::create(
      b, loc, q0, m.c(0), ValueRange{}, ValueRange{}, ValueRange{},
      ValueRange{acc},
      [&](OpBuilder &nb, Location at, ValueRange) -> SmallVector<Value> {
        return {f32At(nb, at, APFloat(0.0f))};
      });

  if (op.hasBlockLists())
    buildListVisits();
  else
    buildStaticVisits();

  // No visible key: l == 0 and the row is 0. NaN in l stays NaN. One
  // division per row (r = 1 / l, 0 for l == 0; blockSum is free after the
  // loop) and a multiply per element, as FlashAttention normalizes: a
  // division per element is a long sequence on the GPU (div.rn.f32). With
  // a visible key l >= 1 (the row maximum's exp2(0) is in the sum), so
  // r == 0 exactly when l == 0. With checkOverflow(), l == 0 also where
  // every visible logit overflowed to -inf (m = -FLT_MAX, not -inf): that
  // row is NaN (r = NaN), reported like any other overflow; elsewhere l
  // is 0 only without a visible key (a visible finite maximum adds
  // exp2(0) = 1 to l).
  SmallVector<Value> epilogueIns = {rowSum};
  if (checkOverflow())
    epilogueIns.push_back(rowMax);
  TileMapRowsOp::create(
      b, loc, q0, epilogueIns, ValueRange{blockSum},
      [&](OpBuilder &nb, Location at, ValueRange args) -> SmallVector<Value> {
        Value l = args[1];
        Value zero = f32At(nb, at, APFloat(0.0f));
        Value one = f32At(nb, at, APFloat(1.0f));
        Value none =
            arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OEQ, l, zero);
        Value empty = zero;
        if (checkOverflow()) {
          Value ninf = infAt(nb, at, /*negative=*/true);
          Value nan = f32At(nb, at, APFloat::getQNaN(APFloat::IEEEsingle()));
          Value noKey = arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OEQ,
                                              args[2], ninf);
          empty = arith::SelectOp::create(nb, at, noKey, zero, nan);
        }
        Value r = arith::DivFOp::create(nb, at, one, l);
        return {arith::SelectOp::create(nb, at, none, empty, r)};
      });
  TileMapOp::create(
      b, loc, q0, m.c(0), ValueRange{acc}, ValueRange{blockSum}, ValueRange{},
      ValueRange{acc},
      [&](OpBuilder &nb, Location at, ValueRange args) -> SmallVector<Value> {
        Value a = args[2], r = args[3];
        Value zero = f32At(nb, at, APFloat(0.0f));
        // r == 0: no visible key, 0 even where a is NaN (0 * NaN would be).
        Value none =
            arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OEQ, r, zero);
        Value scaled = arith::MulFOp::create(nb, at, a, r);
        return {arith::SelectOp::create(nb, at, none, zero, scaled)};
      });
  TileStoreOp::create(b, loc, acc, op.getInit(), batch, head, queryBlock);
  // The pooled epilogue: the block's stored rows, weighted and summed.
  if (Value pooled = op.getPoolInit())
    TilePoolOp::create(b, loc, acc, op.getInit(), op.getPoolWeights(), pooled,
                       batch, head, queryBlock);
  // The log-sum-exp of the row's visible logits, natural log: m and l are
  // base 2 (m the running maximum, l = sum exp2(x - m)); -inf without a
  // visible key.
  if (Value lseOut = op.getLseInit()) {
    Value lse = tile({blockQ});
    TileMapRowsOp::create(
        b, loc, q0, ValueRange{rowMax, rowSum}, ValueRange{lse},
        [&](OpBuilder &nb, Location at, ValueRange args) -> SmallVector<Value> {
          Value mx = args[1], l = args[2];
          Value zero = f32At(nb, at, APFloat(0.0f));
          Value ninf = infAt(nb, at, /*negative=*/true);
          Value ln2 = arith::ConstantFloatOp::create(
              nb, at, nb.getF32Type(), APFloat(float(M_LN2)));
          Value none =
              arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OEQ, l, zero);
          // With checkOverflow(), a row whose visible logits all
          // overflowed (l == 0, m = -FLT_MAX) is NaN, as its output is:
          // it was -inf, the lse of a row without a visible key (a
          // 2026-11-30 audit).
          Value empty = ninf;
          if (checkOverflow()) {
            Value nan = f32At(nb, at, APFloat::getQNaN(APFloat::IEEEsingle()));
            Value noKey = arith::CmpFOp::create(
                nb, at, arith::CmpFPredicate::OEQ, mx, ninf);
            empty = arith::SelectOp::create(nb, at, noKey, ninf, nan);
          }
          Value base2 = arith::AddFOp::create(nb, at, mx,
                                              math::Log2Op::create(nb, at, l));
          return {arith::SelectOp::create(
              nb, at, none, empty, arith::MulFOp::create(nb, at, base2, ln2))};
        });
    TileStoreOp::create(b, loc, lse, lseOut, batch, head, queryBlock);
    memref::DeallocOp::create(b, loc, lse);
  }
  for (Value t : {scores, term, rowMax, rowSum, blockMax, safeMax, alpha,
                  blockSum, acc})
    if (t)
      memref::DeallocOp::create(b, loc, t);
}

void TileLoopBuilder::buildStaticVisits() {
  LayoutEnv e = env(b, loc);
  KeyRange range = layout.buildKeyRange(e, q0, q1);
  Value first = m.floorDiv(range.lo, blockK);
  Value last = m.ceilDiv(range.hi, m.c(blockK));
  bool runtimeClassified = layout.needsBlockMask();
  scf::ForOp::create(
      b, loc, first, last, m.c(1), ValueRange{},
      [&](OpBuilder &nested, Location at, Value kb, ValueRange) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        scf::YieldOp::create(b, at);
        b.setInsertionPoint(b.getInsertionBlock()->getTerminator());
        IndexMath n(b, at);
        Value k0 = n.mul(kb, blockK);
        Value k1 = n.min(n.add(k0, blockK), keyLen);
        LayoutEnv inner = env(b, at);
        // A layout that cannot classify without running something calls
        // every block of its range partial (attic.block_mask avoids this).
        BlockVisibility vis =
            runtimeClassified
                ? BlockVisibility{n.boolean(true), n.boolean(false)}
                : layout.buildBlockVisibility(inner, q0, q1, k0, k1);
        vis = intersectMaskVisibility(inner, vis, maskRegion(), q0, q1, k0, k1);
        if (classifyTail)
          vis.all = n.andI(vis.all, notTail(n, k0));
        if (isConstantTrue(vis.all)) {
          buildStep(kb, /*partial=*/false);
          return;
        }
        if (matchPattern(vis.any, m_Zero()))
          return;
        if (isConstantTrue(vis.any)) {
          buildFullOrPartialStep(at, kb, vis.all);
          return;
        }
        auto ifAny = scf::IfOp::create(b, at, vis.any, /*else=*/false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(ifAny.thenBlock()->getTerminator());
        buildFullOrPartialStep(at, kb, vis.all);
      });
}

void TileLoopBuilder::buildListVisits() {
  // One row of the lists serves all batches (heads) when it has one.
  auto pick = [&](Value list, int64_t d, Value iv) {
    Value rows = dim(list, d);
    return m.select(m.eq(rows, m.c(1)), m.c(0),
                    m.min(iv, m.sub(rows, 1)));
  };
  Value lists[2][2] = {{op.getFullKvNumBlocks(), op.getFullKvIndices()},
                       {op.getKvNumBlocks(), op.getKvIndices()}};
  for (int which = 0; which < 2; ++which) {
    Value count = lists[which][0], list = lists[which][1];
    bool partial = which == 1;
    // Lists with an empty dim (reported by the check) give no blocks.
    Value usable = m.andI(m.andI(m.lt(m.c(0), dim(list, 0)),
                                 m.lt(m.c(0), dim(list, 1))),
                          m.lt(m.c(0), dim(list, 2)));
    Value lb = pick(list, 0, batch), lh = pick(list, 1, head);
    Value lq = m.min(queryBlock, m.sub(dim(list, 2), 1));
    auto ifUsable = scf::IfOp::create(b, loc, TypeRange{b.getIndexType()},
                                      usable, /*else=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifUsable.thenBlock());
      Value n = arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          memref::LoadOp::create(b, loc, count, ValueRange{lb, lh, lq}));
      scf::YieldOp::create(
          b, loc, m.max(m.min(n, dim(list, 3)), m.c(0)));
      b.setInsertionPointToStart(ifUsable.elseBlock());
      scf::YieldOp::create(b, loc, m.c(0));
    }
    scf::ForOp::create(
        b, loc, m.c(0), ifUsable.getResult(0), m.c(1), ValueRange{},
        [&](OpBuilder &nested, Location at, Value t, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          Value kb = arith::IndexCastOp::create(
              b, at, b.getIndexType(),
              memref::LoadOp::create(b, at, list, ValueRange{lb, lh, lq, t}));
          IndexMath n(b, at);
          Value inside = n.andI(n.le(n.c(0), kb), n.lt(kb, numKeyBlocks));
          auto ifInside = scf::IfOp::create(b, at, inside, /*else=*/false);
          b.setInsertionPoint(ifInside.thenBlock()->getTerminator());
          // A listed full block with keys past Nk runs as partial, with
          // k < Nk as its only predicate: a full block skips the layout
          // and the mask region (as the reference's lists do).
          Value full = n.boolean(!partial);
          if (!partial && classifyTail)
            full = notTail(n, n.mul(kb, blockK));
          buildFullOrPartialStep(at, kb, full, /*tailOnly=*/!partial);
          b.setInsertionPointAfter(ifInside);
          scf::YieldOp::create(b, at);
        });
  }
}

/// `value`, or -FLT_MAX where it overflowed to -inf (or below -FLT_MAX)
/// although `source`, what it was computed from, is above -inf: only a
/// -inf that was there before masks (toBase2, and the sum of a logit and
/// its term). NaN stays NaN. `ninf`: a -inf constant to reuse, if any.
static Value saturateOverflow(OpBuilder &nb, Location at, Value value,
                              Value source, Value ninf = Value()) {
  Value lowest = arith::ConstantFloatOp::create(
      nb, at, nb.getF32Type(),
      APFloat::getLargest(APFloat::IEEEsingle(), /*Negative=*/true));
  Value below =
      arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OLT, value, lowest);
  if (!ninf)
    ninf = infAt(nb, at, /*negative=*/true);
  Value finite =
      arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OGT, source, ninf);
  return arith::SelectOp::create(
      nb, at, arith::AndIOp::create(nb, at, below, finite), lowest, value);
}

/// log2(e) * x, the base-2 logit of a natural one (a bias, a score
/// region's result). Where the product overflows to -inf although x is
/// finite (x below -FLT_MAX / log2(e), about -2.36e38), it saturates to
/// -FLT_MAX, which would otherwise read as a masked key: a row whose keys
/// all had such a logit became an empty row's 0. Next to any ordinary
/// logit such a key weighs exp2(-2^128) = 0, and a row of such keys only
/// averages them, as f32 frameworks and the reference do. -inf stays -inf
/// (a masked key), and NaN stays NaN.
static Value toBase2(OpBuilder &nb, Location at, Value x) {
  Value l2e = arith::ConstantFloatOp::create(
      nb, at, nb.getF32Type(), APFloat(static_cast<float>(kLog2e)));
  return saturateOverflow(nb, at, arith::MulFOp::create(nb, at, x, l2e), x);
}

/// The per-key logit term of the block at key k0 into `term`, base 2:
/// log2(e) * bias, -inf for masked keys and keys past Nk (whose reads are
/// clamped into the sequence). Only with a bias or key mask (hasTerm()):
/// otherwise the keys past Nk are masked by classifyTail's partial blocks,
/// and a term of 0 would change s * scale only in the sign of a zero,
/// which exp2 and max do not see.
void TileLoopBuilder::buildKeyTerm(Value k0) {
  Value bias = op.getKeyBias(), mask = op.getKeyMask();
  TileMapColsOp::create(
      b, loc, k0, ValueRange{}, ValueRange{term},
      [&](OpBuilder &nb, Location at, ValueRange args) -> SmallVector<Value> {
        IndexMath n(nb, at);
        Value k = args[0];
        Value kc = n.min(k, lastKey);
        Value valid = n.lt(k, keyLen);
        Value t = f32At(nb, at, APFloat(0.0f));
        if (bias) {
          auto biasType = cast<MemRefType>(bias.getType());
          SmallVector<Value> idx = biasType.getRank() == 2
                                       ? SmallVector<Value>{batch, kc}
                                       : SmallVector<Value>{batch, head, kc};
          Value x = memref::LoadOp::create(nb, at, bias, idx);
          if (!x.getType().isF32())
            x = arith::ExtFOp::create(nb, at, nb.getF32Type(), x);
          // A finite bias below -FLT_MAX / log2(e) (about -2.36e38, e.g.
          // finfo(f32).min, the additive-mask idiom) saturates, per key
          // (toBase2): only a bias of -inf masks.
          t = toBase2(nb, at, x);
        }
        if (mask)
          valid = n.andI(valid, memref::LoadOp::create(nb, at, mask,
                                                       ValueRange{batch, kc}));
        Value ninf = infAt(nb, at, /*negative=*/true);
        return {arith::SelectOp::create(nb, at, valid, t, ninf)};
      });
}

/// The base-2 logits of the block at key k0, in place in `scores`, and in
/// a partial block the layout's element predicate (with the scale folded,
/// the predicate alone: the scores stay unscaled).
void TileLoopBuilder::buildLogits(Value k0, bool partial, bool tailOnly) {
  TileMapOp::create(
      b, loc, q0, k0, ValueRange{scores}, ValueRange{},
      hasTerm() ? ValueRange{term} : ValueRange{}, ValueRange{scores},
      [&](OpBuilder &nb, Location at, ValueRange args) -> SmallVector<Value> {
        Value q = args[0], k = args[1], s = args[2];
        Value t = hasTerm() ? args[3] : Value();
        // A masked key's term is -inf, and so is its logit, whatever the
        // score: adding it to a NaN or +inf score (a score region's) gave
        // NaN, which made the row NaN (a 2026-11-30 audit).
        // A finite logit plus a finite term can still overflow to -inf (a
        // saturated bias of -FLT_MAX with a saturated score, or with a
        // logit of -1e36): saturated to -FLT_MAX, as each of them is, so
        // that only -inf masks (a 2026-11-30 review).
        auto addTerm = [&](Value x) -> Value {
          if (!t)
            return x;
          Value ninf = infAt(nb, at, /*negative=*/true);
          Value masked =
              arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OEQ, t, ninf);
          Value sum = saturateOverflow(
              nb, at, arith::AddFOp::create(nb, at, x, t), x, ninf);
          return arith::SelectOp::create(nb, at, masked, ninf, sum);
        };
        IndexMath n(nb, at);
        Value qc = n.min(q, n.sub(queryLen, 1)), kc = n.min(k, lastKey);
        LayoutEnv inner = env(nb, at);
        Value x;
        if (Region *score = scoreRegion()) {
          // score(scale * s) in natural units, then base 2.
          Value scale = arith::ConstantFloatOp::create(nb, at, nb.getF32Type(),
                                                       APFloat(scoreScale));
          Value modified = buildScore(
              inner, *score, arith::MulFOp::create(nb, at, s, scale), qc, kc);
          // A finite score below about -2.36e38 (finfo(f32).min, or
          // s - 3e38) saturates, as a bias does: only -inf masks. Before
          // 2026-11-30 a row whose scores were all such became an empty
          // row's 0 (an audit; score-lowest.mlir).
          x = addTerm(toBase2(nb, at, modified));
        } else if (foldScale && !partial) {
          x = s;
        } else {
          x = addTerm(
              arith::MulFOp::create(nb, at, s, logitScaleConstant(nb, at)));
        }
        if (!partial)
          return {x};
        Value visible;
        if (tailOnly) {
          visible = n.lt(k, keyLen);
        } else {
          visible = layout.buildElementPredicate(inner, qc, kc);
          if (classifyTail)
            visible = n.andI(visible, n.lt(k, keyLen));
          if (Region *mask = maskRegion())
            visible = n.andI(visible, buildMaskPredicate(inner, *mask, qc, kc));
        }
        Value ninf = infAt(nb, at, /*negative=*/true);
        // A visible overflowed logit is -FLT_MAX, apart from the masked
        // ones' -inf; its exponent is still 0 (see checkOverflow). Not
        // maxnum, which would turn a visible NaN into -FLT_MAX and lose it:
        // x < -FLT_MAX is false for NaN.
        if (checkOverflow()) {
          Value low = lowestFinite(nb, at);
          Value below =
              arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OLT, x, low);
          x = arith::SelectOp::create(nb, at, below, low, x);
        }
        return {arith::SelectOp::create(nb, at, visible, x, ninf)};
      });
}

/// The step of key block kb: full where `full` (an i1) holds, else
/// partial; one branch where `full` is a constant.
void TileLoopBuilder::buildFullOrPartialStep(Location at, Value kb, Value full,
                                             bool tailOnly) {
  if (isConstantTrue(full) || matchPattern(full, m_Zero())) {
    buildStep(kb, /*partial=*/!isConstantTrue(full), tailOnly);
    return;
  }
  auto ifFull = scf::IfOp::create(b, at, full, /*else=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ifFull.thenBlock()->getTerminator());
  buildStep(kb, /*partial=*/false);
  b.setInsertionPoint(ifFull.elseBlock()->getTerminator());
  buildStep(kb, /*partial=*/true, tailOnly);
}

void TileLoopBuilder::buildStep(Value kb, bool partial, bool tailOnly) {
  Value k0 = m.mul(kb, blockK);
  if (hasTerm())
    buildKeyTerm(k0);
  TileQKOp::create(b, loc, op.getQuery(), batch, head, queryBlock, op.getKey(),
                   batch, kvHead, kb, scores,
                   queryScale != 1.0f ? b.getF32FloatAttr(queryScale)
                                      : FloatAttr());
  // A partial block scales its logits in its map (the predicate's select
  // is there anyway, and the overflow clamp must see the scaled logit); a
  // full one has none with the scale folded.
  bool fold = foldScale && !partial;
  if (!fold)
    buildLogits(k0, partial, tailOnly);

  TileReduceOp::create(b, loc, TileReduceKind::Max, scores, blockMax);
  TileMapRowsOp::create(
      b, loc, q0, ValueRange{rowMax, blockMax},
      ValueRange{rowMax, safeMax, alpha},
      [&](OpBuilder &nb, Location at, ValueRange args) -> SmallVector<Value> {
        Value old = args[1], blk = args[2];
        if (fold)
          blk = arith::MulFOp::create(nb, at, blk, logitScaleConstant(nb, at));
        // Every key of a full block is visible: an overflowed row maximum
        // counts as -FLT_MAX (a partial block clamps per element).
        if (checkOverflow() && !partial)
          blk = arith::MaxNumFOp::create(nb, at, blk, lowestFinite(nb, at));
        Value mNew = arith::MaxNumFOp::create(nb, at, old, blk);
        Value mSafe;
        if (checkOverflow()) {
          // No visible key (m = -inf) or only overflowed ones (m = -FLT_MAX):
          // exponents relative to +inf are exp2(-inf) = 0, l stays 0.
          Value inf = infAt(nb, at, /*negative=*/false);
          Value none = arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OLE,
                                             mNew, lowestFinite(nb, at));
          mSafe = arith::SelectOp::create(nb, at, none, inf, mNew);
        } else {
          // A row that has seen no key keeps m = -inf: exponents relative
          // to 0 give exp2(-inf) = 0, never exp2(-inf - -inf) = NaN.
          Value ninf = infAt(nb, at, /*negative=*/true);
          Value zero = f32At(nb, at, APFloat(0.0f));
          Value none = arith::CmpFOp::create(nb, at, arith::CmpFPredicate::OEQ,
                                             mNew, ninf);
          mSafe = arith::SelectOp::create(nb, at, none, zero, mNew);
        }
        Value a = math::Exp2Op::create(
            nb, at, arith::SubFOp::create(nb, at, old, mSafe));
        return {mNew, mSafe, a};
      });
  TileMapOp::create(
      b, loc, q0, k0, ValueRange{scores}, ValueRange{safeMax}, ValueRange{},
      ValueRange{scores},
      [&](OpBuilder &nb, Location at, ValueRange args) -> SmallVector<Value> {
        // Rounded c * s, then the subtraction: never fused (see foldScale).
        Value x = args[2];
        if (fold)
          x = arith::MulFOp::create(nb, at, x, logitScaleConstant(nb, at));
        return {math::Exp2Op::create(
            nb, at, arith::SubFOp::create(nb, at, x, args[3]))};
      });
  TileReduceOp::create(b, loc, TileReduceKind::Add, scores, blockSum);
  TileMapRowsOp::create(
      b, loc, q0, ValueRange{rowSum, alpha, blockSum}, ValueRange{rowSum},
      [&](OpBuilder &nb, Location at, ValueRange args) -> SmallVector<Value> {
        Value l = args[1], a = args[2], blk = args[3];
        return {arith::AddFOp::create(
            nb, at, arith::MulFOp::create(nb, at, a, l), blk)};
      });
  TilePVOp::create(b, loc, scores, op.getValue(), batch, kvHead, kb, alpha,
                   acc);
}

struct AtticTileBlockAttentionPass
    : public attic::impl::AtticTileBlockAttentionBase<
          AtticTileBlockAttentionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (wideHeadBlockK < 0 || wideHeadBlockK > 1024)
      return attic::optionError(
          context, "attic-tile-block-attention: wide-head-block-k must be in "
                   "[0, 1024], got " +
                       Twine(static_cast<int64_t>(wideHeadBlockK)));
    return success();
  }

  void runOnOperation() override {
    if (failed(attic::detail::refuseAtticRoot(getOperation(),
                                              "attic-tile-block-attention")))
      return signalPassFailure();
    ReportErrorScope scope(getOperation());
    SmallVector<BlockAttentionOp> ops;
    getOperation()->walk([&](BlockAttentionOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    for (BlockAttentionOp op : ops) {
      auto wide = [](Value v) {
        int64_t d = cast<ShapedType>(v.getType()).getDimSize(3);
        return ShapedType::isDynamic(d) || d > 64;
      };
      if (wideHeadBlockK > 0 && !op.hasBlockLists() &&
          static_cast<int64_t>(op.getBlockK()) > wideHeadBlockK &&
          (wide(op.getQuery()) || wide(op.getValue())))
        op.setBlockK(wideHeadBlockK);
      // Without lists block_k is only a tiling choice: keys that fit in
      // one block are that block, full where the layout allows.
      int64_t keys = cast<ShapedType>(op.getKey().getType()).getDimSize(2);
      if (fitBlockK && !op.hasBlockLists() && !ShapedType::isDynamic(keys) &&
          keys > 0 && keys < static_cast<int64_t>(op.getBlockK()))
        op.setBlockK(keys);
      if (failed(tileBlockAttention(op)))
        return signalPassFailure();
    }
    // The modifier functions that bufferization outlined, once nothing
    // names them any more.
    if (!getOperation()->hasTrait<OpTrait::SymbolTable>())
      return;
    // The top-level names used, collected in one walk: a use query per
    // function walked the whole module each time, quadratic in the number
    // of attentions (64 LSH rounds, 128 modifier functions: 3.5 s of this
    // pass, 0.28 s at 16 rounds; a 2026-12-02 audit). A function in a
    // nested symbol table keeps the query of its own.
    SmallVector<func::FuncOp> topLevel, nested;
    for (Region &region : getOperation()->getRegions())
      region.walk([&](func::FuncOp fn) {
        if (!fn->hasAttr("attic.modifier"))
          return;
        (fn->getParentOp() == getOperation() ? topLevel : nested).push_back(fn);
      });
    llvm::DenseSet<StringAttr> used;
    bool known = true;
    for (Region &region : getOperation()->getRegions()) {
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&region);
      if (!uses) {
        known = false; // An unknown op may name them: keep them.
        break;
      }
      for (const SymbolTable::SymbolUse &use : *uses)
        used.insert(use.getSymbolRef().getRootReference());
    }
    for (func::FuncOp fn : topLevel)
      if (known && !used.contains(fn.getSymNameAttr()))
        fn.erase();
    for (func::FuncOp fn : nested)
      if (SymbolTable::symbolKnownUseEmpty(fn, getOperation()))
        fn.erase();
  }
};

} // namespace

LogicalResult attic::tileBlockAttention(BlockAttentionOp op) {
  if (!op.hasPureBufferSemantics())
    return op.emitOpError("attic-tile-block-attention needs the memref form "
                          "(bufferize first)");
  OpBuilder b(op);
  TileLoopBuilder builder(b, op);
  if (failed(builder.build()))
    return failure();
  op.erase();
  return success();
}

void attic::expandTileGrids(Operation *root) {
  SmallVector<TileGridOp> grids;
  root->walk([&](TileGridOp grid) { grids.push_back(grid); });
  IRRewriter rewriter(root->getContext());
  for (TileGridOp grid : grids) {
    Location loc = grid.getLoc();
    rewriter.setInsertionPoint(grid);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop =
        scf::ParallelOp::create(rewriter, loc, ValueRange{zero, zero, zero},
                                grid.getOperands(), ValueRange{one, one, one});
    for (NamedAttribute attr : grid->getDiscardableAttrs())
      loop->setAttr(attr.getName(), attr.getValue());
    loop->setAttr(kTileGridAttrName, rewriter.getUnitAttr());
    Block *body = grid.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.inlineBlockBefore(body, loop.getBody()->getTerminator(),
                               loop.getInductionVars());
    rewriter.eraseOp(grid);
  }
}
