//===- VccOps.cpp - the VCC tree type and ops -------------------*- C++ -*-===//
//
// !attic.tree and the ops of VIP-token-centric compression (docs/vcc.md):
// assembly format of the type, and the verifiers. The op classes themselves
// are generated into AtticOps.cpp.inc, which AtticOps.cpp includes.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "ShapeChecks.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <string>

using namespace mlir;
using namespace attic;
using attic::detail::checkShape;

/// "[16, 8]"
static std::string formatList(ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(values, os);
  os << ']';
  return text;
}

/// Dim `index` of `type` when it has the expected `rank`, else dynamic
/// (compatible with anything; checkShape then reports the rank).
static int64_t dimAt(ShapedType type, int64_t rank, int64_t index) {
  return type.getRank() == rank ? type.getDimSize(index) : ShapedType::kDynamic;
}

//===----------------------------------------------------------------------===//
// TreeType
//===----------------------------------------------------------------------===//

/// `name` of `type` (static sizes) must have at most 2^40 elements, as the
/// attention ops' operands (checkPositiveShape): past it, sizes of the
/// lowering's tensors wrapped (a 2026-11-30 audit).
static LogicalResult checkElementCap(Operation *op, StringRef name,
                                     RankedTensorType type) {
  if (!type.hasStaticShape() || !attic::detail::elementsAbove(type.getShape()))
    return success();
  return op->emitOpError() << name << " " << type
                           << " must have at most 2^40 = "
                           << attic::detail::kMaxStaticElements << " elements";
}

LogicalResult TreeType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t batch, int64_t rows, int64_t dim,
                               Type elementType, ArrayRef<int64_t> fanouts) {
  if (batch <= 0 || rows <= 0 || dim <= 0)
    return emitError() << "tree sizes BxNCxD must be positive, got " << batch
                       << "x" << rows << "x" << dim;
  if (!elementType.isF32())
    return emitError() << "tree element type must be f32, got " << elementType;
  // The node means of every level, about twice the tokens, are tensors of
  // their own (2^66 elements compiled with exit 0; a 2026-11-30 audit).
  if (attic::detail::elementsAbove({batch, rows, dim}))
    return emitError() << "tree sizes BxNCxD = " << batch << "x" << rows << "x"
                       << dim << " must have at most 2^40 = "
                       << attic::detail::kMaxStaticElements << " elements";
  if (fanouts.empty())
    return emitError() << "tree fanouts must not be empty (the root is at "
                          "level L = number of fanouts >= 1)";
  for (auto [index, fanout] : llvm::enumerate(fanouts))
    if (fanout < 2)
      return emitError() << "tree fanouts[" << index << "] is " << fanout
                         << " but every fanout must be at least 2";
  int64_t product = 1;
  for (int64_t fanout : fanouts)
    if (llvm::MulOverflow(product, fanout, product))
      return emitError() << "fanouts " << formatList(fanouts)
                         << " multiply to more than "
                         << std::numeric_limits<int64_t>::max()
                         << " but the tree has " << rows << " rows";
  if (product != rows)
    return emitError() << "fanouts " << formatList(fanouts) << " multiply to "
                       << product << " but the tree has " << rows << " rows";
  return success();
}

/// `<` BxNCxD `x` element-type `,` `fanouts` `=` `[` f_1, ..., f_L `]` `>`
Type TreeType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> sizes;
  if (parser.parseLess() ||
      parser.parseDimensionList(sizes, /*allowDynamic=*/false,
                                /*withTrailingX=*/true))
    return {};
  if (sizes.size() < 3) {
    // parseDimensionList stops at a sign: name a negative size as such.
    SMLoc sizeLoc = parser.getCurrentLocation();
    int64_t size = 0;
    OptionalParseResult sized = parser.parseOptionalInteger(size);
    if (sized.has_value() && succeeded(*sized)) {
      InFlightDiagnostic diag =
          parser.emitError(sizeLoc, "tree sizes BxNCxD must be positive, got ");
      for (int64_t previous : sizes)
        diag << previous << 'x';
      diag << size;
      return {};
    }
  }
  if (sizes.size() != 3) {
    parser.emitError(loc, "expected three sizes BxNCxD before the element "
                          "type, got ")
        << sizes.size();
    return {};
  }
  Type elementType;
  SmallVector<int64_t> fanouts;
  if (parser.parseType(elementType) || parser.parseComma() ||
      parser.parseKeyword("fanouts") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&] {
                                       return parseIntegerParameter(
                                           parser, fanouts.emplace_back());
                                     }) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<TreeType>(loc, parser.getContext(), sizes[0],
                                     sizes[1], sizes[2], elementType,
                                     ArrayRef<int64_t>(fanouts));
}

