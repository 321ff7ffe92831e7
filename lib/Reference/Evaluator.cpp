//===- Evaluator.cpp - the reference semantics applied to IR ----*- C++ -*-===//

#include "attic/Reference/Evaluator.h"

#include "NanMax.h"
#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Reference/Attention.h"
#include "attic/Reference/Clustered.h"
#include "attic/Reference/Cst.h"
#include "attic/Reference/Kernelized.h"
#include "attic/Reference/Lsh.h"
#include "attic/Reference/Sketch.h"
#include "attic/Reference/Vcc.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

#include "llvm/Support/SaveAndRestore.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include <functional>
#include <limits>
#include <unordered_map>

using namespace mlir;

namespace {

/// Integers are held as doubles in tensors here (and beside their exact
/// int64 value in scalars: `integers`); this turns one back. Converting a
/// double outside int64_t's range (or NaN) is undefined in C++: those
/// saturate (NaN gives 0). Integer tensor elements beyond 2^53 are not
/// exact in a double, a limit of this evaluator (issue 20); scalar integer
/// arithmetic (regions, payloads, loops) is exact and wraps at its width.
int64_t toInt64(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9223372036854775808.0)
    return std::numeric_limits<int64_t>::max();
  if (v < -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

/// The (query, key) pairs a layout visits, for FLOP counts: closed forms for
/// dense and causal, a count per element for other static layouts up to
/// 2^27 pairs, else -1 (unknown).
double visiblePairs(int64_t nq, int64_t nk, const attic::ref::Layout *layout,
                    bool causal) {
  using Kind = attic::ref::Layout::Kind;
  bool dense = !layout || layout->kind == Kind::Dense;
  if (dense && !causal)
    return double(nq) * double(nk);
  if (dense) {
    // sum over i < nq of min(i + 1, nk), in closed form (nq may be huge
    // when another dim is 0).
    double q = double(nq), k = double(nk);
    if (q <= k)
      return q * (q + 1) / 2;
    return k * (k + 1) / 2 + (q - k) * k;
  }
  if (double(nq) * double(nk) > double(1 << 27))
    return -1;
  std::function<bool(const attic::ref::Layout &)> dataFree =
      [&](const attic::ref::Layout &l) {
        if (l.kind == Kind::Documents)
          return false;
        for (const auto &p : l.parts)
          if (!dataFree(p))
            return false;
        return true;
      };
  if (!dataFree(*layout))
    return -1;
  double total = 0;
  for (int64_t i = 0; i < nq; ++i)
    for (int64_t j = 0; j < nk; ++j)
      total += (!causal || j <= i) && layout->visible(0, 0, i, j, nq, nk);
  return total;
}

/// The scale of an attic op's logits: its `scale` attribute (f32), else
/// 1/sqrt(D) rounded to f32, D the head dim of `query` (the data's shape).
/// Computed here rather than by the ops' getEffectiveScale(), which the
/// lowering calls: a wrong default there shows as a --check failure.
double referenceScale(std::optional<APFloat> scale,
                      const attic::RefTensor &query) {
  if (scale)
    return double(scale->convertToFloat());
  return double(
      static_cast<float>(1.0 / std::sqrt(double(query.shape.back()))));
}

class Evaluator {
public:
  Evaluator(std::string &error, uint64_t maxSteps)
      : error(error),
        stepLimit(std::clamp<uint64_t>(maxSteps, 1, uint64_t(1) << 62)) {}

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
        for (Value v : ret.getOperands()) {
          auto it = values.find(v);
          if (it == values.end()) {
            error = "reference: a returned value has no reference evaluation";
            return failure();
          }
          result.results.push_back(it->second);
          // A float result beyond its type's largest finite value is ±inf
          // there, as the compiled code stores it (exp(89) in f32: the
          // reference's 4.5e38 failed --check against the compiled inf, a
          // 2026-11-30 audit). Other values keep the reference's
          // precision.
          auto element = dyn_cast<FloatType>(getElementTypeOrSelf(v));
          if (!element || element.getWidth() >= 64)
            continue;
          double largest = APFloat::getLargest(element.getFloatSemantics())
                               .convertToDouble();
          for (double &x : result.results.back().data)
            if (std::fabs(x) > largest)
              x = roundTo(x, element);
        }
        return result;
      }
      if (failed(evaluate(&op)))
        return failure();
    }
    error = "reference: function has no return";
    return failure();
  }

