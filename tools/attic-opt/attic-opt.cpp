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
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
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
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // These read no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  // The input is read here, as MlirOptMain would, so that its nesting is
  // checked before MLIR's parser recurses through it (see InputFile.h).
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      mlir::openInputFile(input, &error);
  if (!buffer) {
    llvm::errs() << "attic-opt: error: " << error << "\n";
    return 1;
  }
  if (std::string why = attic::checkInputNesting(buffer->getBuffer(),
                                                 buffer->getBufferIdentifier());
      !why.empty()) {
    llvm::errs() << "attic-opt: error: " << why << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> file =
      mlir::openOutputFile(output, &error);
  if (!file) {
    llvm::errs() << "attic-opt: error: " << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(file->os(), std::move(buffer), registry, config)))
    return 1;
  file->keep();
  return 0;
}
