//===- ReadonlyArguments.cpp - Callers' tensors are not written ----------===//
//
// Marks the ranked-tensor arguments of public functions with
// `bufferization.writable = false`, so that one-shot bufferization copies
// instead of writing into a caller's buffer (see AtticPasses.td).
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace attic {
#define GEN_PASS_DEF_ATTICREADONLYARGUMENTS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
struct AtticReadonlyArgumentsPass
    : public attic::impl::AtticReadonlyArgumentsBase<
          AtticReadonlyArgumentsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.isPublic())
      return;
    StringRef name = bufferization::BufferizationDialect::kWritableAttrName;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (isa<RankedTensorType>(func.getArgument(i).getType()) &&
          !func.getArgAttr(i, name))
        func.setArgAttr(i, name, BoolAttr::get(&getContext(), false));
  }
};
} // namespace
