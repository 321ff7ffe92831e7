//===- consumer-opt.cpp - a downstream opt tool with attic in it ----------===//
//
// Registers upstream's dialects and passes plus attic's dialect, passes and
// pipelines from the installed package, as a project that embeds attic in
// its own pipelines would.
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
      mlir::MlirOptMain(argc, argv, "consumer-opt\n", registry));
}
