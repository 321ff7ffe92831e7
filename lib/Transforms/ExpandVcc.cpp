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
#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"

#include "PassRoots.h"
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

/// If `count` (index or i64) exceeds numVip: report sequence bi
/// (attic_rt_report_error with ATTIC_RT_TOO_MANY_VIP = 1, bi, the count
/// and numVip).
void reportTooManyVip(Builder &b, func::FuncOp report, Value bi, Value count,
                      int64_t numVip) {
  bool isIndex = count.getType().isIndex();
  Value limit = isIndex ? cIndex(b, numVip) : cI64(b, numVip);
  Value tooMany =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, count, limit);
  scf::IfOp::create(b, tooMany, [&](OpBuilder &nested, Location loc) {
    Builder tb(loc, nested);
    auto i64 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(tb, tb.getI64Type(), index);
    };
    Value code = arith::ConstantOp::create(tb, tb.getI32IntegerAttr(1));
    func::CallOp::create(tb, report,
                         ValueRange{code, i64(bi), isIndex ? i64(count) : count,
                                    cI64(tb, numVip)});
    scf::YieldOp::create(tb);
  });
}

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
        reportTooManyVip(bb, *report, bi, total, numVip);
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

/// attic.vip_order without a loop over a whole sequence (parallel-scans):
/// the same perm and inverse as lowerVipOrder, each element computed on its
/// own from per-chunk counts (see attic-expand-vcc's description).
LogicalResult lowerVipOrderParallel(VipOrderOp op) {
  FailureOr<func::FuncOp> report = declareReportError(op);
  if (failed(report))
    return failure();
  Builder b(op.getLoc(), op);
  int64_t numVip = op.getNumVip();
  RankedTensorType type = op.getPerm().getType();
  int64_t batch = type.getDimSize(0), length = type.getDimSize(1);
  Type i64 = b.getI64Type();
  Value vip = op.getVip();
  auto toI64 = [](Builder &nb, Value index) -> Value {
    return arith::IndexCastOp::create(nb, nb.getI64Type(), index);
  };
  auto toIndex = [](Builder &nb, Value v) -> Value {
    return arith::IndexCastOp::create(nb, nb.getIndexType(), v);
  };
  // 1 if token i of sequence bi is VIP (or, with `vipClass` false, if it is
  // not), as an index.
  auto member = [&](Builder &nb, Value bi, Value i, Value vipClass) -> Value {
    Value flag = extract(nb, vip, {bi, i});
    Value is =
        arith::CmpIOp::create(nb, arith::CmpIPredicate::eq, flag, vipClass);
    return select(nb, is, cIndex(nb, 1), cIndex(nb, 0));
  };
  Value cTrue = arith::ConstantIntOp::create(b, b.getI1Type(), 1);
  auto isVipToken = [&](Builder &nb, Value bi, Value i) {
    return member(nb, bi, i, cTrue);
  };
  // The VIP tokens of each chunk and before it.
  ChunkCounts vipCounts = ChunkCounts::build(b, batch, length, isVipToken);
  const int64_t chunks = vipCounts.chunks;
  // total[b]: the VIP tokens of the sequence.
  Value last = cIndex(b, chunks - 1);
  Value total = parallelTensor(
      b, RankedTensorType::get({batch}, i64), [&](Builder &nb, ValueRange i) {
        return arith::AddIOp::create(
            nb, extract(nb, vipCounts.before, {i[0], last}),
            extract(nb, vipCounts.counts, {i[0], last}));
      });
  // The reports, one sequence after the other (as the sequential form).
  forLoop(b, batch, ValueRange{}, [&](Builder &bb, Value bi, ValueRange) {
    reportTooManyVip(bb, *report, bi, extract(bb, total, {bi}), numVip);
    return SmallVector<Value>{};
  });
  // inverse[b, i]: the row of token i, VIP tokens first, each class in its
  // order.
  Value inverse = parallelTensor(b, type, [&](Builder &nb, ValueRange i) {
    Value vipBefore = vipCounts.countBefore(nb, i[0], i[1], isVipToken);
    Value flag = extract(nb, vip, {i[0], i[1]});
    Value otherRow = arith::SubIOp::create(
        nb,
        arith::AddIOp::create(nb, toIndex(nb, extract(nb, total, {i[0]})),
                              i[1]),
        vipBefore);
    return toI64(nb, select(nb, flag, vipBefore, otherRow));
  });
  // perm[b, r]: the token of row r: the k-th VIP token (k = r) for rows
  // below the total, else the k-th other one (k = r - total). Its chunk is
  // the last one with fewer than k + 1 tokens of its class before it
  // (bisection: the counts before a chunk do not decrease), then a loop
  // over that chunk finds it.
  Value perm = parallelTensor(b, type, [&](Builder &nb, ValueRange i) {
    Value vipTotal = toIndex(nb, extract(nb, total, {i[0]}));
    Value isVip =
        arith::CmpIOp::create(nb, arith::CmpIPredicate::ult, i[1], vipTotal);
    Value k =
        select(nb, isVip, i[1], arith::SubIOp::create(nb, i[1], vipTotal));
    // Tokens of row r's class before chunk c.
    auto classBefore = [&](Builder &cb, Value c) -> Value {
      Value vipCount = vipCounts.beforeChunk(cb, i[0], c);
      return select(
          cb, isVip, vipCount,
          arith::SubIOp::create(cb, vipCounts.start(cb, c), vipCount));
    };
    Value c = lastTrue(nb, chunks, [&](Builder &lb, Value mid) -> Value {
      return arith::CmpIOp::create(lb, arith::CmpIPredicate::ule,
                                   classBefore(lb, mid), k);
    });
    Value wanted = arith::SubIOp::create(nb, k, classBefore(nb, c));
    // The wanted-th token of the class in chunk c (seen: those passed).
    SmallVector<Value> found = rangeLoop(
        nb, vipCounts.start(nb, c), vipCounts.end(nb, c),
        ValueRange{cIndex(nb, 0), vipCounts.start(nb, c)},
        [&](Builder &lb, Value t, ValueRange acc) {
          Value is = member(lb, i[0], t, isVip);
          Value hit = arith::AndIOp::create(
              lb,
              arith::CmpIOp::create(lb, arith::CmpIPredicate::eq, acc[0],
                                    wanted),
              arith::CmpIOp::create(lb, arith::CmpIPredicate::eq, is,
                                    cIndex(lb, 1)));
          return SmallVector<Value>{arith::AddIOp::create(lb, acc[0], is),
                                    select(lb, hit, t, acc[1])};
        });
    return toI64(nb, found[1]);
  });
  op.getPerm().replaceAllUsesWith(perm);
  op.getInverse().replaceAllUsesWith(inverse);
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
  /// `parallelScans`: the GPU forms without loops in one thread
  /// (attic-expand-vcc's parallel-scans; tree_select and tree_update).
  TreePattern(const TypeConverter &converter, MLIRContext *context,
              bool parallelScans = false)
      : OpConversionPattern<Op>(converter, context),
        parallelScans(parallelScans) {}
  using OneToNOpAdaptor = typename OpConversionPattern<Op>::OneToNOpAdaptor;
  bool parallelScans;
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
    // Declared in front of the conversion (expandVcc): found here.
    FailureOr<func::FuncOp> report = declareReportError(op);
    if (failed(report))
      return failure();
    Builder b(op.getLoc(), rewriter);
    Value voteMask;
    if (op.getVoteMask())
      voteMask = single(adaptor.getVoteMask());
    Value nodes =
        TreeLowering(op.getTree().getType(), parallelScans)
            .selectNodes(
                b, *report, partsOf(op.getTree(), adaptor.getTree()),
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
        TreeLowering(op.getTree().getType(), parallelScans)
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
      return attic::opError(func)
             << "argument #" << index << " has type " << type
             << ": attic-expand-vcc replaces !attic.tree values only "
                "inside a function body (build the tree there with "
                "attic.tree_build)";
  for (auto [index, type] : llvm::enumerate(func.getResultTypes()))
    if (isTree(type))
      return attic::opError(func)
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
LogicalResult lowerPlainOps(func::FuncOp func, bool parallelScans) {
  SmallVector<Operation *> plain;
  func.walk([&](Operation *op) {
    if (isa<VipOrderOp, GatherRowsOp>(op))
      plain.push_back(op);
  });
  for (Operation *op : plain) {
    if (auto order = dyn_cast<VipOrderOp>(op)) {
      if (failed(parallelScans ? lowerVipOrderParallel(order)
                               : lowerVipOrder(order)))
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
    if (failed(
            attic::detail::refuseAtticRoot(getOperation(), "attic-expand-vcc")))
      return signalPassFailure();
    ReportErrorScope scope(getOperation());
    if (failed(expandVcc(getOperation(), parallelScans)))
      signalPassFailure();
  }
};
} // namespace

LogicalResult attic::expandVcc(Operation *root, bool parallelScans) {
  SmallVector<func::FuncOp> funcs;
  root->walk([&](func::FuncOp func) { funcs.push_back(func); });
  for (func::FuncOp func : funcs)
    if (failed(checkTreeUses(func)) ||
        failed(lowerPlainOps(func, parallelScans)))
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
  // tree_select reports scores that are NaN (LowerTreeSelect): declared
  // here, before the conversion, which must not add ops outside the ops
  // it converts.
  WalkResult declared = root->walk([](TreeSelectOp op) {
    return failed(declareReportError(op)) ? WalkResult::interrupt()
                                          : WalkResult::advance();
  });
  if (declared.wasInterrupted())
    return failure();

  MLIRContext *context = root->getContext();
  TreeTypeConverter converter;
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addIllegalOp<TreeBuildOp, TreeSelectOp, VccCompressOp, TreeUpdateOp,
                      TreeMaterializeOp>();
  RewritePatternSet patterns(context);
  patterns.add<LowerTreeBuild, LowerVccCompress, LowerTreeMaterialize>(
      converter, context);
  patterns.add<LowerTreeSelect, LowerTreeUpdate>(converter, context,
                                                 parallelScans);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  return applyPartialConversion(root, target, std::move(patterns));
}
