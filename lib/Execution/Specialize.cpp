//===- Specialize.cpp - an entry's shapes and callees ----------*- C++ -*-===//

#include "attic/Execution/CpuExecutable.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

std::vector<attic::ArgumentType>
attic::argumentTypes(const EntrySignature &signature) {
  std::vector<ArgumentType> types;
  for (const TensorSpec &spec : signature.inputs) {
    ArgumentType type{spec.dtype, {}};
    for (int64_t size : spec.shape)
      type.shape.push_back(ShapedType::isDynamic(size) ? kDynamicDim : size);
    types.push_back(std::move(type));
  }
  return types;
}

void attic::eraseFunctionsBesides(ModuleOp module, StringRef entry) {
  SymbolTable table(module);
  llvm::SmallPtrSet<Operation *, 16> reached;
  SmallVector<Operation *> work;
  llvm::StringSet<> roots; // every symbol reference's first name
  // Marks the functions that the symbol uses in `from` name; false when
  // they cannot be enumerated (an operation that may use symbols in ways
  // it does not declare).
  auto reach = [&](Operation *from) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(from);
    if (!uses)
      return false;
    for (const SymbolTable::SymbolUse &use : *uses) {
      roots.insert(use.getSymbolRef().getRootReference().getValue());
      Operation *target = table.lookup(use.getSymbolRef().getRootReference());
      if (isa_and_nonnull<func::FuncOp>(target) &&
          reached.insert(target).second)
        work.push_back(target);
    }
    return true;
  };
  if (auto func = table.lookup<func::FuncOp>(entry)) {
    reached.insert(func);
    work.push_back(func);
  }
  for (Operation &op : module.getBody()->getOperations())
    if (!isa<func::FuncOp, ModuleOp>(op) && !reach(&op))
      return;
  while (!work.empty())
    if (!reach(work.pop_back_val()))
      return;
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!reached.contains(func))
      func.erase();
  // A nested module that nothing names is no part of the entry (its
  // attic ops made the pipelines' scope check fail the entry).
  for (auto nested : llvm::make_early_inc_range(module.getOps<ModuleOp>()))
    if (!nested.getSymName() || !roots.contains(*nested.getSymName()))
      nested.erase();
}

namespace {
/// An elementwise op (arith and math on tensors) whose operands are casts
/// from more static types takes the static shape: the canonicalizer folds
/// such casts into attic's ops and linalg's, not into these, so a dynamic
/// result computed by `arith.addf` after an attention kept its dynamic
/// shape, and attic-compile (which needs static results) refused a function
/// that attic-run ran (a 2026-11-30 audit).
struct StaticElementwiseShapes : RewritePattern {
  explicit StaticElementwiseShapes(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!OpTrait::hasElementwiseMappableTraits(op) || op->getNumRegions() ||
        op->getNumResults() != 1)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || resultType.hasStaticShape())
      return failure();
    SmallVector<int64_t> shape(resultType.getShape());
    auto sourceOf = [](Value v) {
      while (auto cast = v.getDefiningOp<tensor::CastOp>())
        v = cast.getSource();
      return v;
    };
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(sourceOf(operand).getType());
      if (!type)
        continue; // a scalar operand
      if (type.getRank() != resultType.getRank())
        return failure();
      for (auto [d, size] : llvm::enumerate(type.getShape())) {
        if (ShapedType::isDynamic(size))
          continue;
        if (ShapedType::isDynamic(shape[d]))
          shape[d] = size;
        else if (shape[d] != size)
          return failure(); // the verifier's business
      }
    }
    if (ArrayRef<int64_t>(shape) == resultType.getShape())
      return failure();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type) {
        operands.push_back(operand);
        continue;
      }
      auto target = RankedTensorType::get(shape, type.getElementType());
      Value source = sourceOf(operand);
      operands.push_back(source.getType() == target
                             ? source
                             : Value(tensor::CastOp::create(
                                   rewriter, op->getLoc(), target, source)));
    }
    OperationState state(op->getLoc(), op->getName());
    state.addOperands(operands);
    state.addTypes(RankedTensorType::get(shape, resultType.getElementType()));
    state.addAttributes(op->getAttrs());
    Operation *staticOp = rewriter.create(state);
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, resultType,
                                                staticOp->getResult(0));
    return success();
  }
};
} // namespace

