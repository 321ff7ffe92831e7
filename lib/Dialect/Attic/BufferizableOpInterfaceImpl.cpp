//===- BufferizableOpInterfaceImpl.cpp - one-shot bufferization -*- C++ -*-===//
//
// attic.block_attention and attic.block_mask are in destination-passing
// style, so they plug into upstream's one-shot bufferization: inputs are
// read, the destinations are written in full (never read), and the results
// are the destinations' buffers.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {
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
    rewriter.create(newState);
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
