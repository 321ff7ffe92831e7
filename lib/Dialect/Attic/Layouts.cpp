//===- Layouts.cpp - iteration layouts of block attention -------*- C++ -*-===//
//
// The IR each layout attribute emits for LayoutAttrInterface: the element
// predicate, the block visibility and the key range (see
// dialects/AtticLayouts.td). Everything is built with IndexMath, which
// folds constants, so a layout asked about constant positions answers
// with constants.
//
// Positional layouts (causal, window, dilated, strided) are functions of
// d = k - (q + off) only. Over a block of queries [q0, q1) and keys
// [k0, k1), d takes every integer of [k0 - (q1 - 1) - off, k1 - 1 - q0 -
// off] (differences of two integer intervals), which makes their block
// visibility exact: it is a question about an interval of d.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/STLExtras.h"

#include <optional>

using namespace mlir;
using namespace attic;

//===----------------------------------------------------------------------===//
// IndexMath
//===----------------------------------------------------------------------===//

Value IndexMath::c(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value IndexMath::boolean(bool v) {
  return arith::ConstantIntOp::create(b, loc, b.getI1Type(), v ? 1 : 0);
}
Value IndexMath::add(Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}
Value IndexMath::sub(Value x, Value y) {
  return b.createOrFold<arith::SubIOp>(loc, x, y);
}
Value IndexMath::mul(Value x, int64_t y) { return mul(x, c(y)); }
Value IndexMath::mul(Value x, Value y) {
  return b.createOrFold<arith::MulIOp>(loc, x, y);
}
Value IndexMath::floorDiv(Value x, int64_t y) {
  assert(y > 0 && "floorDiv by a positive constant");
  if (y == 1)
    return x;
  return b.createOrFold<arith::FloorDivSIOp>(loc, x, c(y));
}
Value IndexMath::floorMod(Value x, int64_t y) {
  assert(y > 0 && "floorMod by a positive constant");
  if (y == 1)
    return c(0);
  // x - floor(x / y) * y is in [0, y) for negative x too.
  return sub(x, mul(floorDiv(x, y), y));
}
Value IndexMath::ceilDiv(Value x, Value y) {
  return b.createOrFold<arith::CeilDivSIOp>(loc, x, y);
}
Value IndexMath::min(Value x, Value y) {
  return b.createOrFold<arith::MinSIOp>(loc, x, y);
}
Value IndexMath::max(Value x, Value y) {
  return b.createOrFold<arith::MaxSIOp>(loc, x, y);
}
Value IndexMath::lt(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, x, y);
}
Value IndexMath::le(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, x, y);
}
Value IndexMath::eq(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x, y);
}
Value IndexMath::ne(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, x, y);
}
Value IndexMath::andI(Value x, Value y) {
  return b.createOrFold<arith::AndIOp>(loc, x, y);
}
Value IndexMath::orI(Value x, Value y) {
  return b.createOrFold<arith::OrIOp>(loc, x, y);
}
Value IndexMath::notI(Value x) {
  return b.createOrFold<arith::XOrIOp>(loc, x, boolean(true));
}
Value IndexMath::select(Value cond, Value x, Value y) {
  return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
}

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

namespace {

/// The diagonal offset: key q + off is on query q's diagonal.
Value diagonalOffset(LayoutEnv &env, Alignment align) {
  IndexMath m(env);
  if (align == Alignment::TopLeft)
    return m.c(0);
  return m.sub(env.keyLen, env.queryLen);
}

/// An empty range becomes [Nk, 0), so that unions (min of lo, max of hi)
/// ignore it; a non-empty one is clipped to [0, Nk].
KeyRange normalize(LayoutEnv &env, Value lo, Value hi) {
  IndexMath m(env);
  lo = m.max(lo, m.c(0));
  hi = m.min(hi, env.keyLen);
  Value empty = m.le(hi, lo);
  return {m.select(empty, env.keyLen, lo), m.select(empty, m.c(0), hi)};
}

KeyRange allKeys(LayoutEnv &env) {
  IndexMath m(env);
  return {m.c(0), env.keyLen};
}

/// The band lo <= d <= hi (a bound may be absent: unbounded) of the d that
/// are multiples of `period`.
struct Band {
  std::optional<int64_t> lo, hi;
  int64_t period = 1;

  Value contains(IndexMath &m, Value d) const {
    Value in = m.boolean(true);
    if (lo)
      in = m.andI(in, m.le(m.c(*lo), d));
    if (hi)
      in = m.andI(in, m.le(d, m.c(*hi)));
    if (period > 1)
      in = m.andI(in, m.eq(m.floorMod(d, period), m.c(0)));
    return in;
  }

  /// Some d of [dMin, dMax] is in the band.
  Value any(IndexMath &m, Value dMin, Value dMax) const {
    Value a = lo ? m.max(dMin, m.c(*lo)) : dMin;
    Value z = hi ? m.min(dMax, m.c(*hi)) : dMax;
    Value some = m.le(a, z);
    if (period > 1) // the largest multiple of period <= z is >= a
      some = m.andI(some, m.le(a, m.mul(m.floorDiv(z, period), period)));
    return some;
  }

  /// Every d of [dMin, dMax] is in the band.
  Value all(IndexMath &m, Value dMin, Value dMax) const {
    Value every = m.boolean(true);
    if (lo)
      every = m.andI(every, m.le(m.c(*lo), dMin));
    if (hi)
      every = m.andI(every, m.le(dMax, m.c(*hi)));
    if (period > 1)
      every = m.andI(every, m.andI(m.eq(dMin, dMax),
                                   m.eq(m.floorMod(dMin, period), m.c(0))));
    return every;
  }