private:
  static std::string printed(Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    type.print(os);
    return text;
  }

  LogicalResult countStep(Operation *op) { return countSteps(op, 1); }

  /// Counts `n` steps of `op` (before they run), or fails past the limit.
  LogicalResult countSteps(Operation *op, uint64_t n) {
    if (n <= stepLimit - std::min(steps, stepLimit)) {
      steps += n;
      return success();
    }
    steps = stepLimit;
    // The limit is the whole function's, not this op's (a 12-layer encoder
    // stopped at a matmul of 1.7M points; a 2026-12-02 audit).
    return unsupportedBecause(
        op, "takes the reference past its limit of " +
                std::to_string(stepLimit) +
                " steps (ops, loop iterations, points of linalg ops) over "
                "the whole function (attic-run --check-steps=N raises it)");
  }

  /// Evaluates `op`. The f16 and bf16 tensor results of attic ops are
  /// rounded to their type, as the compiled code stores them: a later op
  /// (an extf to f32) must see the stored values, not the double ones
  /// (before 2026-11-30 an f16 attention followed by extf failed --check
  /// by about one f16 ulp; an audit).
  LogicalResult evaluate(Operation *op) {
    if (failed(evaluateUnrounded(op)))
      return failure();
    if (!isa_and_nonnull<attic::AtticDialect>(op->getDialect()))
      return success();
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      auto element =
          type ? dyn_cast<FloatType>(type.getElementType()) : FloatType();
      auto it = values.find(result);
      if (!element || element.getWidth() >= 32 || it == values.end())
        continue;
      for (double &v : it->second.data)
        v = roundTo(v, element);
    }
    return success();
  }

  /// The shape of a tensor.expand_shape or tensor.collapse_shape's result:
  /// a collapsed dimension is its group's product; an expanded group's sizes
  /// are the op's, and must multiply to the operand's dimension (compiled
  /// code reports ATTIC_RT_RESHAPE_SIZE).
  FailureOr<SmallVector<int64_t>> reshapedShape(Operation *op) {
    auto source = values.find(op->getOperand(0));
    if (source == values.end()) {
      (void)unsupportedBecause(op, "needs its operand computed before it");
      return failure();
    }
    ArrayRef<int64_t> from = source->second.shape;
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      SmallVector<int64_t> shape;
      for (const ReassociationIndices &group :
           collapse.getReassociationIndices()) {
        int64_t product = 1;
        for (int64_t d : group)
          product *= from[d]; // the operand's elements fit in memory
        shape.push_back(product);
      }
      return shape;
    }
    auto expand = cast<tensor::ExpandShapeOp>(op);
    SmallVector<int64_t> shape;
    for (OpFoldResult size : expand.getMixedOutputShape()) {
      if (auto attr = dyn_cast<Attribute>(size)) {
        shape.push_back(cast<IntegerAttr>(attr).getInt());
        continue;
      }
      auto scalar = scalars.find(cast<Value>(size));
      if (scalar == scalars.end()) {
        (void)unsupportedBecause(op, "needs its sizes computed before it");
        return failure();
      }
      double v = scalar->second; // an index: in int64's range, unless NaN
      shape.push_back(v >= -0x1p63 && v < 0x1p63 ? int64_t(v) : -1);
    }
    for (auto [g, group] : llvm::enumerate(expand.getReassociationIndices())) {
      // In double: a product of sizes that do not fit is not the operand's.
      double product = 1;
      for (int64_t d : group)
        product *= double(shape[d]);
      bool negative =
          llvm::any_of(group, [&](int64_t d) { return shape[d] < 0; });
      if (negative || product != double(from[g])) {
        error = "reference: tensor.expand_shape: group " + std::to_string(g) +
                " of the operand has size " + std::to_string(from[g]) +
                ", but its output sizes " +
                (negative || product >= 0x1p63
                     ? std::string("are negative or their product overflows")
                     : "multiply to " + std::to_string(int64_t(product)));
        return failure();
      }
    }
    if (expand.getReassociationIndices().empty()) {
      // A rank-0 operand: one element, so every output size is 1.
      double product = 1;
      for (int64_t size : shape)
        product *= double(size);
      if (llvm::any_of(shape, [](int64_t size) { return size < 0; }) ||
          product != 1) {
        error = "reference: tensor.expand_shape: the operand has rank 0 (one "
                "element), but its output sizes " +
                (product >= 0x1p63 || product < 0
                     ? std::string("are negative or their product overflows")
                     : "multiply to " + std::to_string(int64_t(product)));
        return failure();
      }
    }
    return shape;
  }

  LogicalResult evaluateUnrounded(Operation *op) {
    if (failed(countStep(op)))
      return failure();
    // Ops whose reference takes the result's shape from its type need a
    // static one; these work out their shapes from the values.
    if (!isa<tensor::EmptyOp, tensor::ExtractSliceOp, tensor::InsertSliceOp,
             tensor::CastOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             scf::ForOp, scf::IfOp, func::CallOp, attic::AttentionOp,
             attic::BlockAttentionOp, attic::BlockMaskOp>(op) &&
        !op->hasTrait<OpTrait::Elementwise>())
      for (Type type : op->getResultTypes())
        if (auto ranked = dyn_cast<RankedTensorType>(type);
            ranked && !ranked.hasStaticShape())
          return unsupportedBecause(
              op, "has a result of dynamic shape (" + printed(type) +
                      "); the oracle needs static shapes there");
    if (auto constant = dyn_cast<arith::ConstantOp>(op);
        constant && !isa<ShapedType>(constant.getType())) {
      return evaluateScalarInto(op);
    }
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
      } else if (type.getElementType().isIntOrIndex()) {
        // (index too: a dense<...> : tensor<4xindex> was refused as "no
        // reference semantics for 'arith.constant'", an audit.)
        if (integerWidth(type.getElementType()) > 64)
          return unsupportedBecause(
              op, "holds integers of more than 64 bits, which the reference "
                  "holds in 64");
        for (APInt i : dense.getValues<APInt>())
          tensor.data.push_back(double(i.getSExtValue()));
      } else {
        return unsupportedBecause(op, "has elements of type " +
                                          printed(type.getElementType()) +
                                          ", which the reference does not "
                                          "hold");
      }
      values[constant.getResult()] = std::move(tensor);
      return success();
    }
    if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
      // A destination: its shape (with the dynamic sizes), zeros as its
      // undefined values; an op that reads them is refused (undefined).
      attic::RefTensor tensor;
      auto dynamicSizes = empty.getDynamicSizes().begin();
      for (int64_t size : empty.getType().getShape()) {
        if (!ShapedType::isDynamic(size)) {
          tensor.shape.push_back(size);
          continue;
        }
        auto it = scalars.find(*dynamicSizes++);
        if (it == scalars.end())
          return unsupportedBecause(op, "has a size that is not a known "
                                        "scalar");
        tensor.shape.push_back(toInt64(it->second));
      }
      tensor.data.assign(numElements(tensor.shape), 0.0);
      values[empty.getResult()] = std::move(tensor);
      undefined.insert(empty.getResult());
      return success();
    }
    if (auto cast = dyn_cast<tensor::CastOp>(op)) {
      // The static sizes of the result must be the operand's (compiled
      // code reports ATTIC_RT_CAST_SIZE; a mismatch passed --check).
      auto source = values.find(cast.getSource());
      auto to = dyn_cast<RankedTensorType>(cast.getType());
      if (source != values.end() && to) {
        ArrayRef<int64_t> shape = source->second.shape;
        if (int64_t(shape.size()) != to.getRank()) {
          error = "reference: tensor.cast of a tensor of rank " +
                  std::to_string(shape.size()) + " to rank " +
                  std::to_string(to.getRank());
          return failure();
        }
        for (int64_t d = 0; d < to.getRank(); ++d)
          if (!to.isDynamicDim(d) && shape[d] != to.getDimSize(d)) {
            error = "reference: tensor.cast: dimension " + std::to_string(d) +
                    " of the operand is " + std::to_string(shape[d]) +
                    ", the cast's type says " +
                    std::to_string(to.getDimSize(d));
            return failure();
          }
      }
      copyValue(cast.getResult(), cast.getSource());
      return success();
    }
    if (auto dim = dyn_cast<tensor::DimOp>(op)) {
      // The size of a dimension of a tensor whose shape the inputs bound.
      auto source = values.find(dim.getSource());
      auto index = scalars.find(dim.getIndex());
      if (source == values.end() || index == scalars.end())
        return unsupportedBecause(op, "needs a tensor and an index computed "
                                      "before it");
      double d = index->second;
      if (!(d >= 0) || d >= static_cast<double>(source->second.shape.size())) {
        error = "reference: tensor.dim of a dimension the tensor does not have";
        return failure();
      }
      scalars[dim.getResult()] =
          static_cast<double>(source->second.shape[static_cast<size_t>(d)]);
      return success();
    }
    if (auto attention = dyn_cast<attic::AttentionOp>(op)) {
      // The scale, the layout and `causal` as the op's attributes give
      // them, not through AttentionOp::getEffectiveScale/Layout (which the
      // lowering calls).
      Attribute layout = attention.getLayoutAttr();
      if (!layout)
        layout = attic::DenseLayoutAttr::get(op->getContext());
      std::optional<ArrayRef<int64_t>> sizes = attention.getBlockSizes();
      return evaluateAttention(
          attention,
          referenceScale(attention.getScale(), values[attention.getQuery()]),
          layout, sizes ? (*sizes)[0] : 0, sizes ? (*sizes)[1] : 0,
          attention.getCausal());
    }
    if (auto block = dyn_cast<attic::BlockAttentionOp>(op)) {
      // Same semantics; the tiling attributes do not change the result
      // (except through the block lists, whose blocks they are).
      if (!block.hasPureTensorSemantics())
        return unsupported(op);
      return evaluateAttention(block, block.getScale().convertToFloat(),
                               block.getLayout(), block.getBlockQ(),
                               block.getBlockK(), /*causal=*/false);
    }
    if (auto mask = dyn_cast<attic::BlockMaskOp>(op)) {
      if (!mask.hasPureTensorSemantics())
        return unsupported(op);
      return evaluateBlockMask(mask);
    }
    if (auto slice = dyn_cast<attic::SliceAttentionOp>(op))
      return evaluateSliceAttention(slice);
    if (auto kernelized = dyn_cast<attic::KernelizedAttentionOp>(op))
      return evaluateKernelized(kernelized);
    if (auto lsh = dyn_cast<attic::LshAttentionOp>(op))
      return evaluateLsh(lsh);
    if (auto clustered = dyn_cast<attic::ClusteredAttentionOp>(op))
      return evaluateClustered(clustered);
    if (auto skein = dyn_cast<attic::SkeinformerAttentionOp>(op))
      return evaluateSkeinformer(skein);
    if (auto informer = dyn_cast<attic::InformerAttentionOp>(op))
      return evaluateInformer(informer);
    if (auto linformer = dyn_cast<attic::LinformerAttentionOp>(op))
      return evaluateLinformer(linformer);
    if (auto nystrom = dyn_cast<attic::NystromAttentionOp>(op))
      return evaluateNystrom(nystrom);
    if (auto synthesizer = dyn_cast<attic::SynthesizerAttentionOp>(op))
      return evaluateSynthesizer(synthesizer);
    if (isa<attic::FeatureMapOp, attic::StateReduceOp, attic::StateScanOp,
            attic::LshHashOp, attic::BucketSortOp, attic::KMeansOp>(op))
      return evaluatePrimitive(op);
    if (auto call = dyn_cast<func::CallOp>(op))
      return evaluateCall(call);
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
      // Row-major data is unchanged; only the shape is new.
      FailureOr<SmallVector<int64_t>> shape = reshapedShape(op);
      if (failed(shape))
        return failure();
      attic::RefTensor tensor = values[op->getOperand(0)];
      tensor.shape.assign(shape->begin(), shape->end());
      values[op->getResult(0)] = std::move(tensor);
      if (undefined.contains(op->getOperand(0)))
        undefined.insert(op->getResult(0));
      return success();
    }
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
      return evaluateExtractSlice(slice);
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
      return evaluateInsertSlice(insert);
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return evaluateFor(loop);
    if (auto loop = dyn_cast<scf::ForallOp>(op))
      return evaluateForall(loop);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return evaluateIf(ifOp);
    if (auto extract = dyn_cast<tensor::ExtractOp>(op))
      return evaluateExtract(extract);
    if (auto insert = dyn_cast<tensor::InsertOp>(op))
      return evaluateInsert(insert);
    if (auto fromElements = dyn_cast<tensor::FromElementsOp>(op))
      return evaluateFromElements(fromElements);
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return evaluateLinalg(linalgOp);
    if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
      return evaluateSoftmax(softmax);
    if (auto generate = dyn_cast<tensor::GenerateOp>(op))
      return evaluateGenerate(generate);
    if (auto concat = dyn_cast<tensor::ConcatOp>(op))
      return evaluateConcat(concat);
    if (op->getDialect() &&
        isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return evaluateElementwise(op);
    if (isa<attic::VipOrderOp, attic::GatherRowsOp, attic::TreeBuildOp,
            attic::TreeSelectOp, attic::VccCompressOp, attic::TreeUpdateOp,
            attic::TreeMaterializeOp>(op)) {
      // The reference throws vcc::Error on invalid arguments (e.g. a J that
      // is not a partition): report it as an error, not a crash.
      try {
        return evaluateVcc(op);
      } catch (const attic::ref::vcc::Error &e) {
        error = "reference: '" + op->getName().getStringRef().str() +
                "': " + e.what();
        return failure();
      }
    }
    return unsupported(op);
  }

  /// An i1 tensor's values as bools (empty for a null value: no mask).
  std::vector<bool> boolsOf(Value v) {
    std::vector<bool> bools;
    if (v)
      for (double x : values[v].data)
        bools.push_back(x != 0.0);
    return bools;
  }

  /// `result` = compute() (a reference function of lib/Reference); its
  /// std::invalid_argument becomes the evaluation's error, naming `opName`.
  template <typename Compute>
  LogicalResult callReference(Value result, const char *opName,
                              Compute compute) {
    attic::RefTensor out = emptyLike(result);
    try {
      out.data = compute();
    } catch (const std::invalid_argument &e) {
      error = std::string("reference: '") + opName + "': " + e.what();
      return failure();
    }
    values[result] = std::move(out);
    return success();
  }

  /// Composite slice attention with attic::ref::cst (which throws on
  /// sizes the verifier has already rejected).
  LogicalResult evaluateSliceAttention(attic::SliceAttentionOp op) {
    const attic::RefTensor &x = values[op.getInput()];
    attic::ref::cst::Options options;
    options.batch = x.shape[0];
    options.tokens = x.shape[1];
    options.dim = x.shape[2];
    options.slice = op.getSlice();
    options.extension = op.getExtension();
    options.heads = op.getHeads();
    options.causal = op.getCausal();
    std::vector<bool> mask = boolsOf(op.getMask());
    return callReference(op.getResult(), "attic.slice_attention", [&] {
      return attic::ref::cst::sliceAttention(
          options, x.data, values[op.getWq()].data, values[op.getWk()].data,
          values[op.getWv()].data, values[op.getPosLocal()].data,
          values[op.getPosGlobal()].data, mask);
    });
  }

  /// A call of a func.func with a body in the same module: its operations
  /// evaluated with the arguments bound (a layer written once and called
  /// per layer). Recursion deeper than 64 calls is an error.
  LogicalResult evaluateCall(func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal())
      return unsupported(call);
    if (callDepth >= 64) {
      error = "reference: calls nested deeper than 64 (recursion?)";
      return failure();
    }
    // A recursive call: the values of the callee's frame that an outer
    // activation holds are saved and restored around it (the maps are
    // keyed by Value, so the inner activation would overwrite them).
    std::optional<SavedFrame> saved;
    if (llvm::is_contained(activeCallees, callee.getOperation()))
      saved = saveFrame(callee);
    for (auto [arg, operand] :
         llvm::zip(callee.getArguments(), call.getOperands()))
      copyValue(arg, operand);
    ++callDepth;
    activeCallees.push_back(callee);
    auto leave = [&](LogicalResult result) {
      --callDepth;
      activeCallees.pop_back();
      return result;
    };
    for (Operation &op : callee.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        // Through temporaries: the call's results may be values of the
        // saved frame (a function calling itself).
        SavedFrame results;
        for (auto [result, v] : llvm::zip(call.getResults(), ret.getOperands()))
          results.take(*this, result, v);
        if (saved)
          restoreFrame(*saved);
        results.restoreInto(*this);
        return leave(success());
      }
      if (failed(evaluate(&op)))
        return leave(failure());
    }
    error = "reference: function has no return";
    return leave(failure());
  }

  /// Values held for some Values (tensors, scalars, trees; absent ones
  /// remembered as absent).
  struct SavedFrame {
    SmallVector<std::pair<Value, std::optional<attic::RefTensor>>> tensors;
    SmallVector<std::pair<Value, std::optional<double>>> numbers;
    SmallVector<
        std::pair<Value, std::optional<std::vector<attic::ref::vcc::Tree>>>>
        treeValues;
    SmallVector<std::pair<Value, bool>> undefinedFlags;
    SmallVector<std::pair<Value, std::optional<int64_t>>> exactIntegers;

    /// Saves what `from` holds, to be restored as `to`'s.
    void take(Evaluator &e, Value to, Value from) {
      auto t = e.values.find(from);
      tensors.push_back({to, t == e.values.end()
                                 ? std::nullopt
                                 : std::optional<attic::RefTensor>(t->second)});
      auto n = e.scalars.find(from);
      numbers.push_back({to, n == e.scalars.end()
                                 ? std::nullopt
                                 : std::optional<double>(n->second)});
      auto tr = e.trees.find(from);
      treeValues.push_back(
          {to, tr == e.trees.end()
                   ? std::nullopt
                   : std::optional<std::vector<attic::ref::vcc::Tree>>(
                         tr->second)});
      undefinedFlags.push_back({to, e.undefined.contains(from)});
      // The exact integers too: an index used after a recursive call read
      // the innermost activation's value (a 2026-11-30 audit).
      auto i = e.integers.find(from);
      exactIntegers.push_back({to, i == e.integers.end()
                                       ? std::nullopt
                                       : std::optional<int64_t>(i->second)});
    }
    void restoreInto(Evaluator &e) {
      for (auto &[v, t] : tensors) {
        if (t)
          e.values[v] = std::move(*t);
        else
          e.values.erase(v);
      }
      for (auto &[v, n] : numbers) {
        if (n)
          e.scalars[v] = *n;
        else
          e.scalars.erase(v);
      }
      for (auto &[v, t] : treeValues) {
        if (t)
          e.trees[v] = std::move(*t);
        else
          e.trees.erase(v);
      }
      for (auto [v, flag] : undefinedFlags) {
        if (flag)
          e.undefined.insert(v);
        else
          e.undefined.erase(v);
      }
      for (auto [v, i] : exactIntegers) {
        if (i)
          e.integers[v] = *i;
        else
          e.integers.erase(v);
      }
    }
  };

  /// The values of every Value defined in `callee` (arguments, results and
  /// block arguments of nested regions).
  SavedFrame saveFrame(func::FuncOp callee) {
    SavedFrame frame;
    auto save = [&](Value v) { frame.take(*this, v, v); };
    for (BlockArgument arg : callee.getArguments())
      save(arg);
    callee.getBody().walk([&](Operation *op) {
      for (Value result : op->getResults())
        save(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            save(arg);
    });
    return frame;
  }
  void restoreFrame(SavedFrame &frame) { frame.restoreInto(*this); }

  /// Kernelized attention with attic::ref::kernelized (the quadratic form
  /// in double; random features drawn by the reference's own code).
  static attic::ref::kernelized::Map referenceMap(attic::FeatureMap map) {
    namespace kz = attic::ref::kernelized;
    switch (map) {
    case attic::FeatureMap::EluPlusOne:
      return kz::Map::EluPlusOne;
    case attic::FeatureMap::Relu:
      return kz::Map::Relu;
    case attic::FeatureMap::Cosformer:
      return kz::Map::Cosformer;
    case attic::FeatureMap::PerformerRelu:
      return kz::Map::PerformerRelu;
    case attic::FeatureMap::FavorPlus:
      return kz::Map::FavorPlus;
    }
    llvm_unreachable("unknown feature map");
  }

  /// The L2 primitives of the kernelized, hashed and clustered patterns,
  /// each on its own (attic.feature_map, attic.state_reduce,
  /// attic.state_scan, attic.lsh_hash, attic.bucket_sort, attic.kmeans):
  /// written from the ops' descriptions, the state ones in their quadratic
  /// form (never by chunks), through lib/Reference where it has the piece.
  LogicalResult evaluatePrimitive(Operation *op) {
    namespace kz = attic::ref::kernelized;
    auto store = [&](Value result, std::vector<double> data) {
      attic::RefTensor out = emptyLike(result);
      out.data = std::move(data);
      values[result] = std::move(out);
    };
    try {
      if (auto map = dyn_cast<attic::FeatureMapOp>(op)) {
        const attic::RefTensor &x = values[map.getInput()];
        std::vector<double> w;
        if (map.getProjection())
          w = values[map.getProjection()].data;
        int64_t features = 0;
        std::vector<double> stabilizers;
        std::vector<double> phi = kz::featureMap(
            referenceMap(map.getMap()), x.data, x.shape[2], x.shape[3],
            double(map.getPeriod().value_or(0)), w, features,
            map.getStabilizer() ? &stabilizers : nullptr);
        store(map.getResult(), std::move(phi));
        if (map.getStabilizer())
          store(map.getStabilizer(), std::move(stabilizers));
        return success();
      }
      if (auto reduce = dyn_cast<attic::StateReduceOp>(op)) {
        const attic::RefTensor &phi = values[reduce.getFeatures()];
        const attic::RefTensor &v = values[reduce.getValue()];
        std::vector<double> state, normalizer;
        std::vector<double> stabilizer;
        if (reduce.getStabilizer())
          stabilizer = values[reduce.getStabilizer()].data;
        kz::stateReduce(phi.shape[0], phi.shape[1], phi.shape[2], phi.shape[3],
                        v.shape[3], phi.data, v.data, boolsOf(reduce.getMask()),
                        stabilizer, state, normalizer);
        store(reduce.getState(), std::move(state));
        store(reduce.getNormalizer(), std::move(normalizer));
        return success();
      }
      if (auto scan = dyn_cast<attic::StateScanOp>(op)) {
        const attic::RefTensor &phiq = values[scan.getQueryFeatures()];
        const attic::RefTensor &v = values[scan.getValue()];
        std::vector<double> numerator, denominator;
        std::vector<double> stabilizer;
        if (scan.getStabilizer())
          stabilizer = values[scan.getStabilizer()].data;
        kz::stateScan(
            phiq.shape[0], phiq.shape[1], phiq.shape[2], phiq.shape[3],
            v.shape[3], phiq.data, values[scan.getKeyFeatures()].data, v.data,
            boolsOf(scan.getMask()), stabilizer, numerator, denominator);
        store(scan.getNumerator(), std::move(numerator));
        store(scan.getDenominator(), std::move(denominator));
        return success();
      }
      if (auto hash = dyn_cast<attic::LshHashOp>(op)) {
        const attic::RefTensor &x = values[hash.getX()];
        std::vector<int64_t> buckets = attic::ref::lsh::hashRows(
            x.data, x.shape[3], values[hash.getRotations()].data);
        store(hash.getBuckets(),
              std::vector<double>(buckets.begin(), buckets.end()));
        return success();
      }
      if (auto sort = dyn_cast<attic::BucketSortOp>(op)) {
        // A stable sort of each row's positions by bucket, clamped into
        // [0, num_buckets).
        const attic::RefTensor &buckets = values[sort.getBuckets()];
        int64_t n = buckets.shape[2], count = sort.getNumBuckets();
        int64_t rows = int64_t(buckets.data.size()) / n;
        std::vector<double> perm, inverse(buckets.data.size());
        std::vector<int64_t> clamped(static_cast<size_t>(n));
        for (int64_t row = 0; row < rows; ++row) {
          for (int64_t i = 0; i < n; ++i)
            clamped[i] = std::clamp<int64_t>(toInt64(buckets.data[row * n + i]),
                                             0, count - 1);
          std::vector<int64_t> order =
              attic::ref::lsh::sortByBucket(clamped.data(), n);
          for (int64_t r = 0; r < n; ++r) {
            perm.push_back(double(order[r]));
            inverse[row * n + order[r]] = double(r);
          }
        }
        store(sort.getPerm(), std::move(perm));
        store(sort.getInverse(), std::move(inverse));
        return success();
      }
      if (auto kmeans = dyn_cast<attic::KMeansOp>(op)) {
        namespace cl = attic::ref::clustered;
        const attic::RefTensor &x = values[kmeans.getX()];
        cl::Options options;
        options.batch = x.shape[0];
        options.heads = x.shape[1];
        options.queries = x.shape[2];
        options.dim = x.shape[3];
        options.keys = 1;
        options.valueDim = 1;
        options.clusters = kmeans.getClusters();
        options.iterations = kmeans.getIterations();
        options.seed = uint64_t(kmeans.getSeed());
        std::vector<double> centroids;
        std::vector<int64_t> assignment =
            cl::assignment(options, x.data, &centroids);
        store(kmeans.getCentroids(), std::move(centroids));
        store(kmeans.getAssignment(),
              std::vector<double>(assignment.begin(), assignment.end()));
        return success();
      }
    } catch (const std::invalid_argument &e) {
      error = "reference: '" + op->getName().getStringRef().str() +
              "': " + e.what();
      return failure();
    }
    return unsupported(op);
  }

  LogicalResult evaluateKernelized(attic::KernelizedAttentionOp op) {
    namespace kz = attic::ref::kernelized;
    const attic::RefTensor &q = values[op.getQuery()];
    const attic::RefTensor &v = values[op.getValue()];
    kz::Options options;
    options.batch = q.shape[0];
    options.heads = q.shape[1];
    options.queries = q.shape[2];
    options.dim = q.shape[3];
    options.keys = values[op.getKey()].shape[2];
    options.valueDim = v.shape[3];
    options.map = referenceMap(op.getFeatureMap());
    options.norm = op.getNormalize() == attic::KernelNorm::RmsNorm
                       ? kz::Norm::RmsNorm
                       : kz::Norm::Linear;
    options.features = op.getFeatures().value_or(0);
    options.seed = uint64_t(op.getSeed().value_or(0));
    options.causal = op.getCausal();
    // The f32 attribute's value, as the compiled code uses it.
    options.eps = double(op.getEps().convertToFloat());
    std::vector<bool> mask = boolsOf(op.getMask());
    std::vector<double> projection;
    if (op.getProjection())
      projection = values[op.getProjection()].data;
    return callReference(op.getResult(), "attic.kernelized_attention", [&] {
      return kz::attention(options, q.data, values[op.getKey()].data, v.data,
                           mask, projection);
    });
  }

  /// LSH attention with attic::ref::lsh (hash, a stable sort, chunk
  /// windows, the log-sum-exp merge, in double; the rotations drawn by the
  /// reference's own code from the same seed).
  LogicalResult evaluateLsh(attic::LshAttentionOp op) {
    namespace lsh = attic::ref::lsh;
    const attic::RefTensor &qk = values[op.getQk()];
    const attic::RefTensor &v = values[op.getValue()];
    lsh::Options options;
    options.batch = qk.shape[0];
    options.heads = qk.shape[1];
    options.length = qk.shape[2];
    options.dim = qk.shape[3];
    options.valueDim = v.shape[3];
    options.buckets = op.getBucketsAttr().getInt();
    options.rounds = op.getRoundsAttr().getInt();
    options.chunk = op.getChunkAttr().getInt();
    options.seed = uint64_t(op.getSeed().value_or(0));
    options.causal = op.getCausal();
    // The f32 scale, as the compiled code uses it.
    options.scale = referenceScale(op.getScale(), qk);
    std::vector<bool> mask = boolsOf(op.getMask());
    return callReference(op.getResult(), "attic.lsh_attention", [&] {
      return lsh::attention(options, qk.data, v.data, mask);
    });
  }

  /// Clustered attention with attic::ref::clustered (K-means and the
  /// centroids' softmax attention, in double).
  LogicalResult evaluateClustered(attic::ClusteredAttentionOp op) {
    namespace cl = attic::ref::clustered;
    const attic::RefTensor &q = values[op.getQuery()];
    const attic::RefTensor &k = values[op.getKey()];
    const attic::RefTensor &v = values[op.getValue()];
    cl::Options options;
    options.batch = q.shape[0];
    options.heads = q.shape[1];
    options.queries = q.shape[2];
    options.dim = q.shape[3];
    options.keys = k.shape[2];
    options.valueDim = v.shape[3];
    options.clusters = op.getClustersAttr().getInt();
    options.iterations = op.getIterationsAttr().getInt();
    if (IntegerAttr topk = op.getTopkAttr())
      options.topk = topk.getInt();
    options.seed = uint64_t(op.getSeed().value_or(0));
    options.scale = referenceScale(op.getScale(), values[op.getQuery()]);
    std::vector<bool> mask = boolsOf(op.getMask());
    return callReference(op.getResult(), "attic.clustered_attention", [&] {
      return cl::attention(options, q.data, k.data, v.data, mask);
    });
  }

  /// The sizes of an attention's query, key and value (attic::ref::sketch).
  attic::ref::sketch::Dims sketchDims(Value query, Value key, Value value) {
    const attic::RefTensor &q = values[query];
    attic::ref::sketch::Dims dims;
    dims.batch = q.shape[0];
    dims.heads = q.shape[1];
    dims.queries = q.shape[2];
    dims.dim = q.shape[3];
    dims.keys = values[key].shape[2];
    dims.valueDim = values[value].shape[3];
    return dims;
  }

  /// Skeinformer with attic::ref::sketch (Algorithm 1 in double; pilot rows
  /// and Gumbel noise drawn by the reference from the same seed).
  LogicalResult evaluateSkeinformer(attic::SkeinformerAttentionOp op) {
    namespace sk = attic::ref::sketch;
    sk::SkeinOptions options;
    options.samples = op.getSamplesAttr().getInt();
    options.seed = uint64_t(op.getSeed().value_or(0));
    options.uniformSampling = op.getSampling() == attic::SketchSampling::Uniform;
    options.simpleNormalization =
        op.getNormalization() == attic::SketchNormalization::Simple;
    options.pilotReuse = op.getPilotReuse();
    options.scale = referenceScale(op.getScale(), values[op.getQuery()]);
    return callReference(op.getResult(), "attic.skeinformer_attention", [&] {
      return sk::skeinformer(
          sketchDims(op.getQuery(), op.getKey(), op.getValue()), options,
          values[op.getQuery()].data, values[op.getKey()].data,
          values[op.getValue()].data);
    });
  }

  /// Informer ProbSparse with attic::ref::sketch.
  LogicalResult evaluateInformer(attic::InformerAttentionOp op) {
    namespace sk = attic::ref::sketch;
    sk::InformerOptions options;
    options.factor = op.getFactorAttr().getInt();
    options.active = op.getActiveCount();
    options.samples = op.getSampleCount();
    options.seed = uint64_t(op.getSeed().value_or(0));
    options.scale = referenceScale(op.getScale(), values[op.getQuery()]);
    return callReference(op.getResult(), "attic.informer_attention", [&] {
      return sk::informer(sketchDims(op.getQuery(), op.getKey(), op.getValue()),
                          options, values[op.getQuery()].data,
                          values[op.getKey()].data, values[op.getValue()].data);
    });
  }

  /// Linformer with attic::ref::sketch.
  LogicalResult evaluateLinformer(attic::LinformerAttentionOp op) {
    namespace sk = attic::ref::sketch;
    const attic::RefTensor &e = values[op.getKeyProjection()];
    sk::LinformerOptions options;
    options.projectionHeads = e.shape[0];
    options.projected = e.shape[1];
    options.scale = referenceScale(op.getScale(), values[op.getQuery()]);
    std::vector<double> f;
    if (op.getValueProjection())
      f = values[op.getValueProjection()].data;
    std::vector<bool> mask = boolsOf(op.getMask());
    return callReference(op.getResult(), "attic.linformer_attention", [&] {
      return sk::linformer(
          sketchDims(op.getQuery(), op.getKey(), op.getValue()), options,
          values[op.getQuery()].data, values[op.getKey()].data,
          values[op.getValue()].data, e.data, f, mask);
    });
  }

  /// Nystromformer with attic::ref::sketch.
  LogicalResult evaluateNystrom(attic::NystromAttentionOp op) {
    namespace sk = attic::ref::sketch;
    sk::NystromOptions options;
    options.landmarks = op.getLandmarksAttr().getInt();
    options.iterations = op.getIterationsAttr().getInt();
    std::vector<double> conv;
    if (op.getConv()) {
      conv = values[op.getConv()].data;
      options.convWidth = values[op.getConv()].shape[1];
    }
    options.scale = referenceScale(op.getScale(), values[op.getQuery()]);
    return callReference(op.getResult(), "attic.nystrom_attention", [&] {
      return sk::nystrom(sketchDims(op.getQuery(), op.getKey(), op.getValue()),
                         options, values[op.getQuery()].data,
                         values[op.getKey()].data, values[op.getValue()].data,
                         conv);
    });
  }

  /// The factorized random Synthesizer with attic::ref::sketch.
  LogicalResult evaluateSynthesizer(attic::SynthesizerAttentionOp op) {
    namespace sk = attic::ref::sketch;
    const attic::RefTensor &r1 = values[op.getR1()];
    const attic::RefTensor &v = values[op.getValue()];
    sk::Dims dims;
    dims.batch = v.shape[0];
    dims.heads = r1.shape[0];
    dims.queries = r1.shape[1];
    dims.dim = r1.shape[2];
    dims.keys = v.shape[2];
    dims.valueDim = v.shape[3];
    sk::SynthesizerOptions options;
    options.rank = r1.shape[2];
    options.causal = op.getCausal();
    options.scale = double(op.getScale().convertToFloat());
    std::vector<bool> mask = boolsOf(op.getMask());
    return callReference(op.getResult(), "attic.synthesizer_attention", [&] {
      return sk::synthesizer(dims, options, r1.data, values[op.getR2()].data,
                             v.data, mask);
    });
  }

  /// The offsets, sizes and strides of a slice op, the dynamic ones read
  /// from the scalars (an scf.for induction variable, say); fails unless
  /// the slice lies inside `shape` (the compiled code would read or write
  /// out of bounds).
  template <typename SliceOp>
  LogicalResult sliceBounds(SliceOp slice, ArrayRef<int64_t> shape,
                            SmallVectorImpl<int64_t> &offsets,
                            SmallVectorImpl<int64_t> &sizes,
                            SmallVectorImpl<int64_t> &strides) {
    auto resolve = [&](ArrayRef<OpFoldResult> mixed,
                       SmallVectorImpl<int64_t> &out) {
      for (OpFoldResult value : mixed) {
        if (auto attr = dyn_cast<Attribute>(value)) {
          out.push_back(cast<IntegerAttr>(attr).getInt());
          continue;
        }
        auto it = scalars.find(cast<Value>(value));
        if (it == scalars.end())
          return false;
        out.push_back(toInt64(it->second));
      }
      return true;
    };
    if (!resolve(slice.getMixedOffsets(), offsets) ||
        !resolve(slice.getMixedSizes(), sizes) ||
        !resolve(slice.getMixedStrides(), strides))
      return unsupportedBecause(slice, "has an offset, size or stride that "
                                       "is not a known scalar");
    for (size_t d = 0; d < shape.size(); ++d)
      // offset + (size - 1) * stride < dim, without the overflow of that
      // sum at huge strides.
      if (offsets[d] < 0 || sizes[d] < 0 || strides[d] < 1 ||
          (sizes[d] > 0 &&
           (offsets[d] >= shape[d] ||
            sizes[d] - 1 > (shape[d] - 1 - offsets[d]) / strides[d]))) {
        error = "reference: '" + slice->getName().getStringRef().str() +
                "' at offset " + std::to_string(offsets[d]) + " of dim " +
                std::to_string(d) + " (size " + std::to_string(sizes[d]) +
                ", stride " + std::to_string(strides[d]) +
                ") reaches beyond the tensor's " + std::to_string(shape[d]);
        return failure();
      }
    return success();
  }

  /// Calls visit(flat index in the full tensor) for each element of the
  /// slice, in row-major order of the slice.
  static void forEachInSlice(ArrayRef<int64_t> shape, ArrayRef<int64_t> offsets,
                             ArrayRef<int64_t> sizes,
                             ArrayRef<int64_t> strides,
                             llvm::function_ref<void(int64_t)> visit) {
    int64_t rank = int64_t(sizes.size());
    SmallVector<int64_t> at(rank, 0);
    int64_t count = 1;
    for (int64_t size : sizes)
      count *= size;
    for (int64_t n = 0; n < count; ++n) {
      int64_t flat = 0;
      for (int64_t d = 0; d < rank; ++d)
        flat = flat * shape[d] + offsets[d] + at[d] * strides[d];
      visit(flat);
      for (int64_t d = rank - 1; d >= 0 && ++at[d] == sizes[d]; --d)
        at[d] = 0;
    }
  }

  /// A slice (the rows of a VCC layer's output that go to
  /// attic.tree_update, layer l's weights in a loop over layers); a
  /// rank-reduced result keeps the same order.
  LogicalResult evaluateExtractSlice(tensor::ExtractSliceOp slice) {
    const attic::RefTensor &source = values[slice.getSource()];
    SmallVector<int64_t> offsets, sizes, strides;
    if (failed(sliceBounds(slice, source.shape, offsets, sizes, strides)))
      return failure();
    // The result's shape: the sizes without the dims a rank-reduced
    // result drops (its type may be dynamic).
    attic::RefTensor out;
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    for (auto [d, size] : llvm::enumerate(sizes))
      if (!dropped.test(d))
        out.shape.push_back(size);
    forEachInSlice(source.shape, offsets, sizes, strides,
                   [&](int64_t flat) { out.data.push_back(source.data[flat]); });
    values[slice.getResult()] = std::move(out);
    return success();
  }

  /// `dest` with the slice replaced by `source` (same element order).
  LogicalResult evaluateInsertSlice(tensor::InsertSliceOp insert) {
    auto dest = values.find(insert.getDest());
    if (dest == values.end())
      return unsupportedBecause(insert, "needs a destination computed before "
                                        "it");
    attic::RefTensor out =
        takeDestination(insert, insert.getDest(), dest->second);
    if (failed(insertSliceInto(insert, out)))
      return failure();
    values[insert.getResult()] = std::move(out);
    return success();
  }

  /// Writes the source of `insert` (a tensor.insert_slice or
  /// tensor.parallel_insert_slice) into its slice of `out`.
  template <typename InsertOp>
  LogicalResult insertSliceInto(InsertOp insert, attic::RefTensor &out) {
    const attic::RefTensor &source = values[insert.getSource()];
    SmallVector<int64_t> offsets, sizes, strides;
    if (failed(sliceBounds(insert, out.shape, offsets, sizes, strides)))
      return failure();
    int64_t count = 1;
    for (int64_t size : sizes)
      count *= size;
    if (int64_t(source.data.size()) != count)
      return unsupportedBecause(insert, "inserts a source whose size is not "
                                        "the slice's");
    size_t next = 0;
    forEachInSlice(out.shape, offsets, sizes, strides, [&](int64_t flat) {
      out.data[flat] = source.data[next++];
    });
    return success();
  }

  /// An scf.forall at function level (attic-lower-state's parallel scans):
  /// its iterations one after another, each writing the slices of its
  /// terminator's tensor.parallel_insert_slice ops into the results. An
  /// iteration's body reads the shared outputs' values before the loop,
  /// as it does on the hardware where it writes only its own slices.
  LogicalResult evaluateForall(scf::ForallOp loop) {
    auto resolve = [&](ArrayRef<OpFoldResult> mixed,
                       SmallVectorImpl<int64_t> &out) {
      for (OpFoldResult value : mixed) {
        if (auto attr = dyn_cast<Attribute>(value)) {
          out.push_back(cast<IntegerAttr>(attr).getInt());
          continue;
        }
        if (!scalars.count(cast<Value>(value)))
          return false;
        out.push_back(exactOf(cast<Value>(value)));
      }
      return true;
    };
    SmallVector<int64_t> lower, upper, step;
    if (!resolve(loop.getMixedLowerBound(), lower) ||
        !resolve(loop.getMixedUpperBound(), upper) ||
        !resolve(loop.getMixedStep(), step))
      return unsupportedBecause(loop, "has a bound that is not a known scalar");
    if (llvm::any_of(step, [](int64_t s) { return s < 1; }))
      return unsupportedBecause(loop, "has a step below 1");
    SmallVector<attic::RefTensor> results;
    for (auto [arg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getOutputs())) {
      copyValue(arg, init);
      results.push_back(destinationCopy(values[init]));
    }
    if (llvm::any_of(llvm::zip(lower, upper), [](auto bounds) {
          return std::get<0>(bounds) >= std::get<1>(bounds);
        }))
      return finishForall(loop, results);
    SmallVector<int64_t> ivs(lower);
    while (true) {
      if (failed(countStep(loop)))
        return failure();
      for (auto [iv, value] : llvm::zip(loop.getInductionVars(), ivs)) {
        scalars[iv] = double(value);
        integers[iv] = value;
      }
      for (Operation &op : loop.getBody()->without_terminator())
        if (failed(evaluate(&op)))
          return failure();
      for (Operation &op : loop.getTerminator().getYieldingOps()) {
        auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(op);
        if (!insert)
          return unsupported(&op);
        auto dest = dyn_cast<BlockArgument>(insert.getDest());
        auto outputs = loop.getRegionIterArgs();
        const auto *at = llvm::find(outputs, dest);
        if (!dest || at == outputs.end())
          return unsupportedBecause(&op, "inserts into a value that is not "
                                         "one of the loop's shared outputs");
        if (failed(insertSliceInto(insert, results[at - outputs.begin()])))
          return failure();
      }
      // The next point, the last dimension fastest.
      int64_t d = int64_t(ivs.size()) - 1;
      for (; d >= 0; --d) {
        if (!__builtin_add_overflow(ivs[d], step[d], &ivs[d]) &&
            ivs[d] < upper[d])
          break;
        ivs[d] = lower[d];
      }
      if (d < 0)
        break;
    }
    return finishForall(loop, results);
  }

  LogicalResult finishForall(scf::ForallOp loop,
                             SmallVectorImpl<attic::RefTensor> &results) {
    for (auto [result, value] : llvm::zip(loop.getResults(), results))
      values[result] = std::move(value);
    return success();
  }

  /// Copies what `from` holds (a tensor, a tree or a scalar) to `to`.
  /// (A copy first: inserting `to` may move the map's entries.)
  /// With `steal`, a tensor or tree is moved, leaving `from` empty.
  void copyValue(Value to, Value from, bool steal = false) {
    if (to == from)
      return;
    if (isa<attic::TreeType>(from.getType())) {
      std::vector<attic::ref::vcc::Tree> copy =
          steal ? std::move(trees[from]) : trees[from];
      trees[to] = std::move(copy);
    } else if (isa<ShapedType>(from.getType())) {
      attic::RefTensor copy = steal ? std::move(values[from]) : values[from];
      values[to] = std::move(copy);
      // A tensor.empty's undefined values stay undefined through casts and
      // loop-carried values (a 2026-11-30 audit: a reduction into a cast
      // tensor.empty read zeros).
      if (undefined.contains(from))
        undefined.insert(to);
      else
        undefined.erase(to);
    } else {
      double copy = scalars.lookup(from);
      scalars[to] = copy;
      if (auto it = integers.find(from); it != integers.end())
        integers[to] = it->second;
      else
        integers.erase(to);
    }
  }

  /// An scf.if at function level: the branch the condition (a known
  /// scalar) picks, its ops evaluated like the function's, its yields the
  /// results.
  LogicalResult evaluateIf(scf::IfOp ifOp) {
    auto condition = scalars.find(ifOp.getCondition());
    if (condition == scalars.end())
      return unsupportedBecause(ifOp,
                                "has a condition that is not a known scalar");
    Region &region =
        condition->second != 0.0 ? ifOp.getThenRegion() : ifOp.getElseRegion();
    if (region.empty())
      return success(); // no else branch (and so no results)
    Block &body = region.front();
    for (Operation &op : body.without_terminator())
      if (failed(evaluate(&op)))
        return failure();
    auto yield = cast<scf::YieldOp>(body.getTerminator());
    for (auto [result, value] :
         llvm::zip(ifOp.getResults(), yield.getOperands()))
      copyValue(result, value);
    return success();
  }

  /// The row-major offset of the element at `indices` (known scalars,
  /// inside `shape`) of a tensor.extract or tensor.insert.
  FailureOr<int64_t> elementOffset(Operation *op, ValueRange indices,
                                   ArrayRef<int64_t> shape) {
    int64_t linear = 0;
    for (auto [d, index] : llvm::enumerate(indices)) {
      if (!scalars.count(index))
        return unsupportedBecause(op,
                                  "has an index that is not a known scalar");
      int64_t i = exactOf(index);
      if (i < 0 || i >= shape[d]) {
        error = "reference: " + op->getName().getStringRef().str() + " index " +
                std::to_string(i) + " of dimension " + std::to_string(d) +
                " is outside [0, " + std::to_string(shape[d]) + ")";
        return failure();
      }
      linear = linear * shape[d] + i;
    }
    return linear;
  }

  /// An insert's destination: taken when nothing reads it again
  /// (isDeadAfter; an insert into the tensor a loop carries copied it each
  /// iteration), else destinationCopy.
  attic::RefTensor takeDestination(Operation *insert, Value dest,
                                   attic::RefTensor &held) {
    if (isDeadAfter(dest, insert) && !undefined.contains(dest) &&
        int64_t(held.data.size()) == numElements(held.shape))
      return std::move(held);
    return destinationCopy(held);
  }

  /// A copy of an insert's destination, zeros where it holds no values (a
  /// tensor.empty's contents are undefined).
  static attic::RefTensor destinationCopy(const attic::RefTensor &dest) {
    attic::RefTensor out = dest;
    int64_t numel = 1;
    for (int64_t size : out.shape)
      numel *= size;
    out.data.resize(numel, 0.0);
    return out;
  }

  /// tensor.extract at function level: the element at known scalar
  /// indices, which must be inside the tensor.
  LogicalResult evaluateExtract(tensor::ExtractOp extract) {
    auto source = values.find(extract.getTensor());
    if (source == values.end())
      return unsupportedBecause(extract, "needs a tensor computed before it");
    const attic::RefTensor &t = source->second;
    FailureOr<int64_t> offset =
        elementOffset(extract, extract.getIndices(), t.shape);
    if (failed(offset))
      return failure();
    scalars[extract.getResult()] = t.data[size_t(*offset)];
    return success();
  }

  /// tensor.insert at function level: `dest` (zeros where it is a
  /// tensor.empty) with the scalar at known indices inside it.
  LogicalResult evaluateInsert(tensor::InsertOp insert) {
    auto dest = values.find(insert.getDest());
    auto scalar = scalars.find(insert.getScalar());
    if (dest == values.end() || scalar == scalars.end())
      return unsupportedBecause(insert, "needs a tensor and a scalar computed "
                                        "before it");
    attic::RefTensor out =
        takeDestination(insert, insert.getDest(), dest->second);
    FailureOr<int64_t> offset =
        elementOffset(insert, insert.getIndices(), out.shape);
    if (failed(offset))
      return failure();
    out.data[size_t(*offset)] = scalar->second;
    values[insert.getResult()] = std::move(out);
    return success();
  }

  /// tensor.from_elements at function level: its known scalars in
  /// row-major order, in the result's (static) shape.
  LogicalResult evaluateFromElements(tensor::FromElementsOp op) {
    attic::RefTensor out;
    auto type = cast<RankedTensorType>(op.getType());
    out.shape.assign(type.getShape().begin(), type.getShape().end());
    for (Value element : op.getElements()) {
      auto it = scalars.find(element);
      if (it == scalars.end())
        return unsupportedBecause(op, "has an element that is not a known "
                                      "scalar");
      out.data.push_back(it->second);
    }
    values[op.getResult()] = std::move(out);
    return success();
  }

  /// An scf.for at function level (a loop over layers): bounds from the
  /// scalars, iter_args of any kind (tensors, trees, scalars), the body's
  /// ops evaluated like the function's.
  LogicalResult evaluateFor(scf::ForOp loop) {
    Block &body = *loop.getBody();
    for (auto [arg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
      copyValue(arg, init);
    LogicalResult ran = forEachIteration(loop, [&](int64_t iv) {
      scalars[loop.getInductionVar()] = double(iv);
      integers[loop.getInductionVar()] = iv;
      for (Operation &op : body.without_terminator())
        if (failed(evaluate(&op)))
          return failure();
      auto yield = cast<scf::YieldOp>(body.getTerminator());
      // Through the results first: a yield may name another iter_arg.
      // Values moved, not copied, where nothing reads them again (a loop
      // carrying a tensor of N elements for N iterations was quadratic;
      // a 2026-12-02 audit).
      for (auto [result, value] :
           llvm::zip(loop.getResults(), yield.getOperands()))
        copyValue(result, value, /*steal=*/isDeadAfter(value, yield));
      for (auto [arg, result] :
           llvm::zip(loop.getRegionIterArgs(), loop.getResults()))
        copyValue(arg, result, /*steal=*/true);
      return success();
    });
    if (failed(ran))
      return failure();
    for (auto [result, arg] :
         llvm::zip(loop.getResults(), loop.getRegionIterArgs()))
      copyValue(result, arg, /*steal=*/true);
    return success();
  }

  /// Whether nothing reads `value` after `user` before it is computed
  /// again: a value of `user`'s block (an op's result or a block argument
  /// there) that `user` reads once, and whose other uses all run before
  /// `user` (in ops earlier in the block, or in their regions). Its tensor
  /// can then be taken instead of copied.
  static bool isDeadAfter(Value value, Operation *user) {
    Block *block = isa<BlockArgument>(value)
                       ? cast<BlockArgument>(value).getOwner()
                       : value.getDefiningOp()->getBlock();
    // (An scf.forall's shared outputs are bound once for all its
    // iterations, not computed again for each.)
    if (block != user->getBlock() ||
        (isa<BlockArgument>(value) &&
         isa_and_nonnull<scf::ForallOp>(block->getParentOp())))
      return false;
    int byUser = 0;
    for (OpOperand &use : value.getUses()) {
      Operation *reader = block->findAncestorOpInBlock(*use.getOwner());
      if (reader == user)
        ++byUser;
      else if (!reader || !reader->isBeforeInBlock(user))
        return false;
    }
    return byUser == 1;
  }

  /// Calls `iteration` with the induction variable of each iteration of
  /// `loop` (bounds from the scalars), each counted as `cost` steps against
  /// the oracle's limit.
  LogicalResult forEachIteration(scf::ForOp loop,
                                 function_ref<LogicalResult(int64_t)> iteration,
                                 uint64_t cost = 1) {
    auto bound = [&](Value v, int64_t &out) {
      if (!scalars.count(v))
        return false;
      out = exactOf(v);
      return true;
    };
    int64_t lower, upper, step;
    if (!bound(loop.getLowerBound(), lower) ||
        !bound(loop.getUpperBound(), upper) || !bound(loop.getStep(), step))
      return unsupportedBecause(loop, "has a bound that is not a known scalar");
    // `scf.for unsigned` compares and steps its bounds as unsigned numbers
    // of the induction variable's width (an i8 loop from 0 to 130 is 0, 64,
    // 128; signed, 130 is -126 and there is no iteration); the induction
    // variable holds the same bits, read in this evaluator's signed
    // convention. Before 2026-11-30 the reference read them as signed.
    // Both forms step through uint64 values: unsigned bounds as their
    // bits, signed ones offset by 2^63 (which keeps their order).
    const bool isUnsigned = loop.getUnsignedCmp();
    const unsigned width = integerWidth(loop.getInductionVar().getType());
    const uint64_t bias = isUnsigned ? 0 : uint64_t(1) << 63;
    auto biased = [&](int64_t v) {
      return (isUnsigned ? bitsOf(v, width) : uint64_t(v)) ^ bias;
    };
    const uint64_t from = biased(lower), to = biased(upper),
                   by = isUnsigned ? bitsOf(step, width) : uint64_t(step);
    if (isUnsigned ? by == 0 : step < 1)
      return unsupportedBecause(loop, "has a step below 1");
    // The trip count against the limit before any iteration runs (a loop
    // of 10^9 iterations in a payload ran for half a minute before the
    // limit stopped it).
    const uint64_t trips = from < to ? (to - from - 1) / by + 1 : 0;
    uint64_t total;
    if (__builtin_mul_overflow(trips, cost, &total) ||
        total > stepLimit - std::min(steps, stepLimit))
      return countSteps(loop, stepLimit + 1);
    // (A step past uint64's range, that is past int64's for a signed
    // loop, ends the loop, as it would end it.)
    for (uint64_t u = from; u < to;
         u = __builtin_add_overflow(u, by, &u) ? to : u) {
      int64_t iv = isUnsigned ? wrapTo(u, width) : int64_t(u ^ bias);
      if (failed(countSteps(loop, cost)) || failed(iteration(iv)))
        return failure();
    }
    return success();
  }

  //===--------------------------------------------------------------------===//
  // VCC ops, with attic::ref::vcc one sequence at a time. A tree value is
  // held as one vcc::Tree per batch element.
  //===--------------------------------------------------------------------===//

  /// Rows [rowBegin, rowBegin + rows) of sequence `b` of a [B,N,D] (or
  /// [B,N], as N x 1) tensor.
  static attic::ref::vcc::Matrix rowsOf(const attic::RefTensor &t, int64_t b,
                                        int64_t rowBegin = 0,
                                        int64_t rows = -1) {
    int64_t length = t.shape[1], width = t.shape.size() == 3 ? t.shape[2] : 1;
    if (rows < 0)
      rows = length - rowBegin;
    attic::ref::vcc::Matrix m(rows, width);
    auto first = t.data.begin() + (b * length + rowBegin) * width;
    std::copy(first, first + rows * width, m.data.begin());
    return m;
  }
  static void appendRows(attic::RefTensor &t,
                         const attic::ref::vcc::Matrix &m) {
    t.data.insert(t.data.end(), m.data.begin(), m.data.end());
  }
  static std::vector<bool> flagsOf(const attic::RefTensor &t, int64_t b) {
    int64_t length = t.shape[1];
    std::vector<bool> flags(length);
    for (int64_t i = 0; i < length; ++i)
      flags[i] = t.data[b * length + i] != 0.0;
    return flags;
  }
  static attic::RefTensor emptyLike(Value value) {
    attic::RefTensor t;
    auto type = cast<RankedTensorType>(value.getType());
    t.shape.assign(type.getShape().begin(), type.getShape().end());
    return t;
  }

  /// Sequence `b` of a J tensor [B,|J|] of global node ids, as nodes.
  FailureOr<std::vector<attic::ref::vcc::Node>>
  nodesOf(Operation *op, attic::TreeType type, const attic::RefTensor &j,
          int64_t b) {
    std::vector<attic::ref::vcc::Node> nodes;
    int64_t count = j.shape[1];
    for (int64_t k = 0; k < count; ++k) {
      int64_t id = toInt64(j.data[b * count + k]);
      if (id < 0 || id >= type.getNumNodes()) {
        error = "reference: '" + op->getName().getStringRef().str() +
                "': nodes[" + std::to_string(b) + ", " + std::to_string(k) +
                "] is " + std::to_string(id) + " (expected a node id in 0.." +
                std::to_string(type.getNumNodes() - 1) + ")";
        return failure();
      }
      int64_t level = 0;
      while (level < type.getLevels() && id >= type.getNodeOffset(level + 1))
        ++level;
      nodes.push_back({level, id - type.getNodeOffset(level)});
    }
    return nodes;
  }

  LogicalResult evaluateVcc(Operation *op) {
    namespace vcc = attic::ref::vcc;
    if (auto order = dyn_cast<attic::VipOrderOp>(op)) {
      const attic::RefTensor &vip = values[order.getVip()];
      attic::RefTensor perm = emptyLike(order.getPerm());
      attic::RefTensor inverse = emptyLike(order.getInverse());
      for (int64_t b = 0; b < vip.shape[0]; ++b) {
        std::vector<bool> flags = flagsOf(vip, b);
        // More VIP tokens than num_vip: the excess ones stay in C in their
        // order (the permutation does not depend on num_vip).
        int64_t vipCount = std::count(flags.begin(), flags.end(), true);
        vcc::Reorder reorder = vcc::vipReorder(
            flags, std::max<int64_t>(order.getNumVip(), vipCount));
        perm.data.insert(perm.data.end(), reorder.perm.begin(),
                         reorder.perm.end());
        inverse.data.insert(inverse.data.end(), reorder.inverse.begin(),
                            reorder.inverse.end());
      }
      values[order.getPerm()] = std::move(perm);
      values[order.getInverse()] = std::move(inverse);
      return success();
    }
    if (auto gather = dyn_cast<attic::GatherRowsOp>(op)) {
      const attic::RefTensor &x = values[gather.getX()];
      const attic::RefTensor &indices = values[gather.getIndices()];
      attic::RefTensor out = emptyLike(gather.getResult());
      int64_t rows = indices.shape[1];
      for (int64_t b = 0; b < x.shape[0]; ++b) {
        std::vector<int64_t> perm(rows);
        for (int64_t r = 0; r < rows; ++r) {
          // The contract is [0, N); the compiled code clamps, so that it
          // never reads out of bounds, but the reference refuses, naming
          // the operand (it was VCC's "perm[i]", a flat index; an audit).
          double index = indices.data[b * rows + r];
          if (!(index >= 0 && index < double(x.shape[1]))) {
            error =
                ("reference: 'attic.gather_rows': indices[" + llvm::Twine(b) +
                 ", " + llvm::Twine(r) + "] is " + llvm::Twine(toInt64(index)) +
                 " (expected a row of x in 0.." + llvm::Twine(x.shape[1] - 1) +
                 "; the compiled code clamps it to the nearest row)")
                    .str();
            return failure();
          }
          perm[r] = toInt64(index);
        }
        appendRows(out, vcc::gatherRows(rowsOf(x, b), perm));
      }
      values[gather.getResult()] = std::move(out);
      return success();
    }
    if (auto build = dyn_cast<attic::TreeBuildOp>(op)) {
      const attic::RefTensor &tokens = values[build.getTokens()];
      const attic::RefTensor &valid = values[build.getValid()];
      std::vector<int64_t> fanouts(build.getTree().getType().getFanouts());
      std::vector<vcc::Tree> &tree = trees[build.getTree()];
      for (int64_t b = 0; b < tokens.shape[0]; ++b)
        tree.push_back(
            vcc::buildTree(rowsOf(tokens, b), flagsOf(valid, b), fanouts,
                           build.getMeanEps().convertToDouble()));
      return success();
    }
    if (auto select = dyn_cast<attic::TreeSelectOp>(op))
      return evaluateTreeSelect(select);
    if (auto compress = dyn_cast<attic::VccCompressOp>(op)) {
      const attic::RefTensor &p = values[compress.getVipRows()];
      const attic::RefTensor &j = values[compress.getNodes()];
      const std::vector<vcc::Tree> &tree = trees[compress.getTree()];
      attic::RefTensor sx = emptyLike(compress.getCompressed());
      attic::RefTensor bias = emptyLike(compress.getKeyBias());
      for (int64_t b = 0; b < p.shape[0]; ++b) {
        FailureOr<std::vector<vcc::Node>> nodes =
            nodesOf(op, compress.getTree().getType(), j, b);
        if (failed(nodes))
          return failure();
        vcc::Compressed out =
            vcc::assemble(rowsOf(p, b), tree[b], *nodes,
                          compress.getBiasEps().convertToDouble());
        appendRows(sx, out.sx);
        bias.data.insert(bias.data.end(), out.keyBias.begin(),
                         out.keyBias.end());
      }
      values[compress.getCompressed()] = std::move(sx);
      values[compress.getKeyBias()] = std::move(bias);
      return success();
    }
    if (auto update = dyn_cast<attic::TreeUpdateOp>(op)) {
      const attic::RefTensor &j = values[update.getNodes()];
      const attic::RefTensor &rows = values[update.getRows()];
      const std::vector<vcc::Tree> &tree = trees[update.getTree()];
      std::vector<vcc::Tree> next;
      for (int64_t b = 0; b < int64_t(tree.size()); ++b) {
        FailureOr<std::vector<vcc::Node>> nodes =
            nodesOf(op, update.getTree().getType(), j, b);
        if (failed(nodes))
          return failure();
        next.push_back(vcc::updateTree(tree[b], *nodes, rowsOf(rows, b),
                                       nullptr,
                                       update.getMeanEps().convertToDouble()));
      }
      trees[update.getResult()] = std::move(next);
      return success();
    }
    auto materialize = cast<attic::TreeMaterializeOp>(op);
    attic::RefTensor out = emptyLike(materialize.getResult());
    for (const vcc::Tree &tree : trees[materialize.getTree()])
      appendRows(out, vcc::materialize(tree));
    values[materialize.getResult()] = std::move(out);
    return success();
  }

  /// What the level scorer of attic.tree_select needs for one sequence.
  struct SelectScoring {
    std::vector<double> query; // [H][n_p][dh]
    std::vector<bool> votes;   // [n_p]: the rows that vote (vote_mask)
    const attic::RefTensor *keyWeight, *keyBias, *gamma, *beta;
    int64_t heads, numVip, headDim;
    double scale;
  };

  /// Section 3.6 scores of the level-`level` candidates `indices`: keys
  /// LN(mean) * gamma + beta (biased variance, eps 1e-5) times key_weight
  /// ([in][out]) plus key_bias, then vcc::segmentScores with the P rows of
  /// vote_mask voting (all without it) and the candidates without valid
  /// tokens at -inf.
  static std::vector<double> scoreLevel(const attic::ref::vcc::Tree &tree,
                                        int64_t level,
                                        const std::vector<int64_t> &indices,
                                        void *context) {
    namespace vcc = attic::ref::vcc;
    const auto &s = *static_cast<const SelectScoring *>(context);
    int64_t dim = tree.dim, m = int64_t(indices.size());
    vcc::Matrix means(m, dim);
    std::vector<bool> valid(m);
    for (int64_t x = 0; x < m; ++x) {
      valid[x] = tree.count[level][indices[x]] > 0;
      std::vector<double> mean = vcc::nodeMean(tree, level, indices[x]);
      std::copy(mean.begin(), mean.end(), means.data.begin() + x * dim);
    }
    vcc::Matrix weight(dim, dim);
    weight.data = s.keyWeight->data;
    vcc::Matrix projected = vcc::affine(
        vcc::layerNorm(means, s.gamma->data, s.beta->data), weight,
        s.keyBias->data);
    std::vector<double> keys(s.heads * m * s.headDim); // [H][m][dh]
    for (int64_t x = 0; x < m; ++x)
      for (int64_t o = 0; o < dim; ++o)
        keys[((o / s.headDim) * m + x) * s.headDim + o % s.headDim] =
            projected.at(x, o);
    return vcc::segmentScores(s.query, keys, s.heads, s.numVip, m, s.headDim,
                              s.scale, valid, s.votes);
  }

  /// Algorithm 1 with vcc::selectJ, one sequence at a time; J as global ids.
  LogicalResult evaluateTreeSelect(attic::TreeSelectOp op) {
    namespace vcc = attic::ref::vcc;
    attic::TreeType type = op.getTree().getType();
    const attic::RefTensor &query = values[op.getQuery()];
    SelectScoring scoring;
    scoring.keyWeight = &values[op.getKeyWeight()];
    scoring.keyBias = &values[op.getKeyBias()];
    scoring.gamma = &values[op.getLnGamma()];
    scoring.beta = &values[op.getLnBeta()];
    scoring.heads = op.getHeads();
    scoring.numVip = query.shape[2];
    scoring.headDim = query.shape[3];
    // The op's scale is an f32 attribute; the reference uses the same value.
    scoring.scale = op.getScale().convertToFloat();
    // vcc::selectJ takes budgets for the levels 0..L, with 0 for the tokens.
    std::vector<int64_t> budgets{0};
    for (int64_t h : op.getBudgetValues())
      budgets.push_back(h);
    int64_t perSequence = scoring.heads * scoring.numVip * scoring.headDim;
    attic::RefTensor out = emptyLike(op.getNodes());
    const std::vector<vcc::Tree> &tree = trees[op.getTree()];
    for (int64_t b = 0; b < int64_t(tree.size()); ++b) {
      auto first = query.data.begin() + b * perSequence;
      scoring.query.assign(first, first + perSequence);
      scoring.votes.assign(scoring.numVip, true);
      if (Value mask = op.getVoteMask())
        for (int64_t i = 0; i < scoring.numVip; ++i)
          scoring.votes[i] = values[mask].data[b * scoring.numVip + i] != 0.0;
      for (const vcc::Node &node :
           vcc::selectJ(tree[b], budgets, scoreLevel, &scoring))
        out.data.push_back(double(type.getNodeOffset(node.level) + node.index));
    }
    values[op.getNodes()] = std::move(out);
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Upstream ops on tensors: linalg ops (generic and named, through their
  // indexing maps and payload region), tensor.generate, tensor.concat, and
  // arith/math ops on scalars. Payloads are
  // interpreted one scalar at a time in double, in the iteration order of
  // the op's loops (a reduction accumulates into its output in order).
  //===--------------------------------------------------------------------===//

  static int64_t numElements(ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t size : shape)
      n *= size;
    return n;
  }
  static int64_t flatIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> at) {
    int64_t flat = 0;
    for (auto [size, i] : llvm::zip(shape, at))
      flat = flat * size + i;
    return flat;
  }
  /// Advances a row-major multi-index; false after the last one.
  static bool next(ArrayRef<int64_t> shape, SmallVectorImpl<int64_t> &at) {
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      if (++at[d] < shape[d])
        return true;
      at[d] = 0;
    }
    return false;
  }
  bool hasStaticShape(Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return type && type.hasStaticShape();
  }

  LogicalResult evaluateLinalg(linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics() ||
        !llvm::all_of(op->getOperands(), [&](Value v) {
          return !isa<ShapedType>(v.getType()) || hasStaticShape(v);
        }))
      return unsupportedBecause(op, "needs static tensor operands");
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<OpOperand *> operands;
    for (OpOperand &operand : op->getOpOperands())
      operands.push_back(&operand);
    if (maps.size() != operands.size())
      return unsupportedBecause(op, "has operands without indexing maps");
    // Outputs start as the init tensors and are updated in place.
    SmallVector<attic::RefTensor> outputs;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      if (!values.count(init.get()) &&
          !isa_and_nonnull<tensor::EmptyOp>(init.get().getDefiningOp()))
        return unsupportedBecause(op, "has an init value that is not known");
      attic::RefTensor out = emptyLike(init.get());
      auto it = values.find(init.get());
      out.data = it != values.end()
                     ? it->second.data
                     : std::vector<double>(numElements(out.shape), 0.0);
      outputs.push_back(std::move(out));
    }
    const int64_t numInputs = op.getNumDpsInputs();
    Block *body = op.getBlock();
    // An input that a tensor.empty made has no defined values (compiled
    // code reads whatever the buffer holds).
    for (int64_t i = 0; i < numInputs; ++i)
      if (undefined.contains(op->getOperand(i)) &&
          !body->getArgument(i).use_empty())
        return unsupportedBecause(op, "reads input #" + std::to_string(i) +
                                          ", a tensor.empty, whose values "
                                          "are undefined");
    // So has an init that a tensor.empty made, where the payload reads it
    // (a reduction into a tensor.empty without a linalg.fill): the
    // reference read zeros, the compiled code whatever the buffer held
    // (a 2026-11-30 audit).
    for (int64_t i = 0; i < int64_t(op.getNumDpsInits()); ++i)
      if (undefined.contains(op.getDpsInits()[i]) &&
          !body->getArgument(numInputs + i).use_empty())
        return unsupportedBecause(
            op, "reads init #" + std::to_string(i) +
                    ", a tensor.empty, whose values are undefined (fill it "
                    "first, e.g. with linalg.fill)");
    if (llvm::any_of(ranges, [](int64_t r) { return r <= 0; })) {
      for (auto [result, out] : llvm::zip(op->getResults(), outputs))
        values[result] = std::move(out);
      return success();
    }
    // Each point of the iteration space is a loop iteration of the
    // oracle's limit (a 2048^3 matmul ran for hours under --check; a
    // 2026-11-30 audit), counted before any is evaluated.
    // A payload of more than 8 ops counts more than once (see
    // payloadCost).
    uint64_t points = payloadCost(*body);
    for (int64_t r : ranges)
      if (__builtin_mul_overflow(points, uint64_t(r), &points))
        points = stepLimit + 1;
    if (failed(countSteps(op, points)))
      return failure();
    SmallVector<int64_t> point(ranges.size(), 0);
    SmallVector<double> args(operands.size());
    SmallVector<int64_t> flat(operands.size());
    SmallVector<double> yielded;
    do {
      for (auto [i, operand] : llvm::enumerate(operands)) {
        Value v = operand->get();
        if (!isa<ShapedType>(v.getType())) {
          args[i] = scalars.lookup(v);
          continue;
        }
        SmallVector<int64_t, 4> at = maps[i].compose(point);
        bool isInput = int64_t(i) < numInputs;
        const attic::RefTensor &t =
            isInput ? values[v] : outputs[i - numInputs];
        // A map that reaches outside its operand (linalg's verifier checks
        // the loop bounds' end points only): an error, not a read of
        // whatever lies past the tensor (a 2026-11-30 audit).
        for (auto [d, index] : llvm::enumerate(at))
          if (index < 0 || index >= t.shape[d])
            return unsupportedBecause(
                op, "indexing map #" + std::to_string(i) + " reaches index " +
                        std::to_string(index) + " of dimension " +
                        std::to_string(d) + ", outside [0, " +
                        std::to_string(t.shape[d]) + ")");
        flat[i] = flatIndex(t.shape, at);
        args[i] = t.data[flat[i]];
      }
      if (failed(evaluateBlock(*body, args, point, yielded)))
        return failure();
      for (int64_t o = 0; o < int64_t(outputs.size()); ++o)
        outputs[o].data[flat[numInputs + o]] = yielded[o];
    } while (next(ranges, point));
    for (auto [result, out] : llvm::zip(op->getResults(), outputs))
      values[result] = std::move(out);
    return success();
  }

  /// linalg.softmax by its definition, in double: along `dimension`,
  /// exp(x - max) / sum(exp(x - max)). The maximum keeps NaN, so a row with
  /// a NaN is NaN throughout, as it is in the compiled decomposition (whose
  /// maxnumf skips the NaN, but whose exp(NaN - max) reaches the sum); a
  /// row of -inf is NaN (-inf - -inf), as there.
  LogicalResult evaluateSoftmax(linalg::SoftmaxOp op) {
    if (!op.hasPureTensorSemantics() || !hasStaticShape(op.getInput()) ||
        !hasStaticShape(op.getOutput()))
      return unsupportedBecause(op, "needs static tensor operands");
    if (undefined.contains(op.getInput()))
      return unsupportedBecause(op, "reads its input, a tensor.empty, whose "
                                    "values are undefined");
    const attic::RefTensor &in = values[op.getInput()];
    attic::RefTensor out = emptyLike(op.getOutput());
    const int64_t dim = int64_t(op.getDimension());
    const int64_t rank = int64_t(in.shape.size());
    int64_t inner = 1;
    for (int64_t d = dim + 1; d < rank; ++d)
      inner *= in.shape[d];
    const int64_t size = in.shape[dim];
    const int64_t outer =
        size == 0 || inner == 0 ? 0 : numElements(in.shape) / (size * inner);
    out.data.assign(in.data.size(), 0.0);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        auto at = [&](int64_t j) { return (o * size + j) * inner + i; };
        double max = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < size; ++j)
          max = attic::ref::maxKeepingNaN(max, in.data[at(j)]);
        double sum = 0.0;
        for (int64_t j = 0; j < size; ++j)
          sum += std::exp(in.data[at(j)] - max);
        for (int64_t j = 0; j < size; ++j)
          out.data[at(j)] = std::exp(in.data[at(j)] - max) / sum;
      }
    values[op.getResult()[0]] = std::move(out);
    return success();
  }

  LogicalResult evaluateGenerate(tensor::GenerateOp op) {
    if (!hasStaticShape(op.getResult()))
      return unsupportedBecause(op, "needs a static shape");
    attic::RefTensor out = emptyLike(op.getResult());
    // Counted as a linalg op's points are (tensor.generate was not counted
    // before 2026-12-02, an audit).
    uint64_t points = payloadCost(op.getBody().front());
    for (int64_t size : out.shape)
      if (__builtin_mul_overflow(points, uint64_t(size), &points))
        points = stepLimit + 1;
    if (failed(countSteps(op, points)))
      return failure();
    SmallVector<int64_t> at(out.shape.size(), 0);
    SmallVector<double> args(out.shape.size()), yielded;
    if (numElements(out.shape) > 0) {
      do {
        for (auto [i, index] : llvm::enumerate(at))
          args[i] = double(index);
        if (failed(evaluateBlock(op.getBody().front(), args, at, yielded)))
          return failure();
        out.data.push_back(yielded.front());
      } while (next(out.shape, at));
    }
    values[op.getResult()] = std::move(out);
    return success();
  }

  LogicalResult evaluateConcat(tensor::ConcatOp op) {
    if (!hasStaticShape(op.getResult()))
      return unsupportedBecause(op, "needs a static shape");
    const int64_t dim = int64_t(op.getDim());
    attic::RefTensor out = emptyLike(op.getResult());
    out.data.assign(numElements(out.shape), 0.0);
    int64_t offset = 0;
    for (Value input : op.getInputs()) {
      const attic::RefTensor &t = values[input];
      SmallVector<int64_t> at(t.shape.size(), 0);
      if (numElements(t.shape) > 0) {
        int64_t n = 0;
        do {
          SmallVector<int64_t> to(at);
          to[dim] += offset;
          out.data[flatIndex(out.shape, to)] = t.data[n++];
        } while (next(t.shape, at));
      }
      offset += t.shape[dim];
    }
    values[op.getResult()] = std::move(out);
    return success();
  }

  /// An arith/math op outside a payload: on scalars, or elementwise on
  /// tensors of one static shape (what the CPU pipeline turns into a
  /// linalg.generic), element by element in double.
  LogicalResult evaluateElementwise(Operation *op) {
    if (op->getNumResults() == 1 &&
        isa<RankedTensorType>(op->getResult(0).getType()) &&
        op->hasTrait<OpTrait::Elementwise>()) {
      // The shape is the operands' values' (dynamic dims included: a
      // function specialized by --shape), which must agree.
      Value result = op->getResult(0);
      auto resultType = cast<RankedTensorType>(result.getType());
      SmallVector<const attic::RefTensor *> inputs;
      for (Value v : op->getOperands()) {
        auto type = dyn_cast<RankedTensorType>(v.getType());
        auto it = values.find(v);
        if (!type || type.getRank() != resultType.getRank() ||
            it == values.end())
          return unsupportedBecause(op, "needs tensor operands of the "
                                        "result's rank");
        inputs.push_back(&it->second);
      }
      const llvm::SmallVector<int64_t> &shape = inputs.front()->shape;
      for (const attic::RefTensor *input : inputs)
        if (input->shape != shape) {
          error = "reference: '" + op->getName().getStringRef().str() +
                  "' has operands of different shapes";
          return failure();
        }
      for (auto [d, size] : llvm::enumerate(resultType.getShape()))
        if (!ShapedType::isDynamic(size) && size != shape[d]) {
          error = "reference: '" + op->getName().getStringRef().str() +
                  "' has operands whose shape is not its result's";
          return failure();
        }
      attic::RefTensor out;
      out.shape = shape;
      int64_t n = numElements(out.shape);
      out.data.assign(n, 0.0);
      SmallVector<double> operands(inputs.size());
      for (int64_t i = 0; i < n; ++i) {
        for (auto [k, input] : llvm::enumerate(inputs))
          operands[k] = input->data[i];
        FailureOr<double> value = evaluateScalarOp(op, operands);
        if (failed(value))
          return failure();
        out.data[i] = *value;
      }
      values[result] = std::move(out);
      return success();
    }
    if (isa<arith::MulUIExtendedOp, arith::MulSIExtendedOp>(op) &&
        !isa<ShapedType>(op->getOperand(0).getType()))
      return evaluateExtendedMul(op);
    if (op->getNumResults() != 1 ||
        llvm::any_of(op->getOperandTypes(),
                     [](Type t) { return isa<ShapedType>(t); }) ||
        isa<ShapedType>(op->getResult(0).getType()))
      return unsupportedBecause(op, "is only interpreted on scalars (write "
                                    "elementwise tensor arithmetic as "
                                    "linalg.generic)");
    return evaluateScalarInto(op);
  }

  /// Runs a payload block on scalar arguments; `loop` gives linalg.index
  /// (or the indices of tensor.generate). `yielded` receives the operands
  /// of the terminator.
  LogicalResult evaluateBlock(Block &block, ArrayRef<double> args,
                              ArrayRef<int64_t> loop,
                              SmallVectorImpl<double> &yielded) {
    for (auto [arg, value] : llvm::zip(block.getArguments(), args))
      scalars[arg] = value;
    Operation *terminator = nullptr;
    if (failed(evaluateOps(block, loop, terminator)))
      return failure();
    yielded.clear();
    for (Value v : terminator->getOperands())
      yielded.push_back(scalars.lookup(v));
    return success();
  }

  /// Evaluates the ops of a payload block (or of an scf.if or scf.for
  /// inside one) on scalars, up to its terminator, returned in
  /// `terminator`.
  LogicalResult evaluateOps(Block &block, ArrayRef<int64_t> loop,
                            Operation *&terminator) {
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        if (!isa<linalg::YieldOp, tensor::YieldOp, scf::YieldOp,
                 attic::YieldOp>(op))
          return unsupported(&op);
        terminator = &op;
        return success();
      }
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        scalars[index.getResult()] = double(loop[index.getDim()]);
        continue;
      }
      if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
        auto it = values.find(extract.getTensor());
        if (it == values.end())
          return unsupportedBecause(&op, "reads an unknown tensor");
        SmallVector<int64_t> at;
        for (Value i : extract.getIndices())
          at.push_back(exactOf(i));
        for (auto [i, size] : llvm::zip(at, it->second.shape))
          if (i < 0 || i >= size)
            return unsupportedBecause(&op, "reads out of bounds");
        scalars[extract.getResult()] =
            it->second.data[flatIndex(it->second.shape, at)];
        continue;
      }
      if (auto dim = dyn_cast<tensor::DimOp>(op)) {
        auto it = values.find(dim.getSource());
        int64_t d = exactOf(dim.getIndex());
        if (it == values.end() || d < 0 ||
            d >= static_cast<int64_t>(it->second.shape.size()))
          return unsupportedBecause(&op, "reads an unknown dimension");
        scalars[dim.getResult()] = double(it->second.shape[d]);
        continue;
      }
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        Region &region = scalars.lookup(ifOp.getCondition()) != 0.0
                             ? ifOp.getThenRegion()
                             : ifOp.getElseRegion();
        if (region.empty())
          continue;
        Operation *yield = nullptr;
        if (failed(evaluateOps(region.front(), loop, yield)))
          return failure();
        for (auto [result, value] :
             llvm::zip(ifOp.getResults(), yield->getOperands()))
          copyScalar(result, value);
        continue;
      }
      if (auto inner = dyn_cast<scf::ForOp>(op)) {
        if (failed(evaluateScalarFor(inner, loop)))
          return failure();
        continue;
      }
      if (isa<arith::MulUIExtendedOp, arith::MulSIExtendedOp>(op) &&
          !isa<ShapedType>(op.getOperand(0).getType())) {
        if (failed(evaluateExtendedMul(&op)))
          return failure();
        continue;
      }
      if (op.getNumResults() != 1 || isa<ShapedType>(op.getResult(0).getType()))
        return unsupported(&op);
      if (failed(evaluateScalarInto(&op)))
        return failure();
    }
    return unsupportedBecause(block.getParentOp(), "has a block without a "
                                                   "terminator");
  }

  /// An scf.for inside a payload block: a reduction that a lowering wrote
  /// as a loop (attic-decompose's Nystrom and sketches, attic-lower-state's
  /// K-means). Its iter_args are scalars; before 2026-12-02 --check
  /// refused such IR.
  LogicalResult evaluateScalarFor(scf::ForOp loop, ArrayRef<int64_t> point) {
    if (llvm::any_of(loop.getResultTypes(),
                     [](Type t) { return isa<ShapedType>(t); }))
      return unsupportedBecause(loop, "carries a tensor inside a payload "
                                      "block (only scalar iter_args are "
                                      "interpreted there)");
    Block &body = *loop.getBody();
    for (auto [arg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
      copyScalar(arg, init);
    LogicalResult ran = forEachIteration(
        loop,
        [&](int64_t iv) {
          scalars[loop.getInductionVar()] = double(iv);
          integers[loop.getInductionVar()] = iv;
          Operation *yield = nullptr;
          if (failed(evaluateOps(body, point, yield)))
            return failure();
          for (auto [result, value] :
               llvm::zip(loop.getResults(), yield->getOperands()))
            copyScalar(result, value);
          for (auto [arg, result] :
               llvm::zip(loop.getRegionIterArgs(), loop.getResults()))
            copyScalar(arg, result);
          return success();
        },
        payloadCost(body));
    if (failed(ran))
      return failure();
    for (auto [result, arg] :
         llvm::zip(loop.getResults(), loop.getRegionIterArgs()))
      copyScalar(result, arg);
    return success();
  }

  /// The steps one run of a payload block (a point of a linalg op or
  /// tensor.generate, an iteration of a loop inside a payload) counts: one
  /// per 8 of its ops, those of nested scf.if included, at least one; a
  /// nested scf.for counts its own iterations. Before 2026-12-02 a point
  /// counted one step whatever its payload, and a payload loop's body
  /// nothing: 1.9e9 ops ran under the 2e7-step limit (3.5 minutes; an
  /// audit).
  uint64_t payloadCost(Block &block) {
    auto [it, inserted] = payloadCosts.try_emplace(&block, 0);
    if (!inserted)
      return it->second;
    uint64_t ops = 0;
    block.walk<WalkOrder::PreOrder>([&](Operation *op) {
      ++ops;
      return isa<scf::ForOp>(op) ? WalkResult::skip() : WalkResult::advance();
    });
    uint64_t cost = std::max<uint64_t>(1, (ops + 7) / 8);
    payloadCosts[&block] = cost;
    return cost;
  }

  /// Copies the scalar `from` to `to`, with its exact integer value if it
  /// has one.
  void copyScalar(Value to, Value from) {
    double value = scalars.lookup(from);
    scalars[to] = value;
    if (auto it = integers.find(from); it != integers.end()) {
      int64_t exact = it->second;
      integers[to] = exact;
    } else {
      integers.erase(to);
    }
  }

  /// The bit width of an integer (or index: 64) type, 0 for other types.
  static unsigned integerWidth(Type type) {
    type = getElementTypeOrSelf(type);
    if (type.isIndex())
      return 64;
    if (auto integer = dyn_cast<IntegerType>(type))
      return integer.getWidth();
    return 0;
  }

  /// The low `width` bits of `v`, as unsigned.
  static uint64_t bitsOf(int64_t v, unsigned width) {
    return width >= 64 ? uint64_t(v)
                       : uint64_t(v) & ((uint64_t(1) << width) - 1);
  }

  /// The low `width` bits of `v` read as a signed integer of that width
  /// (an i1 true is -1), as the hardware's two's complement does.
  static int64_t signedOf(uint64_t v, unsigned width) {
    if (width >= 64)
      return int64_t(v);
    uint64_t sign = uint64_t(1) << (width - 1);
    return int64_t(bitsOf(int64_t(v), width) ^ sign) - int64_t(sign);
  }

  /// `v` wrapped to `width` bits, in this evaluator's convention: signed,
  /// except i1, which is 0 or 1.
  static int64_t wrapTo(uint64_t v, unsigned width) {
    return width == 1 ? int64_t(v & 1) : signedOf(v, width);
  }

  /// Whether `op` is integer arithmetic: integer or index operands (or
  /// none) and an integer, index or i1 result (scalars, or the elements of
  /// elementwise tensor ops).
  static bool isIntegerOp(Operation *op) {
    return op->getNumResults() == 1 &&
           integerWidth(op->getResult(0).getType()) &&
           llvm::all_of(op->getOperandTypes(),
                        [](Type t) { return integerWidth(t) != 0; });
  }

  /// The exact value of the integer scalar `v` (see `integers`).
  int64_t exactOf(Value v) {
    if (auto it = integers.find(v); it != integers.end())
      return it->second;
    return toInt64(scalars.lookup(v));
  }

  /// Evaluates the scalar op `op` on the scalars of its operands and
  /// records its result (exactly, for integer ops).
  LogicalResult evaluateScalarInto(Operation *op) {
    if (auto bitcast = dyn_cast<arith::BitcastOp>(op))
      return evaluateBitcast(bitcast);
    SmallVector<double> operands;
    SmallVector<int64_t> exact;
    for (Value v : op->getOperands()) {
      operands.push_back(scalars.lookup(v));
      exact.push_back(exactOf(v));
    }
    Value result = op->getResult(0);
    if (isIntegerOp(op)) {
      FailureOr<int64_t> value = evaluateIntegerOp(op, exact);
      if (failed(value))
        return failure();
      scalars[result] = double(*value);
      integers[result] = *value;
      return success();
    }
    FailureOr<double> value = evaluateScalarOp(op, operands, exact);
    if (failed(value))
      return failure();
    scalars[result] = *value;
    integers.erase(result);
    return success();
  }

  /// arith.bitcast of a scalar between a float and an integer (or two of
  /// either) of one width. A float's bits are those of its value rounded to
  /// its type, as the operands of cmpf and fptosi are read: the value the
  /// compiled code holds where one op made it (attic-decompose's sketches
  /// build an exact power of two from the exponent bits of a maximum this
  /// way). After a chain of float ops the reference's value, kept in
  /// double, may round to other bits than the type's chain of roundings.
  LogicalResult evaluateBitcast(arith::BitcastOp op) {
    Type from = op.getIn().getType(), to = op.getType();
    if (integerWidth(from) > 64 || integerWidth(to) > 64)
      return unsupportedBecause(
          op, "works on integers of more than 64 bits, which the reference "
              "holds in 64");
    int64_t exact = 0;
    double value = bitcastValue(scalars.lookup(op.getIn()), exactOf(op.getIn()),
                                from, to, exact);
    Value result = op.getResult();
    scalars[result] = value;
    if (isa<FloatType>(to))
      integers.erase(result);
    else
      integers[result] = exact;
    return success();
  }

  /// The bits of `value` (`exact` for an integer) of type `from` read as
  /// type `to`; an integer result also in `exactOut`. A NaN keeps its
  /// payload and its signaling bit through the double that holds it
  /// (APFloat's conversions quiet it, a 2026-12-02 audit: an i32 ->
  /// f32 -> i32 round trip of 0x7F800001 came back 0x7FC00001).
  static double bitcastValue(double value, int64_t exact, Type from, Type to,
                             int64_t &exactOut) {
    from = getElementTypeOrSelf(from);
    to = getElementTypeOrSelf(to);
    APInt bits;
    if (auto floatType = dyn_cast<FloatType>(from)) {
      const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
      if (std::isnan(value) && isIeeeBinary(semantics)) {
        bits = nanBits(value, semantics);
      } else {
        APFloat f(value);
        bool lost;
        f.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
        bits = f.bitcastToAPInt();
      }
    } else {
      unsigned width = integerWidth(from);
      bits = APInt(width, bitsOf(exact, width));
    }
    if (auto floatType = dyn_cast<FloatType>(to)) {
      APFloat f(floatType.getFloatSemantics(), bits);
      if (f.isNaN() && isIeeeBinary(floatType.getFloatSemantics()))
        return nanFromBits(bits, floatType.getFloatSemantics());
      bool lost;
      f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      return f.convertToDouble();
    }
    exactOut = wrapTo(bits.getZExtValue(), integerWidth(to));
    return double(exactOut);
  }

  /// Whether `semantics` is f16, bf16, f32 or f64: a sign, an exponent
  /// whose all-ones pattern is inf and NaN, and a mantissa.
  static bool isIeeeBinary(const llvm::fltSemantics &semantics) {
    return &semantics == &APFloat::IEEEhalf() ||
           &semantics == &APFloat::BFloat() ||
           &semantics == &APFloat::IEEEsingle() ||
           &semantics == &APFloat::IEEEdouble();
  }

  /// The bits of the NaN `value` in an IEEE format of `semantics`: its sign
  /// and the top bits of its payload (the quiet bit first).
  static APInt nanBits(double value, const llvm::fltSemantics &semantics) {
    uint64_t d;
    std::memcpy(&d, &value, sizeof d);
    unsigned width = APFloat::getSizeInBits(semantics);
    unsigned mantissa = APFloat::semanticsPrecision(semantics) - 1;
    uint64_t payload = (d & ((uint64_t(1) << 52) - 1)) >> (52 - mantissa);
    if (payload == 0) // (only from a double NaN whose payload is all low)
      payload = uint64_t(1) << (mantissa - 1);
    uint64_t exponent = ((uint64_t(1) << (width - 1 - mantissa)) - 1)
                        << mantissa;
    uint64_t sign = (d >> 63) << (width - 1);
    return APInt(width, sign | exponent | payload);
  }

  /// The double that holds the NaN `bits` of `semantics`: its sign and its
  /// payload at the top of double's (nanBits reads them back).
  static double nanFromBits(const APInt &bits,
                            const llvm::fltSemantics &semantics) {
    unsigned width = APFloat::getSizeInBits(semantics);
    unsigned mantissa = APFloat::semanticsPrecision(semantics) - 1;
    uint64_t raw = bits.getZExtValue();
    uint64_t payload = raw & ((uint64_t(1) << mantissa) - 1);
    uint64_t d = ((raw >> (width - 1)) << 63) | (uint64_t(0x7FF) << 52) |
                 (payload << (52 - mantissa));
    double value;
    std::memcpy(&value, &d, sizeof value);
    return value;
  }

  /// arith.mului_extended and arith.mulsi_extended on scalars: the low and
  /// the high half of the double-width product (the Philox draws of
  /// attic-decompose's sampled sketches).
  LogicalResult evaluateExtendedMul(Operation *op) {
    unsigned width = integerWidth(op->getOperand(0).getType());
    if (width == 0 || width > 64)
      return unsupportedBecause(
          op, "works on integers of more than 64 bits, which the reference "
              "holds in 64");
    bool isSigned = isa<arith::MulSIExtendedOp>(op);
    auto operand = [&](unsigned i) {
      uint64_t bits = bitsOf(exactOf(op->getOperand(i)), width);
      return isSigned ? APInt(width, bits).sext(2 * width)
                      : APInt(width, bits).zext(2 * width);
    };
    APInt product = operand(0) * operand(1);
    int64_t low = wrapTo(product.trunc(width).getZExtValue(), width);
    int64_t high =
        wrapTo(product.lshr(width).trunc(width).getZExtValue(), width);
    for (auto [result, value] :
         llvm::zip(op->getResults(), std::array<int64_t, 2>{low, high})) {
      scalars[result] = double(value);
      integers[result] = value;
    }
    return success();
  }

  /// An integer op (isIntegerOp) on the exact values of its operands, in
  /// the semantics of its types: integers wrap at their width (index: 64
  /// bits) and are read as unsigned by the unsigned ops (an i8 -1 is 255 to
  /// extui and divui), and an i1 true is -1 to the signed ones.
  FailureOr<int64_t> evaluateIntegerOp(Operation *op, ArrayRef<int64_t> x) {
    unsigned width = integerWidth(op->getResult(0).getType());
    // Values are held in 64 bits: a wider integer was computed modulo 2^64
    // (an i128 product shifted right by 64 gave 0; a 2026-11-30 audit).
    for (Type type :
         llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      if (integerWidth(type) > 64)
        return unsupportedBecause(
            op, "works on integers of more than 64 bits, which the reference "
                "holds in 64");
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto attr = dyn_cast<IntegerAttr>(constant.getValue());
      if (!attr)
        return unsupportedBecause(op, "has a constant that is not a number");
      return wrapTo(attr.getValue().getZExtValue(), width);
    }
    // Each operand as the unsigned and the signed value of its width.
    SmallVector<uint64_t, 3> u;
    SmallVector<int64_t, 3> v;
    for (auto [i, value] : llvm::enumerate(x)) {
      unsigned w = integerWidth(op->getOperand(i).getType());
      u.push_back(bitsOf(value, w));
      v.push_back(signedOf(uint64_t(value), w));
    }
    auto wrap = [&](uint64_t r) -> int64_t { return wrapTo(r, width); };
    if (isa<arith::AddIOp>(op))
      return wrap(u[0] + u[1]);
    if (isa<arith::SubIOp>(op))
      return wrap(u[0] - u[1]);
    if (isa<arith::MulIOp>(op))
      return wrap(u[0] * u[1]);
    if (isa<arith::AndIOp>(op))
      return wrap(u[0] & u[1]);
    if (isa<arith::OrIOp>(op))
      return wrap(u[0] | u[1]);
    if (isa<arith::XOrIOp>(op))
      return wrap(u[0] ^ u[1]);
    if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
      // In a modifier region a shift by the bit width or more (the
      // amount read unsigned) is defined (docs/patterns.md): shli and
      // shrui give 0, shrsi the sign in every bit.
      if (inModifierRegion && u[1] >= width) {
        if (isa<arith::ShRSIOp>(op))
          return wrap(v[0] < 0 ? ~uint64_t(0) : 0);
        return wrap(0);
      }
      // Elsewhere it is poison (LLVM's shl, lshr, ashr): the compiled
      // code's result is not defined.
      if (u[1] >= width)
        return unsupportedBecause(op, "shifts by " + std::to_string(u[1]) +
                                          ", not below the bit width " +
                                          std::to_string(width) +
                                          " (the result is undefined)");
      if (isa<arith::ShLIOp>(op))
        return wrap(u[0] << u[1]);
      if (isa<arith::ShRUIOp>(op))
        return wrap(u[0] >> u[1]);
      return wrap(uint64_t(v[0] >> u[1]));
    }
    if (isa<arith::MinSIOp>(op))
      return wrap(uint64_t(std::min(v[0], v[1])));
    if (isa<arith::MaxSIOp>(op))
      return wrap(uint64_t(std::max(v[0], v[1])));
    if (isa<arith::MinUIOp>(op))
      return wrap(std::min(u[0], u[1]));
    if (isa<arith::MaxUIOp>(op))
      return wrap(std::max(u[0], u[1]));
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(op)) {
      if (u[1] == 0)
        return unsupportedBecause(op, "divides by zero");
      unsigned w = integerWidth(op->getOperand(0).getType());
      bool isSigned = isa<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
                          arith::CeilDivSIOp>(op);
      if (isSigned && w > 1 && v[1] == -1 &&
          v[0] == signedOf(uint64_t(1) << (w - 1), w))
        return unsupportedBecause(op, "overflows (the smallest integer "
                                      "divided by -1 is undefined)");
      if (isa<arith::DivUIOp>(op))
        return wrap(u[0] / u[1]);
      if (isa<arith::RemUIOp>(op))
        return wrap(u[0] % u[1]);
      if (isa<arith::CeilDivUIOp>(op))
        return wrap(u[0] / u[1] + (u[0] % u[1] != 0));
      if (w == 1) // i1: the divisor is true (-1), the quotient -dividend.
        return wrap(isa<arith::RemSIOp>(op) ? 0 : u[0]);
      int64_t l = v[0], r = v[1];
      if (isa<arith::RemSIOp>(op))
        return wrap(uint64_t(l % r));
      int64_t q = l / r;
      bool inexact = q * r != l;
      if (inexact && isa<arith::FloorDivSIOp>(op) && ((l < 0) != (r < 0)))
        --q;
      if (inexact && isa<arith::CeilDivSIOp>(op) && ((l < 0) == (r < 0)))
        ++q;
      return wrap(uint64_t(q));
    }
    // Casts: sign extension from the operand's width, or its unsigned
    // value, cut to the result's width.
    if (isa<arith::ExtSIOp, arith::IndexCastOp, arith::TruncIOp>(op))
      return wrap(uint64_t(v[0]));
    if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op))
      return wrap(u[0]);
    if (isa<arith::SelectOp>(op))
      return x[0] != 0 ? wrap(u[1]) : wrap(u[2]);
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      unsigned w = integerWidth(cmp.getLhs().getType());
      return arith::applyCmpPredicate(cmp.getPredicate(), APInt(w, u[0]),
                                      APInt(w, u[1]));
    }
    return unsupportedScalar(op);
  }

  /// `v` rounded to float type `type` (f16, bf16, f32; f64 is exact).
  static double roundTo(double v, Type type) {
    auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (!floatType || floatType.getWidth() >= 64 || std::isnan(v))
      return v;
    APFloat f(v);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lost);
    return f.convertToDouble();
  }

  /// A scalar op on its operands' values: integer ops exactly
  /// (evaluateIntegerOp; `exact` holds the operands' exact values, taken
  /// from `x` when empty), the others in double, in the semantics of their
  /// types: sitofp and uitofp read the integer's signed or unsigned value
  /// and round it once to their result type, truncf rounds to its result
  /// type, and f16 and bf16 results are rounded to their type (LLVM
  /// computes each such op in f32 and rounds it). Other float arithmetic is
  /// exact in double, the reference's precision.
  FailureOr<double> evaluateScalarOp(Operation *op, ArrayRef<double> x,
                                     ArrayRef<int64_t> exact = {}) {
    SmallVector<int64_t, 4> ints(exact.begin(), exact.end());
    if (ints.empty())
      for (double value : x)
        ints.push_back(toInt64(value));
    // (Elementwise on tensors; on scalars evaluateBitcast.)
    if (auto bitcast = dyn_cast<arith::BitcastOp>(op)) {
      if (integerWidth(bitcast.getIn().getType()) > 64 ||
          integerWidth(bitcast.getType()) > 64)
        return unsupportedBecause(op, "works on integers of more than 64 "
                                      "bits, which the reference holds in 64");
      int64_t unused = 0;
      return bitcastValue(x[0], ints[0], bitcast.getIn().getType(),
                          bitcast.getType(), unused);
    }
    if (isIntegerOp(op)) {
      FailureOr<int64_t> value = evaluateIntegerOp(op, ints);
      if (failed(value))
        return failure();
      return double(*value);
    }
    Type type = op->getResult(0).getType();
    if (auto rounding = dyn_cast<arith::ArithRoundingModeInterface>(op))
      if (arith::RoundingModeAttr mode = rounding.getRoundingModeAttr();
          mode && mode.getValue() != arith::RoundingMode::to_nearest_even)
        return unsupportedBecause(
            op, "rounds " +
                    arith::stringifyRoundingMode(mode.getValue()).str() +
                    "; the reference rounds to nearest even");
    // Where a float becomes an integer or a truth value, its operands are
    // first rounded to their own float type: the compiled code compares
    // and truncates the values its type holds (0.1f + 0.2f == 0.3f holds
    // in f32, not in double; fptosi(0.7f * 10) is 7 in f32, 6 in double;
    // the exact integer results failed --check, a 2026-11-30 audit).
    SmallVector<double, 4> rounded;
    if (isa<arith::CmpFOp, arith::FPToSIOp, arith::FPToUIOp>(op)) {
      for (auto [v, operand] : llvm::zip(x, op->getOperands()))
        rounded.push_back(roundTo(v, operand.getType()));
      x = rounded;
    }
    if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
      unsigned width = integerWidth(op->getOperand(0).getType());
      bool isSigned = isa<arith::SIToFPOp>(op);
      // An i1 true is -1 to sitofp, 1 to uitofp.
      APInt value(64, isSigned ? uint64_t(signedOf(uint64_t(ints[0]), width))
                               : bitsOf(ints[0], width));
      auto floatType = cast<FloatType>(getElementTypeOrSelf(type));
      APFloat f(floatType.getFloatSemantics());
      f.convertFromAPInt(value, isSigned, APFloat::rmNearestTiesToEven);
      bool lost;
      f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      return f.convertToDouble();
    }
    FailureOr<double> value = evaluateScalarOpExact(op, x);
    if (failed(value) || op->getNumResults() != 1)
      return value;
    if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
      // The truncated value's bits in the result's width, read in this
      // evaluator's convention (fptoui 200.0 to i8 is -56, fptosi -1.0 to i1
      // is true: 1); before 2026-11-30 the reference kept 200 and -1 (an
      // audit). A value outside the result type's range (or NaN) is poison
      // in LLVM: the compiled code's result is undefined, so the reference
      // refuses it, as it does a shift past the bit width (it compared its
      // own NaN or 3e9 with the compiled code's value, an audit).
      unsigned width = integerWidth(type);
      bool isSigned = isa<arith::FPToSIOp>(op);
      double lo = isSigned ? -std::ldexp(1.0, int(width) - 1) : 0.0;
      double hi = std::ldexp(1.0, int(width) - (isSigned ? 1 : 0));
      if (width && width <= 64 && *value >= lo && *value < hi)
        return double(wrapTo(
            isSigned ? uint64_t(int64_t(*value)) : uint64_t(*value), width));
      // In a modifier region the conversion saturates and NaN is 0
      // (docs/patterns.md), as PTX's cvt.rzi does.
      if (inModifierRegion && width && width <= 64) {
        if (std::isnan(*value))
          return 0.0;
        uint64_t bits =
            *value < lo
                ? (isSigned ? uint64_t(1) << (width - 1) : 0)
                : (isSigned ? (uint64_t(1) << (width - 1)) - 1 : ~uint64_t(0));
        return double(wrapTo(bits, width));
      }
      char text[32];
      std::snprintf(text, sizeof(text), "%.9g", x[0]);
      return unsupportedBecause(
          op, "converts " + std::string(text) + ", outside the range of " +
                  printed(type) + " (the result is undefined)");
    }
    auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (floatType && (isa<arith::TruncFOp>(op) || floatType.getWidth() < 32 ||
                      (inModifierRegion && floatType.getWidth() == 32)))
      return roundTo(*value, type);
    // A value past its type's largest one is ±inf there, as the compiled
    // code holds it (exp(89) * 0.5 > 3e38 holds in f32: inf; the
    // reference's 2.2e38 did not, a 2026-11-30 review); other values keep
    // the reference's precision.
    if (floatType && floatType.getWidth() < 64 &&
        std::fabs(*value) > APFloat::getLargest(floatType.getFloatSemantics())
                                .convertToDouble())
      return roundTo(*value, type);
    return value;
  }

  /// The float ops (and fptosi/fptoui) of evaluateScalarOp, in double.
  FailureOr<double> evaluateScalarOpExact(Operation *op, ArrayRef<double> x) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
        return f.getValue().convertToDouble();
      return unsupportedBecause(op, "has a constant that is not a number");
    }
    if (isa<arith::AddFOp>(op))
      return x[0] + x[1];
    if (isa<arith::SubFOp>(op))
      return x[0] - x[1];
    if (isa<arith::MulFOp>(op))
      return x[0] * x[1];
    if (isa<arith::DivFOp>(op))
      return x[0] / x[1];
    if (isa<arith::NegFOp>(op))
      return -x[0];
    if (isa<arith::FPToSIOp, arith::FPToUIOp>(op))
      return std::trunc(x[0]);
    // The one-argument math ops: the libm function of the same meaning.
    using Unary = double (*)(double);
    static const std::pair<TypeID, Unary> kUnaryMath[] = {
        {TypeID::get<math::Exp2Op>(), [](double v) { return std::exp2(v); }},
        {TypeID::get<math::Log2Op>(), [](double v) { return std::log2(v); }},
        {TypeID::get<math::Log1pOp>(), [](double v) { return std::log1p(v); }},
        {TypeID::get<math::FloorOp>(), [](double v) { return std::floor(v); }},
        {TypeID::get<math::CeilOp>(), [](double v) { return std::ceil(v); }},
        {TypeID::get<math::ErfOp>(), [](double v) { return std::erf(v); }},
        {TypeID::get<math::SinOp>(), [](double v) { return std::sin(v); }},
        {TypeID::get<math::CosOp>(), [](double v) { return std::cos(v); }},
        {TypeID::get<math::SqrtOp>(), [](double v) { return std::sqrt(v); }},
        {TypeID::get<math::RsqrtOp>(),
         [](double v) { return 1.0 / std::sqrt(v); }},
        {TypeID::get<math::ExpOp>(), [](double v) { return std::exp(v); }},
        {TypeID::get<math::LogOp>(), [](double v) { return std::log(v); }},
        {TypeID::get<math::TanhOp>(), [](double v) { return std::tanh(v); }},
        {TypeID::get<math::AbsFOp>(), [](double v) { return std::fabs(v); }},
        {TypeID::get<math::TanOp>(), [](double v) { return std::tan(v); }},
        {TypeID::get<math::AsinOp>(), [](double v) { return std::asin(v); }},
        {TypeID::get<math::AcosOp>(), [](double v) { return std::acos(v); }},
        {TypeID::get<math::AtanOp>(), [](double v) { return std::atan(v); }},
        {TypeID::get<math::SinhOp>(), [](double v) { return std::sinh(v); }},
        {TypeID::get<math::CoshOp>(), [](double v) { return std::cosh(v); }},
        {TypeID::get<math::AsinhOp>(), [](double v) { return std::asinh(v); }},
        {TypeID::get<math::AcoshOp>(), [](double v) { return std::acosh(v); }},
        {TypeID::get<math::AtanhOp>(), [](double v) { return std::atanh(v); }},
        {TypeID::get<math::ExpM1Op>(), [](double v) { return std::expm1(v); }},
        {TypeID::get<math::Log10Op>(), [](double v) { return std::log10(v); }},
        {TypeID::get<math::CbrtOp>(), [](double v) { return std::cbrt(v); }},
        {TypeID::get<math::ErfcOp>(), [](double v) { return std::erfc(v); }},
        {TypeID::get<math::TruncOp>(), [](double v) { return std::trunc(v); }},
        {TypeID::get<math::RoundOp>(), [](double v) { return std::round(v); }},
        // nearbyint in the default rounding mode: to even.
        {TypeID::get<math::RoundEvenOp>(),
         [](double v) { return std::nearbyint(v); }},
    };
    for (const auto &[id, fn] : kUnaryMath)
      if (op->getName().getTypeID() == id)
        return fn(x[0]);
    if (isa<math::PowFOp>(op))
      return std::pow(x[0], x[1]);
    // maximumf and minimumf order -0 below +0 (IEEE 754-2019 maximum and
    // minimum); std::max and std::min return their first of two zeros.
    if (isa<arith::MaximumFOp>(op)) {
      if (std::isnan(x[0]) || std::isnan(x[1]))
        return NAN;
      if (x[0] == 0.0 && x[1] == 0.0)
        return std::signbit(x[0]) ? x[1] : x[0];
      return std::max(x[0], x[1]);
    }
    if (isa<arith::MinimumFOp>(op)) {
      if (std::isnan(x[0]) || std::isnan(x[1]))
        return NAN;
      if (x[0] == 0.0 && x[1] == 0.0)
        return std::signbit(x[0]) ? x[0] : x[1];
      return std::min(x[0], x[1]);
    }
    if (isa<arith::MaxNumFOp>(op))
      return std::fmax(x[0], x[1]);
    if (isa<arith::MinNumFOp>(op))
      return std::fmin(x[0], x[1]);
    if (isa<arith::SelectOp>(op))
      return x[0] != 0.0 ? x[1] : x[2];
    if (isa<arith::ExtFOp, arith::TruncFOp>(op))
      return x[0];
    if (isa<math::Atan2Op>(op))
      return std::atan2(x[0], x[1]);
    if (isa<math::CopySignOp>(op))
      return std::copysign(x[0], x[1]);
    if (isa<math::FmaOp>(op))
      return x[0] * x[1] + x[2];
    if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
      const bool unordered = std::isnan(x[0]) || std::isnan(x[1]);
      switch (cmp.getPredicate()) {
      case arith::CmpFPredicate::OEQ: return double(!unordered && x[0] == x[1]);
      case arith::CmpFPredicate::ONE: return double(!unordered && x[0] != x[1]);
      case arith::CmpFPredicate::OLT: return double(!unordered && x[0] < x[1]);
      case arith::CmpFPredicate::OLE: return double(!unordered && x[0] <= x[1]);
      case arith::CmpFPredicate::OGT: return double(!unordered && x[0] > x[1]);
      case arith::CmpFPredicate::OGE: return double(!unordered && x[0] >= x[1]);
      case arith::CmpFPredicate::UEQ: return double(unordered || x[0] == x[1]);
      case arith::CmpFPredicate::UNE: return double(unordered || x[0] != x[1]);
      case arith::CmpFPredicate::ULT: return double(unordered || x[0] < x[1]);
      case arith::CmpFPredicate::ULE: return double(unordered || x[0] <= x[1]);
      case arith::CmpFPredicate::UGT: return double(unordered || x[0] > x[1]);
      case arith::CmpFPredicate::UGE: return double(unordered || x[0] >= x[1]);
      case arith::CmpFPredicate::ORD: return double(!unordered);
      case arith::CmpFPredicate::UNO: return double(unordered);
      case arith::CmpFPredicate::AlwaysTrue: return 1.0;
      case arith::CmpFPredicate::AlwaysFalse: return 0.0;
      }
    }
    return unsupportedScalar(op);
  }

  LogicalResult unsupportedScalar(Operation *op) {
    return unsupportedBecause(op, "is not one of the scalar ops --check "
                                  "interprets (arith add/sub/mul/div/rem/neg/"
                                  "max/min/select/cmp/and/or/xor/shifts/casts, "
                                  "math "
                                  "sqrt/rsqrt/exp/exp2/expm1/log/log2/log10/"
                                  "log1p/powf/floor/ceil/trunc/round/"
                                  "roundeven/erf/erfc/sin/cos/tan/asin/acos/"
                                  "atan/atan2/sinh/cosh/tanh/asinh/acosh/"
                                  "atanh/cbrt/copysign/fma/absf)");
  }

  LogicalResult unsupportedBecause(Operation *op, const llvm::Twine &why) {
    error = "reference: '" + op->getName().getStringRef().str() + "' " +
            why.str();
    return failure();
  }

  /// The reference layout of `layout` with the op's layout operands.
  FailureOr<attic::ref::Layout> layoutOf(Attribute layout,
                                         ValueRange operands) {
    return attic::toReferenceLayout(
        layout,
        [&](int64_t i) -> const attic::RefTensor * {
          if (i < 0 || i >= static_cast<int64_t>(operands.size()))
            return nullptr;
          return &values[operands[i]];
        },
        error);
  }

  /// attic.attention or attic.block_attention (on tensors), whose operands
  /// share their names.
  template <typename OpTy>
  LogicalResult evaluateAttention(OpTy op, double scale, Attribute layoutAttr,
                                  int64_t blockQ, int64_t blockK, bool causal) {
    const attic::RefTensor &q = values[op.getQuery()];
    const attic::RefTensor &k = values[op.getKey()];
    const attic::RefTensor &v = values[op.getValue()];
    attic::ref::AttentionShape shape{q.shape[0], q.shape[1], q.shape[2],
                                     k.shape[2], q.shape[3], v.shape[3]};
    shape.kvHeads = k.shape[1];
    if (k.shape[0] != shape.batch || shape.kvHeads == 0 ||
        shape.heads % shape.kvHeads != 0 || k.shape[3] != shape.headDim ||
        v.shape[0] != shape.batch || v.shape[1] != shape.kvHeads ||
        v.shape[2] != shape.keyLen) {
      error = "reference: attic.attention operand shapes do not fit together";
      return failure();
    }
    FailureOr<attic::ref::Layout> layout =
        layoutOf(layoutAttr, op.getLayoutOperands());
    if (failed(layout))
      return failure();
    attic::ref::AttentionOptions options;
    // The op's scale is an f32 attribute; the reference uses the same value.
    options.scale = scale;
    options.causal = causal;
    options.layout = &*layout;
    if (failed(bindModifiers(op, options)))
      return failure();
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
    std::vector<int32_t> lists[4];
    attic::ref::BlockLists blocks;
    if (op.getKvNumBlocks()) {
      Value operands[4] = {op.getKvNumBlocks(), op.getKvIndices(),
                           op.getFullKvNumBlocks(), op.getFullKvIndices()};
      for (int i = 0; i < 4; ++i)
        for (double x : values[operands[i]].data)
          lists[i].push_back(static_cast<int32_t>(x));
      const attic::RefTensor &count = values[operands[0]];
      blocks.blockQ = blockQ;
      blocks.blockK = blockK;
      blocks.batches = count.shape[0];
      blocks.heads = count.shape[1];
      blocks.queryBlocks = count.shape[2];
      blocks.capacity = values[operands[1]].shape[3];
      blocks.fullCapacity = values[operands[3]].shape[3];
      int64_t nqb = (shape.queryLen + blockQ - 1) / blockQ;
      if (blocks.queryBlocks != nqb ||
          (blocks.batches != 1 && blocks.batches != shape.batch) ||
          (blocks.heads != 1 && blocks.heads != shape.heads)) {
        error = "reference: the block lists do not fit the attention's shapes";
        return failure();
      }
      blocks.count = lists[0].data();
      blocks.indices = lists[1].data();
      blocks.fullCount = lists[2].data();
      blocks.fullIndices = lists[3].data();
      options.blocks = &blocks;
    }
    attic::RefTensor out;
    out.shape = {shape.batch, shape.heads, shape.queryLen, shape.valueDim};
    out.data.resize(shape.batch * shape.heads * shape.queryLen *
                    shape.valueDim);
    // The lse destination of attic.block_attention: [B, Hq, Nq].
    attic::RefTensor lse;
    bool withLse = false;
    if constexpr (std::is_same_v<OpTy, attic::BlockAttentionOp>)
      withLse = static_cast<bool>(op.getLseInit());
    if (withLse) {
      lse.shape = {shape.batch, shape.heads, shape.queryLen};
      lse.data.resize(shape.batch * shape.heads * shape.queryLen);
    }
    attic::ref::attention(shape, q.data.data(), k.data.data(), v.data.data(),
                          options, out.data.data(),
                          withLse ? lse.data.data() : nullptr);
    if (modifierFailed)
      return failure();
    double pairs = visiblePairs(shape.queryLen, shape.keyLen, &*layout, false);
    if (pairs >= 0 && result.flops >= 0)
      result.flops += 2.0 * double(shape.batch * shape.heads) * pairs *
                      double(shape.headDim + shape.valueDim);
    else
      result.flops = -1;
    if constexpr (std::is_same_v<OpTy, attic::BlockAttentionOp>) {
      // The pooled destination: per query block, the weighted sum of its
      // result rows as stored (rounded to the result's element type: f16 or
      // bf16 rows are pooled as such), in double.
      if (Value weightsValue = op.getPoolWeights()) {
        const attic::RefTensor &w = values[weightsValue];
        auto rowType = dyn_cast<FloatType>(
            cast<ShapedType>(op->getResult(0).getType()).getElementType());
        std::vector<double> stored;
        const std::vector<double> *rows = &out.data;
        if (rowType && rowType.getWidth() < 64) {
          stored = out.data;
          for (double &x : stored) {
            APFloat f(x);
            bool lost;
            f.convert(rowType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                      &lost);
            x = f.convertToDouble();
          }
          rows = &stored;
        }
        int64_t nq = shape.queryLen, dv = shape.valueDim;
        int64_t blocks = (nq + blockQ - 1) / blockQ;
        attic::RefTensor pooled;
        pooled.shape = {shape.batch, shape.heads, blocks, dv};
        pooled.data.assign(shape.batch * shape.heads * blocks * dv, 0.0);
        for (int64_t b = 0; b < shape.batch; ++b)
          for (int64_t h = 0; h < shape.heads; ++h)
            for (int64_t i = 0; i < nq; ++i) {
              double weight = w.data[b * nq + i];
              const double *row =
                  &(*rows)[((b * shape.heads + h) * nq + i) * dv];
              double *sum =
                  &pooled.data[((b * shape.heads + h) * blocks + i / blockQ) * dv];
              for (int64_t c = 0; c < dv; ++c)
                sum[c] += weight * row[c];
            }
        values[op->getResults().back()] = std::move(pooled);
      }
    }
    if (withLse)
      values[op->getResult(1)] = std::move(lse);
    values[op->getResult(0)] = std::move(out);
    return success();
  }

  /// The captures of `op` bound to its regions' capture arguments; the
  /// regions interpreted in double as the options' mask and score. An
  /// evaluation that fails (a read outside a capture) sets modifierFailed
  /// and `error`.
  template <typename OpTy>
  LogicalResult bindModifiers(OpTy op, attic::ref::AttentionOptions &options) {
    modifierFailed = false;
    Region *regions[2] = {&op.getMaskRegion(), nullptr};
    if constexpr (!std::is_same_v<OpTy, attic::BlockMaskOp>)
      regions[1] = &op.getScoreRegion();
    for (Region *region : regions) {
      if (!region || region->empty())
        continue;
      Block &block = region->front();
      unsigned leading = block.getNumArguments() - op.getCaptures().size();
      for (auto [i, capture] : llvm::enumerate(op.getCaptures())) {
        auto it = values.find(capture);
        if (it == values.end())
          return unsupportedBecause(op, "captures an unknown tensor");
        // A copy first: inserting may grow the map and move `it`'s entry.
        attic::RefTensor copy = it->second;
        values[block.getArgument(leading + i)] = std::move(copy);
      }
    }
    if (Region *mask = regions[0]; !mask->empty())
      options.mask = [this, mask](int64_t b, int64_t h, int64_t q,
                                  int64_t k) {
        SmallVector<double> out;
        llvm::SaveAndRestore inRegion(inModifierRegion, true);
        if (modifierFailed ||
            failed(evaluateBlock(mask->front(),
                                 {double(b), double(h), double(q), double(k)},
                                 {}, out))) {
          modifierFailed = true;
          return false;
        }
        return out[0] != 0.0;
      };
    if (Region *score = regions[1]; score && !score->empty())
      options.score = [this, score](double x, int64_t b, int64_t h, int64_t q,
                                    int64_t k) {
        SmallVector<double> out;
        // The region computes in f32: its argument is an f32.
        double s = double(float(x));
        llvm::SaveAndRestore inRegion(inModifierRegion, true);
        if (modifierFailed ||
            failed(evaluateBlock(score->front(),
                                 {s, double(b), double(h), double(q),
                                  double(k)},
                                 {}, out))) {
          modifierFailed = true;
          return 0.0;
        }
        return out[0];
      };
    return success();
  }

  /// attic.block_mask: brute-force classification of every block pair with
  /// the reference layout (and mask region), in the op's list format.
  LogicalResult evaluateBlockMask(attic::BlockMaskOp op) {
    FailureOr<attic::ref::Layout> layout =
        layoutOf(op.getLayout(), op.getLayoutOperands());
    if (failed(layout))
      return failure();
    attic::ref::AttentionOptions modifiers;
    if (failed(bindModifiers(op, modifiers)))
      return failure();
    auto lengthOf = [&](Value v) -> FailureOr<int64_t> {
      APInt value;
      if (matchPattern(v, m_ConstantInt(&value)))
        return value.getSExtValue();
      auto it = scalars.find(v);
      if (it != scalars.end())
        return toInt64(it->second);
      error = "reference: attic.block_mask needs lengths that are constants";
      return failure();
    };
    FailureOr<int64_t> nq = lengthOf(op.getQueryLen());
    FailureOr<int64_t> nk = lengthOf(op.getKeyLen());
    if (failed(nq) || failed(nk))
      return failure();
    // The shapes of the destinations as evaluated (their types may have
    // dynamic dims: the block counts of dynamic lengths).
    auto shapeOf = [&](Value v) -> ArrayRef<int64_t> {
      auto it = values.find(v);
      if (it != values.end())
        return it->second.shape;
      return cast<RankedTensorType>(v.getType()).getShape();
    };
    ArrayRef<int64_t> countShape = shapeOf(op.getKvNumBlocksInit());
    int64_t batches = countShape[0], heads = countShape[1];
    int64_t queryBlocks = countShape[2];
    int64_t cap = shapeOf(op.getKvIndicesInit())[3];
    int64_t fullCap = shapeOf(op.getFullKvIndicesInit())[3];
    if (llvm::any_of(
            ArrayRef<int64_t>{batches, heads, queryBlocks, cap, fullCap},
            [](int64_t d) { return d < 0; })) {
      error = "reference: attic.block_mask's destinations have sizes that "
              "are not known";
      return failure();
    }
    int64_t bq = op.getBlockQ(), bk = op.getBlockK();
    int64_t keyBlocks = (*nk + bk - 1) / bk;
    attic::RefTensor counts[2], lists[2];
    for (int i = 0; i < 2; ++i) {
      counts[i].shape = {batches, heads, queryBlocks};
      counts[i].data.assign(batches * heads * queryBlocks, 0.0);
      int64_t c = i == 0 ? cap : fullCap;
      lists[i].shape = {batches, heads, queryBlocks, c};
      lists[i].data.assign(batches * heads * queryBlocks * c, 0.0);
    }
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t h = 0; h < heads; ++h)
        for (int64_t qb = 0; qb < queryBlocks; ++qb) {
          int64_t row = (b * heads + h) * queryBlocks + qb;
          int64_t q0 = qb * bq, q1 = std::min(q0 + bq, *nq);
          int64_t n[2] = {0, 0};
          for (int64_t kb = 0; q0 < q1 && kb < keyBlocks; ++kb) {
            int64_t k0 = kb * bk, k1 = std::min(k0 + bk, *nk);
            attic::ref::BlockClass c = attic::ref::classifyBlock(
                *layout, b, h, q0, q1, k0, k1, *nq, *nk);
            if (modifiers.mask && c.any) {
              c = {false, true};
              for (int64_t q = q0; q < q1; ++q)
                for (int64_t k = k0; k < k1; ++k) {
                  bool p = layout->visible(b, h, q, k, *nq, *nk) &&
                           modifiers.mask(b, h, q, k);
                  c.any = c.any || p;
                  c.all = c.all && p;
                }
              if (modifierFailed)
                return failure();
            }
            // Exact classification, as the compiled block_mask's (which
            // checks element by element the pairs that a sound block
            // visibility calls partial); entries past a count stay 0.
            int which = c.all ? 1 : c.any ? 0 : -1;
            if (which < 0)
              continue;
            int64_t c2 = which == 0 ? cap : fullCap;
            if (n[which] < c2)
              lists[which].data[row * c2 + n[which]] = double(kb);
            ++n[which];
          }
          for (int i = 0; i < 2; ++i)
            counts[i].data[row] = double(std::min(n[i], i == 0 ? cap : fullCap));
        }
    values[op.getResult(0)] = std::move(counts[0]);
    values[op.getResult(1)] = std::move(lists[0]);
    values[op.getResult(2)] = std::move(counts[1]);
    values[op.getResult(3)] = std::move(lists[1]);
    return success();
  }

  LogicalResult unsupported(Operation *op) {
    error = "reference: no reference semantics for '" +
            op->getName().getStringRef().str() + "' (--check supports " +
            "attic.attention, attic.block_attention and attic.block_mask on "
            "tensors, attic.slice_attention, attic.kernelized_attention, "
            "attic.lsh_attention, attic.clustered_attention, "
            "attic.skeinformer_attention, attic.informer_attention, "
            "attic.linformer_attention, attic.nystrom_attention, "
            "attic.synthesizer_attention, attic.feature_map, "
            "attic.state_reduce, attic.state_scan, attic.lsh_hash, "
            "attic.bucket_sort, attic.kmeans, "
            "attic.vip_order, attic.gather_rows, attic.tree_build, "
            "attic.tree_select, attic.vcc_compress, attic.tree_update, "
            "attic.tree_materialize, func.call, arith.constant, tensor.empty, "
            "tensor.dim, "
            "tensor.cast, tensor.expand_shape, tensor.collapse_shape, "
            "tensor.extract, tensor.insert, tensor.from_elements, "
            "tensor.extract_slice, tensor.insert_slice, "
            "scf.for, scf.forall, scf.if, "
            "tensor.generate, tensor.concat, linalg "
            "ops on static tensors, and arith/math ops on scalars)";
    return failure();
  }

  std::string &error;
  /// Operations and loop iterations evaluated before the oracle gives up
  /// (at most 2^62, so that the counts cannot wrap).
  const uint64_t stepLimit;
  /// payloadCost's results.
  llvm::DenseMap<Block *, uint64_t> payloadCosts;
  int callDepth = 0;
  uint64_t steps = 0;
  /// tensor.empty results: a shape, no defined values.
  llvm::DenseSet<Value> undefined;
  /// The functions being called (a recursive call saves and restores the
  /// values of its callee's frame).
  SmallVector<Operation *> activeCallees;
  /// Set when a modifier region could not be evaluated (see bindModifiers).
  bool modifierFailed = false;
  /// Set while a modifier region is evaluated: its f32 results are rounded
  /// to f32 op by op, as the targets compute them (a region is elementwise,
  /// with no sum whose rounding order the targets choose); elsewhere the
  /// payloads' f32 arithmetic stays exact in double, the reference's
  /// precision, which their reductions' tolerances are measured against.
  bool inModifierRegion = false;
  /// Hashes a Value for the node-based maps below.
  struct ValueHash {
    size_t operator()(Value v) const { return hash_value(v); }
  };
  /// Tensor values. A node-based map: references to its entries (the
  /// operands an op holds while its regions add their own values) stay
  /// valid when it grows. A DenseMap moved them: --check crashed on an
  /// attention with captures in a function of 41 values (an audit).
  std::unordered_map<Value, attic::RefTensor, ValueHash> values;
  /// Scalar values: function-level constants and payload values (copied,
  /// never referenced).
  llvm::DenseMap<Value, double> scalars;
  /// The exact values of integer scalars that integer ops, loops and
  /// copies produced (a double holds an integer exactly only up to 2^53;
  /// index and i64 arithmetic wraps at 2^64). Read with exactOf.
  llvm::DenseMap<Value, int64_t> integers;
  /// !attic.tree values: one tree per batch element (node-based, as
  /// `values`).
  std::unordered_map<Value, std::vector<attic::ref::vcc::Tree>, ValueHash>
      trees;
  attic::ReferenceResult result;
};
} // namespace

