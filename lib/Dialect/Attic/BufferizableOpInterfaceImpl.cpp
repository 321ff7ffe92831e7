//===- BufferizableOpInterfaceImpl.cpp - one-shot bufferization -*- C++ -*-===//
//
// attic.block_attention and attic.block_mask are in destination-passing
// style, so they plug into upstream's one-shot bufferization: inputs are
// read, the destinations are written in full (never read), and the results
// are the destinations' buffers. The captures of modifier regions become
// buffers like the other inputs, and the regions become private functions
// (mask_fn, score_fn) whose capture arguments are memrefs, read with
// memref.load / memref.dim: upstream's buffer deallocation rejects ops
// with regions on buffers.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Dialect/Attic/Modifiers.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {
/// Outlines a modifier region of `op` into a private function in front of
/// `op`'s function, with the capture arguments (those after the first
/// `leading`) retyped to the captures' buffer types and their reads
/// rewritten (tensor.extract / tensor.dim, or what bufferization already
/// made of them, become memref.load / memref.dim). Returns its name, or
/// nullptr for an empty region.
FlatSymbolRefAttr outlineModifier(RewriterBase &rewriter, Operation *op,
                                  Region &region, attic::ModifierKind kind,
                                  TypeRange captureTypes) {
  if (region.empty())
    return nullptr;
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *parent = op->getParentOp();
  while (parent->getParentOp() &&
         !parent->getParentOp()->hasTrait<OpTrait::SymbolTable>())
    parent = parent->getParentOp();
  Operation *table = parent->getParentOp();
  unsigned leading = attic::leadingArguments(kind);
  Block &block = region.front();
  SmallVector<Type> argTypes;
  for (unsigned i = 0; i < leading; ++i)
    argTypes.push_back(block.getArgument(i).getType());
  llvm::append_range(argTypes, captureTypes);
  Type resultType = block.getTerminator()->getOperand(0).getType();
  std::string base = "attic_";
  if (auto fn = dyn_cast<func::FuncOp>(parent))
    base = (fn.getName() + "_").str();
  base += kind == attic::ModifierKind::Mask ? "mask_mod" : "score_mod";
  // A name no symbol of the table has (a user's function may be called
  // @f_score_mod). The function is created in place, so the table cannot
  // rename it afterwards: it would find the name taken by the function
  // itself.
  std::string name = base;
  if (table)
    for (unsigned i = 0; SymbolTable::lookupSymbolIn(table, name); ++i)
      name = base + "_" + std::to_string(i);
  rewriter.setInsertionPoint(parent);
  auto fn = func::FuncOp::create(
      rewriter, op->getLoc(), name,
      rewriter.getFunctionType(argTypes, TypeRange{resultType}));
  fn.setPrivate();
  fn->setAttr("attic.modifier", rewriter.getUnitAttr());
  fn.getBody().takeBody(region);
  Block &body = fn.getBody().front();
  for (auto [i, type] : llvm::enumerate(captureTypes)) {
    BlockArgument arg = body.getArgument(leading + i);
    arg.setType(type);
    for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
      rewriter.setInsertionPoint(user);
      if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        rewriter.replaceOpWithNewOp<memref::LoadOp>(extract, arg,
                                                    extract.getIndices());
      } else if (auto dim = dyn_cast<tensor::DimOp>(user)) {
        rewriter.replaceOpWithNewOp<memref::DimOp>(dim, arg, dim.getIndex());
      } else if (auto toBuffer = dyn_cast<ToBufferOp>(user)) {
        // The read was bufferized before this op: read the argument.
        for (Operation *read :
             llvm::make_early_inc_range(toBuffer->getUsers())) {
          rewriter.setInsertionPoint(read);
          if (auto load = dyn_cast<memref::LoadOp>(read))
            rewriter.replaceOpWithNewOp<memref::LoadOp>(load, arg,
                                                        load.getIndices());
          else if (auto d = dyn_cast<memref::DimOp>(read))
            rewriter.replaceOpWithNewOp<memref::DimOp>(d, arg, d.getIndex());
        }
        if (toBuffer->use_empty())
          rewriter.eraseOp(toBuffer);
      }
    }
  }
  Operation *yield = body.getTerminator();
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<func::ReturnOp>(yield, yield->getOperands());
  return FlatSymbolRefAttr::get(fn.getSymNameAttr());
}

/// attic.block_attention and attic.block_mask are in destination-passing
/// style with inits that are written in full: every other operand is read,
/// and the op is recreated on buffers with the same properties.
template <typename OpTy>
struct WriteOnlyInitsInterface
    : public DstBufferizableOpInterfaceExternalModel<
          WriteOnlyInitsInterface<OpTy>, OpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto dps = cast<DestinationStyleOpInterface>(op);
    if (dps.hasPureBufferSemantics())
      return success();
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      if (!isa<TensorType>(v.getType())) {
        operands.push_back(v);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, v, options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    SmallVector<Value> results;
    for (OpOperand &init : dps.getDpsInitsMutable())
      results.push_back(operands[init.getOperandNumber()]);
    rewriter.setInsertionPoint(op);
    OperationState newState(op->getLoc(), op->getName());
    newState.addOperands(operands);
    newState.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
    newState.propertiesAttr = op->getPropertiesAsAttribute();
    for (unsigned i = 0; i < op->getNumRegions(); ++i)
      newState.addRegion();
    Operation *newOp = rewriter.create(newState);
    // The regions become functions (buffer deallocation does not accept
    // ops with regions on buffers).
    auto typed = cast<OpTy>(newOp);
    SmallVector<Type> captureTypes;
    for (Value v : typed.getCaptures())
      captureTypes.push_back(v.getType());
    if (FlatSymbolRefAttr fn =
            outlineModifier(rewriter, newOp, op->getRegion(0),
                            attic::ModifierKind::Mask, captureTypes))
      typed.setMaskFnAttr(fn);
    if constexpr (std::is_same_v<OpTy, attic::BlockAttentionOp>) {
      if (FlatSymbolRefAttr fn =
              outlineModifier(rewriter, newOp, op->getRegion(1),
                              attic::ModifierKind::Score, captureTypes))
        typed.setScoreFnAttr(fn);
    }
    replaceOpWithBufferizedValues(rewriter, op, results);
    return success();
  }
};
} // namespace

void attic::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, attic::AtticDialect *) {
    attic::BlockAttentionOp::attachInterface<
        WriteOnlyInitsInterface<attic::BlockAttentionOp>>(*ctx);
    attic::BlockMaskOp::attachInterface<
        WriteOnlyInitsInterface<attic::BlockMaskOp>>(*ctx);
  });
}
