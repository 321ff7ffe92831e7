//===- RuntimeCalls.cpp - declarations of runtime functions -----*- C++ -*-===//

#include "attic/Transforms/RuntimeCalls.h"

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Dialect/Attic/Layout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace {
/// The root of the innermost ReportErrorScope on this thread.
thread_local Operation *scopeRoot = nullptr;
} // namespace

attic::ReportErrorScope::ReportErrorScope(Operation *root)
    : previous(scopeRoot) {
  scopeRoot = root;
}

attic::ReportErrorScope::~ReportErrorScope() { scopeRoot = previous; }

std::string attic::reservedNameProblem(Operation *symbol, FunctionType type) {
  std::string problem;
  llvm::raw_string_ostream os(problem);
  auto func = dyn_cast<func::FuncOp>(symbol);
  if (!func)
    os << "the module has a '" << symbol->getName() << "' of that name";
  else if (!func.isExternal())
    os << "the module defines a function of that name (with a body), which "
          "would take the calls instead";
  else if (func.getFunctionType() != type)
    os << "the module declares it as '" << func.getFunctionType() << "', not '"
       << type << "'";
  return problem;
}

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
  // The name is the runtime's: another symbol of it (an llvm.func) made
  // the pass add @attic_rt_report_error_0, which nothing provides, and a
  // definition swallowed the reports (a 2026-11-30 audit).
  if (Operation *existing = table.lookup(name)) {
    if (std::string problem = reservedNameProblem(existing, type);
        !problem.empty())
      return op->emitOpError("needs the runtime's @")
             << name << ", but " << problem
             << "; the name is reserved for attic's runtime";
    return cast<func::FuncOp>(existing);
  }
  if (scopeRoot && scopeRoot != tableOp &&
      !scopeRoot->isProperAncestor(tableOp))
    return op->emitOpError("needs @")
           << name << "(i32, i64, i64, i64), which the module does not "
           << "declare: the pass runs on '" << scopeRoot->getName()
           << "', below the module, where it may not add the declaration "
              "(nested passes run in parallel); run the pass on the module, "
              "or declare `func.func private @"
           << name << "(i32, i64, i64, i64)`";
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
    unsigned width = v.getType().getIntOrFloatBitWidth();
    if (width < 64)
      return arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
    if (width > 64) {
      // i128 and wider (the call took them as they were: invalid IR, and
      // a valid program refused with a func.call verifier message).
      auto bound = [&](const APInt &limit) -> Value {
        return arith::ConstantOp::create(
            b, loc, b.getIntegerAttr(v.getType(), limit.sext(width)));
      };
      v = arith::MaxSIOp::create(b, loc, v,
                                 bound(APInt::getSignedMinValue(64)));
      v = arith::MinSIOp::create(b, loc, v,
                                 bound(APInt::getSignedMaxValue(64)));
      return arith::TruncIOp::create(b, loc, b.getI64Type(), v);
    }
    return v;
  };
  Value codeValue = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(code));
  func::CallOp::create(b, loc, report,
                       ValueRange{codeValue, i64(a), i64(bValue), i64(c)});
}

void attic::emitReportErrorIf(OpBuilder &b, Location loc, func::FuncOp report,
                              Value cond, int32_t code, Value a, Value bValue,
                              Value c) {
  if (matchPattern(cond, m_Zero()))
    return;
  scf::IfOp::create(b, loc, cond, [&](OpBuilder &nested, Location at) {
    emitReportError(nested, at, report, code, a, bValue, c);
    scf::YieldOp::create(nested, at);
  });
}

Value attic::emitBlockListRow(OpBuilder &b, Location loc, Value batch,
                              Value head, Value queryBlock, Value heads,
                              Value queryBlocks, int list) {
  IndexMath m(b, loc);
  constexpr int64_t limit = int64_t(1) << 20;
  Value fits = m.andI(m.andI(m.lt(batch, m.c(limit)), m.lt(head, m.c(limit))),
                      m.lt(queryBlock, m.c(limit)));
  // The fields do not overlap: the sum is list << 60 | b << 40 | h << 20 | qb
  // (index is 64-bit on every attic target, the GPU kernels' included).
  Value packed =
      m.add(m.add(m.mul(batch, int64_t(1) << 40), m.mul(head, limit)),
            m.add(queryBlock, int64_t(list) << 60));
  Value flat =
      m.add(m.mul(m.add(m.mul(batch, heads), head), queryBlocks), queryBlock);
  return m.select(fits, packed, m.sub(m.c(-1 - list), m.mul(flat, 2)));
}

bool attic::insideAtticOp(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa_and_nonnull<AtticDialect>(parent->getDialect()))
      return true;
  return false;
}

int64_t attic::sourceLineOf(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return file.getLine();
  return 0;
}
