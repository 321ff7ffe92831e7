//===- GpuSimtAttention.cpp - block_attention to SIMT loops -----*- C++ -*-===//
//
// Lowers the memref form of attic.block_attention into plain scf loops that
// attic-gpu-offload maps to one GPU thread per query row. It covers what the
// tensor-core kernel of attic-gpu-block-attention does not (f32, head dims
// that are dynamic or not multiples of 16, ...):
//
//   scf.parallel (b, h, i) in [0, B) x [0, H) x [0, Nq):
//     for c0 in [0, Dv) step W:                 W = min(chunk, Dv) columns
//       kEnd = causal ? min(i + 1, Nk) : Nk     (top-left: key j <= row i)
//       m, l, acc[0..W) = -inf, 0, 0            (f32 iter_args)
//       for j in [0, kEnd):
//         s = scale * sum_d q[b,h,i,d] k[b,h,j,d] + bias[b,(h,)j]
//         if mask[b,j] and s != -inf:
//           mNew = max(m, s); alpha = exp(m - mNew); p = exp(s - mNew)
//           l = alpha*l + p; acc[e] = alpha*acc[e] + p*v[b,h,j,c0+e]
//       out[b,h,i,c0+e] = l > 0 ? acc[e] / l : 0      (for c0+e < Dv)
//
// Everything a thread keeps lives in iter_args (registers): no memref.alloc
// or alloca, which a GPU kernel cannot do and which, on the sequential CPU
// lowering of scf.parallel, would pile up on the stack once per row. The
// price is that the logits are recomputed for each chunk of W value columns.
//
// Skipping inadmissible keys (masked, or a -inf logit) instead of giving
// them p = 0 keeps m at -inf until the first admissible key, where
// alpha = exp(-inf - finite) = 0; a row without any admissible key keeps
// l = 0 and is written as 0, never NaN.
//
// When Dv is dynamic or not a multiple of W, the last chunk is partial: its
// loads read column min(c0+e, Dv-1) (in bounds, results unused) and its
// stores are guarded by c0+e < Dv, so the key loop stays branch-free apart
// from the admissibility test.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <algorithm>
#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICGPUSIMTATTENTION
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

static bool isTopLeftCausal(BlockAttentionOp op) {
  auto causal = dyn_cast<CausalLayoutAttr>(op.getLayout());
  return causal && causal.getAlign() == Alignment::TopLeft;
}

namespace {

/// Accumulators per thread are registers: more than this spills.
constexpr int64_t kMaxChunk = 64;

/// Small helpers over an ImplicitLocOpBuilder. Constants are created once,
/// in front of the loops (`constants` is kept in front of them).
struct SimtGen {
  ImplicitLocOpBuilder &b;
  ImplicitLocOpBuilder constants;
  llvm::DenseMap<int64_t, Value> indexConstants;

  explicit SimtGen(ImplicitLocOpBuilder &b) : b(b), constants(b) {}

  Value index(int64_t v) {
    Value &c = indexConstants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(constants, v);
    return c;
  }
  Value f32(float v) {
    return arith::ConstantFloatOp::create(constants, constants.getF32Type(),
                                          APFloat(v));
  }
  Value negInf() { return f32(-std::numeric_limits<float>::infinity()); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value sub(Value x, int64_t y) {
    return arith::SubIOp::create(b, x, index(y));
  }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, x, y);
  }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  Value fsub(Value x, Value y) { return arith::SubFOp::create(b, x, y); }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value exp(Value x) { return math::ExpOp::create(b, x); }

  Value toF32(Value v) {
    return v.getType().isF32() ? v
                               : arith::ExtFOp::create(b, b.getF32Type(), v);
  }
  Value fromF32(Value v, Type elem) {
    return elem.isF32() ? v : arith::TruncFOp::create(b, elem, v);
  }
  Value load(Value memref, ValueRange indices) {
    return memref::LoadOp::create(b, memref, indices);
  }

  /// The size of a dimension that several operands share (the verifier
  /// checked that they agree): a constant if any of them has it static,
  /// else memref.dim of the first.
  Value size(ArrayRef<std::pair<Value, int64_t>> dims);
};

