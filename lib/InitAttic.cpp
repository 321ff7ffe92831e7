//===- InitAttic.cpp - register everything attic provides -------*- C++ -*-===//

#include "attic/InitAttic.h"

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Pipelines/Pipelines.h"
#include "attic/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void attic::registerAtticDialect(mlir::DialectRegistry &registry) {
  registry.insert<attic::AtticDialect>();
  attic::registerBufferizableOpInterfaceExternalModels(registry);
}

void attic::registerAtticPassesAndPipelines() {
  attic::registerAtticPasses();
  attic::registerAtticPipelines();
}
