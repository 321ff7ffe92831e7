//===- AtticOps.cpp - attic operations --------------------------*- C++ -*-===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "ShapeChecks.h"
#include "attic/Dialect/Attic/Modifiers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

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
  // Grouped-query attention: key and value have Hkv heads, Hq a multiple.
  int64_t hkv = key.getDimSize(1);
  if (failed(checkShape(op, "key", key,
                        {{b, "B", "query"},
                         {hkv, "Hkv", "key"},
                         {key.getDimSize(2), "Nk", "key"},
                         {d, "D", "query"}})))
    return failure();
  int64_t nk = key.getDimSize(2);
  if (failed(checkShape(op, "value", value,
                        {{b, "B", "query"},
                         {hkv, "Hkv", "key"},
                         {nk, "Nk", "key"},
                         {value.getDimSize(3), "Dv", "value"}})))
    return failure();
  if (ShapedType::isDynamic(hkv))
    hkv = value.getDimSize(1);
  if (hkv == 0)
    return op->emitOpError()
           << "key/value have 0 heads: Hkv must be positive (query has "
           << (ShapedType::isDynamic(h) ? std::string("?") : std::to_string(h))
           << " heads)";
  if (!ShapedType::isDynamic(h) && !ShapedType::isDynamic(hkv) && h % hkv != 0)
    return op->emitOpError()
           << "query has " << h << " heads and key/value " << hkv
           << ": Hq must be a multiple of Hkv (grouped-query attention)";
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
              {{b, "B", "query"}, {h, "Hq", "query"}, {nk, "Nk", "key"}})))
        return failure();
    } else {
      return op->emitOpError() << "key_bias must be [B,Nk] or [B,Hq,Nk], got "
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
                     {h, "Hq", "query"},
                     {nq, "Nq", "query"},
                     {dv, "Dv", "value"}});
}

static LogicalResult verifyScale(Operation *op, float scale) {
  if (!std::isfinite(scale))
    return op->emitOpError() << "scale must be finite, got " << scale;
  return attic::detail::verifyScaleMagnitude(op, scale);
}

static ShapedType optionalShapedType(Value value) {
  return value ? cast<ShapedType>(value.getType()) : ShapedType();
}

/// Verifies `layout` against the op's shapes, its layout operands and
/// (when known) its tiles.
static LogicalResult verifyLayoutOf(Operation *op, LayoutAttrInterface layout,
                                    ShapedType query, ShapedType key,
                                    ValueRange layoutOperands, int64_t blockQ,
                                    int64_t blockK) {
  SmallVector<Type> types(layoutOperands.getTypes());
  LayoutShapeInfo info{query.getDimSize(0), query.getDimSize(1),
                       query.getDimSize(2), key.getDimSize(2),
                       blockQ, blockK, types};
  if (failed(layout.verifyLayout([op]() { return op->emitOpError(); }, info)))
    return failure();
  // Every layout operand is read by a layout: one that is not was accepted
  // and ignored, so document ids without their #attic.documents gave
  // attention across documents without a word (an audit).
  llvm::SmallBitVector read(layoutOperands.size());
  layout.walk([&](DocumentsLayoutAttr documents) {
    for (int64_t index : {documents.getQueryIds(), documents.getKeyIds()})
      if (index >= 0 && index < int64_t(read.size()))
        read.set(index);
  });
  for (auto [index, operand] : llvm::enumerate(layoutOperands))
    if (!read.test(index))
      return op->emitOpError()
             << "layout operand #" << index << " (" << operand.getType()
             << ") is read by no layout (the layout is " << layout
             << "; #attic.documents reads its query_ids and key_ids "
                "operands): name it in the layout or remove it";
  return success();
}

