//===- DecomposeAggregates.cpp - linalg.softmax and kin -> linalg ops -----===//
//
// linalg's aggregate ops (those that implement AggregatedOpInterface; in
// MLIR 22 linalg.softmax alone) have no lowering to loops of their own:
// their decomposition gives the generic ops they stand for. Left
// alone they reached LLVM's translation unlowered, and attic-run refused
// the module. This pass decomposes every such op on tensors, before
// bufferization, so that the rest of the pipelines sees only ops they
// already lower.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace attic {
#define GEN_PASS_DEF_ATTICDECOMPOSEAGGREGATES
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
struct AtticDecomposeAggregates
    : public attic::impl::AtticDecomposeAggregatesBase<
          AtticDecomposeAggregates> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      // On buffers the decomposition would need destinations for its
      // intermediate values; attic's pipelines run this pass on tensors.
      auto dps = dyn_cast<DestinationStyleOpInterface>(op.getOperation());
      if (!dps || !dps.hasPureTensorSemantics()) {
        op.emitOpError("is decomposed on tensors only (attic-decompose-"
                       "aggregates runs before bufferization)");
        return signalPassFailure();
      }
      // Upstream's softmax decomposition takes the float semantics of its
      // element type: on integers or index it crashed (a 2026-11-30
      // audit). A softmax is of floats.
      if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op.getOperation())) {
        for (Value v : {softmax.getInput(), softmax.getOutput()}) {
          Type elem = cast<ShapedType>(v.getType()).getElementType();
          if (!isa<FloatType>(elem)) {
            softmax.emitOpError("of ")
                << elem << " elements: a softmax is of floating-point values";
            return signalPassFailure();
          }
        }
      }
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op.emitOpError("could not be decomposed into linalg ops");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
