//===- ExpandVcc.cpp - VCC ops into upstream ops on tensors -----*- C++ -*-===//
//
// attic-expand-vcc: rewrites the VIP-token-centric compression ops
// (docs/vcc.md) into upstream ops on tensors (linalg.generic without inputs,
// tensor.generate, tensor.empty/extract/insert, scf.for with tensor
// iter_args, scf.if, arith, math), before bufferization.
//
// vip_order and gather_rows (no trees) are rewritten in place. Every
// !attic.tree value is replaced by its component tensors (VccLowering.h) by
// upstream's 1:N dialect conversion: a type converter from the tree type to
// the 2L + 3 component types, one OpConversionPattern per tree op (the
// lowering itself in VccTree.cpp and VccSelect.cpp), and the scf structural
// patterns, so that trees may be carried by scf.for/scf.while and chosen by
// scf.if. Uses the conversion cannot replace (function boundaries, other
// ops) are reported before it runs, naming the op.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"

#include "VccLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cmath>
#include <functional>
#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICEXPANDVCC
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

namespace {
//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

using namespace attic::detail;
using Builder = attic::detail::Builder;

//===----------------------------------------------------------------------===//
// Ops without trees
//===----------------------------------------------------------------------===//

/// Stable partition, VIP tokens first: per sequence, count the VIP tokens V,
/// then token i goes to row (VIP tokens before it) if it is VIP, else to
/// V + (non-VIP tokens before it). More than num_vip VIP tokens: the excess
/// ones stay in C in their order, and the sequence is reported to the runtime
/// (attic_rt_report_error with ATTIC_RT_TOO_MANY_VIP = 1, the batch index,
/// the count and num_vip), which makes the run fail.
LogicalResult lowerVipOrder(VipOrderOp op) {
  FailureOr<func::FuncOp> report = declareReportError(op);
  if (failed(report))
    return failure();
  Builder b(op.getLoc(), op);
  int64_t numVip = op.getNumVip();
  RankedTensorType type = op.getPerm().getType();
  int64_t batch = type.getDimSize(0), length = type.getDimSize(1);
  Value vip = op.getVip();
  Value perm = tensor::EmptyOp::create(b, type.getShape(), b.getI64Type());
  Value inverse = tensor::EmptyOp::create(b, type.getShape(), b.getI64Type());
  auto asIndex = [](Builder &nb, Value flag) -> Value {
    return select(nb, flag, cIndex(nb, 1), cIndex(nb, 0));
  };
  SmallVector<Value> results = forLoop(
      b, batch, {perm, inverse}, [&](Builder &bb, Value bi, ValueRange args) {
        Value total = forLoop(bb, length, cIndex(bb, 0),
                              [&](Builder &lb, Value i, ValueRange acc) {
                                Value flag = extract(lb, vip, {bi, i});
                                return SmallVector<Value>{arith::AddIOp::create(
                                    lb, acc[0], asIndex(lb, flag))};
                              })
                          .front();
        Value tooMany = arith::CmpIOp::create(bb, arith::CmpIPredicate::ugt,
                                              total, cIndex(bb, numVip));
        scf::IfOp::create(bb, tooMany, [&](OpBuilder &nested, Location loc) {
          Builder tb(loc, nested);
          auto i64 = [&](Value index) -> Value {
            return arith::IndexCastOp::create(tb, tb.getI64Type(), index);
          };
          Value code = arith::ConstantOp::create(tb, tb.getI32IntegerAttr(1));
          func::CallOp::create(
              tb, *report,
              ValueRange{code, i64(bi), i64(total), cI64(tb, numVip)});
          scf::YieldOp::create(tb);
        });
        SmallVector<Value> inits{args[0], args[1], cIndex(bb, 0)};
        SmallVector<Value> done = forLoop(
            bb, length, inits, [&](Builder &lb, Value i, ValueRange acc) {
              Value flag = extract(lb, vip, {bi, i});
              Value vipBefore = acc[2];
              Value otherRow = arith::SubIOp::create(
                  lb, arith::AddIOp::create(lb, total, i), vipBefore);
              Value row = select(lb, flag, vipBefore, otherRow);
              Type i64 = lb.getI64Type();
              Value nextPerm =
                  insert(lb, arith::IndexCastOp::create(lb, i64, i), acc[0],
                         {bi, row});
              Value nextInverse =
                  insert(lb, arith::IndexCastOp::create(lb, i64, row), acc[1],
                         {bi, i});
              Value nextCount =
                  arith::AddIOp::create(lb, vipBefore, asIndex(lb, flag));
              return SmallVector<Value>{nextPerm, nextInverse, nextCount};
            });
        return SmallVector<Value>{done[0], done[1]};
      });
  op.getPerm().replaceAllUsesWith(results[0]);
  op.getInverse().replaceAllUsesWith(results[1]);
  return success();
}

/// result[b, r(, e)] = x[b, clamp(indices[b, r])(, e)].
void lowerGatherRows(GatherRowsOp op) {
  Builder b(op.getLoc(), op);
  Value x = op.getX(), indices = op.getIndices();
  int64_t rows = op.getX().getType().getDimSize(1);
  Value result =
      generate(b, op.getResult().getType(), [&](Builder &nb, ValueRange i) {
        Value row = clampIndex(nb, extract(nb, indices, {i[0], i[1]}), rows);
        SmallVector<Value> at{i[0], row};
        if (i.size() == 3)
          at.push_back(i[2]);
        return extract(nb, x, at);
      });
  op.getResult().replaceAllUsesWith(result);
}

//===----------------------------------------------------------------------===//
// Trees: a 1:N dialect conversion
//===----------------------------------------------------------------------===//

bool isTree(Type type) { return isa<TreeType>(type); }
bool hasTreeValue(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isTree) ||
         llvm::any_of(op->getResultTypes(), isTree);
}
bool isTreeOp(Operation *op) {
  return isa<TreeBuildOp, TreeSelectOp, VccCompressOp, TreeUpdateOp,
             TreeMaterializeOp>(op);
}
/// The scf ops whose tree operands, results and region arguments upstream's
/// structural type conversion replaces (a tree carried through a loop over
/// layers, or chosen by an scf.if).
bool isStructural(Operation *op) {
  return isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::ConditionOp,
             scf::YieldOp, scf::IndexSwitchOp>(op);
}