/// Verifies the four block lists: [B', H', nQB] and [B', H', nQB, L] of i32,
/// with B' in {1, B}, H' in {1, Hq} and nQB = ceil(Nq / blockQ).
static LogicalResult verifyBlockLists(Operation *op, ValueRange lists,
                                      ShapedType query, int64_t blockQ) {
  const char *names[] = {"kv_num_blocks", "kv_indices", "full_kv_num_blocks",
                         "full_kv_indices"};
  int64_t b = query.getDimSize(0), h = query.getDimSize(1);
  int64_t nq = query.getDimSize(2);
  int64_t nqb = ShapedType::isDynamic(nq) ? ShapedType::kDynamic
                                          : nq / blockQ + (nq % blockQ != 0);
  auto fits = [](int64_t actual, int64_t expected) {
    return ShapedType::isDynamic(actual) || ShapedType::isDynamic(expected) ||
           actual == expected;
  };
  for (auto [i, list] : llvm::enumerate(lists)) {
    auto type = cast<ShapedType>(list.getType());
    int64_t rank = i % 2 == 0 ? 3 : 4;
    if (!type.getElementType().isInteger(32))
      return op->emitOpError() << names[i] << " must hold i32, got "
                               << type.getElementType();
    if (type.getRank() != rank)
      return op->emitOpError()
             << names[i] << " must have rank " << rank
             << (rank == 3 ? " ([B|1, Hq|1, ceil(Nq/block_q)])"
                           : " ([B|1, Hq|1, ceil(Nq/block_q), L])")
             << ", got " << type;
    int64_t lb = type.getDimSize(0), lh = type.getDimSize(1);
    if (!(fits(lb, 1) && lb == 1) && !fits(lb, b))
      return op->emitOpError() << names[i] << " has " << lb
                               << " batch rows but B is " << b
                               << " (it must be 1 or B)";
    if (!(fits(lh, 1) && lh == 1) && !fits(lh, h))
      return op->emitOpError() << names[i] << " has " << lh
                               << " heads but Hq is " << h
                               << " (it must be 1 or Hq)";
    if (!fits(type.getDimSize(2), nqb))
      return op->emitOpError()
             << names[i] << " has " << type.getDimSize(2)
             << " query blocks but ceil(Nq/block_q) = ceil(" << nq << "/"
             << blockQ << ") = " << nqb;
  }
  auto dims = [&](Value v) { return cast<ShapedType>(v.getType()).getShape(); };
  for (int i = 1; i < 4; ++i)
    for (int d = 0; d < 2; ++d)
      if (!(ShapedType::isDynamic(dims(lists[i])[d]) ||
            ShapedType::isDynamic(dims(lists[0])[d]) ||
            dims(lists[i])[d] == dims(lists[0])[d]))
        return op->emitOpError()
               << names[i] << " has shape " << attic::detail::formatShape(dims(lists[i]))
               << " but kv_num_blocks has "
               << attic::detail::formatShape(dims(lists[0]))
               << ": the lists must share their batch and head dims";
  return success();
}

/// The attic.block_mask a block list comes from, through casts (which may
/// hide its shape), and the list as that op gives it; a null op if the
/// list has another source.
static std::pair<BlockMaskOp, Value> listSource(Value list) {
  while (auto cast = list.getDefiningOp<tensor::CastOp>())
    list = cast.getSource();
  return {list.getDefiningOp<BlockMaskOp>(), list};
}

/// Lists with one batch or head row stand for every batch or head. Where
/// the op's own layout or mask region differs between heads (or batches),
/// their full blocks would be the first head's for all: #attic.random with
/// lists of H' = 1 from attic.block_mask gave heads 1-3 head 0's random
/// blocks, without a word (a 2026-11-30 audit).
static LogicalResult verifyListsBroadcast(Operation *op, ArrayRef<Value> lists,
                                          ShapedType query,
                                          LayoutAttrInterface layout,
                                          Region &maskRegion) {
  auto counts = cast<ShapedType>(lists[0].getType());
  for (int dim = 0; dim < 2; ++dim) {
    int64_t n = query.getDimSize(dim);
    if (ShapedType::isDynamic(n) || n <= 1)
      continue;
    StringRef what = dim == 0 ? "batch" : "head";
    // The lists of an attic.block_mask in view (through casts, which may
    // hide the one row): one row of a layout or mask region that depends
    // on the batch or head is the first one's (as create_block_mask with B
    // or H None). An attention without a layout of its own gave head 0's
    // #attic.random blocks to all four heads, without a word (an audit).
    for (Value list : lists) {
      auto [mask, source] = listSource(list);
      if (!mask || cast<ShapedType>(source.getType()).getDimSize(dim) != 1)
        continue;
      LayoutAttrInterface maskLayout = mask.getLayout();
      bool byMaskLayout =
          dim == 0 ? maskLayout.dependsOnBatch() : maskLayout.dependsOnHead();
      Region &region = mask.getMaskRegion();
      bool byMaskRegion =
          !region.empty() && !region.front().getArgument(dim).use_empty();
      if (byMaskLayout || byMaskRegion)
        return op->emitOpError()
               << "has block lists with one " << what
               << " row, which stand for "
               << "all " << n << " " << (dim == 0 ? "batches" : "heads")
               << ", from an attic.block_mask whose "
               << (byMaskLayout ? "layout" : "mask region")
               << " depends on the " << what << ": they hold the first " << what
               << "'s blocks only"
               << "; give that attic.block_mask outs with " << n << " " << what
               << " rows";
    }
    if (counts.getDimSize(dim) != 1)
      continue;
    bool byLayout =
        layout && (dim == 0 ? layout.dependsOnBatch() : layout.dependsOnHead());
    // The mask region's block arguments are (b, h, q, k).
    bool byRegion =
        !maskRegion.empty() && !maskRegion.front().getArgument(dim).use_empty();
    if (byLayout || byRegion)
      return op->emitOpError()
             << "has block lists with one " << what << " row, which stand for "
             << "all " << n << " " << (dim == 0 ? "batches" : "heads")
             << ", but its " << (byLayout ? "layout" : "mask region")
             << " depends on the " << what << ": the lists' full blocks would "
             << "be the first " << what << "'s for every " << what
             << "; give lists with " << n << " " << what
             << " rows (attic.block_mask with outs of that shape)";
  }
  return success();
}