  KeyRange keyRange(LayoutEnv &env, Value off, Value q0, Value q1) const {
    IndexMath m(env);
    Value lower = lo ? m.add(m.add(q0, off), *lo) : m.c(0);
    Value upper = hi ? m.add(m.add(m.sub(q1, 1), off), *hi + 1) : env.keyLen;
    return normalize(env, lower, upper);
  }
};

/// d over the block: [k0 - (q1 - 1) - off, k1 - 1 - q0 - off].
std::pair<Value, Value> deltaRange(IndexMath &m, Value off, Value q0, Value q1,
                                   Value k0, Value k1) {
  Value dMin = m.sub(m.sub(k0, m.sub(q1, 1)), off);
  Value dMax = m.sub(m.sub(m.sub(k1, 1), q0), off);
  return {dMin, dMax};
}

Value delta(IndexMath &m, Value off, Value q, Value k) {
  return m.sub(m.sub(k, q), off);
}

BlockVisibility bandVisibility(LayoutEnv &env, const Band &band,
                               Alignment align, Value q0, Value q1, Value k0,
                               Value k1) {
  IndexMath m(env);
  auto [dMin, dMax] =
      deltaRange(m, diagonalOffset(env, align), q0, q1, k0, k1);
  return {band.any(m, dMin, dMax), band.all(m, dMin, dMax)};
}

LayoutAttrInterface asLayout(Attribute attr) {
  return cast<LayoutAttrInterface>(attr);
}

LogicalResult verifyNonNegative(function_ref<InFlightDiagnostic()> emitError,
                                StringRef name, int64_t value) {
  if (value < 0)
    return emitError() << name << " must be >= 0, got " << value;
  return success();
}

/// The largest width, offset, size or position a layout parameter may
/// have: 2^40, more tokens than any tensor attic can allocate holds, so a
/// larger value would mean the same as 2^40. The bound keeps the block
/// classification's index arithmetic (sums of a few positions and
/// parameters, in 64 bits, at compile time and in the generated code) far
/// from overflow.
constexpr int64_t kMaxLayoutExtent = int64_t(1) << 40;

LogicalResult verifyExtent(function_ref<InFlightDiagnostic()> emitError,
                           StringRef name, int64_t value) {
  if (value > kMaxLayoutExtent)
    return emitError() << name << " must be at most 2^40 = " << kMaxLayoutExtent
                       << " (more tokens than any tensor holds), got " << value;
  return success();
}

/// A layout operand that holds per-position integers: [B, N] of i32/i64.
LogicalResult verifyIdOperand(function_ref<InFlightDiagnostic()> emitError,
                              const LayoutShapeInfo &info, StringRef param,
                              int64_t index, int64_t length,
                              StringRef lengthName) {
  int64_t count = info.operandTypes.size();
  if (index < 0 || index >= count)
    return emitError() << "#attic.documents " << param << " = " << index
                       << " names layout operand #" << index << ", but the op has "
                       << count << " layout operand(s)";
  auto type = dyn_cast<ShapedType>(info.operandTypes[index]);
  if (!type || !type.hasRank() || type.getRank() != 2 ||
      !type.getElementType().isSignlessInteger() ||
      (!type.getElementType().isInteger(32) &&
       !type.getElementType().isInteger(64)))
    return emitError() << "#attic.documents " << param
                       << ": layout operand #" << index
                       << " must be [B, " << lengthName
                       << "] of i32 or i64, got " << info.operandTypes[index];
  auto mismatch = [](int64_t a, int64_t b) {
    return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
  };
  if (mismatch(type.getDimSize(0), info.batch) ||
      mismatch(type.getDimSize(1), length))
    return emitError() << "#attic.documents " << param << ": layout operand #"
                       << index << " has shape " << type.getDimSize(0) << "x"
                       << type.getDimSize(1) << " but [B, " << lengthName
                       << "] = " << info.batch << "x" << length
                       << " is expected";
  return success();
}

/// Loads ids[b, pos] as index.
Value loadId(LayoutEnv &env, Value ids, Value pos) {
  Value v = memref::LoadOp::create(env.builder, env.loc, ids,
                                   ValueRange{env.batch, pos});
  return arith::IndexCastOp::create(env.builder, env.loc,
                                    env.builder.getIndexType(), v);
}

} // namespace

//===----------------------------------------------------------------------===//
// dense
//===----------------------------------------------------------------------===//

Value DenseLayoutAttr::buildElementPredicate(LayoutEnv &env, Value, Value) const {
  return IndexMath(env).boolean(true);
}
BlockVisibility DenseLayoutAttr::buildBlockVisibility(LayoutEnv &env, Value,
                                                      Value, Value, Value) const {
  IndexMath m(env);
  return {m.boolean(true), m.boolean(true)};
}
KeyRange DenseLayoutAttr::buildKeyRange(LayoutEnv &env, Value, Value) const {
  return allKeys(env);
}
LogicalResult
DenseLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                              const LayoutShapeInfo &) const {
  return success();
}
bool DenseLayoutAttr::needsBlockMask() const { return false; }
bool DenseLayoutAttr::dependsOnBatch() const { return false; }
bool DenseLayoutAttr::dependsOnHead() const { return false; }

//===----------------------------------------------------------------------===//
// causal, window, dilated
//===----------------------------------------------------------------------===//

static Band causalBand() { return Band{std::nullopt, 0, 1}; }

Value CausalLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                              Value k) const {
  IndexMath m(env);
  return causalBand().contains(m, delta(m, diagonalOffset(env, getAlign()), q, k));
}
BlockVisibility CausalLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                       Value q0, Value q1,
                                                       Value k0, Value k1) const {
  return bandVisibility(env, causalBand(), getAlign(), q0, q1, k0, k1);
}
KeyRange CausalLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0, Value q1) const {
  return causalBand().keyRange(env, diagonalOffset(env, getAlign()), q0, q1);
}
LogicalResult
CausalLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                               const LayoutShapeInfo &) const {
  return success();
}
bool CausalLayoutAttr::needsBlockMask() const { return false; }
bool CausalLayoutAttr::dependsOnBatch() const { return false; }
bool CausalLayoutAttr::dependsOnHead() const { return false; }

LogicalResult WindowLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       int64_t left, int64_t right,
                                       Alignment) {
  if (left < 0 || right < 0)
    return emitError() << "#attic.window widths must be >= 0, got left = "
                       << left << " and right = " << right;
  if (failed(verifyExtent(emitError, "#attic.window left", left)) ||
      failed(verifyExtent(emitError, "#attic.window right", right)))
    return failure();
  return success();
}
static Band windowBand(WindowLayoutAttr w) {
  return Band{-w.getLeft(), w.getRight(), 1};
}
Value WindowLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                              Value k) const {
  IndexMath m(env);
  return windowBand(*this).contains(
      m, delta(m, diagonalOffset(env, getAlign()), q, k));
}
BlockVisibility WindowLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                       Value q0, Value q1,
                                                       Value k0, Value k1) const {
  return bandVisibility(env, windowBand(*this), getAlign(), q0, q1, k0, k1);
}
KeyRange WindowLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0, Value q1) const {
  return windowBand(*this).keyRange(env, diagonalOffset(env, getAlign()), q0,
                                    q1);
}
LogicalResult
WindowLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                               const LayoutShapeInfo &) const {
  return success();
}
bool WindowLayoutAttr::needsBlockMask() const { return false; }
bool WindowLayoutAttr::dependsOnBatch() const { return false; }
bool WindowLayoutAttr::dependsOnHead() const { return false; }

