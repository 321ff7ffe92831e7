//===- AtticOps.cpp - attic operations --------------------------*- C++ -*-===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "ShapeChecks.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace attic;
using attic::detail::checkShape;

//===----------------------------------------------------------------------===//
// Shared shape checks of attic.attention and attic.block_attention
//===----------------------------------------------------------------------===//

static bool isAttentionElement(Type type) {
  return isa<Float32Type, Float16Type, BFloat16Type>(type);
}

/// Verifies query/key/value/bias/mask/result shapes and element types; `out`
/// is the result (attic.attention) or the destination (block_attention).
static LogicalResult verifyAttentionOperands(Operation *op, ShapedType query,
                                             ShapedType key, ShapedType value,
                                             ShapedType bias, ShapedType mask,
                                             ShapedType out,
                                             StringRef outName) {
  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"query", query},
                            {"key", key},
                            {"value", value}}) {
    if (!isAttentionElement(type.getElementType()))
      return op->emitOpError()
             << name << " element type must be f32, f16 or bf16, got "
             << type.getElementType();
    if (type.getRank() != 4)
      return op->emitOpError() << name
                               << " must have rank 4 ([B,H,N,D]), got " << type;
  }
  Type elementType = query.getElementType();
  if (key.getElementType() != elementType)
    return op->emitOpError() << "key element type " << key.getElementType()
                             << " differs from query element type "
                             << elementType;
  if (value.getElementType() != elementType)
    return op->emitOpError() << "value element type " << value.getElementType()
                             << " differs from query element type "
                             << elementType;

  int64_t b = query.getDimSize(0), h = query.getDimSize(1),
          nq = query.getDimSize(2), d = query.getDimSize(3);
  if (failed(checkShape(op, "key", key,
                        {{b, "B", "query"},
                         {h, "H", "query"},
                         {key.getDimSize(2), "Nk", "key"},
                         {d, "D", "query"}})))
    return failure();
  int64_t nk = key.getDimSize(2);
  if (failed(checkShape(op, "value", value,
                        {{b, "B", "query"},
                         {h, "H", "query"},
                         {nk, "Nk", "key"},
                         {value.getDimSize(3), "Dv", "value"}})))
    return failure();
  int64_t dv = value.getDimSize(3);

  if (bias) {
    if (!isAttentionElement(bias.getElementType()))
      return op->emitOpError() << "key_bias element type must be f32, f16 or "
                                  "bf16, got "
                               << bias.getElementType();
    if (bias.getRank() == 2) {
      if (failed(checkShape(op, "key_bias", bias,
                            {{b, "B", "query"}, {nk, "Nk", "key"}})))
        return failure();
    } else if (bias.getRank() == 3) {
      if (failed(checkShape(
              op, "key_bias", bias,
              {{b, "B", "query"}, {h, "H", "query"}, {nk, "Nk", "key"}})))
        return failure();
    } else {
      return op->emitOpError() << "key_bias must be [B,Nk] or [B,H,Nk], got "
                               << bias;
    }
  }
  if (mask) {
    if (!mask.getElementType().isInteger(1))
      return op->emitOpError() << "key_mask element type must be i1, got "
                               << mask.getElementType();
    if (failed(checkShape(op, "key_mask", mask,
                          {{b, "B", "query"}, {nk, "Nk", "key"}})))
      return failure();
  }

  if (out.getElementType() != elementType)
    return op->emitOpError() << outName << " element type "
                             << out.getElementType()
                             << " differs from query element type "
                             << elementType;
  return checkShape(op, outName, out,
                    {{b, "B", "query"},
                     {h, "H", "query"},
                     {nq, "Nq", "query"},
                     {dv, "Dv", "value"}});
}

static LogicalResult verifyScale(Operation *op, float scale) {
  if (!std::isfinite(scale))
    return op->emitOpError() << "scale must be finite, got " << scale;
  return success();
}

static ShapedType optionalShapedType(Value value) {
  return value ? cast<ShapedType>(value.getType()) : ShapedType();
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

FailureOr<float> AttentionOp::getEffectiveScale() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToFloat();
  int64_t headDim = getQuery().getType().getDimSize(3);
  if (ShapedType::isDynamic(headDim) || headDim <= 0)
    return failure();
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(headDim)));
}

