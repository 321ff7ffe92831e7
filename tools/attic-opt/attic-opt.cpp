//===- attic-opt.cpp - attic's opt-style driver -----------------*- C++ -*-===//
//
// mlir-opt with the attic dialect, its passes and attic-cpu-pipeline added.
//
//===----------------------------------------------------------------------===//

#include "attic/InitAttic.h"
#include "attic/Support/CrashHandler.h"
#include "attic/Support/InputFile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // After InitLLVM: a crash is one line and exit 70 (CrashHandler.h).
  attic::installCrashHandler("attic-opt");
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  attic::registerAtticDialect(registry);
  attic::registerAtticPassesAndPipelines();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "attic optimizer driver\n", registry);
  // A device or a FIFO would be read without end (see InputFile.h).
  if (std::string why = attic::checkInputFile(input); !why.empty()) {
    llvm::errs() << "attic-opt: error: " << why << "\n";
    return 1;
  }
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