/// Lists straight from an attic.block_mask (through casts) must be of the
/// consumer's blocks and lengths: the consumer reads them at its own
/// block_q and block_k, so a block_mask of 16x16 blocks read as 16x8 lost
/// keys 32-63, and one of key_len 32 for Nk = 64 lost the second half,
/// with exit 0 and --check ok (FlexAttention's BlockMask carries its block
/// size; an audit).
static LogicalResult verifyListsProducer(Operation *op, ArrayRef<Value> lists,
                                         int64_t blockQ, int64_t blockK,
                                         ShapedType query, ShapedType key) {
  for (Value list : lists) {
    BlockMaskOp mask = listSource(list).first;
    if (!mask)
      continue;
    if (int64_t(mask.getBlockQ()) != blockQ ||
        int64_t(mask.getBlockK()) != blockK)
      return op->emitOpError()
             << "reads its block lists in blocks of " << blockQ << "x" << blockK
             << ", but they come from an attic.block_mask of "
             << mask.getBlockQ() << "x" << mask.getBlockK()
             << " blocks; give both the same block sizes";
    for (auto [what, length, shaped] :
         {std::tuple<StringRef, Value, ShapedType>{"query_len",
                                                   mask.getQueryLen(), query},
          std::tuple<StringRef, Value, ShapedType>{"key_len", mask.getKeyLen(),
                                                   key}}) {
      APInt value;
      int64_t n = shaped.getDimSize(2);
      if (ShapedType::isDynamic(n) ||
          !matchPattern(length, m_ConstantInt(&value)) ||
          value.getSExtValue() == n)
        continue;
      return op->emitOpError()
             << "has " << (what == "query_len" ? "Nq" : "Nk") << " = " << n
             << ", but its block lists come from an attic.block_mask with "
             << what << " " << value.getSExtValue()
             << "; give the attic.block_mask the attention's lengths";
    }
  }
  return success();
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
  return attic::detail::defaultScale(getQuery().getType());
}

LayoutAttrInterface AttentionOp::getEffectiveLayout() {
  MLIRContext *ctx = getContext();
  LayoutAttrInterface layout = getLayoutAttr();
  if (!layout)
    layout = DenseLayoutAttr::get(ctx);
  if (!getCausal())
    return layout;
  auto causal = CausalLayoutAttr::get(ctx, Alignment::TopLeft);
  if (isa<DenseLayoutAttr>(layout))
    return causal;
  return IntersectLayoutAttr::get(
      ctx, ArrayAttr::get(ctx, {causal, layout}));
}