LogicalResult
DilatedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t left, int64_t right, int64_t dilation,
                          Alignment) {
  if (left < 0 || right < 0)
    return emitError() << "#attic.dilated widths must be >= 0, got left = "
                       << left << " and right = " << right;
  if (dilation < 1)
    return emitError() << "#attic.dilated dilation must be >= 1, got "
                       << dilation;
  if (failed(verifyExtent(emitError, "#attic.dilated left", left)) ||
      failed(verifyExtent(emitError, "#attic.dilated right", right)) ||
      failed(verifyExtent(emitError, "#attic.dilated dilation", dilation)))
    return failure();
  return success();
}
static Band dilatedBand(DilatedLayoutAttr w) {
  return Band{-w.getLeft(), w.getRight(), w.getDilation()};
}
Value DilatedLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                               Value k) const {
  IndexMath m(env);
  return dilatedBand(*this).contains(
      m, delta(m, diagonalOffset(env, getAlign()), q, k));
}
BlockVisibility DilatedLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                        Value q0, Value q1,
                                                        Value k0, Value k1) const {
  return bandVisibility(env, dilatedBand(*this), getAlign(), q0, q1, k0, k1);
}
KeyRange DilatedLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0, Value q1) const {
  return dilatedBand(*this).keyRange(env, diagonalOffset(env, getAlign()), q0,
                                     q1);
}
LogicalResult
DilatedLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                                const LayoutShapeInfo &) const {
  return success();
}
bool DilatedLayoutAttr::needsBlockMask() const { return false; }
bool DilatedLayoutAttr::dependsOnBatch() const { return false; }
bool DilatedLayoutAttr::dependsOnHead() const { return false; }

//===----------------------------------------------------------------------===//
// strided: |d| < l or d a multiple of l
//===----------------------------------------------------------------------===//

LogicalResult
SparseStridedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t stride, Alignment) {
  if (stride < 1)
    return emitError() << "#attic.strided stride must be >= 1, got " << stride;
  if (failed(verifyExtent(emitError, "#attic.strided stride", stride)))
    return failure();
  return success();
}
Value SparseStridedLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                               Value k) const {
  IndexMath m(env);
  int64_t l = getStride();
  Value d = delta(m, diagonalOffset(env, getAlign()), q, k);
  Band local{-(l - 1), l - 1, 1}, strided{std::nullopt, std::nullopt, l};
  return m.orI(local.contains(m, d), strided.contains(m, d));
}
BlockVisibility SparseStridedLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                        Value q0, Value q1,
                                                        Value k0, Value k1) const {
  IndexMath m(env);
  int64_t l = getStride();
  if (l == 1)
    return {m.boolean(true), m.boolean(true)};
  auto [dMin, dMax] =
      deltaRange(m, diagonalOffset(env, getAlign()), q0, q1, k0, k1);
  Band local{-(l - 1), l - 1, 1}, strided{std::nullopt, std::nullopt, l};
  Value any =
      m.orI(local.any(m, dMin, dMax), strided.any(m, dMin, dMax));
  // Not visible: |d| >= l and d not a multiple of l. [x, y] holds a
  // non-multiple of l iff it has two elements or x is not a multiple.
  auto nonMultipleIn = [&](Value x, Value y) {
    return m.andI(m.le(x, y),
                  m.orI(m.lt(x, y), m.ne(m.floorMod(x, l), m.c(0))));
  };
  Value hidden = m.orI(nonMultipleIn(m.max(dMin, m.c(l)), dMax),
                       nonMultipleIn(dMin, m.min(dMax, m.c(-l))));
  return {any, m.notI(hidden)};
}
KeyRange SparseStridedLayoutAttr::buildKeyRange(LayoutEnv &env, Value, Value) const {
  return allKeys(env);
}
LogicalResult
SparseStridedLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                                const LayoutShapeInfo &) const {
  return success();
}
bool SparseStridedLayoutAttr::needsBlockMask() const { return false; }
bool SparseStridedLayoutAttr::dependsOnBatch() const { return false; }
bool SparseStridedLayoutAttr::dependsOnHead() const { return false; }

//===----------------------------------------------------------------------===//
// fixed: q / l == k / l, or k mod l >= l - c
//===----------------------------------------------------------------------===//

LogicalResult FixedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      int64_t block, int64_t summary) {
  if (block < 1)
    return emitError() << "#attic.fixed block must be >= 1, got " << block;
  if (failed(verifyExtent(emitError, "#attic.fixed block", block)))
    return failure();
  if (summary < 0 || summary > block)
    return emitError() << "#attic.fixed summary must be in [0, block = "
                       << block << "], got " << summary;
  return success();
}
Value FixedLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                             Value k) const {
  IndexMath m(env);
  int64_t l = getBlock(), c = getSummary();
  Value same = m.eq(m.floorDiv(q, l), m.floorDiv(k, l));
  if (c == 0)
    return same;
  return m.orI(same, m.le(m.c(l - c), m.floorMod(k, l)));
}
BlockVisibility FixedLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                      Value q0, Value q1,
                                                      Value k0, Value k1) const {
  IndexMath m(env);
  int64_t l = getBlock(), c = getSummary();
  Value qFirst = m.floorDiv(q0, l), qLast = m.floorDiv(m.sub(q1, 1), l);
  Value kFirst = m.floorDiv(k0, l), kLast = m.floorDiv(m.sub(k1, 1), l);
  Value kEnd = m.sub(k1, 1);
  // Some (q, k) in the same l-block: the block ranges overlap.
  Value any = m.andI(m.le(qFirst, kLast), m.le(kFirst, qLast));
  if (c > 0) {
    // The last summary key <= k1 - 1: k1 - 1 itself, or the last key of
    // the l-block before it.
    Value lastSummary =
        m.select(m.le(m.c(l - c), m.floorMod(kEnd, l)), kEnd,
                 m.sub(m.mul(kLast, l), 1));
    any = m.orI(any, m.le(k0, lastSummary));
  }
  if (c == l)
    return {any, m.boolean(true)};
  // Every key that is not a summary key must be in the one l-block of all
  // the queries.
  Value firstPlain = m.select(m.lt(m.floorMod(k0, l), m.c(l - c)), k0,
                              m.mul(m.add(kFirst, 1), l));
  Value lastPlain = m.select(m.lt(m.floorMod(kEnd, l), m.c(l - c)), kEnd,
                             m.add(m.mul(kLast, l), l - c - 1));
  Value noPlain = m.lt(lastPlain, firstPlain);
  Value oneBlock = m.andI(m.eq(qFirst, qLast),
                          m.andI(m.eq(m.floorDiv(firstPlain, l), qFirst),
                                 m.eq(m.floorDiv(lastPlain, l), qFirst)));
  return {any, m.orI(noPlain, oneBlock)};
}
KeyRange FixedLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0, Value q1) const {
  IndexMath m(env);
  int64_t l = getBlock();
  if (getSummary() > 0)
    return allKeys(env);
  return normalize(env, m.mul(m.floorDiv(q0, l), l),
                   m.mul(m.add(m.floorDiv(m.sub(q1, 1), l), 1), l));
}
LogicalResult
FixedLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                              const LayoutShapeInfo &) const {
  return success();
}
bool FixedLayoutAttr::needsBlockMask() const { return false; }
bool FixedLayoutAttr::dependsOnBatch() const { return false; }
bool FixedLayoutAttr::dependsOnHead() const { return false; }