/// !attic.tree -> its component tensors (TreeParts::componentTypes); every
/// other type is kept.
class TreeTypeConverter : public TypeConverter {
public:
  TreeTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](TreeType type, SmallVectorImpl<Type> &results) {
      llvm::append_range(results, TreeParts::componentTypes(type));
      return success();
    });
  }
};

/// The single value an operand that is not a tree was converted to.
Value single(ValueRange values) {
  assert(values.size() == 1 && "a tensor operand maps to one value");
  return values.front();
}

TreeParts partsOf(Value tree, ValueRange components) {
  return TreeParts::unflatten(cast<TreeType>(tree.getType()),
                              SmallVector<Value>(components));
}

template <typename Op> struct TreePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<Op>::OneToNOpAdaptor;
};

struct LowerTreeBuild : TreePattern<TreeBuildOp> {
  using TreePattern::TreePattern;
  LogicalResult
  matchAndRewrite(TreeBuildOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Builder b(op.getLoc(), rewriter);
    TreeParts tree =
        TreeLowering(op.getTree().getType())
            .build(b, single(adaptor.getTokens()), single(adaptor.getValid()),
                   op.getMeanEps().convertToFloat());
    SmallVector<SmallVector<Value>> replacements{tree.flatten()};
    rewriter.replaceOpWithMultiple(op, std::move(replacements));
    return success();
  }
};

struct LowerTreeSelect : TreePattern<TreeSelectOp> {
  using TreePattern::TreePattern;
  LogicalResult
  matchAndRewrite(TreeSelectOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Builder b(op.getLoc(), rewriter);
    Value voteMask;
    if (op.getVoteMask())
      voteMask = single(adaptor.getVoteMask());
    Value nodes =
        TreeLowering(op.getTree().getType())
            .selectNodes(
                b, partsOf(op.getTree(), adaptor.getTree()),
                single(adaptor.getQuery()), single(adaptor.getKeyWeight()),
                single(adaptor.getKeyBias()), single(adaptor.getLnGamma()),
                single(adaptor.getLnBeta()), voteMask, op.getBudgetValues(),
                op.getHeads(), op.getScale().convertToFloat(),
                op.getNodes().getType());
    rewriter.replaceOp(op, nodes);
    return success();
  }
};

struct LowerVccCompress : TreePattern<VccCompressOp> {
  using TreePattern::TreePattern;
  LogicalResult
  matchAndRewrite(VccCompressOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Builder b(op.getLoc(), rewriter);
    auto [compressed, bias] =
        TreeLowering(op.getTree().getType())
            .compress(b, partsOf(op.getTree(), adaptor.getTree()),
                      single(adaptor.getVipRows()), single(adaptor.getNodes()),
                      op.getCompressed().getType(), op.getKeyBias().getType(),
                      op.getBiasEps().convertToFloat());
    rewriter.replaceOp(op, ValueRange{compressed, bias});
    return success();
  }
};

struct LowerTreeUpdate : TreePattern<TreeUpdateOp> {
  using TreePattern::TreePattern;
  LogicalResult
  matchAndRewrite(TreeUpdateOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Builder b(op.getLoc(), rewriter);
    TreeParts tree =
        TreeLowering(op.getTree().getType())
            .update(b, partsOf(op.getTree(), adaptor.getTree()),
                    single(adaptor.getNodes()), single(adaptor.getRows()),
                    op.getMeanEps().convertToFloat());
    SmallVector<SmallVector<Value>> replacements{tree.flatten()};
    rewriter.replaceOpWithMultiple(op, std::move(replacements));
    return success();
  }
};

