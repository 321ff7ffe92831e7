//===- AtticPlugin.cpp - attic as a plugin for upstream mlir-opt ----------===//
//
// A shared library that Debian's (or any MLIR 22) `mlir-opt` loads at run
// time, so that attic's dialect, passes and pipelines can be used in
// pipelines that are not attic-opt's:
//
//   mlir-opt --load-dialect-plugin=build/lib/AtticPlugin.so \
//            --load-pass-plugin=build/lib/AtticPlugin.so \
//            in.mlir --attic-cpu-pipeline
//
// Both entry points live in the same library: the dialect plugin registers
// the attic dialect with its external interface models, the pass plugin
// registers attic's passes and pipelines. The library links the same
// libMLIR.so/libLLVM.so as mlir-opt, so the registries are shared.
//
//===----------------------------------------------------------------------===//

#include "attic/InitAttic.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AtticDialect", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            attic::registerAtticDialect(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AtticPasses", LLVM_VERSION_STRING,
          []() { attic::registerAtticPassesAndPipelines(); }};
}