//===----------------------------------------------------------------------===//
// global: q or k is a global token
//===----------------------------------------------------------------------===//

LogicalResult
GlobalLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> tokens) {
  if (tokens.empty())
    return emitError() << "#attic.global needs at least one token";
  for (auto [i, t] : llvm::enumerate(tokens)) {
    if (t < 0)
      return emitError() << "#attic.global tokens must be >= 0, got " << t;
    if (failed(verifyExtent(emitError, "#attic.global tokens", t)))
      return failure();
    if (i > 0 && tokens[i - 1] >= t)
      return emitError() << "#attic.global tokens must be ascending and "
                            "distinct, got "
                         << tokens[i - 1] << " before " << t;
  }
  return success();
}

/// The tokens as maximal intervals [first, end) of consecutive positions.
static SmallVector<std::pair<int64_t, int64_t>>
globalIntervals(ArrayRef<int64_t> tokens) {
  SmallVector<std::pair<int64_t, int64_t>> runs;
  for (int64_t t : tokens) {
    if (!runs.empty() && runs.back().second == t)
      runs.back().second = t + 1;
    else
      runs.push_back({t, t + 1});
  }
  return runs;
}

/// Some / every position of [x0, x1) is a global token.
static std::pair<Value, Value>
globalCover(IndexMath &m, ArrayRef<std::pair<int64_t, int64_t>> runs, Value x0,
            Value x1) {
  Value some = m.boolean(false), every = m.boolean(false);
  for (auto [g0, g1] : runs) {
    some = m.orI(some, m.andI(m.lt(x0, m.c(g1)), m.lt(m.c(g0), x1)));
    every = m.orI(every, m.andI(m.le(m.c(g0), x0), m.le(x1, m.c(g1))));
  }
  return {some, every};
}

Value GlobalLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                              Value k) const {
  IndexMath m(env);
  Value visible = m.boolean(false);
  for (auto [lo, hi] : globalIntervals(getTokens())) {
    // Copies: a lambda capturing structured bindings is C++20.
    int64_t g0 = lo, g1 = hi;
    auto in = [&](Value x) {
      if (g1 == g0 + 1)
        return m.eq(x, m.c(g0));
      return m.andI(m.le(m.c(g0), x), m.lt(x, m.c(g1)));
    };
    visible = m.orI(visible, m.orI(in(q), in(k)));
  }
  return visible;
}
BlockVisibility GlobalLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                       Value q0, Value q1,
                                                       Value k0, Value k1) const {
  IndexMath m(env);
  auto runs = globalIntervals(getTokens());
  auto [someQ, everyQ] = globalCover(m, runs, q0, q1);
  auto [someK, everyK] = globalCover(m, runs, k0, k1);
  // Every pair is visible iff every query or every key is global: one
  // non-global query and one non-global key make an invisible pair.
  return {m.orI(someQ, someK), m.orI(everyQ, everyK)};
}
KeyRange GlobalLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0, Value q1) const {
  IndexMath m(env);
  auto runs = globalIntervals(getTokens());
  auto [someQ, everyQ] = globalCover(m, runs, q0, q1);
  (void)everyQ;
  KeyRange tokens = normalize(env, m.c(runs.front().first),
                              m.c(runs.back().second));
  return {m.select(someQ, m.c(0), tokens.lo),
          m.select(someQ, env.keyLen, tokens.hi)};
}
LogicalResult
GlobalLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                               const LayoutShapeInfo &) const {
  return success();
}
bool GlobalLayoutAttr::needsBlockMask() const { return false; }
bool GlobalLayoutAttr::dependsOnBatch() const { return false; }
bool GlobalLayoutAttr::dependsOnHead() const { return false; }

//===----------------------------------------------------------------------===//
// sinks: k < count
//===----------------------------------------------------------------------===//

LogicalResult SinksLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      int64_t count) {
  if (failed(verifyNonNegative(emitError, "#attic.sinks count", count)))
    return failure();
  return verifyExtent(emitError, "#attic.sinks count", count);
}
Value SinksLayoutAttr::buildElementPredicate(LayoutEnv &env, Value, Value k) const {
  IndexMath m(env);
  return m.lt(k, m.c(getCount()));
}
BlockVisibility SinksLayoutAttr::buildBlockVisibility(LayoutEnv &env, Value,
                                                      Value, Value k0,
                                                      Value k1) const {
  IndexMath m(env);
  return {m.lt(k0, m.c(getCount())), m.le(k1, m.c(getCount()))};
}
KeyRange SinksLayoutAttr::buildKeyRange(LayoutEnv &env, Value, Value) const {
  IndexMath m(env);
  return normalize(env, m.c(0), m.c(getCount()));
}
LogicalResult
SinksLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                              const LayoutShapeInfo &) const {
  return success();
}
bool SinksLayoutAttr::needsBlockMask() const { return false; }
bool SinksLayoutAttr::dependsOnBatch() const { return false; }
bool SinksLayoutAttr::dependsOnHead() const { return false; }

