//===- attic-opt.cpp - attic's opt-style driver -----------------*- C++ -*-===//
//
// mlir-opt with the attic dialect, its passes and attic-cpu-pipeline added.
//
//===----------------------------------------------------------------------===//

#include "attic/InitAttic.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  attic::registerAtticDialect(registry);
  attic::registerAtticPassesAndPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "attic optimizer driver\n", registry));
}
