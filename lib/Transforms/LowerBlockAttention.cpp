//===- LowerBlockAttention.cpp - block_attention to loops -------*- C++ -*-===//
//
// Lowers the memref form of attic.block_attention into a flash-style loop
// nest. For one (batch, head, query block) the work is:
//
//   qs  = scale * Q[q0:q0+bq, :]            (f32 scratch)
//   m   = -inf, l = 0, acc = 0              (f32 running max, sum, output)
//   for each key block k0 the layout visits:
//     kt = K[k0:k0+bk, :]^T                 (f32 scratch, so that the
//                                            logits loop runs along keys)
//     kb = key bias + (mask ? 0 : -inf)     (per key, when present)
//     for each query row i:
//       s     = kb + qs[i] . kt             (visible keys only)
//       mNew  = max(m[i], max s);  mSafe = mNew == -inf ? 0 : mNew
//       alpha = exp(m[i] - mSafe); p = exp(s - mSafe)
//       acc[i] = alpha * acc[i] + p . V[k0:k0+bk]
//       l[i]  = alpha * l[i] + sum p;  m[i] = mNew
//   O[q0 + i] = l[i] > 0 ? acc[i] / l[i] : 0
//
// mSafe keeps a row that has seen no admissible key at exp(-inf) = 0 rather
// than exp(-inf - -inf) = NaN, so fully masked rows come out as 0. Innermost
// loops run along contiguous memory (keys of kt, columns of V and acc) so
// that LLVM vectorizes them. The scratch tiles (one set per iteration of the
// parallel loop) come from the heap, 64-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICLOWERBLOCKATTENTION
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