//===----------------------------------------------------------------------===//
// documents: query_ids[b, q] == key_ids[b, k]
//===----------------------------------------------------------------------===//

LogicalResult
DocumentsLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            int64_t queryIds, int64_t keyIds) {
  if (queryIds < 0 || keyIds < 0)
    return emitError() << "#attic.documents operand positions must be >= 0, "
                          "got query_ids = "
                       << queryIds << " and key_ids = " << keyIds;
  return success();
}
Value DocumentsLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                                 Value k) const {
  IndexMath m(env);
  return m.eq(loadId(env, env.operands[getQueryIds()], q),
              loadId(env, env.operands[getKeyIds()], k));
}
BlockVisibility DocumentsLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                          Value q0, Value q1,
                                                          Value k0, Value k1) const {
  // The id ranges of the two sides: disjoint ranges see nothing, one
  // shared id everywhere sees everything; anything else is partial (sound:
  // overlapping ranges need not share an id).
  IndexMath m(env);
  OpBuilder &b = env.builder;
  auto idRange = [&](Value ids, Value x0, Value x1) {
    Value first = loadId(env, ids, x0);
    auto loop = scf::ForOp::create(
        b, env.loc, m.add(x0, 1), x1, m.c(1), ValueRange{first, first},
        [&](OpBuilder &nested, Location loc, Value x, ValueRange acc) {
          LayoutEnv inner{nested, loc, env.queryLen, env.keyLen, env.batch,
                          env.head, env.operands};
          IndexMath n(inner);
          Value id = loadId(inner, ids, x);
          scf::YieldOp::create(nested, loc,
                               ValueRange{n.min(acc[0], id), n.max(acc[1], id)});
        });
    return std::pair<Value, Value>{loop.getResult(0), loop.getResult(1)};
  };
  auto [qMin, qMax] = idRange(env.operands[getQueryIds()], q0, q1);
  auto [kMin, kMax] = idRange(env.operands[getKeyIds()], k0, k1);
  Value any = m.andI(m.le(qMin, kMax), m.le(kMin, qMax));
  Value all = m.andI(m.andI(m.eq(qMin, qMax), m.eq(kMin, kMax)),
                     m.eq(qMin, kMin));
  return {any, all};
}
KeyRange DocumentsLayoutAttr::buildKeyRange(LayoutEnv &env, Value, Value) const {
  return allKeys(env);
}
LogicalResult
DocumentsLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()> emitError,
                                  const LayoutShapeInfo &info) const {
  if (failed(verifyIdOperand(emitError, info, "query_ids", getQueryIds(),
                             info.queryLen, "Nq")) ||
      failed(verifyIdOperand(emitError, info, "key_ids", getKeyIds(),
                             info.keyLen, "Nk")))
    return failure();
  return success();
}
bool DocumentsLayoutAttr::needsBlockMask() const { return true; }
bool DocumentsLayoutAttr::dependsOnBatch() const { return true; }
bool DocumentsLayoutAttr::dependsOnHead() const { return false; }

//===----------------------------------------------------------------------===//
// random: BigBird's random key blocks
//===----------------------------------------------------------------------===//

void attic::buildPhilox4x32(OpBuilder &b, Location loc, uint64_t key,
                            ArrayRef<Value> counter,
                            SmallVectorImpl<Value> &out) {
  assert(counter.size() == 4 && "Philox4x32 takes four counter words");
  Type i32 = b.getI32Type();
  auto cst = [&](uint32_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, static_cast<int64_t>(v));
  };
  uint32_t k0 = static_cast<uint32_t>(key);
  uint32_t k1 = static_cast<uint32_t>(key >> 32);
  Value c[4] = {counter[0], counter[1], counter[2], counter[3]};
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    auto p0 = arith::MulUIExtendedOp::create(b, loc, cst(0xD2511F53u), c[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, cst(0xCD9E8D57u), c[2]);
    Value n0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p1.getHigh(), c[1]), cst(k0));
    Value n2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p0.getHigh(), c[3]), cst(k1));
    c[0] = n0;
    c[1] = p1.getLow();
    c[2] = n2;
    c[3] = p0.getLow();
  }
  out.assign(c, c + 4);
}

LogicalResult RandomLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       int64_t block, int64_t count, uint64_t) {
  if (block < 1)
    return emitError() << "#attic.random block must be >= 1, got " << block;
  if (failed(verifyExtent(emitError, "#attic.random block", block)))
    return failure();
  if (count < 1 || count > 16)
    return emitError() << "#attic.random count must be in [1, 16], got "
                       << count;
  return success();
}

/// The `count` key blocks R(h, I, t) of logical query block `qBlock`
/// (index values in [0, ceil(Nk / block))).
static SmallVector<Value> randomKeyBlocks(LayoutEnv &env, RandomLayoutAttr r,
                                          Value qBlock) {
  OpBuilder &b = env.builder;
  IndexMath m(env);
  Type i32 = b.getI32Type();
  auto toI32 = [&](Value v) {
    return arith::IndexCastUIOp::create(b, env.loc, i32, v).getResult();
  };
  Value numKeyBlocks = m.ceilDiv(env.keyLen, m.c(r.getBlock()));
  Value zero = arith::ConstantIntOp::create(b, env.loc, i32, 0);
  SmallVector<Value> blocks;
  for (int64_t word = 0; word * 4 < r.getCount(); ++word) {
    SmallVector<Value> out;
    Value w = arith::ConstantIntOp::create(b, env.loc, i32, word);
    buildPhilox4x32(b, env.loc, r.getSeed(),
                    {w, toI32(qBlock), toI32(env.head), zero}, out);
    for (int64_t j = 0; j < 4 && word * 4 + j < r.getCount(); ++j) {
      Value draw = arith::IndexCastUIOp::create(b, env.loc,
                                                b.getIndexType(), out[j]);
      blocks.push_back(
          b.createOrFold<arith::RemUIOp>(env.loc, draw, numKeyBlocks));
    }
  }
  return blocks;
}

