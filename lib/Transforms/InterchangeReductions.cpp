//===- InterchangeReductions.cpp - reduction loops innermost -----*- C++
//-*-===//
//
// convert-linalg-to-parallel-loops makes one scf.parallel of the leading
// parallel dims of a linalg op, then an scf.for per reduction dim and a
// nested scf.parallel of the parallel dims after it. attic-gpu-offload maps
// only the outer scf.parallel onto threads, so a reduction over the middle
// dim of [B*H, N, F] (a key sum, a k-means count) runs in B*H threads that
// each loop over N*F elements. This pass permutes each linalg op's loops so
// that its parallel dims come first, in their order, and its reduction dims
// last, in theirs: every parallel dim is then a thread dim. Each output
// element still accumulates its terms in the same order, so results are
// bitwise the same.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace attic {
#define GEN_PASS_DEF_ATTICINTERCHANGEREDUCTIONS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
/// The loop order with the parallel dims of `op` first and its reduction
/// dims last, each group in its own order; empty when a parallel dim
/// already precedes every reduction dim, or when `op` has an iterator of
/// another kind.
SmallVector<unsigned> reductionsInnermost(linalg::LinalgOp op) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (kind == utils::IteratorType::parallel)
      parallel.push_back(d);
    else if (kind == utils::IteratorType::reduction)
      reduction.push_back(d);
    else
      return {};
  }
  if (reduction.empty() || parallel.empty() ||
      parallel.back() < reduction.front())
    return {};
  SmallVector<unsigned> order(parallel);
  order.append(reduction);
  return order;
}

struct AtticInterchangeReductionsPass
    : public attic::impl::AtticInterchangeReductionsBase<
          AtticInterchangeReductionsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<unsigned>>> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (SmallVector<unsigned> order = reductionsInnermost(op); !order.empty())
        ops.emplace_back(op, std::move(order));
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, order] : ops) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized)) {
          op->emitOpError("attic-interchange-reductions: cannot generalize "
                          "this op to move its reduction loops innermost");
          return signalPassFailure();
        }
        generic = *generalized;
      }
      if (failed(linalg::interchangeGenericOp(rewriter, generic, order))) {
        generic->emitOpError("attic-interchange-reductions: the loop "
                             "permutation was rejected");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
