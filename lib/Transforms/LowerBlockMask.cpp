//===- LowerBlockMask.cpp - run-time block classification -------*- C++ -*-===//
//
// attic-lower-block-mask: the memref form of attic.block_mask becomes
//
//   class = alloc [B', H', nQB, nKB] of i8
//   scf.parallel (b, h, qb, kb) over [B', H', nQB, nKB]:
//     q0 = qb * BQ; q1 = min(q0 + BQ, Nq)
//     (any, all) = the layout's block visibility of [q0, q1) x [k0, k1)
//     (any, all) = element by element where that is partial and not exact
//     class = all ? 2 (full) : any ? 1 (partial) : 0
//   scf.parallel (b, h, qb) over the lists' [B', H', nQB]:
//     (np, nf) = (0, 0)
//     for kb in the layout's key range for [q0, q1):
//       class 2:    full[b, h, qb, nf++] = kb      (while nf < L)
//       class 1:    partial[b, h, qb, np++] = kb   (while np < L)
//     counts = (np, nf), clamped to L; a count over L is reported to the
//     runtime (attic_rt_report_error), never written out of bounds.
//   dealloc class
//
// The block pairs are classified in parallel (a thread each on a GPU),
// the lists compacted per query block.
//
// The lists are exact, like FlexAttention's create_block_mask. The
// layout's block visibility decides a pair where it is exact (atomic
// static layouts, random blocks) or where it says skip or full. Where it
// is sound only (document ids: per-block id ranges; intersections and
// unions) or the op has a mask region (intersected as in the tile loop:
// interval arithmetic where it models the region, sound), a pair it calls
// partial is checked element by element with the layout's predicate and
// the region's. Entries past a count are written 0. A check in front
// reports capture reads outside the captures (Modifiers.h).
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