struct LowerTreeMaterialize : TreePattern<TreeMaterializeOp> {
  using TreePattern::TreePattern;
  LogicalResult
  matchAndRewrite(TreeMaterializeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Builder b(op.getLoc(), rewriter);
    rewriter.replaceOp(
        op, TreeLowering(op.getTree().getType())
                .materialize(b, partsOf(op.getTree(), adaptor.getTree()),
                             op.getResult().getType()));
    return success();
  }
};

/// Trees the conversion cannot replace, with an error that says where:
/// function arguments and results (the function boundary stays tensors),
/// block arguments other than those of scf.for/scf.while regions, and any
/// other op that uses or defines a tree.
LogicalResult checkTreeUses(func::FuncOp func) {
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
    if (isTree(type))
      return func.emitOpError()
             << "argument #" << index << " has type " << type
             << ": attic-expand-vcc replaces !attic.tree values only "
                "inside a function body (build the tree there with "
                "attic.tree_build)";
  for (auto [index, type] : llvm::enumerate(func.getResultTypes()))
    if (isTree(type))
      return func.emitOpError()
             << "result #" << index << " has type " << type
             << ": attic-expand-vcc replaces !attic.tree values only "
                "inside a function body (return attic.tree_materialize's "
                "tokens instead)";
  WalkResult result = func.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isTree(arg.getType()) && !isa<scf::ForOp, scf::WhileOp>(op) &&
              !isa<func::FuncOp>(op)) {
            emitError(arg.getLoc())
                << "block argument #" << arg.getArgNumber() << " of '"
                << op->getName() << "' has type " << arg.getType()
                << ": attic-expand-vcc replaces !attic.tree block arguments "
                   "only in scf.for and scf.while";
            return WalkResult::interrupt();
          }
    if (isa<func::FuncOp>(op) || isTreeOp(op) || isStructural(op) ||
        !hasTreeValue(op))
      return WalkResult::advance();
    op->emitOpError()
        << "uses or defines an !attic.tree value: attic-expand-vcc replaces "
           "trees only where attic.tree_build, attic.tree_select, "
           "attic.vcc_compress, attic.tree_update, attic.tree_materialize "
           "and scf.for/if/while/yield/condition/index_switch use them";
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return failure();
  for (Block &block : func.getBody())
    for (BlockArgument arg : block.getArguments())
      if (!block.isEntryBlock() && isTree(arg.getType()))
        return emitError(arg.getLoc())
               << "block argument #" << arg.getArgNumber() << " has type "
               << arg.getType()
               << ": attic-expand-vcc does not replace !attic.tree "
                  "arguments of a function's blocks";
  return success();
}

/// vip_order and gather_rows (no trees) wherever they are in `func`.
LogicalResult lowerPlainOps(func::FuncOp func) {
  SmallVector<Operation *> plain;
  func.walk([&](Operation *op) {
    if (isa<VipOrderOp, GatherRowsOp>(op))
      plain.push_back(op);
  });
  for (Operation *op : plain) {
    if (auto order = dyn_cast<VipOrderOp>(op)) {
      if (failed(lowerVipOrder(order)))
        return failure();
    } else {
      lowerGatherRows(cast<GatherRowsOp>(op));
    }
    op->erase();
  }
  return success();
}

struct AtticExpandVccPass
    : public attic::impl::AtticExpandVccBase<AtticExpandVccPass> {
  using AtticExpandVccBase::AtticExpandVccBase;

  void runOnOperation() override {
    if (failed(expandVcc(getOperation())))
      signalPassFailure();
  }
};
} // namespace

LogicalResult attic::expandVcc(Operation *root) {
  SmallVector<func::FuncOp> funcs;
  root->walk([&](func::FuncOp func) { funcs.push_back(func); });
  for (func::FuncOp func : funcs)
    if (failed(checkTreeUses(func)) || failed(lowerPlainOps(func)))
      return failure();
  // Anything outside func.func would reach the backend.
  WalkResult outside = root->walk([](Operation *op) {
    if (op->getParentOfType<func::FuncOp>())
      return WalkResult::skip();
    if (isTreeOp(op) || isa<VipOrderOp, GatherRowsOp>(op) || hasTreeValue(op)) {
      op->emitOpError("is outside a func.func body: attic-expand-vcc lowers "
                      "VCC ops only in functions");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (outside.wasInterrupted())
    return failure();

  // The tree ops, with every !attic.tree value (results, scf iter_args and
  // region arguments) replaced by its components: upstream's 1:N type
  // conversion, with the scf structural patterns for loops and branches.
  MLIRContext *context = root->getContext();
  TreeTypeConverter converter;
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addIllegalOp<TreeBuildOp, TreeSelectOp, VccCompressOp, TreeUpdateOp,
                      TreeMaterializeOp>();
  RewritePatternSet patterns(context);
  patterns.add<LowerTreeBuild, LowerTreeSelect, LowerVccCompress,
               LowerTreeUpdate, LowerTreeMaterialize>(converter, context);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  return applyPartialConversion(root, target, std::move(patterns));
}
