//===- InlineAllocaScopes.cpp - drop alloca scopes without allocas -*- C++ -*-===//
//
// convert-scf-to-openmp wraps every parallel loop body in a
// memref.alloca_scope. Upstream's canonicalization inlines a scope only
// when nothing in it may allocate on the stack, and a func.call (attic's
// kernels call the runtime's attic_rt_report_error) may, for all it knows;
// the scope then stays, and scf-to-cf fails on it ("expects region #0 to
// have 0 or 1 blocks"). attic's CPU code allocates scratch on the heap, and
// the functions it calls are the runtime's, so a scope without a
// memref.alloca has nothing to free and is inlined here.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace attic {
#define GEN_PASS_DEF_ATTICINLINEALLOCASCOPES
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
struct AtticInlineAllocaScopesPass
    : public attic::impl::AtticInlineAllocaScopesBase<
          AtticInlineAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](memref::AllocaScopeOp scope) {
      bool allocates = scope->walk([](memref::AllocaOp) {
                              return WalkResult::interrupt();
                            }).wasInterrupted();
      if (!allocates && scope.getBodyRegion().hasOneBlock())
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block *body = &scope.getBodyRegion().front();
      Operation *terminator = body->getTerminator();
      SmallVector<Value> results(terminator->getOperands());
      rewriter.eraseOp(terminator);
      rewriter.inlineBlockBefore(body, scope);
      rewriter.replaceOp(scope, results);
    }
  }
};
} // namespace
