//===- Passes.h - attic passes ------------------------------------*- C++ -*-===//

#ifndef ATTIC_TRANSFORMS_PASSES_H
#define ATTIC_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace attic {

#define GEN_PASS_DECL
#include "AtticPasses.h.inc"

/// Tile sizes that attic-decompose gives the block_attention ops it creates.
struct DecomposeOptions {
  int64_t blockQ = 64;
  int64_t blockK = 64;
};

/// attic.attention -> attic.block_attention (on tensors).
void populateDecomposePatterns(mlir::RewritePatternSet &patterns,
                               const DecomposeOptions &options = {});

/// attic.block_attention (memref form) -> scf/memref/arith/math loops.
void populateLowerBlockAttentionPatterns(mlir::RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "AtticPasses.h.inc"

} // namespace attic

#endif // ATTIC_TRANSFORMS_PASSES_H
