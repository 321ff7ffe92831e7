//===- BufferizableOpInterfaceImpl.cpp - one-shot bufferization -*- C++ -*-===//
//
// attic.block_attention is in destination-passing style, so it plugs into
// upstream's one-shot bufferization: inputs are read, the destination is
// written in full (never read), and the result is the destination's buffer.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {
struct BlockAttentionOpInterface
    : public DstBufferizableOpInterfaceExternalModel<BlockAttentionOpInterface,
                                                     attic::BlockAttentionOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    // Every element of the destination is overwritten.
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto blockOp = cast<attic::BlockAttentionOp>(op);
    if (blockOp.hasPureBufferSemantics())
      return success();
    auto bufferOf = [&](Value value) -> FailureOr<Value> {
      if (!value)
        return Value();
      return getBuffer(rewriter, value, options, state);
    };
    FailureOr<Value> query = bufferOf(blockOp.getQuery());
    FailureOr<Value> key = bufferOf(blockOp.getKey());
    FailureOr<Value> value = bufferOf(blockOp.getValue());
    FailureOr<Value> bias = bufferOf(blockOp.getKeyBias());
    FailureOr<Value> mask = bufferOf(blockOp.getKeyMask());
    FailureOr<Value> init = bufferOf(blockOp.getInit());
    if (failed(query) || failed(key) || failed(value) || failed(bias) ||
        failed(mask) || failed(init))
      return failure();
    rewriter.setInsertionPoint(op);
    attic::BlockAttentionOp::create(
        rewriter, op->getLoc(), TypeRange(), *query, *key, *value, *bias,
        *mask, *init, blockOp.getLayoutAttr(), blockOp.getScaleAttr(),
        blockOp.getBlockQAttr(), blockOp.getBlockKAttr());
    replaceOpWithBufferizedValues(rewriter, op, *init);
    return success();
  }
};
} // namespace

void attic::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, attic::AtticDialect *) {
    attic::BlockAttentionOp::attachInterface<BlockAttentionOpInterface>(*ctx);
  });
}