LogicalResult AttentionOp::verify() {
  // The memref form's attributes on the tensor form were ignored without a
  // word (the compiled code and the --check reference both skipped them).
  for (StringRef name : {"mask_fn", "score_fn"})
    if ((*this)->hasAttr(name))
      return emitOpError("takes its modifiers as regions (mask_mod, "
                         "score_mod); '")
             << name << "' names a function only on attic.block_attention";
  if (failed(verifyAttentionOperands(
          *this, getQuery().getType(), getKey().getType(),
          getValue().getType(), optionalShapedType(getKeyBias()),
          optionalShapedType(getKeyMask()), getResult().getType(), "result")))
    return failure();
  // Memrefs are for block_attention's memref form: here they verified, and
  // attic-decompose then made a block_mask or block_attention of tensors
  // and memrefs that failed its verifier (an audit).
  for (auto [what, operands] :
       {std::pair<StringRef, OperandRange>{"layout operand",
                                           getLayoutOperands()},
        std::pair<StringRef, OperandRange>{"capture", getCaptures()}})
    for (auto [i, operand] : llvm::enumerate(operands))
      if (isa<MemRefType>(operand.getType()))
        return emitOpError("takes tensors, but ")
               << what << " #" << i << " is " << operand.getType()
               << " (memrefs are for attic.block_attention's memref form)";
  int64_t blockQ = 0, blockK = 0;
  std::optional<ArrayRef<int64_t>> sizes = getBlockSizes();
  if (getKvNumBlocks() || sizes) {
    if (!sizes || sizes->size() != 2 || (*sizes)[0] <= 0 || (*sizes)[1] <= 0)
      return emitOpError("block_sizes must be two positive sizes [block_q, "
                         "block_k] (")
             << (getKvNumBlocks() ? "the blocks of the lists"
                                  : "the tile sizes")
             << ")";
    blockQ = (*sizes)[0];
    blockK = (*sizes)[1];
    if (blockQ > 1024 || blockK > 1024)
      return emitOpError("block_sizes must be at most 1024, got ")
             << blockQ << " and " << blockK;
  }
  if (getKvNumBlocks() &&
      (failed(verifyBlockLists(*this,
                               {getKvNumBlocks(), getKvIndices(),
                                getFullKvNumBlocks(), getFullKvIndices()},
                               getQuery().getType(), blockQ)) ||
       failed(verifyListsBroadcast(*this,
                                   {getKvNumBlocks(), getKvIndices(),
                                    getFullKvNumBlocks(), getFullKvIndices()},
                                   getQuery().getType(), getEffectiveLayout(),
                                   getMaskRegion())) ||
       failed(verifyListsProducer(*this,
                                  {getKvNumBlocks(), getKvIndices(),
                                   getFullKvNumBlocks(), getFullKvIndices()},
                                  blockQ, blockK, getQuery().getType(),
                                  getKey().getType()))))
    return failure();
  if (failed(verifyLayoutOf(*this, getEffectiveLayout(), getQuery().getType(),
                            getKey().getType(), getLayoutOperands(), blockQ,
                            blockK)))
    return failure();
  if (failed(verifyModifierRegion(*this, getMaskRegion(), ModifierKind::Mask,
                                  getCaptures())) ||
      failed(verifyModifierRegion(*this, getScoreRegion(), ModifierKind::Score,
                                  getCaptures())))
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
  for (Value v : {getKeyBias(), getKeyMask(), getKvNumBlocks(), getKvIndices(),
                  getFullKvNumBlocks(), getFullKvIndices(), getLseInit(),
                  getPoolWeights(), getPoolInit()})
    if (v)
      operands.push_back(v);
  llvm::append_range(operands, getLayoutOperands());
  llvm::append_range(operands, getCaptures());
  bool onTensors = isa<RankedTensorType>(getInit().getType());
  for (Value operand : operands)
    if (isa<RankedTensorType>(operand.getType()) != onTensors)
      return emitOpError("operands must be all tensors or all memrefs, but ")
             << (onTensors ? "init is a tensor and an operand is "
                           : "init is a memref and an operand is ")
             << operand.getType();
  if (static_cast<bool>(getPoolWeights()) != static_cast<bool>(getPoolInit()))
    return emitOpError("pool weights and the pool destination come together; "
                       "got only the ")
           << (getPoolWeights() ? "weights" : "destination");
  if (onTensors) {
    SmallVector<Type> expected;
    for (OpOperand &init : getDpsInitsMutable())
      expected.push_back(init.get().getType());
    if (TypeRange(getResult().getTypes()) != TypeRange(expected)) {
      InFlightDiagnostic diag = emitOpError("on tensors, expects ")
                                << expected.size()
                                << " result(s) of the destination types (init";
      if (getLseInit())
        diag << ", lse";
      if (getPoolInit())
        diag << ", pool";
      diag << ") ";
      llvm::interleaveComma(expected, diag);
      return diag;
    }
  } else if (!getResult().empty()) {
    return emitOpError("on memrefs, expects no result (init is written)");
  }
  // The operands' shapes first: the lse and pool checks read init's dims.
  // The kernels keep one block of logits per row in registers and L1.
  constexpr int64_t kMaxBlock = 1024;
  if (getBlockQ() > kMaxBlock || getBlockK() > kMaxBlock)
    return emitOpError("block_q and block_k must be at most ")
           << kMaxBlock << ", got " << getBlockQ() << " and " << getBlockK();
  auto queryType = cast<ShapedType>(getQuery().getType());
  auto keyType = cast<ShapedType>(getKey().getType());
  if (failed(verifyAttentionOperands(
          *this, queryType, keyType, cast<ShapedType>(getValue().getType()),
          optionalShapedType(getKeyBias()), optionalShapedType(getKeyMask()),
          cast<ShapedType>(getInit().getType()), "init")))
    return failure();
  if (Value lse = getLseInit()) {
    auto lseType = cast<ShapedType>(lse.getType());
    auto initType = cast<ShapedType>(getInit().getType());
    auto agrees = [](int64_t a, int64_t b) {
      return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
    };
    if (lseType.getRank() != 3 || !lseType.getElementType().isF32() ||
        !agrees(lseType.getDimSize(0), initType.getDimSize(0)) ||
        !agrees(lseType.getDimSize(1), initType.getDimSize(1)) ||
        !agrees(lseType.getDimSize(2), initType.getDimSize(2)))
    {
      InFlightDiagnostic diag = emitOpError("lse must be [B,Hq,Nq] = [");
      for (int64_t d = 0; d < 3; ++d) {
        int64_t size = initType.getDimSize(d);
        diag << (d ? "," : "");
        if (ShapedType::isDynamic(size))
          diag << "?";
        else
          diag << size;
      }
      return diag << "] of f32 (the init's leading dims), got "
                  << lse.getType();
    }
  }
  if (Value weights = getPoolWeights()) {
    auto weightsType = cast<ShapedType>(weights.getType());
    auto poolType = cast<ShapedType>(getPoolInit().getType());
    auto initType = cast<ShapedType>(getInit().getType());
    auto agrees = [](int64_t a, int64_t b) {
      return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
    };
    auto dims = [](ArrayRef<int64_t> sizes) {
      std::string text = "[";
      for (auto [i, size] : llvm::enumerate(sizes))
        text += (i ? "," : "") +
                (ShapedType::isDynamic(size) ? std::string("?")
                                             : std::to_string(size));
      return text + "]";
    };
    int64_t nq = initType.getDimSize(2), blockQ = getBlockQ();
    int64_t blocks = ShapedType::isDynamic(nq)
                         ? ShapedType::kDynamic
                         : nq / blockQ + (nq % blockQ != 0);
    if (weightsType.getRank() != 2 || !weightsType.getElementType().isF32() ||
        !agrees(weightsType.getDimSize(0), initType.getDimSize(0)) ||
        !agrees(weightsType.getDimSize(1), nq))
      return emitOpError("pool weights must be [B,Nq] = ")
             << dims({initType.getDimSize(0), nq}) << " of f32, got "
             << weights.getType();
    SmallVector<int64_t> expected = {initType.getDimSize(0),
                                     initType.getDimSize(1), blocks,
                                     initType.getDimSize(3)};
    bool fits = poolType.getRank() == 4 && poolType.getElementType().isF32();
    for (int64_t d = 0; fits && d < 4; ++d)
      fits = agrees(poolType.getDimSize(d), expected[d]);
    if (!fits)
      return emitOpError("pool must be [B,Hq,ceil(Nq/block_q),Dv] = ")
             << dims(expected) << " of f32 (block_q = " << blockQ << "), got "
             << getPoolInit().getType();
  }
  bool someList = getKvNumBlocks() || getKvIndices() || getFullKvNumBlocks() ||
                  getFullKvIndices();
  if (someList) {
    if (!(getKvNumBlocks() && getKvIndices() && getFullKvNumBlocks() &&
          getFullKvIndices()))
      return emitOpError("block lists come as four operands (kv_num_blocks, "
                         "kv_indices, full_kv_num_blocks, full_kv_indices)");
    if (failed(verifyBlockLists(*this,
                                {getKvNumBlocks(), getKvIndices(),
                                 getFullKvNumBlocks(), getFullKvIndices()},
                                queryType, getBlockQ())) ||
        failed(verifyListsBroadcast(*this,
                                    {getKvNumBlocks(), getKvIndices(),
                                     getFullKvNumBlocks(), getFullKvIndices()},
                                    queryType, getLayout(), getMaskRegion())) ||
        failed(verifyListsProducer(*this,
                                   {getKvNumBlocks(), getKvIndices(),
                                    getFullKvNumBlocks(), getFullKvIndices()},
                                   getBlockQ(), getBlockK(), queryType,
                                   keyType)))
      return failure();
  }
  if (failed(verifyLayoutOf(*this, getLayout(), queryType, keyType,
                            getLayoutOperands(), getBlockQ(), getBlockK())))
    return failure();
  if (failed(verifyModifierRegion(*this, getMaskRegion(), ModifierKind::Mask,
                                  getCaptures())) ||
      failed(verifyModifierRegion(*this, getScoreRegion(), ModifierKind::Score,
                                  getCaptures())))
    return failure();
  return verifyScale(*this, getScale().convertToFloat());
}

