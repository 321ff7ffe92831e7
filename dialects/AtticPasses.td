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
    Option<"blockQ", "block-q", "int64_t", /*default=*/"128",
           "Query rows per block">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"128",
           "Key rows per block">
  ];
}

def AtticLowerBlockAttention : Pass<"attic-lower-block-attention"> {
  let summary = "Lower bufferized attic.block_attention to register-blocked vector loops";
  let description = [{
    Lowers the memref form of `attic.block_attention` (after one-shot
    bufferization) to a flash-style kernel in two `scf.parallel` loops:

    1. over (batch, head, key block): the key block is packed once into f32
       panels, K transposed (`[D][block_k]`, keys along the vector lanes), V
       as is (`[block_k][Dv]`), and a per-key logit term (key bias, `-inf`
       for masked and padding keys). The panels take O(N*D) memory, never
       O(N^2).
    2. over (batch, head, query block): register-blocked micro-kernels compute
       the logits tile `S = Q K^T` (tiles of `register-rows` rows by
       `register-chunks` vectors, FMA over D), a vectorized online softmax
       (running max and sum per row, f32), and `acc = alpha*acc + P V` (same
       tiles, FMA over the keys). Causal query blocks are visited in zig-zag
       order so that contiguous shares of the iteration space carry equal
       work.

    Scratch is heap-allocated and 64-byte aligned. `vector-width` (f32
    lanes) defaults to the host CPU's widest unit (16 with AVX-512, 8 with
    AVX2); key blocks are padded to whole vectors, so `block_k` a multiple
    of the vector width wastes nothing. Tensor-form ops are left alone
    (bufferize first). Patterns: `attic::populateLowerBlockAttentionPatterns`.

    Example: `attic-opt --attic-lower-block-attention="vector-width=8"`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"0",
           "f32 lanes per vector (a power of two); 0: the host CPU's">,
    Option<"registerRows", "register-rows", "int64_t", /*default=*/"0",
           "Query rows per register tile; 0: 4 with 16 lanes, else 2">,
    Option<"registerChunks", "register-chunks", "int64_t", /*default=*/"0",
           "Vectors per register tile row; 0: 4">
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