namespace {

/// Small builder helpers over an ImplicitLocOpBuilder, so that the loop nest
/// below reads like the pseudo-code above.
class KernelBuilder {
public:
  explicit KernelBuilder(ImplicitLocOpBuilder &b) : b(b) {}

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value f32(float v) {
    return arith::ConstantFloatOp::create(b, b.getF32Type(), APFloat(v));
  }
  Value negInf() {
    return f32(-std::numeric_limits<float>::infinity());
  }
  Value dim(Value memref, int64_t d) {
    return memref::DimOp::create(b, memref, d);
  }
  Value minIdx(Value x, Value y) { return arith::MinSIOp::create(b, x, y); }
  Value maxIdx(Value x, Value y) { return arith::MaxSIOp::create(b, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }

  /// Loads memref[indices] and extends it to f32.
  Value loadF32(Value memref, ValueRange indices) {
    Value v = memref::LoadOp::create(b, memref, indices);
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

  /// An f32 scratch buffer on the heap, freed by `releaseScratch`; `dims`
  /// are the sizes (static constants stay static in the type).
  ///
  /// Why not the stack: scf.parallel is an allocation scope, but its
  /// sequential lowering (scf-to-cf) drops that and canonicalization inlines
  /// any memref.alloca_scope under it, so allocas would pile up once per
  /// (batch, head, query block) until the stack overflows.
  Value scratch(ArrayRef<OpFoldResult> dims) {
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
    Value buffer =
        memref::AllocOp::create(b, type, dynamic, b.getI64IntegerAttr(64));
    scratchBuffers.push_back(buffer);
    return buffer;
  }
  void releaseScratch() {
    for (Value buffer : scratchBuffers)
      memref::DeallocOp::create(b, buffer);
    scratchBuffers.clear();
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

  /// acc = init; for (iv = 0; iv < upper; ++iv) acc = body(iv, acc)
  Value reduce(Value upper, Value init,
               function_ref<Value(Value, Value)> body) {
    auto forOp = scf::ForOp::create(
        b, index(0), upper, index(1), ValueRange{init},
        [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToEnd(nested.getInsertionBlock());
          Value next = body(iv, args.front());
          scf::YieldOp::create(b, next);
        });
    return forOp.getResult(0);
  }

  ImplicitLocOpBuilder &b;
  SmallVector<Value> scratchBuffers;
};

} // namespace

namespace {
struct LowerBlockAttention : OpRewritePattern<BlockAttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BlockAttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "bufferize first");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    b.setInsertionPoint(op);
    KernelBuilder kb(b);

    Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
    Value out = op.getInit(), bias = op.getKeyBias(), mask = op.getKeyMask();
    bool causal = op.isCausal();
    int64_t blockQ = op.getBlockQ(), blockK = op.getBlockK();
    float scale = op.getScale().convertToFloat();

    Value batches = kb.dim(query, 0), heads = kb.dim(query, 1);
    Value queryLen = kb.dim(query, 2), keyLen = kb.dim(key, 2);
    auto queryType = cast<MemRefType>(query.getType());
    auto valueType = cast<MemRefType>(value.getType());
    // Static head dims stay static in the scratch types (and loop bounds),
    // which lets LLVM unroll and vectorize the inner loops fully.
    auto staticOr = [&](MemRefType type, Value memref,
                        int64_t d) -> OpFoldResult {
      if (!type.isDynamicDim(d))
        return b.getIndexAttr(type.getDimSize(d));
      return kb.dim(memref, d);
    };
    OpFoldResult headDimOfr = staticOr(queryType, query, 3);
    OpFoldResult valueDimOfr = staticOr(valueType, value, 3);
    Value headDim = getValueOrCreateConstantIndexOp(b, b.getLoc(), headDimOfr);
    Value valueDim =
        getValueOrCreateConstantIndexOp(b, b.getLoc(), valueDimOfr);

    Value c0 = kb.index(0), c1 = kb.index(1);
    Value blockQVal = kb.index(blockQ), blockKVal = kb.index(blockK);
    Value numQueryBlocks = arith::CeilDivSIOp::create(b, queryLen, blockQVal);
    Value scaleVal = kb.f32(scale), zero = kb.f32(0.0f), one = kb.f32(1.0f);
    Value negInf = kb.negInf();
    auto reassoc = arith::FastMathFlagsAttr::get(
        b.getContext(), arith::FastMathFlags::reassoc);

    auto parallel = scf::ParallelOp::create(
        b, ValueRange{c0, c0, c0}, ValueRange{batches, heads, numQueryBlocks},
        ValueRange{c1, c1, c1});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(parallel.getBody()->getTerminator());
    Value bi = parallel.getInductionVars()[0];
    Value hi = parallel.getInductionVars()[1];
    Value q0 = kb.mul(parallel.getInductionVars()[2], blockQVal);
    Value rowsInBlock = kb.minIdx(blockQVal, kb.sub(queryLen, q0));

    // Scratch tiles, live for one (batch, head, query block).
    OpFoldResult bq = b.getIndexAttr(blockQ), bk = b.getIndexAttr(blockK);
    Value scaledQuery = kb.scratch({bq, headDimOfr});
    Value keyT = kb.scratch({headDimOfr, bk});
    Value logits = kb.scratch({bk});
    Value keyTerm = (bias || mask) ? kb.scratch({bk}) : Value();
    Value rowMax = kb.scratch({bq});
    Value rowSum = kb.scratch({bq});
    Value acc = kb.scratch({bq, valueDimOfr});

    kb.loop(rowsInBlock, [&](Value i) {
      kb.store(negInf, rowMax, i);
      kb.store(zero, rowSum, i);
      kb.loop(valueDim, [&](Value dv) { kb.store(zero, acc, {i, dv}); });
      Value row = kb.add(q0, i);
      kb.loop(headDim, [&](Value d) {
        Value q = kb.loadF32(query, {bi, hi, row, d});
        kb.store(arith::MulFOp::create(b, q, scaleVal), scaledQuery, {i, d});
      });
    });

    // Causal: the block's last query row sees keys up to q0 + rows - 1.
    Value keyEnd =
        causal ? kb.minIdx(keyLen, kb.add(q0, rowsInBlock)) : keyLen;
    kb.loop(c0, keyEnd, blockKVal, [&](Value k0) {
      Value keysInBlock = kb.minIdx(blockKVal, kb.sub(keyEnd, k0));
      kb.loop(keysInBlock, [&](Value j) {
        Value keyRow = kb.add(k0, j);
        kb.loop(headDim, [&](Value d) {
          kb.store(kb.loadF32(key, {bi, hi, keyRow, d}), keyT, {d, j});
        });
        if (!keyTerm)
          return;
        Value term = zero;
        if (bias) {
          auto biasType = cast<MemRefType>(bias.getType());
          SmallVector<Value> idx = biasType.getRank() == 2
                                       ? SmallVector<Value>{bi, keyRow}
                                       : SmallVector<Value>{bi, hi, keyRow};
          term = kb.loadF32(bias, idx);
        }
        if (mask) {
          Value keep = memref::LoadOp::create(b, mask, ValueRange{bi, keyRow});
          term = arith::SelectOp::create(b, keep, term, negInf);
        }
        kb.store(term, keyTerm, j);
      });

      kb.loop(rowsInBlock, [&](Value i) {
        // Keys of this block that row q0+i may see: all, or (causal) those
        // with k0 + j <= q0 + i; none when the block lies past the diagonal.
        Value visible = keysInBlock;
        if (causal)
          visible = kb.maxIdx(
              c0, kb.minIdx(keysInBlock, kb.sub(kb.add(kb.add(q0, i), c1), k0)));
        kb.loop(visible, [&](Value j) {
          Value init = keyTerm ? Value(memref::LoadOp::create(b, keyTerm, j))
                               : zero;
          kb.store(init, logits, j);
        });
        kb.loop(headDim, [&](Value d) {
          Value q = memref::LoadOp::create(b, scaledQuery, ValueRange{i, d});
          kb.loop(visible, [&](Value j) {
            Value k = memref::LoadOp::create(b, keyT, ValueRange{d, j});
            Value s = memref::LoadOp::create(b, logits, j);
            kb.store(math::FmaOp::create(b, q, k, s), logits, j);
          });
        });

        Value oldMax = memref::LoadOp::create(b, rowMax, i);
        Value newMax = kb.reduce(visible, oldMax, [&](Value j, Value m) {
          Value s = memref::LoadOp::create(b, logits, j);
          return arith::MaxNumFOp::create(b, m, s);
        });
        Value noKeyYet = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ,
                                               newMax, negInf);
        Value safeMax = arith::SelectOp::create(b, noKeyYet, zero, newMax);
        Value alpha =
            math::ExpOp::create(b, arith::SubFOp::create(b, oldMax, safeMax));
        Value sum = kb.reduce(visible, zero, [&](Value j, Value total) {
          Value s = memref::LoadOp::create(b, logits, j);
          Value p = math::ExpOp::create(b, arith::SubFOp::create(b, s, safeMax));
          kb.store(p, logits, j);
          return arith::AddFOp::create(b, total, p, reassoc);
        });

        kb.loop(valueDim, [&](Value dv) {
          Value a = memref::LoadOp::create(b, acc, ValueRange{i, dv});
          kb.store(arith::MulFOp::create(b, a, alpha), acc, {i, dv});
        });
        kb.loop(visible, [&](Value j) {
          Value p = memref::LoadOp::create(b, logits, j);
          Value keyRow = kb.add(k0, j);
          kb.loop(valueDim, [&](Value dv) {
            Value v = kb.loadF32(value, {bi, hi, keyRow, dv});
            Value a = memref::LoadOp::create(b, acc, ValueRange{i, dv});
            kb.store(math::FmaOp::create(b, p, v, a), acc, {i, dv});
          });
        });
        Value oldSum = memref::LoadOp::create(b, rowSum, i);
        Value newSum = arith::AddFOp::create(
            b, arith::MulFOp::create(b, oldSum, alpha), sum);
        kb.store(newSum, rowSum, i);
        kb.store(newMax, rowMax, i);
      });
    });

    kb.loop(rowsInBlock, [&](Value i) {
      Value total = memref::LoadOp::create(b, rowSum, i);
      Value seen =
          arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, total, zero);
      Value inverse = arith::SelectOp::create(
          b, seen, arith::DivFOp::create(b, one, total), zero);
      Value row = kb.add(q0, i);
      kb.loop(valueDim, [&](Value dv) {
        Value a = memref::LoadOp::create(b, acc, ValueRange{i, dv});
        kb.storeAs(arith::MulFOp::create(b, a, inverse), out,
                   {bi, hi, row, dv});
      });
    });
    kb.releaseScratch();
    rewriter.eraseOp(op);
    return success();
  }
};

struct AtticLowerBlockAttentionPass
    : public attic::impl::AtticLowerBlockAttentionBase<
          AtticLowerBlockAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLowerBlockAttentionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void attic::populateLowerBlockAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerBlockAttention>(patterns.getContext());
}
