//===- GuardTensorIndices.cpp - no tensor access out of bounds -----------===//
//
// tensor.extract and tensor.insert with an index outside the tensor are
// undefined behaviour upstream; compiled, they read or write past the
// buffer (an index taken from the data, a token id past an embedding
// table, segfaulted attic-run). For each access whose indices are not all
// constants inside the tensor, this pass reports an index outside to the
// runtime (ATTIC_RT_TENSOR_INDEX) and makes the access read 0 (extract) or
// change nothing (insert) there. See AtticPasses.td.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"
#include "attic/runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace attic {
#define GEN_PASS_DEF_ATTICGUARDTENSORINDICES
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

/// Marks the accesses this pass has guarded (or made), so that a second
/// run leaves them alone.
constexpr llvm::StringLiteral kGuarded = "attic.in_bounds";

/// Whether `op` is inside an attic op (a modifier region: its capture
/// reads have their own check, ATTIC_RT_CAPTURE_INDEX).
bool insideAtticOp(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa_and_nonnull<attic::AtticDialect>(parent->getDialect()))
      return true;
  return false;
}

/// Whether `index` is a constant inside static dimension `d`.
bool provablyInside(RankedTensorType type, int64_t d, Value index) {
  APInt value;
  return !type.isDynamicDim(d) && matchPattern(index, m_ConstantInt(&value)) &&
         !value.isNegative() && value.getSExtValue() < type.getDimSize(d);
}

/// Whether every index is a constant inside its static dimension.
bool provablyInside(RankedTensorType type, ValueRange indices) {
  for (auto [d, index] : llvm::enumerate(indices))
    if (!provablyInside(type, int64_t(d), index))
      return false;
  return true;
}

/// The source line of `loc` (0 if it has none).
int64_t lineOf(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return file.getLine();
  return 0;
}

/// Whether an extract of `type` has a 0 to read where it is outside.
bool hasZero(Type type) { return isa<FloatType, IntegerType, IndexType>(type); }

/// 0 of a type for which hasZero holds.
Value zeroOf(OpBuilder &b, Location loc, Type type) {
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
}

struct AtticGuardTensorIndicesPass
    : public attic::impl::AtticGuardTensorIndicesBase<
          AtticGuardTensorIndicesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> accesses;
    getOperation().walk([&](Operation *op) {
      Value tensor;
      ValueRange indices;
      if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
        tensor = extract.getTensor();
        indices = extract.getIndices();
        if (!hasZero(extract.getType()))
          return;
      } else if (auto insert = dyn_cast<tensor::InsertOp>(op)) {
        tensor = insert.getDest();
        indices = insert.getIndices();
      } else {
        return;
      }
      if (op->hasAttr(kGuarded) || insideAtticOp(op) ||
          provablyInside(cast<RankedTensorType>(tensor.getType()), indices))
        return;
      accesses.push_back(op);
    });
    if (accesses.empty())
      return;
    FailureOr<func::FuncOp> report = attic::declareReportError(accesses[0]);
    if (failed(report))
      return signalPassFailure();
    for (Operation *op : accesses)
      guard(op, *report);
  }

  /// Reports each dimension of `op` out of bounds, and makes `op` access
  /// nothing outside: on a tensor of static nonzero sizes by clamping the
  /// indices to 0 and selecting the result (no branch, so no allocation in
  /// one for the GPU), else under an scf.if.
  static void guard(Operation *op, func::FuncOp report) {
    Location loc = op->getLoc();
    OpBuilder b(op);
    auto insert = dyn_cast<tensor::InsertOp>(op);
    Value tensor =
        insert ? insert.getDest() : cast<tensor::ExtractOp>(op).getTensor();
    SmallVector<Value> indices(insert
                                   ? insert.getIndices()
                                   : cast<tensor::ExtractOp>(op).getIndices());
    auto type = cast<RankedTensorType>(tensor.getType());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    // inside[d]: null where the index is a constant inside the dimension.
    SmallVector<Value> inside, sizes;
    Value all;
    for (auto [d, index] : llvm::enumerate(indices)) {
      if (provablyInside(type, int64_t(d), index)) {
        inside.push_back(Value());
        sizes.push_back(Value());
        continue;
      }
      Value size = tensor::DimOp::create(b, loc, tensor, d);
      Value ok = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index,
                                size));
      inside.push_back(ok);
      sizes.push_back(size);
      all = all ? arith::AndIOp::create(b, loc, all, ok).getResult() : ok;
    }
    Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
    // The reports: one per dimension out of bounds.
    int64_t code = lineOf(loc) * 64 + (insert ? 32 : 0);
    auto reportIf = [&](Value outside, int64_t d) {
      auto ifOp = scf::IfOp::create(b, loc, outside, /*withElseRegion=*/false);
      OpBuilder then = ifOp.getThenBodyBuilder();
      attic::emitReportError(then, loc, report, ATTIC_RT_TENSOR_INDEX,
                             arith::ConstantIndexOp::create(
                                 then, loc, code + std::min<int64_t>(d, 31)),
                             indices[d], sizes[d]);
    };
    for (size_t d = 0; d < indices.size(); ++d)
      if (inside[d])
        reportIf(arith::XOrIOp::create(b, loc, inside[d], one), int64_t(d));

    op->setAttr(kGuarded, b.getUnitAttr());
    Type resultType = op->getResult(0).getType();
    bool nonEmpty = type.hasStaticShape() && type.getNumElements() > 0;
    if (nonEmpty) {
      // Index 0 of every dimension exists: access there when outside, and
      // make it change nothing (insert) or read as 0 (extract).
      SmallVector<Value> safe;
      for (auto [d, index] : llvm::enumerate(indices))
        safe.push_back(
            inside[d]
                ? arith::SelectOp::create(b, loc, all, index, zero).getResult()
                : index);
      if (insert) {
        auto oldOp = tensor::ExtractOp::create(b, loc, tensor, safe);
        oldOp->setAttr(kGuarded, b.getUnitAttr());
        Value old = oldOp;
        Value value =
            arith::SelectOp::create(b, loc, all, insert.getScalar(), old);
        insert.getScalarMutable().assign(value);
        insert.getIndicesMutable().assign(safe);
      } else {
        auto extract = cast<tensor::ExtractOp>(op);
        extract.getIndicesMutable().assign(safe);
        b.setInsertionPointAfter(op);
        Value picked = arith::SelectOp::create(b, loc, all, op->getResult(0),
                                               zeroOf(b, loc, resultType));
        op->getResult(0).replaceAllUsesExcept(picked, picked.getDefiningOp());
      }
      return;
    }
    // Sizes known only at run time (or a zero size): the access under
    // scf.if, 0 or the unchanged tensor outside.
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{resultType}, all,
                                  /*withElseRegion=*/true);
    op->getResult(0).replaceAllUsesWith(ifOp.getResult(0));
    op->moveBefore(ifOp.thenBlock(), ifOp.thenBlock()->end());
    OpBuilder then = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(then, loc, op->getResult(0));
    OpBuilder otherwise = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(otherwise, loc,
                         insert ? tensor : zeroOf(otherwise, loc, resultType));
  }
};

} // namespace