Value RandomLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                              Value k) const {
  IndexMath m(env);
  Value kBlock = m.floorDiv(k, getBlock());
  Value hit = m.boolean(false);
  for (Value j : randomKeyBlocks(env, *this, m.floorDiv(q, getBlock())))
    hit = m.orI(hit, m.eq(j, kBlock));
  return hit;
}
BlockVisibility RandomLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                       Value q0, Value q1,
                                                       Value k0, Value k1) const {
  // Over the logical query blocks of the block: `any` if one of them
  // draws a key block of [J0, J1], `all` if each of them draws all of
  // [J0, J1] (its distinct draws in range number J1 - J0 + 1).
  IndexMath m(env);
  int64_t blk = getBlock();
  Value i0 = m.floorDiv(q0, blk), i1 = m.add(m.floorDiv(m.sub(q1, 1), blk), 1);
  Value j0 = m.floorDiv(k0, blk), j1 = m.floorDiv(m.sub(k1, 1), blk);
  Value width = m.add(m.sub(j1, j0), 1);
  auto loop = scf::ForOp::create(
      env.builder, env.loc, i0, i1, m.c(1),
      ValueRange{m.boolean(false), m.boolean(true)},
      [&](OpBuilder &nested, Location loc, Value i, ValueRange acc) {
        LayoutEnv inner{nested, loc, env.queryLen, env.keyLen, env.batch,
                        env.head, env.operands};
        IndexMath n(inner);
        SmallVector<Value> draws = randomKeyBlocks(inner, *this, i);
        Value hits = n.boolean(false), distinct = n.c(0);
        for (auto [t, j] : llvm::enumerate(draws)) {
          Value in = n.andI(n.le(j0, j), n.le(j, j1));
          hits = n.orI(hits, in);
          Value fresh = in;
          for (size_t s = 0; s < t; ++s)
            fresh = n.andI(fresh, n.ne(draws[s], j));
          distinct = n.add(distinct, n.select(fresh, n.c(1), n.c(0)));
        }
        scf::YieldOp::create(
            nested, loc,
            ValueRange{n.orI(acc[0], hits),
                       n.andI(acc[1], n.eq(distinct, width))});
      });
  return {loop.getResult(0), loop.getResult(1)};
}
KeyRange RandomLayoutAttr::buildKeyRange(LayoutEnv &env, Value, Value) const {
  return allKeys(env);
}
LogicalResult
RandomLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()>,
                               const LayoutShapeInfo &) const {
  return success();
}
bool RandomLayoutAttr::needsBlockMask() const { return true; }
bool RandomLayoutAttr::dependsOnBatch() const { return false; }
bool RandomLayoutAttr::dependsOnHead() const { return true; }

//===----------------------------------------------------------------------===//
// blocked: the inner layout on block indices
//===----------------------------------------------------------------------===//

static LogicalResult
verifyNesting(function_ref<InFlightDiagnostic()> emitError, StringRef name,
              ArrayRef<Attribute> components);

LogicalResult BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        int64_t size, LayoutAttrInterface layout) {
  if (size < 1)
    return emitError() << "#attic.blocked size must be >= 1, got " << size;
  if (failed(verifyExtent(emitError, "#attic.blocked size", size)))
    return failure();
  if (!layout)
    return emitError() << "#attic.blocked needs a layout";
  if (failed(verifyNesting(emitError, "blocked", {Attribute(layout)})))
    return failure();
  // The inner layout sees block indices; document ids are per token.
  bool perToken = false;
  layout.walk([&](DocumentsLayoutAttr) { perToken = true; });
  if (perToken)
    return emitError() << "#attic.blocked applies its layout to block "
                          "indices, but #attic.documents reads per-token ids "
                          "(combine them outside: #attic.intersect<[#attic."
                          "documents<...>, #attic.blocked<...>]>)";
  return success();
}

/// The environment of the inner layout: ceil(N / size) positions.
static LayoutEnv blockEnv(LayoutEnv &env, int64_t size) {
  IndexMath m(env);
  return LayoutEnv{env.builder, env.loc, m.ceilDiv(env.queryLen, m.c(size)),
                   m.ceilDiv(env.keyLen, m.c(size)), env.batch, env.head,
                   env.operands};
}

Value BlockedLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                               Value k) const {
  IndexMath m(env);
  LayoutEnv inner = blockEnv(env, getSize());
  return getLayout().buildElementPredicate(inner, m.floorDiv(q, getSize()),
                                           m.floorDiv(k, getSize()));
}
BlockVisibility BlockedLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                        Value q0, Value q1,
                                                        Value k0,
                                                        Value k1) const {
  IndexMath m(env);
  int64_t size = getSize();
  LayoutEnv inner = blockEnv(env, size);
  return getLayout().buildBlockVisibility(
      inner, m.floorDiv(q0, size), m.add(m.floorDiv(m.sub(q1, 1), size), 1),
      m.floorDiv(k0, size), m.add(m.floorDiv(m.sub(k1, 1), size), 1));
}
KeyRange BlockedLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0,
                                          Value q1) const {
  IndexMath m(env);
  int64_t size = getSize();
  LayoutEnv inner = blockEnv(env, size);
  KeyRange r = getLayout().buildKeyRange(
      inner, m.floorDiv(q0, size), m.add(m.floorDiv(m.sub(q1, 1), size), 1));
  return normalize(env, m.mul(r.lo, size), m.mul(r.hi, size));
}
LogicalResult
BlockedLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()> emitError,
                                const LayoutShapeInfo &info) const {
  return getLayout().verifyLayout(emitError, info);
}
bool BlockedLayoutAttr::needsBlockMask() const {
  return getLayout().needsBlockMask();
}
bool BlockedLayoutAttr::dependsOnBatch() const {
  return getLayout().dependsOnBatch();
}
bool BlockedLayoutAttr::dependsOnHead() const {
  return getLayout().dependsOnHead();
}

//===----------------------------------------------------------------------===//
// block_diagonal: query block i sees key block i
//===----------------------------------------------------------------------===//

LogicalResult
BlockDiagonalLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t query, int64_t key, bool) {
  if (query < 1)
    return emitError() << "#attic.block_diagonal query must be >= 1, got "
                       << query;
  if (key < 1)
    return emitError() << "#attic.block_diagonal key must be >= 1, got " << key;
  if (failed(verifyExtent(emitError, "#attic.block_diagonal query", query)) ||
      failed(verifyExtent(emitError, "#attic.block_diagonal key", key)))
    return failure();
  return success();
}

