//===- ExpandShapes.cpp - expand_shapes upstream mishandles ---*- C++ -*-===//
//
// Two upstream defects in MLIR 22 with valid tensor.expand_shape and
// memref.expand_shape ops, worked around here:
// - The ops' verifiers accept a static output size in a dimension the
//   result type leaves dynamic (`output_shape [%d, 1] : ... into ?x?`), but
//   tensor.expand_shape's canonicalization (ConvertToStaticExpandShape)
//   takes one dynamic size operand per dynamic dimension and reads past
//   them: a crash, or an op that does not verify. normalizeExpandShapes
//   makes such sizes operands (constants), before attic's first
//   canonicalization (specializeEntry, attic-guard-tensor-indices).
//   The same canonicalization replaces a size operand in a dimension the
//   type makes static by the type's size, unchecked; normalizeExpandShapes
//   makes such a dimension dynamic and casts the result to the type, a
//   cast that attic-guard-tensor-indices checks.
// - expand-strided-metadata assumes at most one dynamic size per
//   reassociation group (an assertion in a release build, then a null
//   attribute dereferenced: a segfault). Bufferizing a tensor.expand_shape
//   into `?x?` whose sizes come from the data makes such an op.
//   attic-expand-strided-metadata rewrites those ops itself, into the
//   source's metadata and a memref.reinterpret_cast, and applies upstream's
//   patterns to everything else.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace attic {
#define GEN_PASS_DEF_ATTICEXPANDSTRIDEDMETADATA
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
/// Makes each static output size of `op` in a dimension its type leaves
/// dynamic an operand (an arith.constant); true when it changed `op`.
template <typename ExpandShapeOp>
bool normalize(RewriterBase &rewriter, ExpandShapeOp op) {
  ShapedType type = op.getResultType();
  SmallVector<int64_t> staticSizes(op.getStaticOutputShape());
  bool mismatch = false;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    mismatch |= type.isDynamicDim(dim) &&
                !ShapedType::isDynamic(staticSizes[dim]);
  if (!mismatch)
    return false;
  rewriter.setInsertionPoint(op);
  SmallVector<Value> dynamicSizes;
  auto operand = op.getOutputShape().begin();
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    if (ShapedType::isDynamic(staticSizes[dim])) {
      dynamicSizes.push_back(*operand++);
    } else if (type.isDynamicDim(dim)) {
      dynamicSizes.push_back(arith::ConstantIndexOp::create(
          rewriter, op.getLoc(), staticSizes[dim]));
      staticSizes[dim] = ShapedType::kDynamic;
    }
  }
  rewriter.modifyOpInPlace(op, [&] {
    op.getOutputShapeMutable().assign(dynamicSizes);
    op.setStaticOutputShape(staticSizes);
  });
  return true;
}

/// Makes each size operand of `op` in a dimension its type makes static a
/// dynamic dimension, and casts the result to the old type (marked
/// kExpandShapeSizeCast); true when it changed `op`.
bool castStaticSizeOperands(RewriterBase &rewriter, tensor::ExpandShapeOp op) {
  RankedTensorType type = op.getResultType();
  SmallVector<int64_t> shape(type.getShape());
  bool changed = false;
  for (auto [dim, size] : llvm::enumerate(op.getMixedOutputShape())) {
    if (!type.isDynamicDim(dim) && isa<Value>(size)) {
      shape[dim] = ShapedType::kDynamic;
      changed = true;
    }
  }
  if (!changed)
    return false;
  rewriter.setInsertionPointAfter(op);
  auto wider = tensor::ExpandShapeOp::create(
      rewriter, op.getLoc(), type.clone(shape), op.getSrc(),
      op.getReassociationIndices(), op.getMixedOutputShape());
  auto cast = tensor::CastOp::create(rewriter, op.getLoc(), type, wider);
  cast->setAttr(attic::kExpandShapeSizeCast, rewriter.getUnitAttr());
  rewriter.replaceOp(op, cast);
  return true;
}

/// A memref.expand_shape with two or more dynamic sizes in one group, as the
/// source's base buffer reinterpreted: the group's innermost dimension keeps
/// the source dimension's stride, each outer one the product of that stride
/// and the sizes inside it; the offset is the source's.
struct ExpandDynamicGroups : OpRewritePattern<memref::ExpandShapeOp> {
  ExpandDynamicGroups(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(memref::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    MemRefType type = op.getResultType();
    SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
    bool upstreamHandles = llvm::all_of(groups, [&](auto &group) {
      return llvm::count_if(group, [&](int64_t dim) {
               return type.isDynamicDim(dim);
             }) <= 1;
    });
    if (upstreamHandles)
      return rewriter.notifyMatchFailure(op, "at most one dynamic size a group");
    SmallVector<int64_t> typeStrides;
    int64_t typeOffset;
    if (failed(type.getStridesAndOffset(typeStrides, typeOffset)))
      return rewriter.notifyMatchFailure(op, "result layout is not strided");

    Location loc = op.getLoc();
    auto source =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());
    SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      if (!type.isDynamicDim(dim))
        sizes[dim] = rewriter.getIndexAttr(type.getDimSize(dim));

    AffineExpr s0, s1;
    bindSymbols(rewriter.getContext(), s0, s1);
    SmallVector<OpFoldResult> strides(type.getRank());
    for (auto [sourceDim, group] : llvm::enumerate(groups)) {
      OpFoldResult stride = source.getStrides()[sourceDim];
      for (int64_t dim : llvm::reverse(group)) {
        strides[dim] = stride;
        if (dim != group.front())
          stride = affine::makeComposedFoldedAffineApply(
              rewriter, loc, s0 * s1, {stride, sizes[dim]});
      }
    }
    // The type's static strides and offset, as the verifier of
    // memref.reinterpret_cast wants them (expand_shape's verifier has
    // checked that they follow from the source's).
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      if (!ShapedType::isDynamic(typeStrides[dim]))
        strides[dim] = rewriter.getIndexAttr(typeStrides[dim]);
    OpFoldResult offset = ShapedType::isDynamic(typeOffset)
                              ? OpFoldResult(source.getOffset())
                              : rewriter.getIndexAttr(typeOffset);
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, type, source.getBaseBuffer(), offset, sizes, strides);
    return success();
  }
};

struct AtticExpandStridedMetadataPass
    : public attic::impl::AtticExpandStridedMetadataBase<
          AtticExpandStridedMetadataPass> {
  void runOnOperation() override {
    attic::normalizeExpandShapes(getOperation());
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandDynamicGroups>(&getContext());
    memref::populateExpandStridedMetadataPatterns(patterns);
    // As upstream's pass: a rewrite that does not converge leaves valid IR.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};
} // namespace

void attic::normalizeExpandShapes(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<tensor::ExpandShapeOp, memref::ExpandShapeOp>(op))
      ops.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (Operation *op : ops) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
      normalize(rewriter, expand);
      castStaticSizeOperands(rewriter, expand);
    } else
      normalize(rewriter, cast<memref::ExpandShapeOp>(op));
  }
}
