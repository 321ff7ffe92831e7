//===- LowerBlockMask.cpp - run-time block classification -------*- C++ -*-===//
//
// attic-lower-block-mask: the memref form of attic.block_mask becomes
//
//   scf.parallel (b, h, qb) over the lists' [B', H', nQB]:
//     q0 = qb * BQ; q1 = min(q0 + BQ, Nq)
//     (np, nf) = (0, 0)
//     for kb in the layout's key range for [q0, q1):
//       (any, all) = the layout's block visibility of [q0, q1) x [k0, k1)
//       all:        full[b, h, qb, nf++] = kb      (while nf < L)
//       any, !all:  partial[b, h, qb, np++] = kb   (while np < L)
//     counts = (np, nf), clamped to L; a count over L is reported to the
//     runtime (attic_rt_report_error), never written out of bounds.
//
// With a mask region: a region that interval arithmetic models is
// classified as in the tile loop (the intersection of the layout's and the
// region's block visibility); any other region is evaluated, with the
// layout's predicate, on every element of each block pair that the layout
// does not skip (exact, like FlexAttention's create_block_mask). A check in
// front reports capture reads outside the captures (Modifiers.h).
//
// The classification is the layout's own IR, the same that the tile loop
// uses for static layouts; here it runs once per block pair and its result
// is kept, so data-dependent layouts (document ids: per-block id ranges)
// and irregular ones (random blocks: Philox draws) cost nothing in the
// attention itself.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Dialect/Attic/Modifiers.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"
#include "attic/runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace attic {
#define GEN_PASS_DEF_ATTICLOWERBLOCKMASK
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