/// The size of a dimension that the (operand, dim) pairs share, if one of
/// them has it static; else kDynamic.
int64_t staticSize(ArrayRef<std::pair<Value, int64_t>> dims) {
  for (auto [v, d] : dims)
    if (v && !cast<MemRefType>(v.getType()).isDynamicDim(d))
      return cast<MemRefType>(v.getType()).getDimSize(d);
  return ShapedType::kDynamic;
}

Value SimtGen::size(ArrayRef<std::pair<Value, int64_t>> dims) {
  int64_t known = staticSize(dims);
  if (!ShapedType::isDynamic(known))
    return index(known);
  return memref::DimOp::create(b, dims.front().first,
                               index(dims.front().second));
}

} // namespace

LogicalResult attic::lowerBlockAttentionToSimt(BlockAttentionOp op,
                                               int64_t chunk) {
  if (chunk < 1 || chunk > kMaxChunk)
    return op.emitOpError("cannot be lowered to SIMT loops: chunk must be in "
                          "[1, ")
           << kMaxChunk << "], got " << chunk;
  if (!op.hasPureBufferSemantics())
    return op.emitOpError("cannot be lowered to SIMT loops: bufferize first "
                          "(operands are tensors)");

  Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
  Value bias = op.getKeyBias(), mask = op.getKeyMask(), out = op.getInit();
  Type elem = cast<MemRefType>(out.getType()).getElementType();
  const bool causal = isTopLeftCausal(op);

  // W accumulators per thread; with a static Dv, never more than Dv.
  const int64_t staticDv = staticSize({{value, 3}, {out, 3}});
  int64_t width = chunk;
  if (!ShapedType::isDynamic(staticDv))
    width = std::min(width, staticDv);
  if (width == 0) { // Dv = 0: nothing to write
    op.erase();
    return success();
  }
  const bool partialChunks =
      ShapedType::isDynamic(staticDv) || staticDv % width != 0;

  OpBuilder builder(op);
  ImplicitLocOpBuilder b(op.getLoc(), builder);
  SimtGen g(b);
  Value batches = g.size({{query, 0}, {key, 0}, {value, 0}, {out, 0}});
  Value heads = g.size({{query, 1}, {key, 1}, {value, 1}, {out, 1}});
  Value queryLen = g.size({{query, 2}, {out, 2}});
  Value headDim = g.size({{query, 3}, {key, 3}});
  Value keyLen = g.size({{key, 2}, {value, 2}});
  Value valueDim = g.size({{value, 3}, {out, 3}});
  Value c0 = g.index(0), c1 = g.index(1);
  Value scale = g.f32(op.getScale().convertToFloat());
  Value zero = g.f32(0.0f), negInf = g.negInf();
  Value lastColumn;
  if (partialChunks)
    lastColumn = ShapedType::isDynamic(staticDv) ? g.sub(valueDim, 1)
                                                 : g.index(staticDv - 1);

  auto rows = scf::ParallelOp::create(b, ValueRange{c0, c0, c0},
                                      ValueRange{batches, heads, queryLen},
                                      ValueRange{c1, c1, c1});
  g.constants.setInsertionPoint(rows);
  b.setInsertionPointToStart(rows.getBody());
  Value bi = rows.getInductionVars()[0], hi = rows.getInductionVars()[1];
  Value row = rows.getInductionVars()[2];
  Value keyEnd = causal ? g.minI(g.add(row, 1), keyLen) : keyLen;

  auto chunks = scf::ForOp::create(b, c0, valueDim, g.index(width));
  b.setInsertionPointToStart(chunks.getBody());
  Value col0 = chunks.getInductionVar();
  // Column c0 itself is always in range (c0 < Dv).
  SmallVector<Value> columns, loadColumns;
  for (int64_t e = 0; e < width; ++e) {
    columns.push_back(g.add(col0, e));
    loadColumns.push_back(partialChunks && e > 0
                              ? g.minI(columns.back(), lastColumn)
                              : columns.back());
  }

  // Online softmax over the keys: iter_args (m, l, acc_0 .. acc_{W-1}).
  SmallVector<Value> inits = {negInf, zero};
  inits.append(width, zero);
  auto keys = scf::ForOp::create(b, c0, keyEnd, c1, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(keys.getBody());
    Value j = keys.getInductionVar();
    ValueRange state = keys.getRegionIterArgs();

    auto dot = scf::ForOp::create(b, c0, headDim, c1, ValueRange{zero});
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(dot.getBody());
      Value d = dot.getInductionVar();
      Value q = g.toF32(g.load(query, {bi, hi, row, d}));
      Value k = g.toF32(g.load(key, {bi, hi, j, d}));
      scf::YieldOp::create(b, g.fadd(dot.getRegionIterArgs()[0], g.fmul(q, k)));
    }
    Value s = g.fmul(dot.getResult(0), scale);
    if (bias) {
      bool perHead = cast<MemRefType>(bias.getType()).getRank() == 3;
      s = g.fadd(s, g.toF32(perHead ? g.load(bias, {bi, hi, j})
                                    : g.load(bias, {bi, j})));
    }
    // `une` lets a NaN logit through (to the output), like the reference.
    Value admissible =
        arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, s, negInf);
    if (mask)
      admissible = arith::AndIOp::create(b, admissible, g.load(mask, {bi, j}));

    auto update = scf::IfOp::create(b, TypeRange(state), admissible,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&update.getThenRegion().front());
      Value m = state[0], l = state[1];
      Value mNew = arith::MaximumFOp::create(b, m, s);
      Value alpha = g.exp(g.fsub(m, mNew));
      Value p = g.exp(g.fsub(s, mNew));
      SmallVector<Value> next = {mNew, g.fadd(g.fmul(l, alpha), p)};
      for (int64_t e = 0; e < width; ++e) {
        Value v = g.toF32(g.load(value, {bi, hi, j, loadColumns[e]}));
        next.push_back(g.fadd(g.fmul(state[2 + e], alpha), g.fmul(p, v)));
      }
      scf::YieldOp::create(b, next);
      b.setInsertionPointToStart(&update.getElseRegion().front());
      scf::YieldOp::create(b, state);
    }
    scf::YieldOp::create(b, update.getResults());
  }

  // out = acc / l, 0 for a row without an admissible key.
  Value l = keys.getResult(1);
  Value positive = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, l, zero);
  for (int64_t e = 0; e < width; ++e) {
    Value o = arith::SelectOp::create(
        b, positive, arith::DivFOp::create(b, keys.getResult(2 + e), l), zero);
    o = g.fromF32(o, elem);
    if (!partialChunks || e == 0) {
      memref::StoreOp::create(b, o, out, ValueRange{bi, hi, row, columns[e]});
      continue;
    }
    auto inRange = scf::IfOp::create(b, g.lt(columns[e], valueDim),
                                     /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&inRange.getThenRegion().front());
    memref::StoreOp::create(b, o, out, ValueRange{bi, hi, row, columns[e]});
  }

  op.erase();
  return success();
}