Value BlockDiagonalLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                                     Value k) const {
  IndexMath m(env);
  int64_t bq = getQuery(), bk = getKey();
  Value slice = m.floorDiv(q, bq);
  Value visible = m.eq(slice, m.floorDiv(k, bk));
  if (getCausal()) {
    // k - slice * bk <= q - slice * bq + (bk - bq)
    Value kOff = m.sub(k, m.mul(slice, bk));
    Value qOff = m.sub(q, m.mul(slice, bq));
    visible = m.andI(visible, m.le(kOff, m.add(qOff, bk - bq)));
  }
  return visible;
}

// Over queries [q0, q1) and keys [k0, k1), the blocks met are
// [q0 / bq, (q1 - 1) / bq] and [k0 / bk, (k1 - 1) / bk]. Without `causal`
// some element is visible iff the two intervals meet, and every element is
// iff both are the same single block. With `causal`, in a common block s
// the queries of the rectangle reach offset qMax(s) = min(bq - 1, q1 - 1 -
// s bq) and the keys start at offset kMin(s) = max(0, k0 - s bk); a block
// strictly inside the common interval has qMax = bq - 1 and kMin = 0, so
// it holds a visible pair, and only the first and the last common block
// need the test kMin <= qMax + bk - bq. Every element is visible iff there
// is one common block s and kMax(s) <= qMin(s) + bk - bq.
BlockVisibility BlockDiagonalLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                              Value q0,
                                                              Value q1,
                                                              Value k0,
                                                              Value k1) const {
  IndexMath m(env);
  int64_t bq = getQuery(), bk = getKey();
  Value qLo = m.floorDiv(q0, bq), qHi = m.floorDiv(m.sub(q1, 1), bq);
  Value kLo = m.floorDiv(k0, bk), kHi = m.floorDiv(m.sub(k1, 1), bk);
  Value lo = m.max(qLo, kLo), hi = m.min(qHi, kHi);
  Value meet = m.le(lo, hi);
  Value single = m.andI(m.eq(qLo, qHi), m.andI(m.eq(kLo, kHi), m.eq(qLo, kLo)));
  if (!getCausal())
    return {meet, single};
  auto reaches = [&](Value s) {
    Value qMax = m.min(m.c(bq - 1), m.sub(m.sub(q1, 1), m.mul(s, bq)));
    Value kMin = m.max(m.c(0), m.sub(k0, m.mul(s, bk)));
    return m.le(kMin, m.add(qMax, bk - bq));
  };
  Value inner = m.le(m.add(lo, 2), hi);
  Value any =
      m.andI(meet, m.orI(inner, m.orI(reaches(lo), reaches(hi))));
  Value qMin = m.sub(q0, m.mul(qLo, bq));
  Value kMax = m.sub(m.sub(k1, 1), m.mul(kLo, bk));
  Value all = m.andI(single, m.le(kMax, m.add(qMin, bk - bq)));
  return {any, all};
}

KeyRange BlockDiagonalLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0,
                                                Value q1) const {
  IndexMath m(env);
  int64_t bq = getQuery(), bk = getKey();
  Value first = m.floorDiv(q0, bq), last = m.floorDiv(m.sub(q1, 1), bq);
  Value hi = m.mul(m.add(last, 1), bk);
  if (getCausal()) {
    // The last query reaches offset (q1 - 1) - last * bq + bk - bq of its
    // slice; where that is negative it sees none of it, but the queries of
    // earlier slices in the tile still see theirs up to last * bk (the
    // bound fell below it with key <= query - 2: a 2026-11-30 audit).
    Value reach = m.add(m.sub(m.sub(q1, 1), m.mul(last, bq)), bk - bq);
    hi = m.min(hi, m.add(m.mul(last, bk), m.max(m.add(reach, 1), m.c(0))));
  }
  return normalize(env, m.mul(first, bk), hi);
}
LogicalResult BlockDiagonalLayoutAttr::verifyLayout(
    function_ref<InFlightDiagnostic()>, const LayoutShapeInfo &) const {
  return success();
}
bool BlockDiagonalLayoutAttr::needsBlockMask() const { return false; }
bool BlockDiagonalLayoutAttr::dependsOnBatch() const { return false; }
bool BlockDiagonalLayoutAttr::dependsOnHead() const { return false; }

//===----------------------------------------------------------------------===//
// intersect and union
//===----------------------------------------------------------------------===//

namespace {
/// The depth (nested attributes, the leaves included) and the size (nodes,
/// a shared component counted at each of its uses: each use is compiled)
/// of a layout, both saturating a little past their bounds.
struct LayoutExtent {
  int64_t depth = 0, size = 0;
};
constexpr int64_t kMaxLayoutDepth = 100, kMaxLayoutSize = 1000;

LayoutExtent extentOf(Attribute layout,
                      llvm::DenseMap<Attribute, LayoutExtent> &memo) {
  if (auto it = memo.find(layout); it != memo.end())
    return it->second;
  SmallVector<Attribute> children;
  if (auto intersect = dyn_cast<IntersectLayoutAttr>(layout))
    llvm::append_range(children, intersect.getLayouts());
  else if (auto join = dyn_cast<UnionLayoutAttr>(layout))
    llvm::append_range(children, join.getLayouts());
  else if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
    children.push_back(blocked.getLayout());
  LayoutExtent extent{1, 1};
  for (Attribute child : children) {
    LayoutExtent inner = extentOf(child, memo);
    extent.depth = std::max(extent.depth, inner.depth + 1);
    extent.size = std::min(extent.size + inner.size, kMaxLayoutSize + 1);
  }
  memo[layout] = extent;
  return extent;
}
} // namespace

/// A layout of `components` below one more attribute: at most
/// kMaxLayoutDepth deep and kMaxLayoutSize nodes. The parser bounds the
/// nesting of the text, but aliases (#a1 = #attic.union<[#a0]>, ...) built
/// 20000 levels that overflowed the stack in the printer, the verifier and
/// the reference, and aliases used twice each (#aN = #attic.union<[#aN-1,
/// #aN-1]>) a layout of 2^40 nodes that hung the compiler (a review).
static LogicalResult verifyNesting(function_ref<InFlightDiagnostic()> emitError,
                                   StringRef name,
                                   ArrayRef<Attribute> components) {
  llvm::DenseMap<Attribute, LayoutExtent> memo;
  LayoutExtent extent{1, 1};
  for (Attribute component : components) {
    LayoutExtent inner = extentOf(component, memo);
    extent.depth = std::max(extent.depth, inner.depth + 1);
    extent.size = std::min(extent.size + inner.size, kMaxLayoutSize + 1);
  }
  if (extent.depth > kMaxLayoutDepth)
    return emitError() << "#attic." << name << " nests layouts more than "
                       << kMaxLayoutDepth << " levels deep";
  if (extent.size > kMaxLayoutSize)
    return emitError() << "#attic." << name << " holds more than "
                       << kMaxLayoutSize
                       << " layouts, counting a shared one at each of its "
                          "uses (each use is compiled)";
  return success();
}