LogicalResult attic::specializeEntry(ModuleOp module, StringRef entry,
                                     ArrayRef<SmallVector<int64_t>> shapes,
                                     std::string &error) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal() || shapes.size() != func.getNumArguments()) {
    error = ("cannot specialize @" + entry + ": no such function, or " +
             Twine(shapes.size()) + " shapes for its arguments")
                .str();
    return failure();
  }
  Block &body = func.getBody().front();
  OpBuilder builder(func.getContext());
  builder.setInsertionPointToStart(&body);
  SmallVector<Type> argTypes;
  for (auto [arg, shape] : llvm::zip(body.getArguments(), shapes)) {
    auto oldType = cast<RankedTensorType>(arg.getType());
    auto newType = RankedTensorType::get(shape, oldType.getElementType());
    argTypes.push_back(newType);
    if (newType == oldType)
      continue;
    arg.setType(newType);
    auto cast = tensor::CastOp::create(builder, func.getLoc(), oldType, arg);
    arg.replaceAllUsesExcept(cast, cast);
  }
  func.setFunctionType(
      FunctionType::get(func.getContext(), argTypes, func.getResultTypes()));

  ErrorCollector errors(func.getContext());
  attic::normalizeExpandShapes(module); // before canonicalizing: see there
  attic::normalizeNarrowingIndexCasts(module);
  PassManager pm(func.getContext());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(module))) {
    error = "the input shapes do not fit @" + entry.str() + ": " + errors.text();
    return failure();
  }
  // The static shapes through elementwise ops too, with the canonicalizer's
  // patterns (which fold the casts left behind into the next ops).
  MLIRContext *context = func.getContext();
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  patterns.add<StaticElementwiseShapes>(context);
  // (Not converging within the driver's limit leaves dynamic shapes, which
  // the caller reports; it is not an error here.)
  (void)applyPatternsGreedily(func, std::move(patterns));
  // A chain of casts from one static shape to another that disagrees
  // (operands of an elementwise op whose shapes differ; the pattern made
  // the op static from the operands it saw first): named here, not by a
  // linalg verifier late in the lowering.
  // A cast in a nested region (a branch, a loop body) may never run: it is
  // left to the run-time check of casts (attic-guard-tensor-indices).
  WalkResult conflict = func.walk([&](tensor::CastOp cast) {
    if (cast->getParentOp() != func)
      return WalkResult::advance();
    Value root = cast.getSource();
    while (auto inner = root.getDefiningOp<tensor::CastOp>())
      root = inner.getSource();
    auto from = dyn_cast<RankedTensorType>(root.getType());
    auto to = dyn_cast<RankedTensorType>(cast.getType());
    if (!from || !to || succeeded(verifyCompatibleShape(from, to)))
      return WalkResult::advance();
    Operation *user =
        cast->use_empty() ? cast.getOperation() : *cast->getUsers().begin();
    error =
        ("the input shapes do not fit @" + entry + ": a value of shape " +
         shapeString(from.getShape()) + " is used as " +
         shapeString(to.getShape()) + " by '" + user->getName().getStringRef() +
         "' at " + formatLocation(user->getLoc()))
            .str();
    return WalkResult::interrupt();
  });
  if (conflict.wasInterrupted())
    return failure();
  // Elementwise operands that are casts from static shapes that disagree
  // (the pattern leaves such ops alone): named too.
  conflict = func.walk([&](Operation *op) {
    if (!OpTrait::hasElementwiseMappableTraits(op))
      return WalkResult::advance();
    RankedTensorType first;
    for (Value operand : op->getOperands()) {
      while (auto cast = operand.getDefiningOp<tensor::CastOp>())
        operand = cast.getSource();
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      if (!first) {
        first = type;
        continue;
      }
      if (succeeded(verifyCompatibleShape(first, type)))
        continue;
      error = ("the input shapes do not fit @" + entry + ": '" +
               op->getName().getStringRef() + "' at " +
               formatLocation(op->getLoc()) + " has operands of shapes " +
               shapeString(first.getShape()) + " and " +
               shapeString(type.getShape()))
                  .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (conflict.wasInterrupted())
    return failure();
  if (failed(verify(func))) {
    error =
        "the input shapes do not fit @" + entry.str() + ": " + errors.text();
    return failure();
  }
  // Results whose static shapes are now known (a tensor.cast to the old
  // dynamic type before the return) get them in the signature too, so that
  // callers needing static results (attic-compile) see them.
  if (!func.getBody().hasOneBlock())
    return success();
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (!ret)
    return success();
  SmallVector<Type> resultTypes(func.getResultTypes());
  for (OpOperand &operand : ret->getOpOperands()) {
    auto cast = operand.get().getDefiningOp<tensor::CastOp>();
    auto source =
        cast ? dyn_cast<RankedTensorType>(cast.getSource().getType()) : nullptr;
    if (!source || !source.hasStaticShape())
      continue;
    operand.set(cast.getSource());
    resultTypes[operand.getOperandNumber()] = source;
  }
  func.setFunctionType(
      FunctionType::get(func.getContext(), argTypes, resultTypes));
  return success();
}
