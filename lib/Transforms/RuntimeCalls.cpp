//===- RuntimeCalls.cpp - declarations of runtime functions -----*- C++ -*-===//

#include "attic/Transforms/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

FailureOr<func::FuncOp> attic::declareReportError(Operation *op) {
  constexpr llvm::StringLiteral name = "attic_rt_report_error";
  auto func = op->getParentOfType<func::FuncOp>();
  Operation *tableOp =
      func ? SymbolTable::getNearestSymbolTable(func->getParentOp()) : nullptr;
  if (!tableOp)
    return op->emitOpError(
        "needs its function inside a module (or another symbol table) to "
        "declare the runtime's attic_rt_report_error");
  SymbolTable table(tableOp);
  MLIRContext *ctx = op->getContext();
  auto i64 = IntegerType::get(ctx, 64);
  auto type = FunctionType::get(ctx, {IntegerType::get(ctx, 32), i64, i64, i64},
                                {});
  if (auto existing = table.lookup<func::FuncOp>(name)) {
    if (existing.getFunctionType() != type)
      return op->emitOpError("needs @")
             << name << " of type " << type << ", but the module declares it as "
             << existing.getFunctionType();
    return existing;
  }
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&tableOp->getRegion(0).front());
  auto decl = func::FuncOp::create(b, op->getLoc(), name, type);
  decl.setPrivate();
  table.insert(decl);
  return decl;
}

void attic::emitReportError(OpBuilder &b, Location loc, func::FuncOp report,
                            int32_t code, Value a, Value bValue, Value c) {
  auto i64 = [&](Value v) -> Value {
    if (v.getType().isIndex())
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    if (v.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
    return v;
  };
  Value codeValue = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(code));
  func::CallOp::create(b, loc, report,
                       ValueRange{codeValue, i64(a), i64(bValue), i64(c)});
}

Value attic::emitBlockListRow(OpBuilder &b, Location loc, Value batch,
                              Value head, Value queryBlock, Value heads,
                              Value queryBlocks, int list) {
  Type i64 = b.getI64Type();
  auto cast = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, v);
  };
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  Value bv = cast(batch), hv = cast(head), qv = cast(queryBlock);
  Value limit = c(int64_t(1) << 20);
  auto below = [&](Value v) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v, limit);
  };
  Value fits = arith::AndIOp::create(
      b, loc, arith::AndIOp::create(b, loc, below(bv), below(hv)), below(qv));
  Value packed = arith::OrIOp::create(
      b, loc,
      arith::OrIOp::create(b, loc, arith::ShLIOp::create(b, loc, bv, c(40)),
                           arith::ShLIOp::create(b, loc, hv, c(20))),
      arith::OrIOp::create(b, loc, qv, c(int64_t(list) << 60)));
  // flat = (b * H' + h) * nQB + qb; a = -1 - (2 * flat + list).
  Value flat = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc,
          arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, bv, cast(heads)), hv),
          cast(queryBlocks)),
      qv);
  Value fallback = arith::SubIOp::create(
      b, loc, c(-1 - list), arith::MulIOp::create(b, loc, flat, c(2)));
  return arith::SelectOp::create(b, loc, fits, packed, fallback);
}