static LogicalResult verifyComponents(function_ref<InFlightDiagnostic()> emitError,
                                      StringRef name, ArrayAttr layouts) {
  if (!layouts || layouts.empty())
    return emitError() << "#attic." << name << " needs at least one layout";
  for (Attribute a : layouts)
    if (!isa<LayoutAttrInterface>(a))
      return emitError() << "#attic." << name
                         << " combines layouts, but " << a << " is not one";
  return verifyNesting(emitError, name, layouts.getValue());
}

LogicalResult
IntersectLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayAttr layouts) {
  return verifyComponents(emitError, "intersect", layouts);
}
LogicalResult
UnionLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayAttr layouts) {
  return verifyComponents(emitError, "union", layouts);
}

template <bool IsUnion>
static Value combinedPredicate(LayoutEnv &env, ArrayAttr layouts, Value q,
                               Value k) {
  IndexMath m(env);
  Value result;
  for (Attribute a : layouts) {
    Value p = asLayout(a).buildElementPredicate(env, q, k);
    result = !result ? p : IsUnion ? m.orI(result, p) : m.andI(result, p);
  }
  return result;
}

template <bool IsUnion>
static BlockVisibility combinedVisibility(LayoutEnv &env, ArrayAttr layouts,
                                          Value q0, Value q1, Value k0,
                                          Value k1) {
  IndexMath m(env);
  BlockVisibility result;
  for (Attribute a : layouts) {
    BlockVisibility v = asLayout(a).buildBlockVisibility(env, q0, q1, k0, k1);
    if (!result.any) {
      result = v;
    } else if (IsUnion) {
      result = {m.orI(result.any, v.any), m.orI(result.all, v.all)};
    } else {
      result = {m.andI(result.any, v.any), m.andI(result.all, v.all)};
    }
  }
  return result;
}

template <bool IsUnion>
static KeyRange combinedRange(LayoutEnv &env, ArrayAttr layouts, Value q0,
                              Value q1) {
  IndexMath m(env);
  KeyRange result;
  for (Attribute a : layouts) {
    KeyRange r = asLayout(a).buildKeyRange(env, q0, q1);
    if (!result.lo) {
      result = r;
    } else if (IsUnion) {
      // Components are normalized: an empty one is [Nk, 0).
      result = {m.min(result.lo, r.lo), m.max(result.hi, r.hi)};
    } else {
      result = {m.max(result.lo, r.lo), m.min(result.hi, r.hi)};
    }
  }
  return normalize(env, result.lo, result.hi);
}

static LogicalResult verifyEach(ArrayAttr layouts,
                                function_ref<InFlightDiagnostic()> emitError,
                                const LayoutShapeInfo &info) {
  for (Attribute a : layouts)
    if (failed(asLayout(a).verifyLayout(emitError, info)))
      return failure();
  return success();
}

Value IntersectLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                                 Value k) const {
  return combinedPredicate<false>(env, getLayouts(), q, k);
}
BlockVisibility IntersectLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                          Value q0, Value q1,
                                                          Value k0, Value k1) const {
  return combinedVisibility<false>(env, getLayouts(), q0, q1, k0, k1);
}
KeyRange IntersectLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0,
                                            Value q1) const {
  return combinedRange<false>(env, getLayouts(), q0, q1);
}
LogicalResult
IntersectLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()> emitError,
                                  const LayoutShapeInfo &info) const {
  return verifyEach(getLayouts(), emitError, info);
}
bool IntersectLayoutAttr::needsBlockMask() const {
  return llvm::any_of(getLayouts(), [](Attribute a) {
    return asLayout(a).needsBlockMask();
  });
}
bool IntersectLayoutAttr::dependsOnBatch() const {
  return llvm::any_of(getLayouts(), [](Attribute a) {
    return asLayout(a).dependsOnBatch();
  });
}
bool IntersectLayoutAttr::dependsOnHead() const {
  return llvm::any_of(getLayouts(), [](Attribute a) {
    return asLayout(a).dependsOnHead();
  });
}

Value UnionLayoutAttr::buildElementPredicate(LayoutEnv &env, Value q,
                                             Value k) const {
  return combinedPredicate<true>(env, getLayouts(), q, k);
}
BlockVisibility UnionLayoutAttr::buildBlockVisibility(LayoutEnv &env,
                                                      Value q0, Value q1,
                                                      Value k0, Value k1) const {
  return combinedVisibility<true>(env, getLayouts(), q0, q1, k0, k1);
}
KeyRange UnionLayoutAttr::buildKeyRange(LayoutEnv &env, Value q0, Value q1) const {
  return combinedRange<true>(env, getLayouts(), q0, q1);
}
LogicalResult
UnionLayoutAttr::verifyLayout(function_ref<InFlightDiagnostic()> emitError,
                              const LayoutShapeInfo &info) const {
  return verifyEach(getLayouts(), emitError, info);
}
bool UnionLayoutAttr::needsBlockMask() const {
  return llvm::any_of(getLayouts(), [](Attribute a) {
    return asLayout(a).needsBlockMask();
  });
}
bool UnionLayoutAttr::dependsOnBatch() const {
  return llvm::any_of(getLayouts(), [](Attribute a) {
    return asLayout(a).dependsOnBatch();
  });
}
bool UnionLayoutAttr::dependsOnHead() const {
  return llvm::any_of(getLayouts(), [](Attribute a) {
    return asLayout(a).dependsOnHead();
  });
}

bool attic::hasExactBlockVisibility(LayoutAttrInterface layout) {
  if (isa<DocumentsLayoutAttr>(layout))
    return false;
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
    return hasExactBlockVisibility(blocked.getLayout());
  ArrayAttr parts;
  if (auto intersect = dyn_cast<IntersectLayoutAttr>(layout))
    parts = intersect.getLayouts();
  else if (auto join = dyn_cast<UnionLayoutAttr>(layout))
    parts = join.getLayouts();
  else
    return true;
  return parts.size() == 1 && hasExactBlockVisibility(asLayout(parts[0]));
}
