//===- PassRoots.h - the ops attic's op-agnostic passes run on --*- C++ -*-===//
//
// attic-decompose, attic-expand-vcc, attic-expand-cst, attic-lower-state,
// attic-lower-block-mask and attic-tile-block-attention run on any op and
// lower the attic ops inside it. Nested in any(...), the pass manager runs
// them on every op of a function, each attic op among them: replacing its
// own root freed it under the pass manager (lower-block-mask,
// tile-block-attention), and the others did nothing without a word (a
// 2026-11-30 audit). They refuse such a root instead.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_LIB_TRANSFORMS_PASSROOTS_H
#define ATTIC_LIB_TRANSFORMS_PASSROOTS_H

#include "attic/Dialect/Attic/AtticDialect.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace attic::detail {

/// Fails, with an error on `root`, where `root` (the op `pass` runs on) is
/// an attic op.
inline mlir::LogicalResult refuseAtticRoot(mlir::Operation *root,
                                           llvm::StringRef pass) {
  if (!mlir::isa_and_nonnull<AtticDialect>(root->getDialect()))
    return mlir::success();
  return root->emitOpError("is the op ")
         << pass
         << " runs on: it lowers the attic ops inside the op it runs on (a "
            "function or module), so nest it on that op, not in any(...) "
            "below it";
}

} // namespace attic::detail

#endif // ATTIC_LIB_TRANSFORMS_PASSROOTS_H
