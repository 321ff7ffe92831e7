//===- ApproximateMath.cpp - vectorizable exp -------------------*- C++ -*-===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace attic {
#define GEN_PASS_DEF_ATTICAPPROXIMATEMATH
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
struct AtticApproximateMathPass
    : public attic::impl::AtticApproximateMathBase<AtticApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) { return name == "math.exp"; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
