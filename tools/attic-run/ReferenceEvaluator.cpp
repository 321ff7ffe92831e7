//===- ReferenceEvaluator.cpp - --check for attic-run -----------*- C++ -*-===//

#include "ReferenceEvaluator.h"

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Reference/Attention.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>

using namespace mlir;

namespace {
/// Causal attention visits the keys j <= i: sum over rows of min(i+1, Nk).
double visiblePairs(int64_t nq, int64_t nk, bool causal) {
  if (!causal)
    return double(nq) * double(nk);
  double total = 0;
  for (int64_t i = 0; i < nq; ++i)
    total += double(std::min<int64_t>(i + 1, nk));
  return total;
}

class Evaluator {
public:
  explicit Evaluator(std::string &error) : error(error) {}

  FailureOr<attic::ReferenceResult>
  run(func::FuncOp func, ArrayRef<const attic_tensor *> inputs) {
    for (auto [arg, input] : llvm::zip(func.getArguments(), inputs)) {
      attic::RefTensor tensor;
      tensor.shape.assign(input->shape, input->shape + input->rank);
      int64_t n = attic_tensor_numel(input);
      tensor.data.resize(n);
      for (int64_t i = 0; i < n; ++i)
        tensor.data[i] = attic_tensor_get(input, i);
      values[arg] = std::move(tensor);
    }
    for (Operation &op : func.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value v : ret.getOperands())
          result.results.push_back(values[v]);
        return result;
      }
      if (failed(evaluate(&op)))
        return failure();
    }
    error = "reference: function has no return";
    return failure();
  }

private:
  LogicalResult evaluate(Operation *op) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      auto type = dyn_cast<RankedTensorType>(constant.getType());
      if (!dense || !type)
        return unsupported(op);
      attic::RefTensor tensor;
      tensor.shape.assign(type.getShape().begin(), type.getShape().end());
      if (type.getElementType().isInteger(1)) {
        for (bool b : dense.getValues<bool>())
          tensor.data.push_back(b ? 1.0 : 0.0);
      } else if (isa<FloatType>(type.getElementType())) {
        for (APFloat f : dense.getValues<APFloat>())
          tensor.data.push_back(f.convertToDouble());
      } else if (type.getElementType().isInteger()) {
        for (APInt i : dense.getValues<APInt>())
          tensor.data.push_back(double(i.getSExtValue()));
      } else {
        return unsupported(op);
      }
      values[constant.getResult()] = std::move(tensor);
      return success();
    }
    if (isa<tensor::EmptyOp>(op)) // only a destination: its values are unused
      return success();
    if (auto cast = dyn_cast<tensor::CastOp>(op)) {
      values[cast.getResult()] = values[cast.getSource()];
      return success();
    }
    if (auto attention = dyn_cast<attic::AttentionOp>(op)) {
      FailureOr<float> scale = attention.getEffectiveScale();
      if (failed(scale)) {
        error = "reference: attic.attention has no static scale";
        return failure();
      }
      return evaluateAttention(attention, *scale, attention.getCausal());
    }
    if (auto block = dyn_cast<attic::BlockAttentionOp>(op)) {
      // Same semantics; the tiling attributes do not change the result.
      if (!block.hasPureTensorSemantics())
        return unsupported(op);
      return evaluateAttention(block, block.getScale().convertToFloat(),
                               block.isCausal());
    }
    return unsupported(op);
  }

  /// attic.attention or attic.block_attention (on tensors), whose operands
  /// share their names.
  template <typename OpTy>
  LogicalResult evaluateAttention(OpTy op, float scale, bool causal) {
    const attic::RefTensor &q = values[op.getQuery()];
    const attic::RefTensor &k = values[op.getKey()];
    const attic::RefTensor &v = values[op.getValue()];
    attic::ref::AttentionShape shape{q.shape[0], q.shape[1], q.shape[2],
                                     k.shape[2], q.shape[3], v.shape[3]};
    if (k.shape[0] != shape.batch || k.shape[1] != shape.heads ||
        k.shape[3] != shape.headDim || v.shape[0] != shape.batch ||
        v.shape[1] != shape.heads || v.shape[2] != shape.keyLen) {
      error = "reference: attic.attention operand shapes do not fit together";
      return failure();
    }
    attic::ref::AttentionOptions options;
    // The op's scale is an f32 attribute; the reference uses the same value.
    options.scale = scale;
    options.causal = causal;
    std::vector<uint8_t> mask;
    if (Value bias = op.getKeyBias()) {
      const attic::RefTensor &b = values[bias];
      options.biasKind = b.shape.size() == 2 ? attic::ref::KeyBiasKind::PerBatch
                                             : attic::ref::KeyBiasKind::PerHead;
      options.keyBias = b.data.data();
    }
    if (Value maskValue = op.getKeyMask()) {
      for (double m : values[maskValue].data)
        mask.push_back(m != 0.0);
      options.keyMask = mask.data();
    }
    attic::RefTensor out;
    out.shape = {shape.batch, shape.heads, shape.queryLen, shape.valueDim};
    out.data.resize(shape.batch * shape.heads * shape.queryLen *
                    shape.valueDim);
    attic::ref::attention(shape, q.data.data(), k.data.data(), v.data.data(),
                          options, out.data.data());
    result.flops += 2.0 * double(shape.batch * shape.heads) *
                    visiblePairs(shape.queryLen, shape.keyLen, options.causal) *
                    double(shape.headDim + shape.valueDim);
    values[op->getResult(0)] = std::move(out);
    return success();
  }

  LogicalResult unsupported(Operation *op) {
    error = "reference: no reference semantics for '" +
            op->getName().getStringRef().str() + "' (--check supports " +
            "attic.attention, attic.block_attention on tensors, arith.constant, "
            "tensor.empty and tensor.cast)";
    return failure();
  }

  std::string &error;
  llvm::DenseMap<Value, attic::RefTensor> values;
  attic::ReferenceResult result;
};
} // namespace

FailureOr<attic::ReferenceResult>
attic::evaluateReference(ModuleOp module, StringRef entry,
                         ArrayRef<const attic_tensor *> inputs,
                         std::string &error) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal() || func.getNumArguments() != inputs.size()) {
    error = "reference: cannot evaluate @" + entry.str();
    return failure();
  }
  Evaluator evaluator(error);
  return evaluator.run(func, inputs);
}

double attic::countAttentionFlops(ModuleOp module, StringRef entry,
                                  ArrayRef<const attic_tensor *> inputs) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func)
    return 0;
  double flops = 0;
  func.walk([&](attic::AttentionOp op) {
    // Shapes from the op's types, with dynamic sizes taken from arguments.
    auto sizeOf = [&](Value v, int64_t d) -> int64_t {
      auto type = cast<ShapedType>(v.getType());
      if (!type.isDynamicDim(d))
        return type.getDimSize(d);
      if (auto arg = dyn_cast<BlockArgument>(v))
        return inputs[arg.getArgNumber()]->shape[d];
      return 0;
    };
    double heads = double(sizeOf(op.getQuery(), 0) * sizeOf(op.getQuery(), 1));
    flops += 2.0 * heads *
             visiblePairs(sizeOf(op.getQuery(), 2), sizeOf(op.getKey(), 2),
                          op.getCausal()) *
             double(sizeOf(op.getQuery(), 3) + sizeOf(op.getValue(), 3));
  });
  return flops;
}