#include "PassRoots.h"

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
  // The lists are exact: where the layout's block visibility is sound only
  // (document ids, compositions) or there is a mask region (its interval
  // arithmetic is sound, not exact, for compound predicates, and says
  // nothing for the others), a block pair called partial is checked
  // element by element. Lists reused by an attention with another layout
  // (or none) would otherwise depend on how precise the classification is.
  bool exhaustive = mask || !hasExactBlockVisibility(layout);
  // Lengths from the data that the lists' shape cannot hold: a negative
  // length, or one whose query blocks are not the lists' (a query_len of
  // 200 with lists of 4 query blocks of 16 classified the first 4 and
  // returned; negative lengths gave empty lists; a 2026-11-30 audit). The
  // verifier checks constant lengths.
  Value negative = m.orI(m.lt(queryLen, m.c(0)), m.lt(keyLen, m.c(0)));
  emitReportErrorIf(b, loc, *report, negative, ATTIC_RT_BLOCK_SHAPE, queryLen,
                    keyLen, m.c(3));
  Value queryBlocks = m.ceilDiv(queryLen, m.c(blockQ));
  emitReportErrorIf(b, loc, *report,
                    m.andI(m.notI(negative), m.ne(blocks, queryBlocks)),
                    ATTIC_RT_BLOCK_SHAPE, blocks, queryBlocks, m.c(0));
  Value listBatches = dim(partialCount, 0);
  Value gridBatches = listBatches;
  // A capture with an empty dimension (reported): no pair is classified,
  // which would read it, and the lists are empty (not left as the
  // destinations held them: a consumer's list check reported those
  // contents, not the cause; an audit).
  Value noPairs = m.boolean(false);
  if (mask && readsCaptures(*mask)) {
    noPairs = buildCaptureCheck(b, loc, *report, {{mask, ModifierKind::Mask}},
                                op.getCaptures(), listBatches, heads, queryLen,
                                keyLen);
    gridBatches = m.select(noPairs, m.c(0), listBatches);
  }

  // Phase 1, one thread per block pair: its class (0 skip, 1 partial,
  // 2 full) in a scratch buffer [B', H', nQB, nKB] of i8. Phase 2, one
  // thread per query block: the lists, in ascending key-block order. One
  // loop over (b, h, qb) doing both ran nKB classifications, each over up
  // to block_q x block_k elements, in each of B' H' nQB threads: 64 threads
  // at N = 8192, 19.8 ms on an H100 for a mask region evaluated on every
  // element (bench/results/cuda/h100-2026-11-26/block_mask.md).
  Value keyBlocks = m.ceilDiv(keyLen, m.c(blockK));
  auto classType = MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic,
                                    ShapedType::kDynamic, ShapedType::kDynamic},
                                   b.getI8Type());
  Value classes = memref::AllocOp::create(
      b, loc, classType,
      ValueRange{dim(partialCount, 0), heads, blocks, keyBlocks});
  auto envAt = [&](OpBuilder &at, Location where, Value batch, Value head) {
    return LayoutEnv{at,
                     where,
                     queryLen,
                     keyLen,
                     batch,
                     head,
                     op.getLayoutOperands(),
                     op.getCaptures()};
  };
  {
    auto pairs = scf::ParallelOp::create(
        b, loc, ValueRange{m.c(0), m.c(0), m.c(0), m.c(0)},
        ValueRange{gridBatches, heads, blocks, keyBlocks},
        ValueRange{m.c(1), m.c(1), m.c(1), m.c(1)});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(pairs.getBody()->getTerminator());
    SmallVector<Value> ivs(pairs.getInductionVars());
    Value batch = ivs[0], head = ivs[1], qb = ivs[2], kb = ivs[3];
    // Every pair, without the layout's key range: phase 2 reads the pairs
    // inside it only, and the range of a data-dependent layout can cost a
    // scan of the keys (documents: 3x slower at N = 8192 on the CPU when
    // every pair computed it).
    Value q0 = m.mul(qb, blockQ);
    Value q1 = m.min(m.add(q0, blockQ), queryLen);
    Value k0 = m.mul(kb, blockK);
    Value k1 = m.min(m.add(k0, blockK), keyLen);
    LayoutEnv inner = envAt(b, loc, batch, head);
    BlockVisibility vis = layout.buildBlockVisibility(inner, q0, q1, k0, k1);
    vis = intersectMaskVisibility(inner, vis, mask, q0, q1, k0, k1);
    if (exhaustive) {
      // Element by element where neither the layout nor the region's
      // interval arithmetic (sound for any region: e.g. the causal half of
      // `causal && doc[q] == doc[k]`) decides the block: skipped and full
      // blocks are exact already.
      auto ifPartial = scf::IfOp::create(
          b, loc, TypeRange{b.getI1Type(), b.getI1Type()},
          m.andI(vis.any, m.notI(vis.all)), /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifPartial.thenBlock());
        BlockVisibility exact = buildExhaustiveVisibility(
            b, loc, q0, q1, k0, k1,
            [&](OpBuilder &eb, Location el, Value q, Value k) {
              LayoutEnv e = envAt(eb, el, batch, head);
              Value p = layout.buildElementPredicate(e, q, k);
              if (!mask)
                return p;
              return IndexMath(eb, el).andI(p,
                                            buildMaskPredicate(e, *mask, q, k));
            });
        scf::YieldOp::create(b, loc, ValueRange{exact.any, exact.all});
        b.setInsertionPointToStart(ifPartial.elseBlock());
        scf::YieldOp::create(b, loc, ValueRange{vis.any, vis.all});
      }
      vis = BlockVisibility{ifPartial.getResult(0), ifPartial.getResult(1)};
    }
    auto i8 = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, v, 8).getResult();
    };
    Value cls = arith::SelectOp::create(
        b, loc, vis.all, i8(2),
        arith::SelectOp::create(b, loc, vis.any, i8(1), i8(0)));
    memref::StoreOp::create(b, loc, cls, classes,
                            ValueRange{batch, head, qb, kb});
  }

  auto grid =
      scf::ParallelOp::create(b, loc, ValueRange{m.c(0), m.c(0), m.c(0)},
                              ValueRange{listBatches, heads, blocks},
                              ValueRange{m.c(1), m.c(1), m.c(1)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(grid.getBody()->getTerminator());
    SmallVector<Value> ivs(grid.getInductionVars());
    Value batch = ivs[0], head = ivs[1], qb = ivs[2];
    // The key blocks [first, last) of the layout's key range of the query
    // block (none for a query block past Nq: lists longer than needed).
    Value q0 = m.mul(qb, blockQ);
    Value q1 = m.min(m.add(q0, blockQ), queryLen);
    LayoutEnv env = envAt(b, loc, batch, head);
    KeyRange range = layout.buildKeyRange(env, q0, q1);
    Value first = m.floorDiv(range.lo, blockK);
    Value last = m.select(m.andI(m.lt(q0, q1), m.notI(noPairs)),
                          m.ceilDiv(range.hi, m.c(blockK)), m.c(0));
    Value zero = m.c(0);
    auto loop = scf::ForOp::create(
        b, loc, first, last, m.c(1), ValueRange{zero, zero},
        [&](OpBuilder &nb, Location at, Value kb, ValueRange counts) {
          IndexMath n(nb, at);
          Value cls = memref::LoadOp::create(nb, at, classes,
                                             ValueRange{batch, head, qb, kb});
          auto is = [&](int64_t v) {
            return arith::CmpIOp::create(
                nb, at, arith::CmpIPredicate::eq, cls,
                arith::ConstantIntOp::create(nb, at, v, 8));
          };
          Value isPartial = is(1), isFull = is(2);
          Value kb32 = arith::IndexCastOp::create(nb, at, nb.getI32Type(), kb);
          auto append = [&](Value cond, Value list, Value count, Value cap) {
            auto ifOp =
                scf::IfOp::create(nb, at, n.andI(cond, n.lt(count, cap)),
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
          Value nf = append(isFull, fullList, counts[1], fullCap);
          scf::YieldOp::create(nb, at, ValueRange{np, nf});
        });
    // Entries past a count are 0: the lists are a function of the layout,
    // whatever the destinations held.
    auto finish = [&](Value count, Value cap, Value counts, Value list,
                      int which) {
      scf::IfOp::create(
          b, loc, m.lt(cap, count), [&](OpBuilder &nb, Location at) {
            Value row =
                emitBlockListRow(nb, at, batch, head, qb, heads, blocks, which);
            emitReportError(nb, at, *report, ATTIC_RT_BLOCK_COUNT, row, count,
                            cap);
            scf::YieldOp::create(nb, at);
          });
      Value n = m.min(count, cap);
      Value stored = arith::IndexCastOp::create(b, loc, b.getI32Type(), n);
      memref::StoreOp::create(b, loc, stored, counts,
                              ValueRange{batch, head, qb});
      Value zero32 = arith::ConstantIntOp::create(b, loc, 0, 32);
      scf::ForOp::create(b, loc, n, cap, m.c(1), ValueRange{},
                         [&](OpBuilder &nb, Location at, Value t, ValueRange) {
                           memref::StoreOp::create(
                               nb, at, zero32, list,
                               ValueRange{batch, head, qb, t});
                           scf::YieldOp::create(nb, at);
                         });
    };
    finish(loop.getResult(0), partialCap, partialCount, partialList, 0);
    finish(loop.getResult(1), fullCap, fullCount, fullList, 1);
  }
  memref::DeallocOp::create(b, loc, classes)
      ->setAttr(kBlockClassesAttrName, b.getUnitAttr());
  op.erase();
  return success();
}

namespace {
struct AtticLowerBlockMaskPass
    : public attic::impl::AtticLowerBlockMaskBase<AtticLowerBlockMaskPass> {
  void runOnOperation() override {
    if (failed(attic::detail::refuseAtticRoot(getOperation(),
                                              "attic-lower-block-mask")))
      return signalPassFailure();
    ReportErrorScope scope(getOperation());
    SmallVector<BlockMaskOp> ops;
    getOperation()->walk([&](BlockMaskOp op) { ops.push_back(op); });
    for (BlockMaskOp op : ops)
      if (failed(lowerBlockMask(op)))
        return signalPassFailure();
  }
};
} // namespace