FailureOr<attic::ReferenceResult>
attic::evaluateReference(ModuleOp module, StringRef entry,
                         ArrayRef<const attic_tensor *> inputs,
                         std::string &error, uint64_t maxSteps) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal() || func.getNumArguments() != inputs.size()) {
    error = "reference: cannot evaluate @" + entry.str();
    return failure();
  }
  Evaluator evaluator(error, maxSteps);
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
    // Only what the shapes and the layout decide: with a key mask, a mask
    // region, a layout read from operands (documents) or block lists the
    // visible pairs depend on the data, and a count would be a guess.
    if (op.getKeyMask() || !op.getMaskRegion().empty() ||
        !op.getLayoutOperands().empty() || op.getKvNumBlocks()) {
      flops = -1;
      return;
    }
    std::string error;
    FailureOr<attic::ref::Layout> layout = attic::toReferenceLayout(
        op.getEffectiveLayout(),
        [](int64_t) -> const attic::RefTensor * { return nullptr; }, error);
    double pairs = failed(layout)
                       ? -1
                       : visiblePairs(sizeOf(op.getQuery(), 2),
                                      sizeOf(op.getKey(), 2), &*layout, false);
    if (pairs < 0 || flops < 0) {
      flops = -1;
      return;
    }
    double heads = double(sizeOf(op.getQuery(), 0) * sizeOf(op.getQuery(), 1));
    flops += 2.0 * heads * pairs *
             double(sizeOf(op.getQuery(), 3) + sizeOf(op.getValue(), 3));
  });
  return flops < 0 ? 0 : flops;
}

