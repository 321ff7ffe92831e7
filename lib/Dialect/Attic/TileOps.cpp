//===- TileOps.cpp - the tile loop's ops -------------------------*- C++ -*-===//
//
// Verifiers and builders of the attic.tile ops (dialects/AtticTileOps.td).
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "ShapeChecks.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <cmath>

using namespace mlir;
using namespace attic;

namespace {

int64_t dimOf(Value v, int64_t d) {
  return cast<ShapedType>(v.getType()).getDimSize(d);
}

bool mismatch(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

/// Builds the body block of a tile map: `indexArgs` index arguments, then
/// one scalar per operand (its element type); `body` returns the yields.
void buildMapBody(
    OpBuilder &builder, OperationState &state, Region *region,
    int64_t indexArgs, ValueRange operands,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Type> types(indexArgs, builder.getIndexType());
  for (Value v : operands)
    types.push_back(cast<ShapedType>(v.getType()).getElementType());
  SmallVector<Location> locs(types.size(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  Block *block = builder.createBlock(region, {}, types, locs);
  builder.setInsertionPointToStart(block);
  SmallVector<Value> yields = body(builder, state.location,
                                   block->getArguments());
  TileYieldOp::create(builder, state.location, yields);
}

/// Checks the region of a tile map: `indexArgs` index arguments, then the
/// element types of `operands`, and a yield of the `outputs`' element types.
LogicalResult verifyMapBody(Operation *op, Region &region, int64_t indexArgs,
                            ValueRange operands, ValueRange outputs) {
  Block &block = region.front();
  SmallVector<Type> expected(indexArgs, IndexType::get(op->getContext()));
  for (Value v : operands)
    expected.push_back(cast<ShapedType>(v.getType()).getElementType());
  if (block.getNumArguments() != expected.size())
    return op->emitOpError("region must take ")
           << expected.size() << " arguments (" << indexArgs
           << " index, then one element per operand), got "
           << block.getNumArguments();
  for (auto [i, arg, type] : llvm::enumerate(block.getArgumentTypes(),
                                             expected))
    if (arg != type)
      return op->emitOpError("region argument #")
             << i << " must be " << type << ", got " << arg;
  auto yield = dyn_cast_or_null<TileYieldOp>(
      block.empty() ? nullptr : &block.back());
  if (!yield)
    return op->emitOpError("region must end with attic.tile.yield");
  if (yield.getValues().size() != outputs.size())
    return op->emitOpError("region must yield one value per output (")
           << outputs.size() << "), got " << yield.getValues().size();
  for (auto [i, v, out] : llvm::enumerate(yield.getValues(), outputs)) {
    Type type = cast<ShapedType>(out.getType()).getElementType();
    if (v.getType() != type)
      return op->emitOpError("yielded value #")
             << i << " must be " << type << " (the element type of output #"
             << i << "), got " << v.getType();
  }
  if (outputs.empty())
    return op->emitOpError("needs at least one output");
  return success();
}

/// All of `tiles` have `size` elements along `dim`.
LogicalResult verifySizes(Operation *op, StringRef what, ValueRange tiles,
                          int64_t dim, int64_t size, StringRef sizeName) {
  for (Value t : tiles)
    if (mismatch(dimOf(t, dim), size))
      return op->emitOpError()
             << what << " " << t.getType() << " has " << dimOf(t, dim)
             << " elements along dim " << dim << " but " << sizeName
             << " is " << size;
  return success();
}

} // namespace

LogicalResult TileQKOp::verify() {
  auto query = getQuery().getType(), key = getKey().getType();
  if (query.getElementType() != key.getElementType())
    return emitOpError("key element type ")
           << key.getElementType() << " differs from query element type "
           << query.getElementType();
  if (mismatch(query.getDimSize(3), key.getDimSize(3)))
    return emitOpError("key has ")
           << key.getDimSize(3) << " columns but query has "
           << query.getDimSize(3);
  if (getOut().getType().isDynamicDim(0) || getOut().getType().isDynamicDim(1))
    return emitOpError("out must be a static R x C tile, got ")
           << getOut().getType();
  if (std::optional<APFloat> scale = getQueryScale()) {
    // A power of two 2^e, -126 <= e <= 0: a normal f32 whose significand
    // is 1.
    float v = scale->convertToFloat();
    int exponent = 0;
    if (!(v > 0.0f) || v > 1.0f || !std::isnormal(v) ||
        std::frexp(v, &exponent) != 0.5f)
      return emitOpError("query_scale must be a power of two 2^e with "
                         "-126 <= e <= 0, got ")
             << v;
  }
  return success();
}

LogicalResult TilePVOp::verify() {
  auto probs = getProbs().getType(), acc = getAcc().getType();
  if (probs.isDynamicDim(0) || probs.isDynamicDim(1))
    return emitOpError("probs must be a static R x C tile, got ") << probs;
  if (mismatch(acc.getDimSize(0), probs.getDimSize(0)) ||
      mismatch(getRescale().getType().getDimSize(0), probs.getDimSize(0)))
    return emitOpError("acc (")
           << acc << ") and rescale (" << getRescale().getType()
           << ") must have the R = " << probs.getDimSize(0)
           << " rows of probs";
  if (mismatch(acc.getDimSize(1), getValue().getType().getDimSize(3)))
    return emitOpError("acc has ")
           << acc.getDimSize(1) << " columns but value has Dv = "
           << getValue().getType().getDimSize(3);
  return success();
}

//===----------------------------------------------------------------------===//
// attic.tile.grid
//===----------------------------------------------------------------------===//

void TileGridOp::build(OpBuilder &builder, OperationState &state, Value batches,
                       Value heads, Value queryBlocks) {
  state.addOperands({batches, heads, queryBlocks});
  Region *region = state.addRegion();
  OpBuilder::InsertionGuard guard(builder);
  Type index = builder.getIndexType();
  Block *block =
      builder.createBlock(region, {}, {index, index, index},
                          {state.location, state.location, state.location});
  builder.setInsertionPointToEnd(block);
  TileYieldOp::create(builder, state.location, ValueRange{});
}

/// `(%b, %h, %qb) in (%nb, %nh, %nqb) attr-dict-with-keyword region`.
ParseResult TileGridOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> ivs;
  SMLoc ivsLoc = parser.getCurrentLocation();
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren))
    return failure();
  if (ivs.size() != 3)
    return parser.emitError(ivsLoc, "expected 3 induction variables (batch, "
                                    "head, query block), got ")
           << ivs.size();
  Type index = parser.getBuilder().getIndexType();
  for (OpAsmParser::Argument &iv : ivs)
    iv.type = index;
  SmallVector<OpAsmParser::UnresolvedOperand> bounds;
  SMLoc boundsLoc;
  if (parser.parseKeyword("in") ||
      (boundsLoc = parser.getCurrentLocation(), false) ||
      parser.parseOperandList(bounds, OpAsmParser::Delimiter::Paren))
    return failure();
  if (bounds.size() != 3)
    return parser.emitError(boundsLoc, "expected 3 bounds (batches, heads, "
                                       "query blocks), got ")
           << bounds.size();
  if (parser.resolveOperands(bounds, index, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *region = result.addRegion();
  if (parser.parseRegion(*region, ivs))
    return failure();
  TileGridOp::ensureTerminator(*region, parser.getBuilder(), result.location);
  return success();
}

void TileGridOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getInductionVars(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") in (" << getBatches() << ", " << getHeads() << ", "
    << getQueryBlocks() << ")";
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p << ' ';
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult TileGridOp::verify() {
  Block *body = getBody();
  if (body->getNumArguments() != 3 ||
      llvm::any_of(body->getArgumentTypes(),
                   [](Type t) { return !t.isIndex(); }))
    return emitOpError("body must take 3 index arguments (batch, head, query "
                       "block), got ")
           << body->getNumArguments();
  if (!cast<TileYieldOp>(body->getTerminator()).getValues().empty())
    return emitOpError("body must end with an attic.tile.yield of no values");
  if (Operation *outer = (*this)->getParentOfType<TileGridOp>())
    return emitOpError("is nested in another tile grid (at ")
           << outer->getLoc()
           << "); the iterations of a grid are its "
              "parallel loop, with no grid inside";
  return success();
}

void TileMapOp::build(
    OpBuilder &builder, OperationState &state, Value rowOffset,
    Value colOffset, ValueRange inputs, ValueRange rows, ValueRange cols,
    ValueRange outputs,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  state.addOperands({rowOffset, colOffset});
  state.addOperands(inputs);
  state.addOperands(rows);
  state.addOperands(cols);
  state.addOperands(outputs);
  state.getOrAddProperties<Properties>().operandSegmentSizes = {
      1, 1, static_cast<int32_t>(inputs.size()),
      static_cast<int32_t>(rows.size()), static_cast<int32_t>(cols.size()),
      static_cast<int32_t>(outputs.size())};
  Region *region = state.addRegion();
  SmallVector<Value> all(inputs);
  llvm::append_range(all, rows);
  llvm::append_range(all, cols);
  llvm::append_range(all, outputs);
  buildMapBody(builder, state, region, 2, all, body);
}

LogicalResult TileMapOp::verify() {
  if (getOutputs().empty())
    return emitOpError("needs at least one output");
  Value first = getOutputs().front();
  int64_t r = dimOf(first, 0), c = dimOf(first, 1);
  if (failed(verifySizes(*this, "output", getOutputs(), 0, r, "R")) ||
      failed(verifySizes(*this, "output", getOutputs(), 1, c, "C")) ||
      failed(verifySizes(*this, "input", getInputs(), 0, r, "R")) ||
      failed(verifySizes(*this, "input", getInputs(), 1, c, "C")) ||
      failed(verifySizes(*this, "row operand", getRows(), 0, r, "R")) ||
      failed(verifySizes(*this, "column operand", getCols(), 0, c, "C")))
    return failure();
  SmallVector<Value> all(getInputs());
  llvm::append_range(all, getRows());
  llvm::append_range(all, getCols());
  llvm::append_range(all, getOutputs());
  return verifyMapBody(*this, getBody(), 2, all, getOutputs());
}

void TileMapRowsOp::build(
    OpBuilder &builder, OperationState &state, Value rowOffset,
    ValueRange inputs, ValueRange outputs,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  state.addOperands(rowOffset);
  state.addOperands(inputs);
  state.addOperands(outputs);
  state.getOrAddProperties<Properties>().operandSegmentSizes = {
      1, static_cast<int32_t>(inputs.size()),
      static_cast<int32_t>(outputs.size())};
  Region *region = state.addRegion();
  SmallVector<Value> all(inputs);
  llvm::append_range(all, outputs);
  buildMapBody(builder, state, region, 1, all, body);
}

LogicalResult TileMapRowsOp::verify() {
  if (getOutputs().empty())
    return emitOpError("needs at least one output");
  int64_t r = dimOf(getOutputs().front(), 0);
  if (failed(verifySizes(*this, "output", getOutputs(), 0, r, "R")) ||
      failed(verifySizes(*this, "input", getInputs(), 0, r, "R")))
    return failure();
  SmallVector<Value> all(getInputs());
  llvm::append_range(all, getOutputs());
  return verifyMapBody(*this, getBody(), 1, all, getOutputs());
}

void TileMapColsOp::build(
    OpBuilder &builder, OperationState &state, Value colOffset,
    ValueRange inputs, ValueRange outputs,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  state.addOperands(colOffset);
  state.addOperands(inputs);
  state.addOperands(outputs);
  state.getOrAddProperties<Properties>().operandSegmentSizes = {
      1, static_cast<int32_t>(inputs.size()),
      static_cast<int32_t>(outputs.size())};
  Region *region = state.addRegion();
  SmallVector<Value> all(inputs);
  llvm::append_range(all, outputs);
  buildMapBody(builder, state, region, 1, all, body);
}

LogicalResult TileMapColsOp::verify() {
  if (getOutputs().empty())
    return emitOpError("needs at least one output");
  int64_t c = dimOf(getOutputs().front(), 0);
  if (failed(verifySizes(*this, "output", getOutputs(), 0, c, "C")) ||
      failed(verifySizes(*this, "input", getInputs(), 0, c, "C")))
    return failure();
  SmallVector<Value> all(getInputs());
  llvm::append_range(all, getOutputs());
  return verifyMapBody(*this, getBody(), 1, all, getOutputs());
}

LogicalResult TileReduceOp::verify() {
  if (mismatch(getInput().getType().getDimSize(0),
               getOut().getType().getDimSize(0)))
    return emitOpError("out has ")
           << getOut().getType().getDimSize(0) << " rows but input has "
           << getInput().getType().getDimSize(0);
  return success();
}

LogicalResult TileStoreOp::verify() {
  MemRefType tile = getTile().getType(), out = getOut().getType();
  if (tile.getRank() == 1) {
    if (out.getRank() != 3 || !out.getElementType().isF32())
      return emitOpError("a 1-D tile (one value per row) goes into a "
                         "[B,H,Nq] f32 out, got ")
             << out;
  } else {
    if (out.getRank() != 4)
      return emitOpError("a 2-D tile goes into a [B,H,Nq,Dv] out, got ")
             << out;
    if (mismatch(tile.getDimSize(1), out.getDimSize(3)))
      return emitOpError("tile has ")
             << tile.getDimSize(1) << " columns but out has Dv = "
             << out.getDimSize(3);
  }
  if (tile.isDynamicDim(0))
    return emitOpError("tile must have a static number of rows, got ")
           << tile;
  return success();
}

LogicalResult TilePoolOp::verify() {
  MemRefType tile = getTile().getType(), stored = getStored().getType(),
             weights = getWeights().getType(), pooled = getPooled().getType();
  if (tile.isDynamicDim(0))
    return emitOpError("tile must have a static number of rows, got ") << tile;
  if (mismatch(tile.getDimSize(1), stored.getDimSize(3)))
    return emitOpError("tile has ")
           << tile.getDimSize(1) << " columns but stored has Dv = "
           << stored.getDimSize(3);
  if (mismatch(weights.getDimSize(0), stored.getDimSize(0)) ||
      mismatch(weights.getDimSize(1), stored.getDimSize(2)))
    return emitOpError("weights must be [B,Nq] of stored ")
           << stored << ", got " << weights;
  int64_t rows = tile.getDimSize(0);
  int64_t blocks = ShapedType::isDynamic(stored.getDimSize(2))
                       ? ShapedType::kDynamic
                       : (stored.getDimSize(2) + rows - 1) / rows;
  if (mismatch(pooled.getDimSize(0), stored.getDimSize(0)) ||
      mismatch(pooled.getDimSize(1), stored.getDimSize(1)) ||
      mismatch(pooled.getDimSize(2), blocks) ||
      mismatch(pooled.getDimSize(3), stored.getDimSize(3)))
    return emitOpError("pooled must be [B,H,ceil(Nq/R),Dv] of stored ")
           << stored << " in blocks of R = " << rows << ", got " << pooled;
  return success();
}