/// The modifier regions are not control flow: they are evaluated, as
/// functions, wherever the lowering needs them. For the region-branch
/// interface (which upstream's buffer deallocation requires of ops with
/// regions on buffers) control never enters them; in the memref form it
/// returns to the parent, which has no results.
static void modifierSuccessors(Operation *op, RegionBranchPoint point,
                               SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent() && op->getNumResults() == 0)
    regions.push_back(RegionSuccessor(op, op->getResults()));
}

void BlockAttentionOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
  modifierSuccessors(*this, point, regions);
}

void BlockMaskOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
  modifierSuccessors(*this, point, regions);
}

Region *BlockAttentionOp::getMaskModifier() {
  return lookupModifier(*this, getMaskRegion(), getMaskFnAttr());
}
Region *BlockAttentionOp::getScoreModifier() {
  return lookupModifier(*this, getScoreRegion(), getScoreFnAttr());
}

LogicalResult
BlockAttentionOp::verifySymbolUses(SymbolTableCollection &symbols) {
  bool onTensors = isa<RankedTensorType>(getInit().getType());
  if (!onTensors && (!getMaskRegion().empty() || !getScoreRegion().empty()))
    return emitOpError("on memrefs, the modifiers are functions (mask_fn, "
                       "score_fn), not regions");
  if (failed(verifyModifierFunction(*this, symbols, getMaskFnAttr(),
                                    ModifierKind::Mask, getCaptures(),
                                    onTensors)))
    return failure();
  return verifyModifierFunction(*this, symbols, getScoreFnAttr(),
                                ModifierKind::Score, getCaptures(), onTensors);
}

void BlockAttentionOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!hasPureBufferSemantics())
    return;
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (isDpsInit(&operand))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// BlockMaskOp
//===----------------------------------------------------------------------===//