namespace {

struct AtticGpuSimtAttentionPass
    : public attic::impl::AtticGpuSimtAttentionBase<AtticGpuSimtAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    if (chunk < 1 || chunk > kMaxChunk) {
      emitError(getOperation()->getLoc())
          << "attic-gpu-simt-attention: chunk must be in [1, " << kMaxChunk
          << "] (f32 accumulators per thread), got "
          << static_cast<int64_t>(chunk);
      return signalPassFailure();
    }
    if (blockQ < 0 || blockK < 0) {
      emitError(getOperation()->getLoc())
          << "attic-gpu-simt-attention: block-q and block-k must be >= 0 "
             "(0: the op's block_q/block_k), got "
          << static_cast<int64_t>(blockQ) << " and "
          << static_cast<int64_t>(blockK);
      return signalPassFailure();
    }
    SmallVector<BlockAttentionOp> ops;
    getOperation()->walk([&](BlockAttentionOp op) { ops.push_back(op); });
    bool failed = false;
    for (BlockAttentionOp op : ops) {
      // Tensor-form ops are not supported by the kernel either, so they
      // reach lowerBlockAttentionToSimt, which reports them.
      if (!all && op.hasPureBufferSemantics() &&
          supportsTensorCoreKernel(op, blockQ, blockK))
        continue;
      if (mlir::failed(lowerBlockAttentionToSimt(op, chunk)))
        failed = true;
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