void TreeType::print(AsmPrinter &printer) const {
  printer << '<' << getBatch() << 'x' << getRows() << 'x' << getDim() << 'x'
          << getElementType() << ", fanouts = " << formatList(getFanouts())
          << '>';
}

int64_t TreeType::getNodeSize(int64_t level) const {
  assert(level >= 0 && level <= getLevels() && "level out of range");
  int64_t size = 1;
  for (int64_t fanout : getFanouts().take_front(level))
    size *= fanout;
  return size;
}

int64_t TreeType::getNodesAt(int64_t level) const {
  return getRows() / getNodeSize(level);
}

int64_t TreeType::getNodeOffset(int64_t level) const {
  assert(level >= 0 && level <= getLevels() + 1 && "level out of range");
  int64_t offset = 0;
  for (int64_t below = 0; below < level; ++below)
    offset += getNodesAt(below);
  return offset;
}

SmallVector<int64_t>
TreeType::getSelectedNodesPerLevel(ArrayRef<int64_t> budgets) const {
  int64_t levels = getLevels();
  assert(static_cast<int64_t>(budgets.size()) == levels &&
         "one budget per level 1..L");
  // budgets[j - 1] is h_j; tokens are never split (h_0 = 0).
  auto split = [&](int64_t level) {
    return level == 0 ? 0 : budgets[level - 1];
  };
  SmallVector<int64_t> counts;
  // A level-j node is in J when its parent was split and it was not.
  for (int64_t level = 0; level < levels; ++level)
    counts.push_back(getFanouts()[level] * split(level + 1) - split(level));
  // The root is in J unless it was split.
  counts.push_back(1 - split(levels));
  return counts;
}

//===----------------------------------------------------------------------===//
// Shared checks of J
//===----------------------------------------------------------------------===//

/// `nodes` is [B,J] with B of the tree and 1 <= J <= n_c (a partition of
/// the n_c tokens into nodes).
static LogicalResult verifyNodeList(Operation *op, RankedTensorType nodes,
                                    TreeType tree) {
  if (failed(checkShape(op, "nodes", nodes,
                        {{tree.getBatch(), "B", "tree"},
                         {dimAt(nodes, 2, 1), "J", "nodes"}})))
    return failure();
  int64_t count = nodes.getDimSize(1);
  if (count < 1 || count > tree.getRows())
    return op->emitOpError()
           << "nodes has J = " << count << " but a partition of the tree's "
           << tree.getRows() << " tokens has 1 to " << tree.getRows()
           << " nodes";
  return success();
}

//===----------------------------------------------------------------------===//
// VipOrderOp
//===----------------------------------------------------------------------===//

LogicalResult VipOrderOp::verify() {
  RankedTensorType vip = getVip().getType();
  if (vip.getRank() != 2)
    return emitOpError("vip must have rank 2 ([B,N]), got ") << vip;
  if (failed(checkElementCap(*this, "vip", vip)))
    return failure();
  int64_t batch = vip.getDimSize(0), length = vip.getDimSize(1);
  for (auto [name, type] :
       {std::pair<StringRef, RankedTensorType>{"perm", getPerm().getType()},
        {"inverse", getInverse().getType()}})
    if (failed(checkShape(*this, name, type,
                          {{batch, "B", "vip"}, {length, "N", "vip"}})))
      return failure();
  int64_t numVip = getNumVip();
  if (numVip < 1 || numVip > length)
    return emitOpError("num_vip must be in [1, N] = [1, ")
           << length << "], got " << numVip;
  return success();
}

//===----------------------------------------------------------------------===//
// GatherRowsOp
//===----------------------------------------------------------------------===//

