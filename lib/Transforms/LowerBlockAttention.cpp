//===- LowerBlockAttention.cpp - block_attention to vector loops -*- C++ -*-===//
//
// Lowers the memref form of attic.block_attention into a flash-style kernel
// built from register-blocked vector micro-kernels. W is the vector width
// (16 f32 lanes with AVX-512, 8 with AVX2), R the query rows and C the
// vector chunks that one register tile holds (R*C accumulators).
//
// Phase 1, `scf.parallel` over (batch, head, key block): pack each key block
// once into f32 panels that the micro-kernels stream through contiguously:
//
//   kt[p]   = K[k0:k0+bk, :]^T          [D][bkPad]   (keys along lanes)
//   vp[p]   = V[k0:k0+bk, :]            [bkPad][dvPad]
//   term[p] = key bias + (mask ? 0 : -inf), and -inf for the padding keys
//
// with p = (b*H + h)*numKeyBlocks + kb. The panels are O(N*D), never O(N^2),
// and packing them once (not once per query block) keeps the transposition
// and the f16/bf16 -> f32 conversion out of the inner loops.
//
// Phase 2, `scf.parallel` over (batch, head, query block), per query block:
//
//   qs = scale * Q[q0:q0+bq, :]   (f32 scratch, rows zero-padded to R)
//   m = -inf, l = 0, acc = 0
//   for each key block the layout visits:
//     S   = qs . kt[p] + term[p]    R x C register tiles, FMA over D
//           (causal: keys past the row's diagonal -> -inf)
//     per row: mNew = max(m, max S); mSafe = mNew == -inf ? 0 : mNew
//              alpha = exp(m - mSafe); P = exp(S - mSafe)
//              l = alpha*l + sum P; m = mNew
//     acc = alpha * acc + P . vp[p]  R x C register tiles, FMA over keys
//   O[q0:q0+bq] = l > 0 ? acc / l : 0
//
// mSafe keeps a row that has seen no admissible key at exp(-inf) = 0 rather
// than exp(-inf - -inf) = NaN, so fully masked rows come out as 0.
//
// Causal query blocks are visited in zig-zag order (0, n-1, 1, n-2, ...), so
// that any contiguous share of the parallel iteration space, which is what a
// static OpenMP schedule hands each thread, carries about the same work.
//
// Scratch comes from the heap (64-byte aligned), not the stack: scf.parallel
// is an allocation scope, but its sequential lowering (scf-to-cf) drops that
// and canonicalization inlines any memref.alloca_scope under it, so allocas
// would pile up once per (batch, head, query block) until the stack
// overflows.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/TargetParser/Host.h"

#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICLOWERBLOCKATTENTION
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

int64_t attic::hostVectorWidth() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return 16;
  if (features.lookup("avx2") || features.lookup("avx"))
    return 8;
  return 4; // SSE, NEON and anything else with 128-bit vectors
}

LowerBlockAttentionOptions
attic::resolveLowerBlockAttentionOptions(LowerBlockAttentionOptions options) {
  if (options.vectorWidth <= 0)
    options.vectorWidth = hostVectorWidth();
  // 32 registers (AVX-512) hold a 4x4 tile plus operands; 16 (AVX2, SSE)
  // hold 2x4.
  if (options.registerRows <= 0)
    options.registerRows = options.vectorWidth >= 16 ? 4 : 2;
  if (options.registerChunks <= 0)
    options.registerChunks = 4;
  return options;
}