LogicalResult AttentionOp::verify() {
  if (failed(verifyAttentionOperands(
          *this, getQuery().getType(), getKey().getType(),
          getValue().getType(), optionalShapedType(getKeyBias()),
          optionalShapedType(getKeyMask()), getResult().getType(), "result")))
    return failure();
  if (std::optional<APFloat> scale = getScale())
    return verifyScale(*this, scale->convertToFloat());
  int64_t headDim = getQuery().getType().getDimSize(3);
  if (ShapedType::isDynamic(headDim))
    return emitOpError("scale is required when the query head dim (dim 3) is "
                       "dynamic: the default 1/sqrt(D) needs a static D");
  if (headDim == 0)
    return emitOpError("scale is required when the query head dim is 0");
  return success();
}

//===----------------------------------------------------------------------===//
// BlockAttentionOp
//===----------------------------------------------------------------------===//

LogicalResult BlockAttentionOp::verify() {
  SmallVector<Value> operands = {getQuery(), getKey(), getValue(), getInit()};
  if (getKeyBias())
    operands.push_back(getKeyBias());
  if (getKeyMask())
    operands.push_back(getKeyMask());
  bool onTensors = isa<RankedTensorType>(getInit().getType());
  for (Value operand : operands)
    if (isa<RankedTensorType>(operand.getType()) != onTensors)
      return emitOpError("operands must be all tensors or all memrefs, but ")
             << (onTensors ? "init is a tensor and an operand is " : "init is "
                                                                     "a memref "
                                                                     "and an "
                                                                     "operand "
                                                                     "is ")
             << operand.getType();
  if (onTensors) {
    if (getResult().size() != 1 || getResult()[0].getType() != getInit().getType())
      return emitOpError("on tensors, expects one result of the init type ")
             << getInit().getType();
  } else if (!getResult().empty()) {
    return emitOpError("on memrefs, expects no result (init is written)");
  }
  // The kernels keep one block of logits per row in registers and L1.
  constexpr int64_t kMaxBlock = 1024;
  if (getBlockQ() > kMaxBlock || getBlockK() > kMaxBlock)
    return emitOpError("block_q and block_k must be at most ")
           << kMaxBlock << ", got " << getBlockQ() << " and " << getBlockK();
  if (failed(verifyAttentionOperands(
          *this, cast<ShapedType>(getQuery().getType()),
          cast<ShapedType>(getKey().getType()),
          cast<ShapedType>(getValue().getType()),
          optionalShapedType(getKeyBias()), optionalShapedType(getKeyMask()),
          cast<ShapedType>(getInit().getType()), "init")))
    return failure();
  return verifyScale(*this, getScale().convertToFloat());
}

void BlockAttentionOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!hasPureBufferSemantics())
    return;
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (&operand == &getInitMutable())
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

#define GET_OP_CLASSES
#include "AtticOps.cpp.inc"

//===----------------------------------------------------------------------===//
// AttentionOp canonicalization
//===----------------------------------------------------------------------===//

namespace {
/// Folds `tensor.cast`s that erase static sizes into attic.attention, and
/// refines its result type from the (now more static) operands, casting back
/// for the old users. Static sizes then reach the verifier and the lowering.
struct FoldAttentionShapeCasts : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto cast = operand.getDefiningOp<tensor::CastOp>();
      if (cast && tensor::canFoldIntoConsumerOp(cast)) {
        operands.push_back(cast.getSource());
        changed = true;
      } else {
        operands.push_back(operand);
      }
    }
    auto shapeOf = [&](Value v) { return cast<ShapedType>(v.getType()).getShape(); };
    auto pick = [](int64_t a, int64_t b) {
      return ShapedType::isDynamic(a) ? b : a;
    };
    ArrayRef<int64_t> q = shapeOf(operands[0]), v = shapeOf(operands[2]);
    ArrayRef<int64_t> k = shapeOf(operands[1]);
    RankedTensorType oldType = op.getResult().getType();
    SmallVector<int64_t> shape = {pick(q[0], pick(k[0], v[0])),
                                  pick(q[1], pick(k[1], v[1])), q[2], v[3]};
    for (int64_t d = 0; d < 4; ++d)
      shape[d] = pick(oldType.getDimSize(d), shape[d]);
    auto newType = RankedTensorType::get(shape, oldType.getElementType());
    if (!changed && newType == oldType)
      return failure();
    auto newOp = AttentionOp::create(rewriter, op.getLoc(), TypeRange{newType},
                                     operands, op->getAttrs());
    Value result = newOp.getResult();
    if (newType != oldType)
      result = tensor::CastOp::create(rewriter, op.getLoc(), oldType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void AttentionOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<FoldAttentionShapeCasts>(context);
}
