//===- Decompose.cpp - attic L1 ops into attic.block_attention --*- C++ -*-===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Dialect/Attic/Modifiers.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Support/KernelOptions.h"
#include "attic/Transforms/Passes.h"

#include "PassRoots.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace attic {
#define GEN_PASS_DEF_ATTICDECOMPOSE
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

namespace {

/// The size of `dim` of `v`: a constant when static, else tensor.dim.
Value dimOf(OpBuilder &b, Location loc, Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, v, dim);
}

/// The four block lists of `layout` (and the op's mask region) for `op`'s
/// shapes, computed by an attic.block_mask: [B', H', nQB] and [B', H', nQB,
/// nKB] of i32, with B' and H' 1 when the pattern does not depend on the
/// batch or the head.
SmallVector<Value> buildBlockMask(OpBuilder &b, AttentionOp op,
                                  LayoutAttrInterface layout, int64_t blockQ,
                                  int64_t blockK) {
  Location loc = op.getLoc();
  RankedTensorType queryType = op.getQuery().getType();
  RankedTensorType keyType = op.getKey().getType();
  Value queryLen = dimOf(b, loc, op.getQuery(), 2);
  Value keyLen = dimOf(b, loc, op.getKey(), 2);
  auto ceilDiv = [](int64_t x, int64_t y) {
    return ShapedType::isDynamic(x) ? ShapedType::kDynamic : (x + y - 1) / y;
  };
  Region &region = op.getMaskRegion();
  bool perBatch = layout.dependsOnBatch() ||
                  modifierUsesBatch(region, ModifierKind::Mask);
  bool perHead =
      layout.dependsOnHead() || modifierUsesHead(region, ModifierKind::Mask);
  int64_t batches = perBatch ? queryType.getDimSize(0) : 1;
  int64_t heads = perHead ? queryType.getDimSize(1) : 1;
  int64_t queryBlocks = ceilDiv(queryType.getDimSize(2), blockQ);
  int64_t keyBlocks = ceilDiv(keyType.getDimSize(2), blockK);
  auto blocksOf = [&](Value len, int64_t block) -> Value {
    return arith::CeilDivSIOp::create(
        b, loc, len, arith::ConstantIndexOp::create(b, loc, block));
  };
  auto empty = [&](ArrayRef<int64_t> shape) -> Value {
    SmallVector<Value> dynamic;
    for (auto [d, size] : llvm::enumerate(shape)) {
      if (!ShapedType::isDynamic(size))
        continue;
      if (d == 0)
        dynamic.push_back(dimOf(b, loc, op.getQuery(), 0));
      else if (d == 1)
        dynamic.push_back(dimOf(b, loc, op.getQuery(), 1));
      else if (d == 2)
        dynamic.push_back(blocksOf(queryLen, blockQ));
      else
        dynamic.push_back(blocksOf(keyLen, blockK));
    }
    return tensor::EmptyOp::create(b, loc, shape, b.getI32Type(), dynamic);
  };
  SmallVector<int64_t> countShape = {batches, heads, queryBlocks};
  SmallVector<int64_t> listShape = {batches, heads, queryBlocks, keyBlocks};
  SmallVector<Value> inits = {empty(countShape), empty(listShape),
                              empty(countShape), empty(listShape)};
  auto mask = BlockMaskOp::create(
      b, loc, ValueRange(inits).getTypes(), op.getLayoutOperands(),
      op.getCaptures(), queryLen, keyLen, inits[0], inits[1], inits[2],
      inits[3], layout, b.getI64IntegerAttr(blockQ),
      b.getI64IntegerAttr(blockK), /*mask_fn=*/nullptr);
  IRMapping map;
  region.cloneInto(&mask.getMaskRegion(), map);
  return SmallVector<Value>(mask.getResults());
}

/// attention(q, k, v) -> block_attention ins(q, k, v) outs(tensor.empty),
/// behind an attic.block_mask when the layout needs run-time
/// classification and no block lists are given.
struct DecomposeAttention : OpRewritePattern<AttentionOp> {
  DecomposeAttention(MLIRContext *ctx, DecomposeOptions options)
      : OpRewritePattern(ctx), options(options) {}

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<float> scale = op.getEffectiveScale();
    if (failed(scale))
      return rewriter.notifyMatchFailure(op, "no static scale");
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();