namespace {

int64_t roundUp(int64_t x, int64_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

/// Small builder helpers over an ImplicitLocOpBuilder, so that the loop nest
/// below reads like the pseudo-code above.
class KernelBuilder {
public:
  KernelBuilder(ImplicitLocOpBuilder &b, int64_t width)
      : b(b), vectorType(VectorType::get({width}, b.getF32Type())) {}

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value f32(float v) {
    return arith::ConstantFloatOp::create(b, b.getF32Type(), APFloat(v));
  }
  Value negInf() { return f32(-std::numeric_limits<float>::infinity()); }
  Value dim(Value memref, int64_t d) {
    return memref::DimOp::create(b, memref, d);
  }
  Value minIdx(Value x, Value y) { return arith::MinSIOp::create(b, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value ceilDiv(Value x, Value y) {
    return arith::CeilDivSIOp::create(b, x, y);
  }
  Value lessThan(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, c, x, y);
  }

  Value load(Value memref, ValueRange indices) {
    return memref::LoadOp::create(b, memref, indices);
  }
  /// Loads memref[indices] and extends it to f32.
  Value loadF32(Value memref, ValueRange indices) {
    Value v = load(memref, indices);
    if (v.getType().isF32())
      return v;
    return arith::ExtFOp::create(b, b.getF32Type(), v);
  }
  void store(Value v, Value memref, ValueRange indices) {
    memref::StoreOp::create(b, v, memref, indices);
  }
  void storeAs(Value f32Value, Value memref, ValueRange indices) {
    Type elementType = cast<MemRefType>(memref.getType()).getElementType();
    if (!elementType.isF32())
      f32Value = arith::TruncFOp::create(b, elementType, f32Value);
    store(f32Value, memref, indices);
  }

  // Vectors of W f32 lanes.
  Value vload(Value memref, ValueRange indices) {
    return vector::LoadOp::create(b, vectorType, memref, indices);
  }
  void vstore(Value v, Value memref, ValueRange indices) {
    vector::StoreOp::create(b, v, memref, indices);
  }
  Value splat(Value scalar) {
    return vector::BroadcastOp::create(b, vectorType, scalar);
  }
  Value vzero() {
    return arith::ConstantOp::create(
        b, vectorType, DenseElementsAttr::get(vectorType, 0.0f));
  }
  Value fma(Value x, Value y, Value acc) {
    return vector::FMAOp::create(b, x, y, acc);
  }

  /// An f32 buffer on the heap, 64-byte aligned; `dims` are its sizes
  /// (static constants stay static in the type).
  Value alloc(ArrayRef<OpFoldResult> dims) {
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic;
    for (OpFoldResult d : dims) {
      if (std::optional<int64_t> c = getConstantIntValue(d)) {
        shape.push_back(*c);
      } else {
        shape.push_back(ShapedType::kDynamic);
        dynamic.push_back(cast<Value>(d));
      }
    }
    auto type = MemRefType::get(shape, b.getF32Type());
    return memref::AllocOp::create(b, type, dynamic, b.getI64IntegerAttr(64));
  }
  void dealloc(ArrayRef<Value> buffers) {
    for (Value buffer : buffers)
      memref::DeallocOp::create(b, buffer);
  }

  /// for (iv = lower; iv < upper; iv += step) body(iv)
  void loop(Value lower, Value upper, Value step,
            function_ref<void(Value)> body) {
    auto forOp = scf::ForOp::create(b, lower, upper, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    body(forOp.getInductionVar());
  }
  void loop(Value upper, function_ref<void(Value)> body) {
    loop(index(0), upper, index(1), body);
  }

  /// iter = init; for (iv = 0; iv < upper; ++iv) iter = body(iv, iter)
  SmallVector<Value>
  loopCarried(Value upper, ValueRange init,
              function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto forOp = scf::ForOp::create(
        b, index(0), upper, index(1), init,
        [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToEnd(nested.getInsertionBlock());
          scf::YieldOp::create(b, body(iv, args));
        });
    return SmallVector<Value>(forOp.getResults());
  }

  /// scf.parallel over [0, upper_i) with unit steps.
  void parallel(ValueRange uppers, function_ref<void(ValueRange)> body) {
    SmallVector<Value> zeros(uppers.size(), index(0));
    SmallVector<Value> ones(uppers.size(), index(1));
    auto op = scf::ParallelOp::create(b, zeros, uppers, ones);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(op.getBody()->getTerminator());
    body(op.getInductionVars());
  }

  ImplicitLocOpBuilder &b;
  VectorType vectorType;
};

/// Column groups of a register tile: `chunks` vectors of W lanes, split into
/// groups of at most `perGroup` chunks. Returns (first column, chunks).
SmallVector<std::pair<int64_t, int64_t>>
columnGroups(int64_t chunks, int64_t perGroup, int64_t width) {
  SmallVector<std::pair<int64_t, int64_t>> groups;
  for (int64_t c = 0; c < chunks; c += perGroup)
    groups.push_back({c * width, std::min(perGroup, chunks - c)});
  return groups;
}

struct LowerBlockAttention : OpRewritePattern<BlockAttentionOp> {
  LowerBlockAttention(MLIRContext *ctx, LowerBlockAttentionOptions options)
      : OpRewritePattern(ctx),
        options(resolveLowerBlockAttentionOptions(options)) {}

  LogicalResult matchAndRewrite(BlockAttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "bufferize first");
    const int64_t width = options.vectorWidth;
    const int64_t tileRows = options.registerRows;
    const int64_t tileChunks = options.registerChunks;

    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    b.setInsertionPoint(op);
    KernelBuilder kb(b, width);

    Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
    Value out = op.getInit(), bias = op.getKeyBias(), mask = op.getKeyMask();
    const bool causal = op.isCausal();
    const int64_t blockQ = op.getBlockQ(), blockK = op.getBlockK();
    const float scale = op.getScale().convertToFloat();
    // Query rows padded to whole register tiles, keys to whole vectors.
    const int64_t blockQPad = roundUp(blockQ, tileRows);
    const int64_t blockKPad = roundUp(blockK, width);
    const int64_t keyChunks = blockKPad / width;

    Value batches = kb.dim(query, 0), heads = kb.dim(query, 1);
    Value queryLen = kb.dim(query, 2), keyLen = kb.dim(key, 2);
    auto queryType = cast<MemRefType>(query.getType());
    auto valueType = cast<MemRefType>(value.getType());
    OpFoldResult headDimOfr =
        queryType.isDynamicDim(3) ? OpFoldResult(kb.dim(query, 3))
                                  : OpFoldResult(b.getIndexAttr(
                                        queryType.getDimSize(3)));
    Value headDim = getValueOrCreateConstantIndexOp(b, b.getLoc(), headDimOfr);
    Value valueDim = kb.dim(value, 3);
    // V columns: padded to whole vectors when static and narrow enough to
    // unroll the column groups; otherwise padded to whole register tiles
    // and walked by a loop over groups of `tileChunks` vectors.
    const bool unrollValueGroups =
        !valueType.isDynamicDim(3) &&
        roundUp(valueType.getDimSize(3), width) / width <= 4 * tileChunks;
    const int64_t groupWidth = tileChunks * width;
    OpFoldResult valueDimPadOfr;
    if (unrollValueGroups) {
      valueDimPadOfr =
          b.getIndexAttr(roundUp(valueType.getDimSize(3), width));
    } else if (!valueType.isDynamicDim(3)) {
      valueDimPadOfr =
          b.getIndexAttr(roundUp(valueType.getDimSize(3), groupWidth));
    } else {
      Value group = kb.index(groupWidth);
      valueDimPadOfr = kb.mul(kb.ceilDiv(valueDim, group), group);
    }
    Value valueDimPad =
        getValueOrCreateConstantIndexOp(b, b.getLoc(), valueDimPadOfr);

    Value c0 = kb.index(0), c1 = kb.index(1);
    Value blockQVal = kb.index(blockQ), blockKVal = kb.index(blockK);
    Value numQueryBlocks = kb.ceilDiv(queryLen, blockQVal);
    Value numKeyBlocks = kb.ceilDiv(keyLen, blockKVal);
    Value zero = kb.f32(0.0f), one = kb.f32(1.0f), negInf = kb.negInf();
    auto reassoc = arith::FastMathFlags::reassoc;
    auto noNaN = arith::FastMathFlags::nnan;
    auto panelOf = [&](Value bi, Value hi, Value kbi) {
      return kb.add(kb.mul(kb.add(kb.mul(bi, heads), hi), numKeyBlocks), kbi);
    };

    //===------------------------------------------------------------------===//
    // Phase 1: packed key/value panels and per-key logit terms.
    //===------------------------------------------------------------------===//
    Value panels = kb.mul(kb.mul(batches, heads), numKeyBlocks);
    OpFoldResult bkPadOfr = b.getIndexAttr(blockKPad);
    Value keyPanels = kb.alloc({panels, headDimOfr, bkPadOfr});
    Value valuePanels = kb.alloc({panels, bkPadOfr, valueDimPadOfr});
    Value termPanels = kb.alloc({panels, bkPadOfr});
    Value lastKey = kb.sub(keyLen, c1);
    kb.parallel({batches, heads, numKeyBlocks}, [&](ValueRange ivs) {
      Value bi = ivs[0], hi = ivs[1];
      Value p = panelOf(bi, hi, ivs[2]);
      Value k0 = kb.mul(ivs[2], blockKVal);
      Value keysInBlock = kb.minIdx(blockKVal, kb.sub(keyLen, k0));
      kb.loop(kb.index(blockKPad), [&](Value j) {
        // Padding keys (past the block or the sequence) read the last key
        // (in bounds) and are replaced by zeros and a -inf logit term.
        Value valid = kb.lessThan(j, keysInBlock);
        Value keyRow = kb.minIdx(kb.add(k0, j), lastKey);
        kb.loop(headDim, [&](Value d) {
          Value k = kb.loadF32(key, {bi, hi, keyRow, d});
          kb.store(kb.select(valid, k, zero), keyPanels, {p, d, j});
        });
        kb.loop(valueDimPad, [&](Value dv) {
          Value inside = kb.lessThan(dv, valueDim);
          Value col = kb.minIdx(dv, kb.sub(valueDim, c1));
          Value v = kb.loadF32(value, {bi, hi, keyRow, col});
          Value keep = arith::AndIOp::create(b, valid, inside);
          kb.store(kb.select(keep, v, zero), valuePanels, {p, j, dv});
        });
        Value term = zero;
        if (bias) {
          auto biasType = cast<MemRefType>(bias.getType());
          SmallVector<Value> idx = biasType.getRank() == 2
                                       ? SmallVector<Value>{bi, keyRow}
                                       : SmallVector<Value>{bi, hi, keyRow};
          term = kb.loadF32(bias, idx);
        }
        if (mask)
          term = kb.select(kb.load(mask, {bi, keyRow}), term, negInf);
        kb.store(kb.select(valid, term, negInf), termPanels, {p, j});
      });
    });

    //===------------------------------------------------------------------===//
    // Phase 2: one (batch, head, query block) per parallel iteration.
    //===------------------------------------------------------------------===//
    // Lane offsets 0..W-1, for the causal comparison.
    SmallVector<int32_t> lanes(width);
    for (int64_t i = 0; i < width; ++i)
      lanes[i] = static_cast<int32_t>(i);
    auto laneType = VectorType::get({width}, b.getI32Type());
    Value laneIota = arith::ConstantOp::create(
        b, laneType, DenseElementsAttr::get(laneType, ArrayRef(lanes)));

    kb.parallel({batches, heads, numQueryBlocks}, [&](ValueRange ivs) {
      Value bi = ivs[0], hi = ivs[1], qb = ivs[2];
      if (causal) {
        // Zig-zag: t -> t/2 for even t, n-1-t/2 for odd t.
        Value half = arith::DivUIOp::create(b, qb, kb.index(2));
        Value odd = arith::CmpIOp::create(
            b, arith::CmpIPredicate::ne,
            arith::RemUIOp::create(b, qb, kb.index(2)), c0);
        qb = kb.select(odd, kb.sub(kb.sub(numQueryBlocks, c1), half), half);
      }
      Value q0 = kb.mul(qb, blockQVal);
      Value rowsInBlock = kb.minIdx(blockQVal, kb.sub(queryLen, q0));

      OpFoldResult bqPadOfr = b.getIndexAttr(blockQPad);
      Value scaledQuery = kb.alloc({bqPadOfr, headDimOfr});
      Value probs = kb.alloc({bqPadOfr, bkPadOfr});
      Value acc = kb.alloc({bqPadOfr, valueDimPadOfr});
      Value rowMax = kb.alloc({bqPadOfr});
      Value rowSum = kb.alloc({bqPadOfr});
      Value rowAlpha = kb.alloc({bqPadOfr});

      Value lastRow = kb.sub(queryLen, c1);
      Value scaleVal = kb.f32(scale);
      kb.loop(kb.index(blockQPad), [&](Value i) {
        kb.store(negInf, rowMax, i);
        kb.store(zero, rowSum, i);
        kb.loop(valueDimPad, [&](Value dv) { kb.store(zero, acc, {i, dv}); });
        Value valid = kb.lessThan(i, rowsInBlock);
        Value row = kb.minIdx(kb.add(q0, i), lastRow);
        kb.loop(headDim, [&](Value d) {
          Value q = arith::MulFOp::create(
              b, kb.loadF32(query, {bi, hi, row, d}), scaleVal);
          kb.store(kb.select(valid, q, zero), scaledQuery, {i, d});
        });
      });

      // Causal: the block's last query row sees keys up to q0 + rows - 1.
      Value keyEnd =
          causal ? kb.minIdx(keyLen, kb.add(q0, rowsInBlock)) : keyLen;
      Value visitedBlocks = kb.ceilDiv(keyEnd, blockKVal);
      kb.loop(visitedBlocks, [&](Value kbi) {
        Value p = panelOf(bi, hi, kbi);
        Value k0 = kb.mul(kbi, blockKVal);
        Value keysInBlock = kb.minIdx(blockKVal, kb.sub(keyLen, k0));

        // S = qs . kt + term, register tiles of tileRows x tileChunks.
        kb.loop(c0, kb.index(blockQPad), kb.index(tileRows), [&](Value r0) {
          for (auto group : columnGroups(keyChunks, tileChunks, width)) {
            const int64_t col0 = group.first, chunks = group.second;
            SmallVector<Value> init(tileRows * chunks, kb.vzero());
            SmallVector<Value> tile = kb.loopCarried(
                headDim, init, [&](Value d, ValueRange accs) {
                  SmallVector<Value> keys, next(accs);
                  for (int64_t c = 0; c < chunks; ++c)
                    keys.push_back(kb.vload(
                        keyPanels, {p, d, kb.index(col0 + c * width)}));
                  for (int64_t r = 0; r < tileRows; ++r) {
                    Value q = kb.splat(
                        kb.load(scaledQuery, {kb.add(r0, r), d}));
                    for (int64_t c = 0; c < chunks; ++c)
                      next[r * chunks + c] =
                          kb.fma(q, keys[c], next[r * chunks + c]);
                  }
                  return next;
                });
            for (int64_t c = 0; c < chunks; ++c) {
              Value col = kb.index(col0 + c * width);
              Value term = kb.vload(termPanels, {p, col});
              for (int64_t r = 0; r < tileRows; ++r) {
                Value s = arith::AddFOp::create(b, tile[r * chunks + c], term);
                if (causal) {
                  // Lane l is key k0+col+l; row q0+r0+r sees it iff
                  // l <= q0 + r0 + r - k0 - col.
                  Value limit = kb.sub(kb.add(kb.add(q0, r0), r + 0),
                                       kb.add(k0, col0 + c * width));
                  Value limit32 =
                      arith::IndexCastOp::create(b, b.getI32Type(), limit);
                  Value visible = arith::CmpIOp::create(
                      b, arith::CmpIPredicate::sle, laneIota,
                      vector::BroadcastOp::create(b, laneType, limit32));
                  s = kb.select(visible, s, kb.splat(negInf));
                }
                kb.vstore(s, probs, {kb.add(r0, r), col});
              }
            }
          }
        });

        // Online softmax, one row at a time; P overwrites S.
        kb.loop(kb.index(blockQPad), [&](Value i) {
          SmallVector<Value> s;
          for (int64_t c = 0; c < keyChunks; ++c)
            s.push_back(kb.vload(probs, {i, kb.index(c * width)}));
          // nnan lets LLVM reduce with a tree of vmaxps instead of a
          // NaN-checking sequential chain; a NaN logit (only from NaN
          // inputs) gives an unspecified, possibly NaN, row.
          Value maxVec = s[0];
          for (int64_t c = 1; c < keyChunks; ++c)
            maxVec = arith::MaxNumFOp::create(b, maxVec, s[c], noNaN);
          Value blockMax = vector::ReductionOp::create(
              b, vector::CombiningKind::MAXNUMF, maxVec, noNaN);
          Value oldMax = kb.load(rowMax, {i});
          Value newMax = arith::MaxNumFOp::create(b, oldMax, blockMax);
          Value noKeyYet = arith::CmpFOp::create(
              b, arith::CmpFPredicate::OEQ, newMax, negInf);
          Value safeMax = kb.select(noKeyYet, zero, newMax);
          Value alpha = math::ExpOp::create(
              b, arith::SubFOp::create(b, oldMax, safeMax));
          Value safeVec = kb.splat(safeMax);
          Value sumVec;
          for (int64_t c = 0; c < keyChunks; ++c) {
            Value pc = math::ExpOp::create(
                b, arith::SubFOp::create(b, s[c], safeVec));
            kb.vstore(pc, probs, {i, kb.index(c * width)});
            sumVec = c ? arith::AddFOp::create(b, sumVec, pc, reassoc) : pc;
          }
          Value sum = vector::ReductionOp::create(
              b, vector::CombiningKind::ADD, sumVec, reassoc);
          Value oldSum = kb.load(rowSum, {i});
          kb.store(arith::AddFOp::create(
                       b, arith::MulFOp::create(b, oldSum, alpha), sum),
                   rowSum, {i});
          kb.store(newMax, rowMax, {i});
          kb.store(alpha, rowAlpha, {i});
        });

        // acc = alpha * acc + P . vp, register tiles over V's columns.
        auto accumulate = [&](Value r0, Value col0, int64_t chunks) {
          SmallVector<Value> init;
          for (int64_t r = 0; r < tileRows; ++r) {
            Value row = kb.add(r0, r);
            Value alpha = kb.splat(kb.load(rowAlpha, {row}));
            for (int64_t c = 0; c < chunks; ++c)
              init.push_back(arith::MulFOp::create(
                  b, kb.vload(acc, {row, kb.add(col0, c * width)}), alpha));
          }
          SmallVector<Value> tile = kb.loopCarried(
              keysInBlock, init, [&](Value j, ValueRange accs) {
                SmallVector<Value> values, next(accs);
                for (int64_t c = 0; c < chunks; ++c)
                  values.push_back(
                      kb.vload(valuePanels, {p, j, kb.add(col0, c * width)}));
                for (int64_t r = 0; r < tileRows; ++r) {
                  Value pr = kb.splat(kb.load(probs, {kb.add(r0, r), j}));
                  for (int64_t c = 0; c < chunks; ++c)
                    next[r * chunks + c] =
                        kb.fma(pr, values[c], next[r * chunks + c]);
                }
                return next;
              });
          for (int64_t r = 0; r < tileRows; ++r)
            for (int64_t c = 0; c < chunks; ++c)
              kb.vstore(tile[r * chunks + c], acc,
                        {kb.add(r0, r), kb.add(col0, c * width)});
        };
        kb.loop(c0, kb.index(blockQPad), kb.index(tileRows), [&](Value r0) {
          if (unrollValueGroups) {
            int64_t valueChunks =
                roundUp(valueType.getDimSize(3), width) / width;
            for (auto [col0, chunks] :
                 columnGroups(valueChunks, tileChunks, width))
              accumulate(r0, kb.index(col0), chunks);
          } else {
            kb.loop(c0, valueDimPad, kb.index(groupWidth),
                    [&](Value col0) { accumulate(r0, col0, tileChunks); });
          }
        });
      });

      kb.loop(rowsInBlock, [&](Value i) {
        Value total = kb.load(rowSum, {i});
        Value seen =
            arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, total, zero);
        Value inverse =
            kb.select(seen, arith::DivFOp::create(b, one, total), zero);
        Value row = kb.add(q0, i);
        kb.loop(valueDim, [&](Value dv) {
          Value a = kb.load(acc, {i, dv});
          kb.storeAs(arith::MulFOp::create(b, a, inverse), out,
                     {bi, hi, row, dv});
        });
      });
      kb.dealloc({scaledQuery, probs, acc, rowMax, rowSum, rowAlpha});
    });
    kb.dealloc({keyPanels, valuePanels, termPanels});
    rewriter.eraseOp(op);
    return success();
  }

  LowerBlockAttentionOptions options;
};

struct AtticLowerBlockAttentionPass
    : public attic::impl::AtticLowerBlockAttentionBase<
          AtticLowerBlockAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorWidth < 0 || vectorWidth > 64 ||
        (vectorWidth & (vectorWidth - 1)) != 0) {
      emitError(getOperation()->getLoc())
          << "attic-lower-block-attention: vector-width must be 0 (the "
             "host's) or a power of two up to 64, got "
          << static_cast<int64_t>(vectorWidth);
      return signalPassFailure();
    }
    if (registerRows < 0 || registerRows > 16 || registerChunks < 0 ||
        registerChunks > 16) {
      emitError(getOperation()->getLoc())
          << "attic-lower-block-attention: register-rows and "
             "register-chunks must be in [0, 16] (0: derived from the "
             "vector width), got "
          << static_cast<int64_t>(registerRows) << " and "
          << static_cast<int64_t>(registerChunks);
      return signalPassFailure();
    }
    LowerBlockAttentionOptions options;
    options.vectorWidth = vectorWidth;
    options.registerRows = registerRows;
    options.registerChunks = registerChunks;
    RewritePatternSet patterns(&getContext());
    populateLowerBlockAttentionPatterns(patterns, options);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void attic::populateLowerBlockAttentionPatterns(
    RewritePatternSet &patterns, const LowerBlockAttentionOptions &options) {
  patterns.add<LowerBlockAttention>(patterns.getContext(), options);
}