FailureOr<attic::ref::Layout> attic::toReferenceLayout(
    Attribute attr, function_ref<const RefTensor *(int64_t)> operand,
    std::string &error) {
  using Kind = ref::Layout::Kind;
  ref::Layout l;
  auto ids = [&](int64_t i, std::vector<int64_t> &out) -> LogicalResult {
    const RefTensor *t = operand(i);
    if (!t) {
      // FLOP counts have no data: an empty id list makes every pair
      // invisible there, and --check always passes the data.
      return success();
    }
    for (double x : t->data)
      out.push_back(toInt64(x));
    return success();
  };
  if (isa<attic::DenseLayoutAttr>(attr)) {
    l.kind = Kind::Dense;
  } else if (auto c = dyn_cast<attic::CausalLayoutAttr>(attr)) {
    l.kind = Kind::Causal;
    l.bottomRight = c.getAlign() == attic::Alignment::BottomRight;
  } else if (auto w = dyn_cast<attic::WindowLayoutAttr>(attr)) {
    l.kind = Kind::Window;
    l.left = w.getLeft();
    l.right = w.getRight();
    l.bottomRight = w.getAlign() == attic::Alignment::BottomRight;
  } else if (auto d = dyn_cast<attic::DilatedLayoutAttr>(attr)) {
    l.kind = Kind::Dilated;
    l.left = d.getLeft();
    l.right = d.getRight();
    l.dilation = d.getDilation();
    l.bottomRight = d.getAlign() == attic::Alignment::BottomRight;
  } else if (auto s = dyn_cast<attic::SparseStridedLayoutAttr>(attr)) {
    l.kind = Kind::Strided;
    l.stride = s.getStride();
    l.bottomRight = s.getAlign() == attic::Alignment::BottomRight;
  } else if (auto f = dyn_cast<attic::FixedLayoutAttr>(attr)) {
    l.kind = Kind::Fixed;
    l.block = f.getBlock();
    l.summary = f.getSummary();
  } else if (auto g = dyn_cast<attic::GlobalLayoutAttr>(attr)) {
    l.kind = Kind::Global;
    l.tokens.assign(g.getTokens().begin(), g.getTokens().end());
    std::sort(l.tokens.begin(), l.tokens.end()); // Layout::tokens: ascending
  } else if (auto s = dyn_cast<attic::SinksLayoutAttr>(attr)) {
    l.kind = Kind::Sinks;
    l.count = s.getCount();
  } else if (auto d = dyn_cast<attic::DocumentsLayoutAttr>(attr)) {
    l.kind = Kind::Documents;
    if (failed(ids(d.getQueryIds(), l.queryIds)) ||
        failed(ids(d.getKeyIds(), l.keyIds)))
      return failure();
  } else if (auto r = dyn_cast<attic::RandomLayoutAttr>(attr)) {
    l.kind = Kind::Random;
    l.block = r.getBlock();
    l.count = r.getCount();
    l.seed = r.getSeed();
  } else if (auto bl = dyn_cast<attic::BlockedLayoutAttr>(attr)) {
    l.kind = Kind::Blocked;
    l.block = bl.getSize();
    FailureOr<ref::Layout> p = toReferenceLayout(bl.getLayout(), operand, error);
    if (failed(p))
      return failure();
    l.parts.push_back(std::move(*p));
  } else if (auto bd = dyn_cast<attic::BlockDiagonalLayoutAttr>(attr)) {
    l.kind = Kind::BlockDiagonal;
    l.block = bd.getQuery();
    l.keyBlock = bd.getKey();
    l.causal = bd.getCausal();
  } else if (auto i = dyn_cast<attic::IntersectLayoutAttr>(attr)) {
    l.kind = Kind::Intersect;
    for (Attribute part : i.getLayouts()) {
      FailureOr<ref::Layout> p = toReferenceLayout(part, operand, error);
      if (failed(p))
        return failure();
      l.parts.push_back(std::move(*p));
    }
  } else if (auto u = dyn_cast<attic::UnionLayoutAttr>(attr)) {
    l.kind = Kind::Union;
    for (Attribute part : u.getLayouts()) {
      FailureOr<ref::Layout> p = toReferenceLayout(part, operand, error);
      if (failed(p))
        return failure();
      l.parts.push_back(std::move(*p));
    }
  } else {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << attr;
    error = "reference: no reference semantics for the layout " + text;
    return failure();
  }
  return l;
}