LogicalResult BlockMaskOp::verify() {
  SmallVector<Value> inits = {getKvNumBlocksInit(), getKvIndicesInit(),
                              getFullKvNumBlocksInit(), getFullKvIndicesInit()};
  bool onTensors = isa<RankedTensorType>(inits[0].getType());
  SmallVector<Value> operands(inits);
  llvm::append_range(operands, getLayoutOperands());
  llvm::append_range(operands, getCaptures());
  for (Value operand : operands)
    if (isa<RankedTensorType>(operand.getType()) != onTensors)
      return emitOpError("operands must be all tensors or all memrefs, but ")
             << (onTensors ? "the lists are tensors and an operand is "
                           : "the lists are memrefs and an operand is ")
             << operand.getType();
  if (onTensors) {
    if (getResults().size() != 4)
      return emitOpError("on tensors, expects the four lists as results");
    for (auto [r, init] : llvm::zip(getResults(), inits))
      if (r.getType() != init.getType())
        return emitOpError("result type ")
               << r.getType() << " differs from its destination's "
               << init.getType();
  } else if (!getResults().empty()) {
    return emitOpError("on memrefs, expects no results (the lists are written)");
  }
  if (getBlockQ() > 1024 || getBlockK() > 1024)
    return emitOpError("block_q and block_k must be at most 1024, got ")
           << getBlockQ() << " and " << getBlockK();
  // The lists give B' and H'; the lengths are operands.
  auto num = cast<ShapedType>(inits[0].getType());
  if (num.getRank() != 3)
    return emitOpError("kv_num_blocks must have rank 3 ([B', H', "
                       "ceil(query_len/block_q)]), got ")
           << num;
  int64_t nq = ShapedType::kDynamic, nk = ShapedType::kDynamic;
  APInt value;
  if (matchPattern(getQueryLen(), m_ConstantInt(&value)))
    nq = value.getSExtValue();
  if (matchPattern(getKeyLen(), m_ConstantInt(&value)))
    nk = value.getSExtValue();
  if ((!ShapedType::isDynamic(nq) && nq < 0) ||
      (!ShapedType::isDynamic(nk) && nk < 0))
    return emitOpError("query_len and key_len must be >= 0, got ")
           << nq << " and " << nk;
  auto pseudoQuery = RankedTensorType::get(
      {num.getDimSize(0), num.getDimSize(1), nq, ShapedType::kDynamic},
      Float32Type::get(getContext()));
  auto pseudoKey = RankedTensorType::get(
      {num.getDimSize(0), ShapedType::kDynamic, nk, ShapedType::kDynamic},
      Float32Type::get(getContext()));
  if (failed(verifyBlockLists(*this, inits, pseudoQuery, getBlockQ())))
    return failure();
  if (failed(verifyLayoutOf(*this, getLayout(), pseudoQuery, pseudoKey,
                            getLayoutOperands(), getBlockQ(), getBlockK())))
    return failure();
  return verifyModifierRegion(*this, getMaskRegion(), ModifierKind::Mask,
                              getCaptures());
}

Region *BlockMaskOp::getMaskModifier() {
  return lookupModifier(*this, getMaskRegion(), getMaskFnAttr());
}

LogicalResult BlockMaskOp::verifySymbolUses(SymbolTableCollection &symbols) {
  bool onTensors = isa<RankedTensorType>(getKvNumBlocksInit().getType());
  if (!onTensors && !getMaskRegion().empty())
    return emitOpError("on memrefs, the mask modifier is a function "
                       "(mask_fn), not a region");
  return verifyModifierFunction(*this, symbols, getMaskFnAttr(),
                                ModifierKind::Mask, getCaptures(), onTensors);
}

void BlockMaskOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!hasPureBufferSemantics())
    return;
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (isDpsInit(&operand))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// Modifier regions: custom<ModifierRegion>
//===----------------------------------------------------------------------===//

