//===- Specialize.cpp - give an entry function static shapes ----*- C++ -*-===//

#include "attic/Execution/CpuExecutable.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

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