LogicalResult GatherRowsOp::verify() {
  RankedTensorType x = getX().getType();
  if (x.getRank() != 2 && x.getRank() != 3)
    return emitOpError("x must have rank 2 ([B,N]) or 3 ([B,N,D]), got ") << x;
  int64_t batch = x.getDimSize(0);
  RankedTensorType indices = getIndices().getType();
  if (failed(checkElementCap(*this, "x", x)) ||
      failed(checkElementCap(*this, "indices", indices)))
    return failure();
  if (failed(checkShape(
          *this, "indices", indices,
          {{batch, "B", "x"}, {dimAt(indices, 2, 1), "M", "indices"}})))
    return failure();
  int64_t rows = indices.getDimSize(1);
  // Indices are clamped to [0, N-1]; without a row there is nothing to
  // clamp to (the compiled code read row -1).
  if (x.getDimSize(1) == 0 && rows > 0 && batch > 0)
    return emitOpError("x has no rows (N = 0) to gather ")
           << rows << " rows from";
  RankedTensorType result = getResult().getType();
  if (result.getElementType() != x.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from x element type "
           << x.getElementType();
  if (x.getRank() == 2)
    return checkShape(*this, "result", result,
                      {{batch, "B", "x"}, {rows, "M", "indices"}});
  return checkShape(
      *this, "result", result,
      {{batch, "B", "x"}, {rows, "M", "indices"}, {x.getDimSize(2), "D", "x"}});
}

//===----------------------------------------------------------------------===//
// TreeBuildOp
//===----------------------------------------------------------------------===//

/// `name` (an epsilon attribute) must be finite and >= 0.
static LogicalResult verifyEps(Operation *op, StringRef name, float value) {
  if (!(value >= 0.0f) || !std::isfinite(value))
    return op->emitOpError() << name << " is " << value
                             << " (expected a finite value >= 0)";
  return success();
}

LogicalResult TreeBuildOp::verify() {
  if (failed(verifyEps(*this, "mean_eps", getMeanEps().convertToFloat())))
    return failure();
  TreeType tree = getTree().getType();
  if (failed(checkShape(*this, "tokens", getTokens().getType(),
                        {{tree.getBatch(), "B", "tree"},
                         {tree.getRows(), "NC", "tree"},
                         {tree.getDim(), "D", "tree"}})))
    return failure();
  return checkShape(
      *this, "valid", getValid().getType(),
      {{tree.getBatch(), "B", "tree"}, {tree.getRows(), "NC", "tree"}});
}

//===----------------------------------------------------------------------===//
// TreeSelectOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> TreeSelectOp::getBudgetValues() {
  return llvm::map_to_vector(
      getBudgets().getAsRange<IntegerAttr>(),
      [](IntegerAttr budget) { return budget.getInt(); });
}

/// budgets = [h_1, ..., h_L] is feasible for Algorithm 1: 0 <= h_L <= 1 and
/// 0 <= h_j <= f_{j+1} * h_{j+1} (the level-j nodes in J when level j is
/// reached are the children of the level-(j+1) nodes split before).
static LogicalResult verifyBudgets(Operation *op, ArrayRef<int64_t> budgets,
                                   TreeType tree) {
  int64_t levels = tree.getLevels();
  ArrayRef<int64_t> fanouts = tree.getFanouts();
  if (static_cast<int64_t>(budgets.size()) != levels)
    return op->emitOpError()
           << "budgets has " << budgets.size()
           << " entries but the tree has L = " << levels << " levels (fanouts "
           << formatList(fanouts)
           << "): one budget h_j per level j = 1..L is expected";
  for (auto [index, budget] : llvm::enumerate(budgets))
    if (budget < 0)
      return op->emitOpError()
             << "budgets[" << index << "] (h_" << index + 1 << ") is " << budget
             << " but a budget must be non-negative";
  if (budgets.back() > 1)
    return op->emitOpError()
           << "budgets[" << levels - 1 << "] (h_" << levels << ") is "
           << budgets.back() << " but level " << levels
           << " has only the root: at most 1 is expected";
  for (int64_t level = levels - 1; level >= 1; --level) {
    int64_t budget = budgets[level - 1];
    int64_t available = fanouts[level] * budgets[level];
    if (budget > available)
      return op->emitOpError()
             << "budgets[" << level - 1 << "] (h_" << level << ") is " << budget
             << " but level " << level << " has only f_" << level + 1 << " * h_"
             << level + 1 << " = " << fanouts[level] << " * " << budgets[level]
             << " = " << available << " nodes in J to split";
  }
  return success();
}