/// Parses a modifier region (mask_mod, score_mod) and rejects a value of the
/// region that a use outside it already refers to. MLIR's parser resolves a
/// forward reference (`%d` used before any definition) with the first later
/// definition of that name in the same isolated scope, even one in a nested
/// region. The verifier would reject such IR, but on a parse error the
/// ODS-generated parser frees the region before the outside user, which
/// then writes into freed memory when it is destroyed (heap corruption,
/// found by the MLIR fuzzer, 2026-11-26; upstream ops with regions in their
/// assembly format, tensor.generate for one, share the bug). Here those
/// uses are dropped and the parse fails with an error, so that nothing
/// outside the region points into it when it is freed.
static ParseResult parseModifierRegion(OpAsmParser &parser, Region &region) {
  SMLoc loc = parser.getCurrentLocation();
  // The ops with modifier regions are isolated from above, so the region
  // is its own name scope: `^bb0(%b: index, %h: index, %q: index, ...)`
  // next to a function argument %q is not a redefinition.
  ParseResult parsed = parser.parseRegion(region, /*arguments=*/{},
                                          /*enableNameShadowing=*/true);
  bool escaped = false;
  // Region::isAncestor cannot be used: the regions being parsed are not
  // attached to operations yet, and it asserts (or reads through a null
  // pointer) at a detached region.
  auto isInside = [&](Operation *op) {
    for (Region *r = op->getParentRegion(); r;) {
      if (r == &region)
        return true;
      Operation *parent = r->getParentOp();
      r = parent ? parent->getParentRegion() : nullptr;
    }
    return false;
  };
  auto dropOutsideUses = [&](Value value) {
    for (OpOperand &use : llvm::make_early_inc_range(value.getUses()))
      if (!isInside(use.getOwner())) {
        use.drop();
        escaped = true;
      }
  };
  region.walk([&](Operation *op) {
    for (Value result : op->getResults())
      dropOutsideUses(result);
    for (Region &nested : op->getRegions())
      for (Block &block : nested)
        for (BlockArgument argument : block.getArguments())
          dropOutsideUses(argument);
  });
  for (Block &block : region)
    for (BlockArgument argument : block.getArguments())
      dropOutsideUses(argument);
  if (escaped && succeeded(parsed))
    return parser.emitError(loc, "a value defined in this region is used "
                                 "outside it, before its definition");
  // The declarative format takes mask_mod before score_mod; a mask_mod
  // after a region would otherwise read as "expected ':'".
  SMLoc next = parser.getCurrentLocation();
  if (succeeded(parsed) && succeeded(parser.parseOptionalKeyword("mask_mod")))
    return parser.emitError(next, "'mask_mod' must come before 'score_mod', "
                                  "and at most once");
  return parsed;
}

static void printModifierRegion(OpAsmPrinter &printer, Operation *,
                                Region &region) {
  printer.printRegion(region);
}

//===----------------------------------------------------------------------===//
// Keyword attributes: custom<KeywordAttrs>(ref(attr-dict), names)
//===----------------------------------------------------------------------===//

/// Refuses, in the attribute dictionary of an op's custom form, the
/// attributes that the form writes otherwise: `keywordNames` (`scale 0.5`,
/// `layout(#attic.causal)`, `kind max`, ...) and `operandSegmentSizes`,
/// which the form derives from the operands. The ODS-generated parser
/// stores both ways in one OperationState, and the dictionary's value
/// silently replaced the keyword's when the op was created
/// (`scale 0.5 {scale = 2.0 : f32}` ran with 2, `layout(#attic.causal)
/// {layout = #attic.dense}` ran dense). The generic form (`<{...}>`) is
/// unchanged. Printing needs nothing: the generated printer elides these
/// names from the dictionary.
static ParseResult parseKeywordAttrs(OpAsmParser &parser, NamedAttrList &attrs,
                                     ArrayRef<StringLiteral> keywordNames) {
  for (NamedAttribute attr : attrs) {
    StringRef name = attr.getName().getValue();
    if (name == "operandSegmentSizes")
      return parser.emitError(parser.getNameLoc())
             << "`operandSegmentSizes` is derived from the operands; it "
                "cannot be given in the attribute dictionary";
    if (llvm::is_contained(keywordNames, name))
      return parser.emitError(parser.getNameLoc())
             << "`" << name
             << "` is written with its keyword before the attribute "
                "dictionary, not in it (the dictionary's value would "
                "replace the keyword's)";
  }
  // A modifier region where the syntax takes none ended the op, and the
  // parser then read the region's keyword as the next op: "custom op
  // 'score_mod' is unknown", or "cannot name an operation with no results"
  // (a 2026-12-02 audit, a score_mod on attic.block_mask).
  for (StringLiteral region :
       {StringLiteral("mask_mod"), StringLiteral("score_mod")}) {
    SMLoc loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword(region)))
      return parser.emitError(loc)
             << "`" << region
             << "` is not accepted here: the modifier regions come before "
                "the attribute dictionary, `mask_mod` then `score_mod`, "
                "each at most once (attic.block_mask takes only `mask_mod`, "
                "and ops without modifiers take neither)";
  }
  return success();
}

static void printKeywordAttrs(OpAsmPrinter &, Operation *, DictionaryAttr,
                              ArrayRef<StringLiteral>) {}

#define GET_OP_CLASSES
#include "AtticOps.cpp.inc"

//===----------------------------------------------------------------------===//
// AttentionOp canonicalization
//===----------------------------------------------------------------------===//

