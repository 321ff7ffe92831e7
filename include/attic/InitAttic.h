//===- InitAttic.h - register everything attic provides ----------*- C++ -*-===//

#ifndef ATTIC_INITATTIC_H
#define ATTIC_INITATTIC_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace attic {
/// The attic dialect and its external interface models.
void registerAtticDialect(mlir::DialectRegistry &registry);
/// attic's passes and the attic-cpu-pipeline.
void registerAtticPassesAndPipelines();
} // namespace attic

#endif // ATTIC_INITATTIC_H
