//===- Decompose.cpp - attic L1 ops into attic.block_attention --*- C++ -*-===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace attic {
#define GEN_PASS_DEF_ATTICDECOMPOSE
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

namespace {
/// attention(q, k, v) -> block_attention ins(q, k, v) outs(tensor.empty).
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
    BlockLayout layout = op.getCausal() ? BlockLayout::Causal : BlockLayout::Dense;
    auto blockOp = BlockAttentionOp::create(
        rewriter, loc, TypeRange{resultType}, op.getQuery(), op.getKey(),
        op.getValue(), op.getKeyBias(), op.getKeyMask(), init,
        BlockLayoutAttr::get(rewriter.getContext(), layout),
        rewriter.getF32FloatAttr(*scale),
        rewriter.getI64IntegerAttr(options.blockQ),
        rewriter.getI64IntegerAttr(options.blockK));
    rewriter.replaceOp(op, blockOp.getResult());
    return success();
  }

  DecomposeOptions options;
};

struct AtticDecomposePass
    : public attic::impl::AtticDecomposeBase<AtticDecomposePass> {
  using AtticDecomposeBase::AtticDecomposeBase;

  void runOnOperation() override {
    if (blockQ <= 0 || blockK <= 0 || blockQ > 1024 || blockK > 1024) {
      getOperation()->emitError()
          << "attic-decompose: block-q and block-k must be in [1, 1024], got "
          << static_cast<int64_t>(blockQ) << " and "
          << static_cast<int64_t>(blockK);
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateDecomposePatterns(patterns, DecomposeOptions{blockQ, blockK});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Every L1 op must be gone: one left behind would reach the backend.
    WalkResult leftover = getOperation()->walk([](AttentionOp op) {
      op.emitOpError("could not be decomposed");
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
}
