//===- ApproximateMath.cpp - vectorizable exp and erf -----------*- C++ -*-===//

#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace attic {
#define GEN_PASS_DEF_ATTICAPPROXIMATEMATH
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
/// exp2(x) = exp(x * ln 2): the polynomial approximation of exp then
/// vectorizes it (upstream has none for exp2).
struct Exp2ToExp : OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    Type elem = mlir::getElementTypeOrSelf(type);
    if (!elem.isF32())
      return failure();
    Attribute ln2 = rewriter.getF32FloatAttr(0.693147180559945309f);
    if (auto shaped = dyn_cast<ShapedType>(type)) {
      // A splat constant of the vector or tensor type (a dynamic shape has
      // none: left as it is).
      if (!shaped.hasStaticShape())
        return failure();
      ln2 = DenseElementsAttr::get(shaped, ln2);
    }
    Value c = arith::ConstantOp::create(rewriter, op.getLoc(), type,
                                        cast<TypedAttr>(ln2));
    Value x = arith::MulFOp::create(rewriter, op.getLoc(), op.getOperand(), c);
    rewriter.replaceOpWithNewOp<math::ExpOp>(op, x);
    return success();
  }
};

/// exp(x) becomes select(x is NaN, x, exp(x)). Upstream's exp
/// approximation converts the reduced argument with fptosi, which is
/// poison for NaN: where x is a constant NaN (a score region that yields
/// one), LLVM folded the whole exponential, and a row of NaN logits came
/// out as 0 instead of NaN (the NaN policy, docs/layouts.md); from data
/// the hardware's conversion happened to keep the NaN. The select keeps a
/// NaN argument whatever the approximation does with it.
void keepNaN(Operation *op) {
  Value x = op->getOperand(0);
  Value result = op->getResult(0);
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Value isNaN =
      arith::CmpFOp::create(b, op->getLoc(), arith::CmpFPredicate::UNO, x, x);
  auto select = arith::SelectOp::create(b, op->getLoc(), isNaN, x, result);
  result.replaceAllUsesExcept(select, select);
}

struct AtticApproximateMathPass
    : public attic::impl::AtticApproximateMathBase<AtticApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<Exp2ToExp>(&getContext());
    // f16/bf16 math computes in f32 (LLVM and libm have f32 forms of all).
    populateMathF32ExpansionPatterns(patterns,
                                     [](StringRef) { return true; });
    // exp (the softmax) and erf (exact GELU) as vectorizable polynomials;
    // the other math ops go to LLVM intrinsics (MathToLLVM) or libm calls
    // (MathToLibm) in attic-cpu-pipeline.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == "math.exp" || name == "math.erf";
    });
    // Only math on scalars and vectors: upstream's approximations build
    // invalid IR for tensor operands (an arith.cmpf of a tensor and a
    // scalar), and math on tensors is lowered element by element later
    // (convert-elementwise-to-linalg), where this pass meets it again.
    auto onTensors = [](Operation *op) {
      auto tensor = [](Type type) { return isa<TensorType>(type); };
      return llvm::any_of(op->getOperandTypes(), tensor) ||
             llvm::any_of(op->getResultTypes(), tensor);
    };
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::MathDialect>(op->getDialect()) && !onTensors(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      Type elem = getElementTypeOrSelf(op->getResult(0).getType());
      if (isa<math::ExpOp, math::Exp2Op>(op) &&
          (elem.isF32() || elem.isF16() || elem.isBF16()))
        keepNaN(op);
    }
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      return signalPassFailure();
    lowerToLibm();
  }

  /// The name of the C library's f64 function that `op` becomes (its f32
  /// form has an `f` appended).
  static std::string libmName(Operation *op) {
    return TypeSwitch<Operation *, std::string>(op)
        .Case([](math::Log1pOp) { return "log1p"; })
        .Case([](math::ExpM1Op) { return "expm1"; })
        .Case([](math::CbrtOp) { return "cbrt"; })
        .Case([](math::ErfOp) { return "erf"; })
        .Case([](math::ErfcOp) { return "erfc"; })
        .Case([](math::AsinhOp) { return "asinh"; })
        .Case([](math::AcoshOp) { return "acosh"; })
        .Case([](math::AtanhOp) { return "atanh"; })
        .Default([](Operation *) { return ""; });
  }

  /// The math ops that LLVM has no accurate lowering for become libm calls
  /// here, vectors unrolled into scalars, while vector ops can still be
  /// lowered after them: math-to-llvm computes log1p as log(1 + x) and
  /// expm1 as exp(x) - 1 (6% off at x = 1e-7, 0 below 6e-8), and
  /// convert-math-to-libm, late in attic-cpu-pipeline, unrolled a vector
  /// cbrt into vector.extract ops after vector-to-llvm had run (a region
  /// with math.cbrt did not compile on the CPU). Declaring the libm
  /// functions touches the module, so only where this pass runs on one.
  void lowerToLibm() {
    auto module = dyn_cast<ModuleOp>(getOperation());
    if (!module)
      return;
    // An attic op's region (a modifier, a tile.map body) admits no
    // func.call: the math ops there stay until the map-tiles passes have
    // made the region loops, and the pipelines run this pass after them.
    // Run alone before them, it made a call in the region (invalid IR; an
    // audit). math.erf is left on f64 only (the patterns above replaced
    // the f32 ones); a vector of them unrolled after vector-to-llvm as cbrt
    // did (a score region's f64 erf did not compile; an audit).
    SmallVector<Operation *> ops;
    module->walk([&](Operation *op) {
      if (!libmName(op).empty() &&
          llvm::none_of(op->getOperandTypes(),
                        [](Type t) { return isa<TensorType>(t); }) &&
          !attic::insideAtticOp(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    // Upstream's patterns call whatever symbol has the libm name: a
    // function of the user's named @log1pf became math.log1p (a 2026-11-30
    // audit; attic-run refused the name, attic-opt and the plugin did
    // not). Only a declaration of the libm function itself is reused.
    for (Operation *op : ops) {
      Type element = getElementTypeOrSelf(op->getResult(0).getType());
      std::string name = libmName(op);
      if (element.isF32())
        name += "f";
      // In the op's nearest symbol table, where upstream's pattern looks
      // (a nested module's own @log1pf was missed).
      Operation *symbol = SymbolTable::lookupSymbolIn(
          SymbolTable::getNearestSymbolTable(op), name);
      if (!symbol)
        continue;
      std::string problem = attic::reservedNameProblem(
          symbol, FunctionType::get(&getContext(), {element}, {element}));
      if (problem.empty())
        continue;
      attic::opError(op) << "becomes a call of the C library's @" << name
                         << " (attic-approximate-math), but " << problem
                         << "; rename it";
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
