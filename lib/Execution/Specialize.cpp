//===- Specialize.cpp - an entry's shapes and callees ----------*- C++ -*-===//

#include "attic/Execution/CpuExecutable.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

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
  // Marks the functions that the symbol uses in `from` name; false when
  // they cannot be enumerated (an operation that may use symbols in ways
  // it does not declare).
  auto reach = [&](Operation *from) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(from);
    if (!uses)
      return false;
    for (const SymbolTable::SymbolUse &use : *uses) {
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
    if (!isa<func::FuncOp>(op) && !reach(&op))
      return;
  while (!work.empty())
    if (!reach(work.pop_back_val()))
      return;
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!reached.contains(func))
      func.erase();
}

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
  PassManager pm(func.getContext());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(module))) {
    error = "the input shapes do not fit @" + entry.str() + ": " + errors.text();
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
