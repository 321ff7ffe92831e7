//===- OrderConstantGlobals.cpp - deterministic constant globals -*- C++
//-*-===//
//
// attic-order-constant-globals (AtticPasses.td): after one-shot-bufferize,
// the private `__constant_*` globals it made get names and positions that
// depend only on the module (the order of their first use), not on the
// order in which upstream happened to create them (which MLIR 22 varies from
// run to run when several functions hold constants).
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <string>

namespace attic {
#define GEN_PASS_DEF_ATTICORDERCONSTANTGLOBALS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

/// `__constant_<d0>x<d1>x...x<element>`, as upstream names them.
std::string baseName(MemRefType type) {
  std::string name = "__constant_";
  llvm::raw_string_ostream os(name);
  for (int64_t dim : type.getShape())
    os << dim << "x";
  os << type.getElementType();
  return name;
}

struct AtticOrderConstantGlobalsPass
    : public attic::impl::AtticOrderConstantGlobalsBase<
          AtticOrderConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<StringAttr, memref::GlobalOp> byName;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (global.getConstant() && global.isPrivate() &&
          global.getSymName().starts_with("__constant_"))
        byName[global.getSymNameAttr()] = global;
    if (byName.empty())
      return;

    // First uses in op order, then the unused ones by name.
    SmallVector<memref::GlobalOp> ordered, unused;
    llvm::DenseSet<Operation *> seen;
    module.walk([&](memref::GetGlobalOp use) {
      auto it = byName.find(use.getNameAttr().getAttr());
      if (it != byName.end() && seen.insert(it->second).second)
        ordered.push_back(it->second);
    });
    for (auto [name, global] : byName)
      if (!seen.contains(global))
        unused.push_back(global);
    llvm::sort(unused, [](memref::GlobalOp a, memref::GlobalOp b) {
      return a.getSymName() < b.getSymName();
    });
    ordered.append(unused.begin(), unused.end());

    // Rename through temporary names (a final name may be another
    // global's current one), then number the repeats of each type.
    SymbolTable table(module);
    MLIRContext *ctx = &getContext();
    unsigned next = 0;
    for (memref::GlobalOp global : ordered) {
      std::string temporary;
      do // a name no symbol of the module has (the user's may be any)
        temporary = "__attic_constant_renaming_" + std::to_string(next++);
      while (table.lookup(temporary));
      if (failed(table.rename(global, StringAttr::get(ctx, temporary))))
        return signalPassFailure();
    }
    llvm::StringMap<unsigned> repeats;
    for (memref::GlobalOp global : ordered) {
      std::string base = baseName(global.getType());
      std::string name;
      do {
        unsigned n = repeats[base]++;
        name = n ? base + "_" + std::to_string(n) : base;
      } while (table.lookup(name)); // a symbol that is not one of ours
      if (failed(table.rename(global, StringAttr::get(ctx, name))))
        return signalPassFailure();
    }

    // In that order, at the front of the module.
    for (memref::GlobalOp global : llvm::reverse(ordered))
      global->moveBefore(&module.getBody()->front());
  }
};

} // namespace
