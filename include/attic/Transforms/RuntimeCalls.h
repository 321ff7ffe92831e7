//===- RuntimeCalls.h - declarations of runtime functions -------*- C++ -*-===//
//
// Functions of attic's runtime that compiled code calls, declared in the
// module of the code that needs them.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_TRANSFORMS_RUNTIMECALLS_H
#define ATTIC_TRANSFORMS_RUNTIMECALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace attic {

/// Why `symbol`, what a module has under the name of a function that
/// compiled code calls (attic's runtime, the C library), cannot be that
/// function's declaration of type `type`: "" when it can (an external
/// func.func of that type); else that it is another kind of symbol, that
/// it has a body (which would take the calls), or its other type.
std::string reservedNameProblem(mlir::Operation *symbol,
                                mlir::FunctionType type);

/// The runtime's `attic_rt_report_error(i32 code, i64, i64, i64)`
/// (runtime/include/attic/runtime/Runtime.h), declared once in the symbol
/// table that holds `op`'s function. Emits an error on `op` and fails when
/// there is no such table or the module declares it with another type.
mlir::FailureOr<mlir::func::FuncOp> declareReportError(mlir::Operation *op);

/// While alive (on this thread), declareReportError adds the declaration
/// only to a symbol table inside `root`, the op a pass runs on, and
/// otherwise requires it to be there: a pass nested below the module (on
/// func.func, where the pass manager runs the functions in parallel) must
/// not add ops to the module, or two threads insert it at once. Passes
/// that run on any op and may declare it hold one around their work.
class ReportErrorScope {
public:
  explicit ReportErrorScope(mlir::Operation *root);
  ~ReportErrorScope();
  ReportErrorScope(const ReportErrorScope &) = delete;
  ReportErrorScope &operator=(const ReportErrorScope &) = delete;

private:
  mlir::Operation *previous;
};

/// Emits `attic_rt_report_error(code, a, b, c)` (index or integer details,
/// converted to i64: narrower integers sign-extended, wider ones saturated
/// into i64's range) at the builder's insertion point.
void emitReportError(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::func::FuncOp report, int32_t code, mlir::Value a,
                     mlir::Value bValue, mlir::Value c);

/// emitReportError under `scf.if cond` (nothing where `cond` is the
/// constant false).
void emitReportErrorIf(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::func::FuncOp report, mlir::Value cond,
                       int32_t code, mlir::Value a, mlir::Value bValue,
                       mlir::Value c);

/// The `a` detail of a block-list report (ATTIC_RT_BLOCK_COUNT, _INDEX,
/// _ORDER, _BOTH; Runtime.h) for row (batch, head, queryBlock) of lists
/// with `heads` head rows and `queryBlocks` query blocks: the three
/// indices and `list` (0: kv_num_blocks / kv_indices, 1: the full ones)
/// packed into one index value where each index is below 2^20, else the
/// negative code of the flattened row. The runtime's message names
/// "kv_indices[b, h, qb, :]" from it.
mlir::Value emitBlockListRow(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value batch, mlir::Value head,
                             mlir::Value queryBlock, mlir::Value heads,
                             mlir::Value queryBlocks, int list);

/// The guards of the function's own code (attic-guard-tensor-indices,
/// -integer-division, -loop-steps): whether `op` is inside an attic op (a
/// modifier region, which has its own checks), and the source line its
/// reports name (0 if its location has no file line).
bool insideAtticOp(mlir::Operation *op);
int64_t sourceLineOf(mlir::Location loc);

} // namespace attic

#endif // ATTIC_TRANSFORMS_RUNTIMECALLS_H
