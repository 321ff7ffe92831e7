//===- AtticPasses.td - attic passes -----------------------*- tablegen -*-===//

#ifndef ATTIC_PASSES_TD
#define ATTIC_PASSES_TD

include "mlir/Pass/PassBase.td"

def AtticDecompose : Pass<"attic-decompose"> {
  let summary = "Decompose attic pattern ops (L1) into attic.block_attention (L2)";
  let description = [{
    Rewrites `attic.attention` into `attic.block_attention` on tensors: the
    default scale `1/sqrt(D)` becomes explicit, `causal` becomes the
    `#attic.layout<causal>` iteration layout, the destination is a
    `tensor.empty` of the result shape, and the tile sizes are chosen from the
    pass options. The rewrite patterns are available through
    `attic::populateDecomposePatterns` for other pipelines.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
  let options = [
    Option<"blockQ", "block-q", "int64_t", /*default=*/"64",
           "Query rows per block">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"64",
           "Key rows per block">
  ];
}

def AtticLowerBlockAttention : Pass<"attic-lower-block-attention"> {
  let summary = "Lower bufferized attic.block_attention to scf/memref/arith/math loops";
  let description = [{
    Lowers the memref form of `attic.block_attention` (after one-shot
    bufferization) to a flash-style loop nest: `scf.parallel` over (batch,
    head, query block) with per-iteration f32 scratch tiles (heap, 64-byte
    aligned)
    (pre-scaled query block, transposed key block, running max / sum,
    accumulator), and `scf.for` loops over the key blocks the layout visits.
    Innermost loops run along contiguous memory so that LLVM's vectorizer
    turns them into SIMD code. Tensor-form ops are left alone (bufferize
    first). Patterns: `attic::populateLowerBlockAttentionPatterns`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def AtticApproximateMath : Pass<"attic-approximate-math"> {
  let summary = "Replace math.exp on f32 by upstream's polynomial approximation";
  let description = [{
    Without it `math.exp` lowers to a call of libm's `expf` per element, which
    keeps LLVM from vectorizing the softmax loops. Upstream's approximation
    (range reduction + polynomial, a few ulp in f32) is plain arithmetic that
    vectorizes. Only `math.exp` is rewritten.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // ATTIC_PASSES_TD