LogicalResult attic::lowerBlockMask(BlockMaskOp op) {
  if (!op.hasPureBufferSemantics())
    return op.emitOpError("attic-lower-block-mask needs the memref form "
                          "(bufferize first)");
  FailureOr<func::FuncOp> report = declareReportError(op);
  if (failed(report))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  IndexMath m(b, loc);
  const int64_t blockQ = op.getBlockQ(), blockK = op.getBlockK();
  Value partialCount = op.getKvNumBlocksInit();
  Value partialList = op.getKvIndicesInit();
  Value fullCount = op.getFullKvNumBlocksInit();
  Value fullList = op.getFullKvIndicesInit();
  auto dim = [&](Value v, int64_t d) {
    return b.createOrFold<memref::DimOp>(loc, v, d);
  };
  Value queryLen = op.getQueryLen(), keyLen = op.getKeyLen();
  Value partialCap = dim(partialList, 3), fullCap = dim(fullList, 3);
  Value heads = dim(partialCount, 1), blocks = dim(partialCount, 2);
  LayoutAttrInterface layout = op.getLayout();
  Region *mask = op.getMaskModifier();
  bool exhaustive = mask && !isIntervalClassifiable(*mask);
  Value gridBatches = dim(partialCount, 0);
  if (mask && readsCaptures(*mask)) {
    Value empty = buildCaptureCheck(
        b, loc, *report, {{mask, ModifierKind::Mask}}, op.getCaptures(),
        gridBatches, heads, queryLen, keyLen);
    gridBatches = m.select(empty, m.c(0), gridBatches);
  }

  auto grid = scf::ParallelOp::create(
      b, loc, ValueRange{m.c(0), m.c(0), m.c(0)},
      ValueRange{gridBatches, heads, blocks},
      ValueRange{m.c(1), m.c(1), m.c(1)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(grid.getBody()->getTerminator());
  SmallVector<Value> ivs(grid.getInductionVars());
  Value batch = ivs[0], head = ivs[1], qb = ivs[2];
  Value q0 = m.mul(qb, blockQ);
  Value q1 = m.min(m.add(q0, blockQ), queryLen);
  LayoutEnv env{b,    loc,  queryLen,
                keyLen, batch, head,
                op.getLayoutOperands(), op.getCaptures()};
  // Query blocks past Nq (lists longer than needed) have no keys.
  KeyRange range = layout.buildKeyRange(env, q0, q1);
  Value first = m.floorDiv(range.lo, blockK);
  Value last = m.select(m.lt(q0, q1), m.ceilDiv(range.hi, m.c(blockK)), m.c(0));
  Value zero = m.c(0);
  auto loop = scf::ForOp::create(
      b, loc, first, last, m.c(1), ValueRange{zero, zero},
      [&](OpBuilder &nb, Location at, Value kb, ValueRange counts) {
        IndexMath n(nb, at);
        Value k0 = n.mul(kb, blockK);
        Value k1 = n.min(n.add(k0, blockK), keyLen);
        LayoutEnv inner{nb,    at,   queryLen,
                        keyLen, batch, head,
                        op.getLayoutOperands(), op.getCaptures()};
        BlockVisibility vis = layout.buildBlockVisibility(inner, q0, q1, k0, k1);
        vis = intersectMaskVisibility(inner, vis, mask, q0, q1, k0, k1);
        if (exhaustive) {
          // Element by element where neither the layout nor the region's
          // interval arithmetic (sound, if not exact, for any region: e.g.
          // the causal half of `causal && doc[q] == doc[k]`) skips the block.
          auto ifAny = scf::IfOp::create(
              nb, at, TypeRange{nb.getI1Type(), nb.getI1Type()}, vis.any,
              /*withElseRegion=*/true);
          {
            OpBuilder::InsertionGuard g(nb);
            nb.setInsertionPointToStart(ifAny.thenBlock());
            BlockVisibility exact = buildExhaustiveVisibility(
                nb, at, q0, q1, k0, k1,
                [&](OpBuilder &eb, Location el, Value q, Value k) {
                  LayoutEnv e{eb,    el,   queryLen,
                              keyLen, batch, head,
                              op.getLayoutOperands(), op.getCaptures()};
                  return IndexMath(eb, el).andI(
                      layout.buildElementPredicate(e, q, k),
                      buildMaskPredicate(e, *mask, q, k));
                });
            scf::YieldOp::create(nb, at, ValueRange{exact.any, exact.all});
            nb.setInsertionPointToStart(ifAny.elseBlock());
            scf::YieldOp::create(nb, at,
                                 ValueRange{n.boolean(false), n.boolean(false)});
          }
          vis = BlockVisibility{ifAny.getResult(0), ifAny.getResult(1)};
        }
        Value isPartial = n.andI(vis.any, n.notI(vis.all));
        Value kb32 = arith::IndexCastOp::create(nb, at, nb.getI32Type(), kb);
        auto append = [&](Value cond, Value list, Value count, Value cap) {
          auto ifOp = scf::IfOp::create(nb, at, n.andI(cond, n.lt(count, cap)),
                                        /*withElseRegion=*/false);
          {
            OpBuilder::InsertionGuard g(nb);
            nb.setInsertionPoint(ifOp.thenBlock()->getTerminator());
            memref::StoreOp::create(nb, at, kb32, list,
                                    ValueRange{batch, head, qb, count});
          }
          return n.add(count, n.select(cond, n.c(1), n.c(0)));
        };
        Value np = append(isPartial, partialList, counts[0], partialCap);
        Value nf = append(vis.all, fullList, counts[1], fullCap);
        scf::YieldOp::create(nb, at, ValueRange{np, nf});
      });
  Value flat = m.add(m.mul(m.add(m.mul(batch, heads), head), blocks), qb);
  auto finish = [&](Value count, Value cap, Value counts) {
    scf::IfOp::create(b, loc, m.lt(cap, count),
                      [&](OpBuilder &nb, Location at) {
                        emitReportError(nb, at, *report, ATTIC_RT_BLOCK_COUNT,
                                        flat, count, cap);
                        scf::YieldOp::create(nb, at);
                      });
    Value stored = arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                              m.min(count, cap));
    memref::StoreOp::create(b, loc, stored, counts, ValueRange{batch, head, qb});
  };
  finish(loop.getResult(0), partialCap, partialCount);
  finish(loop.getResult(1), fullCap, fullCount);
  op.erase();
  return success();
}

namespace {
struct AtticLowerBlockMaskPass
    : public attic::impl::AtticLowerBlockMaskBase<AtticLowerBlockMaskPass> {
  void runOnOperation() override {
    SmallVector<BlockMaskOp> ops;
    getOperation()->walk([&](BlockMaskOp op) { ops.push_back(op); });
    for (BlockMaskOp op : ops)
      if (failed(lowerBlockMask(op)))
        return signalPassFailure();
  }
};
} // namespace
