//===- ExpandVcc.cpp - VCC ops into upstream ops on tensors -----*- C++ -*-===//
//
// Rewrites the VIP-token-centric compression ops (docs/vcc.md) into upstream
// ops on tensors (tensor.generate, tensor.empty/extract/insert, scf.for with
// tensor iter_args, scf.if, arith, math), before bufferization.
//
// A value of !attic.tree type is replaced by its component tensors (a 1:N
// replacement, done with a walk over each function in program order and a
// map from tree values to components):
//
//   root        [B, d]          f32  mean of the root
//   deltas[j]   [B, N_j, d]     f32  parent mean - node mean, j < L
//   counts[j]   [B, N_j]        f32  valid tokens of the node, j <= L
//   valid       [B, n_c]        i1   token validity
//
// with N_j = n_c / s_j nodes at level j. Node ids in index tensors (J) are
// global ids; they are decoded into (level, first token t0 = index * s_level)
// after clamping to [0, number of nodes), so that no id, not even one of a J
// that is not a partition, makes the compiled code read or write out of
// bounds. The ancestor of that node at level l >= level is t0 / s_l.
//
// Tree components and other scratch that is read many times are built with
// linalg.generic ops that have no inputs (each element from linalg.index;
// parallel loops after bufferization), not tensor.generate: upstream
// canonicalization folds tensor.extract of a tensor.generate by inlining the
// producer's body at the read, which would recompute whole subtrees at every
// read of a component. Results of the ops
// (compressed rows, key bias, gathered rows, materialized tokens) are
// tensor.generate, which bufferizes to linalg.map (parallel loops after
// bufferization). tree_select's intermediates (means, keys, logits,
// scores, ranks) are read many times, so they are linalg.generic ops with
// no inputs (parallel loops after bufferization, never inlined into their
// readers), the key projection is a linalg.matmul, and its J is written by
// a scan over the candidates.
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
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
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
          func::CallOp::create(tb, *report,
                               ValueRange{code, i64(bi), i64(total),
                                          cI64(tb, numVip)});
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
// The walk over a function
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

class FunctionExpander {
public:
  LogicalResult run(func::FuncOp func) {
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
    if (func.isExternal())
      return success();

    // Ops without trees are lowered wherever they are.
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

    for (Block &block : func.getBody()) {
      for (BlockArgument arg : block.getArguments())
        if (isTree(arg.getType()))
          return emitError(arg.getLoc())
                 << "block argument #" << arg.getArgNumber() << " has type "
                 << arg.getType()
                 << ": attic-expand-vcc does not replace !attic.tree block "
                    "arguments";
      for (Operation &op : block)
        if (failed(visit(&op)))
          return failure();
    }
    // Every use of a tree is one of the lowered ops: drop them, users first.
    for (Operation *op : llvm::reverse(lowered))
      op->dropAllUses();
    for (Operation *op : llvm::reverse(lowered))
      op->erase();
    return success();
  }

private:
  LogicalResult visit(Operation *op) {
    if (isTreeOp(op))
      return lower(op);
    if (hasTreeValue(op))
      return op->emitOpError()
             << "uses or defines an !attic.tree value: attic-expand-vcc "
                "replaces trees only where attic.tree_build, "
                "attic.tree_select, attic.vcc_compress, attic.tree_update "
                "and attic.tree_materialize use them";
    // Nested regions: no tree may appear there.
    WalkResult nested = op->walk([&](Operation *inner) {
      if (inner == op)
        return WalkResult::advance();
      bool treeArgs = llvm::any_of(inner->getRegions(), [](Region &region) {
        return llvm::any_of(region.getArguments(), [](BlockArgument arg) {
          return isTree(arg.getType());
        });
      });
      if (isTreeOp(inner) || hasTreeValue(inner) || treeArgs) {
        inner->emitOpError()
            << "uses !attic.tree values inside the region of '" << op->getName()
            << "': attic-expand-vcc replaces trees only in the body of a "
               "function, outside nested regions";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(nested.wasInterrupted());
  }

  /// The components of tree operand `value`, or an error at `user`.
  FailureOr<TreeParts> partsOf(Operation *user, Value value) {
    auto it = trees.find(value);
    if (it == trees.end()) {
      user->emitOpError() << "uses a tree that is not defined before it in "
                             "the function body";
      return failure();
    }
    return TreeParts::unflatten(cast<TreeType>(value.getType()), it->second);
  }

  LogicalResult lower(Operation *op) {
    Builder b(op->getLoc(), op);
    lowered.push_back(op);
    if (auto build = dyn_cast<TreeBuildOp>(op)) {
      TreeLowering lowering(build.getTree().getType());
      trees[build.getTree()] =
          lowering.build(b, build.getTokens(), build.getValid()).flatten();
      return success();
    }
    if (auto selectOp = dyn_cast<TreeSelectOp>(op)) {
      FailureOr<TreeParts> tree = partsOf(op, selectOp.getTree());
      if (failed(tree))
        return failure();
      TreeLowering lowering(selectOp.getTree().getType());
      selectOp.getNodes().replaceAllUsesWith(lowering.selectNodes(
          b, *tree, selectOp.getQuery(), selectOp.getKeyWeight(),
          selectOp.getKeyBias(), selectOp.getLnGamma(), selectOp.getLnBeta(),
          selectOp.getVoteMask(), selectOp.getBudgetValues(),
          selectOp.getHeads(),
          selectOp.getScale().convertToFloat(), selectOp.getNodes().getType()));
      return success();
    }
    if (auto compress = dyn_cast<VccCompressOp>(op)) {
      FailureOr<TreeParts> tree = partsOf(op, compress.getTree());
      if (failed(tree))
        return failure();
      TreeLowering lowering(compress.getTree().getType());
      auto [compressed, bias] = lowering.compress(
          b, *tree, compress.getVipRows(), compress.getNodes(),
          compress.getCompressed().getType(), compress.getKeyBias().getType());
      compress.getCompressed().replaceAllUsesWith(compressed);
      compress.getKeyBias().replaceAllUsesWith(bias);
      return success();
    }
    if (auto update = dyn_cast<TreeUpdateOp>(op)) {
      FailureOr<TreeParts> tree = partsOf(op, update.getTree());
      if (failed(tree))
        return failure();
      TreeLowering lowering(update.getTree().getType());
      trees[update.getResult()] =
          lowering.update(b, *tree, update.getNodes(), update.getRows())
              .flatten();
      return success();
    }
    auto materialize = cast<TreeMaterializeOp>(op);
    FailureOr<TreeParts> tree = partsOf(op, materialize.getTree());
    if (failed(tree))
      return failure();
    TreeLowering lowering(materialize.getTree().getType());
    materialize.getResult().replaceAllUsesWith(
        lowering.materialize(b, *tree, materialize.getResult().getType()));
    return success();
  }

  llvm::DenseMap<Value, SmallVector<Value>> trees;
  SmallVector<Operation *> lowered;
};

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
    if (failed(FunctionExpander().run(func)))
      return failure();
  // Anything left (outside func.func) would reach the backend.
  WalkResult leftover = root->walk([](Operation *op) {
    if (isTreeOp(op) || isa<VipOrderOp, GatherRowsOp>(op) || hasTreeValue(op)) {
      op->emitOpError("is outside a func.func body: attic-expand-vcc lowers "
                      "VCC ops only in functions");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(leftover.wasInterrupted());
}
