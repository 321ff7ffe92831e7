//===- Diagnostics.h - errors that do not print their op --------*- C++ -*-===//
//
// MLIR's opt drivers (attic-opt, mlir-opt with attic's plugin) attach the
// whole text of an op to each diagnostic emitted on it
// (--mlir-print-op-on-diagnostic, on by default). For a function, a loop,
// a tile grid or a kernel module that is hundreds of kilobytes for one
// error. attic's passes report errors on such ops through these helpers:
// the same message and location, without the op's text.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SUPPORT_DIAGNOSTICS_H
#define ATTIC_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

namespace attic {

/// As `op->emitOpError(message)` ("'name' op message"), without the op.
/// The scf.parallel that an attic.tile.grid expands to (marked
/// attic.tile_grid; the mapping passes work on that form) is named
/// attic.tile.grid, the op the input has.
inline mlir::InFlightDiagnostic opError(mlir::Operation *op,
                                        const llvm::Twine &message = {}) {
  mlir::InFlightDiagnostic diag = mlir::emitError(op->getLoc());
  llvm::StringRef name = op->hasAttr("attic.tile_grid")
                             ? llvm::StringRef("attic.tile.grid")
                             : op->getName().getStringRef();
  diag << "'" << name << "' op " << message;
  return diag;
}

/// As `op->emitError(message)`, without the op.
inline mlir::InFlightDiagnostic locError(mlir::Operation *op,
                                         const llvm::Twine &message = {}) {
  mlir::InFlightDiagnostic diag = mlir::emitError(op->getLoc());
  diag << message;
  return diag;
}

/// An error in a pass's options, from the pass's `initialize`: reported
/// once before the pass runs (not once per function it is nested on), and
/// without a location, since it is not about the IR.
inline mlir::LogicalResult optionError(mlir::MLIRContext *context,
                                       const llvm::Twine &message) {
  mlir::emitError(mlir::UnknownLoc::get(context)) << message;
  return mlir::failure();
}

} // namespace attic

#endif // ATTIC_SUPPORT_DIAGNOSTICS_H