LogicalResult TreeSelectOp::verify() {
  TreeType tree = getTree().getType();
  SmallVector<int64_t> budgets = getBudgetValues();
  if (failed(verifyBudgets(*this, budgets, tree)))
    return failure();

  int64_t heads = getHeads(), dim = tree.getDim();
  if (heads <= 0)
    return emitOpError("heads must be positive, got ") << heads;
  if (dim % heads != 0)
    return emitOpError("heads = ")
           << heads << " does not divide the tree's dim D = " << dim;
  RankedTensorType query = getQuery().getType();
  if (failed(checkShape(*this, "query", query,
                        {{tree.getBatch(), "B", "tree"},
                         {heads, "H", "heads"},
                         {dimAt(query, 4, 2), "NP", "query"},
                         {dim / heads, "DH", "D / heads"}})))
    return failure();
  // The nodes are scored by the VIP queries' attention (the reference
  // refuses NP = 0 too).
  if (query.getDimSize(2) == 0)
    return emitOpError("query has no VIP rows (NP = 0): the nodes are "
                       "scored by the VIP queries' attention");
  if (failed(checkShape(*this, "key_weight", getKeyWeight().getType(),
                        {{dim, "D", "tree"}, {dim, "D", "tree"}})))
    return failure();
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"key_bias", getKeyBias()},
        {"ln_gamma", getLnGamma()},
        {"ln_beta", getLnBeta()}})
    if (failed(checkShape(*this, name, cast<ShapedType>(value.getType()),
                          {{dim, "D", "tree"}})))
      return failure();

  if (failed(attic::detail::verifyPositiveScale(*this, getScale())))
    return failure();
  if (Value mask = getVoteMask())
    if (failed(checkShape(*this, "vote_mask",
                          cast<RankedTensorType>(mask.getType()),
                          {{tree.getBatch(), "B", "tree"},
                           {query.getDimSize(2), "NP", "query"}})))
      return failure();

  RankedTensorType nodes = getNodes().getType();
  if (failed(checkShape(*this, "result", nodes,
                        {{tree.getBatch(), "B", "tree"},
                         {dimAt(nodes, 2, 1), "J", "result"}})))
    return failure();
  SmallVector<int64_t> perLevel = tree.getSelectedNodesPerLevel(budgets);
  int64_t selected = 0;
  for (int64_t count : perLevel)
    selected += count;
  if (nodes.getDimSize(1) != selected)
    return emitOpError("result has J = ")
           << nodes.getDimSize(1)
           << " but 1 + sum_j h_j * (f_j - 1) = " << selected
           << " is expected: budgets " << formatList(budgets) << " leave "
           << formatList(perLevel) << " nodes at levels 0.."
           << tree.getLevels();
  return success();
}

//===----------------------------------------------------------------------===//
// VccCompressOp
//===----------------------------------------------------------------------===//

LogicalResult VccCompressOp::verify() {
  if (failed(verifyEps(*this, "bias_eps", getBiasEps().convertToFloat())))
    return failure();
  TreeType tree = getTree().getType();
  int64_t batch = tree.getBatch(), dim = tree.getDim();
  RankedTensorType vipRows = getVipRows().getType();
  // (Also keeps NP + J below from overflowing.)
  if (failed(checkElementCap(*this, "vip_rows", vipRows)))
    return failure();
  if (failed(checkShape(*this, "vip_rows", vipRows,
                        {{batch, "B", "tree"},
                         {dimAt(vipRows, 3, 1), "NP", "vip_rows"},
                         {dim, "D", "tree"}})))
    return failure();
  RankedTensorType nodes = getNodes().getType();
  if (failed(verifyNodeList(*this, nodes, tree)))
    return failure();
  int64_t rows = vipRows.getDimSize(1) + nodes.getDimSize(1);
  if (failed(checkShape(*this, "compressed", getCompressed().getType(),
                        {{batch, "B", "tree"},
                         {rows, "NP+J", "vip_rows + nodes"},
                         {dim, "D", "tree"}})))
    return failure();
  return checkShape(*this, "key_bias", getKeyBias().getType(),
                    {{batch, "B", "tree"}, {rows, "NP+J", "vip_rows + nodes"}});
}

//===----------------------------------------------------------------------===//
// TreeUpdateOp
//===----------------------------------------------------------------------===//

LogicalResult TreeUpdateOp::verify() {
  if (failed(verifyEps(*this, "mean_eps", getMeanEps().convertToFloat())))
    return failure();
  TreeType tree = getTree().getType();
  RankedTensorType nodes = getNodes().getType();
  if (failed(verifyNodeList(*this, nodes, tree)))
    return failure();
  if (failed(checkShape(*this, "rows", getRows().getType(),
                        {{tree.getBatch(), "B", "tree"},
                         {nodes.getDimSize(1), "J", "nodes"},
                         {tree.getDim(), "D", "tree"}})))
    return failure();
  if (getResult().getType() != tree)
    return emitOpError("result type ")
           << getResult().getType() << " differs from the tree type " << tree;
  return success();
}

//===----------------------------------------------------------------------===//
// TreeMaterializeOp
//===----------------------------------------------------------------------===//

LogicalResult TreeMaterializeOp::verify() {
  TreeType tree = getTree().getType();
  return checkShape(*this, "result", getResult().getType(),
                    {{tree.getBatch(), "B", "tree"},
                     {tree.getRows(), "NC", "tree"},
                     {tree.getDim(), "D", "tree"}});
}