namespace {
/// Sets `operands` to the operands of `op`, each `tensor.cast` that
/// canonicalization may fold (it erases static sizes) replaced by its
/// source, the captures' too (retypeCaptureArguments then gives the
/// regions' arguments their new types). Returns whether a cast was folded.
bool foldOperandCasts(Operation *op, SmallVectorImpl<Value> &operands) {
  bool changed = false;
  for (Value operand : op->getOperands()) {
    auto cast = operand.getDefiningOp<tensor::CastOp>();
    if (cast && tensor::canFoldIntoConsumerOp(cast)) {
      operands.push_back(cast.getSource());
      changed = true;
    } else {
      operands.push_back(operand);
    }
  }
  return changed;
}

/// The modifier regions of `op` (moved from the op it replaces) read the
/// captures through their trailing block arguments, which must have the
/// captures' types: gives them the (more static) types of `captures`. Their
/// users are tensor.extract and tensor.dim, whose results do not change.
void retypeCaptureArguments(Operation *op, ValueRange captures) {
  for (Region &region : op->getRegions()) {
    if (region.empty())
      continue;
    Block &body = region.front();
    if (body.getNumArguments() < captures.size())
      continue; // the verifier reports it
    unsigned first = body.getNumArguments() - captures.size();
    for (auto [i, capture] : llvm::enumerate(captures))
      body.getArgument(first + i).setType(capture.getType());
  }
}

/// Folds `tensor.cast`s that erase static sizes into attic.attention, and
/// refines its result type from the (now more static) operands, casting back
/// for the old users. Static sizes then reach the verifier and the lowering.
struct FoldAttentionShapeCasts : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> operands;
    bool changed = foldOperandCasts(op, operands);
    auto shapeOf = [&](Value v) { return cast<ShapedType>(v.getType()).getShape(); };
    auto pick = [](int64_t a, int64_t b) {
      return ShapedType::isDynamic(a) ? b : a;
    };
    ArrayRef<int64_t> q = shapeOf(operands[0]), v = shapeOf(operands[2]);
    ArrayRef<int64_t> k = shapeOf(operands[1]);
    RankedTensorType oldType = op.getResult().getType();
    // Dim 1 is the query heads: key and value may have fewer (GQA).
    SmallVector<int64_t> shape = {pick(q[0], pick(k[0], v[0])), q[1], q[2],
                                  v[3]};
    for (int64_t d = 0; d < 4; ++d)
      shape[d] = pick(oldType.getDimSize(d), shape[d]);
    auto newType = RankedTensorType::get(shape, oldType.getElementType());
    if (!changed && newType == oldType)
      return failure();
    auto newOp = AttentionOp::create(rewriter, op.getLoc(), TypeRange{newType},
                                     operands, op->getAttrs());
    rewriter.inlineRegionBefore(op.getMaskRegion(), newOp.getMaskRegion(),
                                newOp.getMaskRegion().end());
    rewriter.inlineRegionBefore(op.getScoreRegion(), newOp.getScoreRegion(),
                                newOp.getScoreRegion().end());
    rewriter.modifyOpInPlace(
        newOp, [&] { retypeCaptureArguments(newOp, newOp.getCaptures()); });
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

//===----------------------------------------------------------------------===//
// BlockAttentionOp and BlockMaskOp canonicalization
//===----------------------------------------------------------------------===//

namespace {
/// Folds `tensor.cast`s that erase static sizes into the operands of a
/// destination-style attic op on tensors, its captures included (their
/// region arguments take the new types); the results take the new
/// destination types and are cast back for the old users. It runs before
/// upstream's generic fold of casts into destination-style ops (tensor
/// dialect canonicalization, benefit 1) and leaves it no cast to fold:
/// that pattern clones the op's regions through
/// OpBuilder::cloneRegionBefore, which crashes on an empty region and, on a
/// region that reads captures, segfaults or leaves the region's arguments
/// with the captures' old types (a capture cast it folded: "region argument
/// #4 must have the type of capture #0").
template <typename OpTy>
struct FoldDestinationShapeCasts : OpRewritePattern<OpTy> {
  FoldDestinationShapeCasts(MLIRContext *ctx)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    SmallVector<Value> operands;
    bool changed = foldOperandCasts(op, operands);
    if (!changed)
      return failure();
    SmallVector<Type> resultTypes;
    for (OpOperand &init : op.getDpsInitsMutable())
      resultTypes.push_back(operands[init.getOperandNumber()].getType());
    OperationState state(op.getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    for (unsigned i = 0; i < op->getNumRegions(); ++i)
      state.addRegion();
    Operation *newOp = rewriter.create(state);
    for (unsigned i = 0; i < op->getNumRegions(); ++i)
      rewriter.inlineRegionBefore(op->getRegion(i), newOp->getRegion(i),
                                  newOp->getRegion(i).end());
    rewriter.modifyOpInPlace(newOp, [&] {
      retypeCaptureArguments(newOp, cast<OpTy>(newOp).getCaptures());
    });
    SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op->getResults(), newOp->getResults()))
      results.push_back(old.getType() == now.getType()
                            ? Value(now)
                            : tensor::CastOp::create(rewriter, op.getLoc(),
                                                     old.getType(), now)
                                  .getResult());
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void BlockAttentionOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<FoldDestinationShapeCasts<BlockAttentionOp>>(context);
}

void BlockMaskOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<FoldDestinationShapeCasts<BlockMaskOp>>(context);
}