    // The result is [B, H, Nq, Dv]: dynamic sizes come from query and value.
    SmallVector<Value> dynamicSizes;
    for (int64_t dim = 0; dim < 4; ++dim) {
      if (!resultType.isDynamicDim(dim))
        continue;
      Value source = dim == 3 ? op.getValue() : op.getQuery();
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, source, dim));
    }
    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         resultType.getElementType(),
                                         dynamicSizes);
    LayoutAttrInterface layout = op.getEffectiveLayout();
    // The op's block sizes win: the lists were made for their own blocks,
    // and without lists they are the tiling its producer chose (e.g. one
    // slice and its window for attic.slice_attention).
    auto [blockQ, blockK] = op.getTileSizesOr(options.blockQ, options.blockK);
    SmallVector<Value> lists;
    if (op.getKvNumBlocks()) {
      lists = {op.getKvNumBlocks(), op.getKvIndices(), op.getFullKvNumBlocks(),
               op.getFullKvIndices()};
    } else if (layout.needsBlockMask() ||
               !isIntervalClassifiable(op.getMaskRegion())) {
      // Lists fix the key block, which attic-tile-block-attention's
      // wide-head rule then cannot narrow: the GPU pipelines narrow it here
      // (at D = 128 and block_k = 128 the tensor-core kernel spilled up to
      // 284 bytes and could not use wgmma).
      auto wide = [](Value v) {
        auto type = cast<ShapedType>(v.getType());
        int64_t d = type.getDimSize(3);
        return (type.getElementType().isF16() ||
                type.getElementType().isBF16()) &&
               (ShapedType::isDynamic(d) || d > 64);
      };
      if (!op.getBlockSizes() && options.wideHeadBlockK > 0 &&
          blockK > options.wideHeadBlockK &&
          (wide(op.getQuery()) || wide(op.getValue())))
        blockK = options.wideHeadBlockK;
      lists = buildBlockMask(rewriter, op, layout, blockQ, blockK);
    }
    auto list = [&](int i) { return lists.empty() ? Value() : lists[i]; };
    auto blockOp = BlockAttentionOp::create(
        rewriter, loc, TypeRange{resultType}, op.getQuery(), op.getKey(),
        op.getValue(), op.getKeyBias(), op.getKeyMask(),
        op.getLayoutOperands(), op.getCaptures(), list(0), list(1), list(2),
        list(3), /*pool_weights=*/Value(), init, /*lse_init=*/Value(),
        /*pool_init=*/Value(), layout,
        rewriter.getF32FloatAttr(*scale),
        rewriter.getI64IntegerAttr(blockQ), rewriter.getI64IntegerAttr(blockK),
        /*mask_fn=*/nullptr, /*score_fn=*/nullptr);
    rewriter.inlineRegionBefore(op.getMaskRegion(), blockOp.getMaskRegion(),
                                blockOp.getMaskRegion().end());
    rewriter.inlineRegionBefore(op.getScoreRegion(), blockOp.getScoreRegion(),
                                blockOp.getScoreRegion().end());
    rewriter.replaceOp(op, blockOp.getResult());
    return success();
  }

  DecomposeOptions options;
};

/// attic.kernelized_attention -> its L2 primitives (Kernelized.cpp).
struct DecomposeKernelized : public OpRewritePattern<KernelizedAttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(KernelizedAttentionOp op,
                                PatternRewriter &rewriter) const override {
    return decomposeKernelized(rewriter, op);
  }
};

/// An op whose decomposition takes one of the pass's flags: the clustered
/// attention (attic.kmeans, attic.attention, gather) and the sketches that
/// select keys or queries (Sketch.cpp) take parallelScans; LSH attention
/// (Lsh.cpp) and Nystrom attention (Sketch.cpp) take iterationLoops.
template <typename Op, LogicalResult (*decompose)(RewriterBase &, Op, bool)>
struct DecomposeWithFlag : public OpRewritePattern<Op> {
  DecomposeWithFlag(MLIRContext *ctx, bool flag)
      : OpRewritePattern<Op>(ctx), flag(flag) {}
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    return decompose(rewriter, op, flag);
  }
  bool flag;
};

/// The sketched and low-rank ops -> the shared core (Sketch.cpp).
template <typename Op, LogicalResult (*decompose)(RewriterBase &, Op)>
struct DecomposeSketch : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    return decompose(rewriter, op);
  }
};

struct AtticDecomposePass
    : public attic::impl::AtticDecomposeBase<AtticDecomposePass> {
  using AtticDecomposeBase::AtticDecomposeBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (std::string bad = attic::blockSizesError(blockQ, blockK); !bad.empty())
      return attic::optionError(context, "attic-decompose: " + bad);
    if (wideHeadBlockK < 0 || wideHeadBlockK > 1024)
      return attic::optionError(
          context, "attic-decompose: wide-head-block-k must be in [0, 1024], "
                   "got " +
                       Twine(static_cast<int64_t>(wideHeadBlockK)));
    return success();
  }

  void runOnOperation() override {
    if (failed(
            attic::detail::refuseAtticRoot(getOperation(), "attic-decompose")))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateDecomposePatterns(patterns,
                              DecomposeOptions{blockQ, blockK, parallelScans,
                                               wideHeadBlockK, iterationLoops});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Every L1 op must be gone: one left behind would reach the backend.
    WalkResult leftover = getOperation()->walk([](Operation *op) {
      if (!isa<AttentionOp, KernelizedAttentionOp, LshAttentionOp,
               ClusteredAttentionOp, SkeinformerAttentionOp,
               InformerAttentionOp, LinformerAttentionOp, NystromAttentionOp,
               SynthesizerAttentionOp>(op))
        return WalkResult::advance();
      op->emitOpError("could not be decomposed");
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void attic::populateDecomposePatterns(RewritePatternSet &patterns,
                                      const DecomposeOptions &options) {
  patterns.add<DecomposeAttention>(patterns.getContext(), options);
  patterns.add<DecomposeKernelized>(patterns.getContext());
  patterns.add<DecomposeWithFlag<LshAttentionOp, decomposeLsh>,
               DecomposeWithFlag<NystromAttentionOp, decomposeNystrom>>(
      patterns.getContext(), options.iterationLoops);
  patterns.add<DecomposeWithFlag<ClusteredAttentionOp, decomposeClustered>,
               DecomposeWithFlag<SkeinformerAttentionOp, decomposeSkeinformer>,
               DecomposeWithFlag<InformerAttentionOp, decomposeInformer>>(
      patterns.getContext(), options.parallelScans);
  patterns.add<DecomposeSketch<LinformerAttentionOp, decomposeLinformer>,
               DecomposeSketch<SynthesizerAttentionOp, decomposeSynthesizer>>(
      patterns.getContext());
}
