//===- AtticSliceOps.td - composite slice attention ----------*- tablegen -*-===//
//
// Composite slice attention (CST, docs/cst.md and ../shared/papers/cst.md):
// one L1 op for a whole attention sublayer, expanded by attic-expand-cst into
// projections and two attic.attention ops on the shared block-attention
// core (local slices as #attic.block_diagonal, global slice summaries dense
// or causal).
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SLICE_OPS_TD
#define ATTIC_SLICE_OPS_TD

include "AtticDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Attic_SliceAttentionOp : Attic_Op<"slice_attention", [Pure,
    AllTypesMatch<["wq", "wk", "wv"]>]> {
  let summary = "composite slice attention: local slices, then global slice summaries";
  let description = [{
    One composite slice attention (CSA) sublayer of the Composite Slice
    Transformer, with the weights shared between the local and the global
    attention and MS-VIPE positional embeddings. For `x` of `[B,N,D]`, slice
    length `L = slice`, `n = N / L` slices, `H = heads` heads of width
    `d = D / H` and extension `alpha` (1 or 3; `E = (alpha - 1) L / 2`
    tokens are borrowed from each neighbouring slice):

    ```
    Q0, K0, V0 = x Wq, x Wk, x Wv                                [B,N,D]
    window of slice s: tokens s L - E + e for e in [0, W),
        W = alpha L (bidirectional) or E + L (causal: left only)
    local:  q_i = Q0[i] + (P_l[E + i mod L] Wq),  k_(s,e) = K0[sL-E+e] + (P_l[e] Wk),
            Y_l[i] = softmax_e(q_i . k_(s,e) / sqrt(d)) V0[sL-E+e]   per head,
            over the e whose token is inside [0, N) and not padded
            (causal: also e <= E + i mod L)
    pool:   S[s] = sum_(i in s) m_i Y_l[i] / max(1, sum_(i in s) m_i)
    global: Y_g = attention((S + P_g) Wq, (S + P_g) Wk, S Wv)   per head,
            over the slices with a real token; causal: slice t attends
            with query t - 1 to slices t' < t, slice 0 gets 0
    result: Y[i] = Y_l[i] + Y_g[i / L]                          [B,N,D]
    ```

    `pos_local` (`P_l`) is `[W, D]` and `pos_global` (`P_g`) is `[n, D]`;
    the embeddings are added to the query and key inputs only, never to the
    values. The optional `mask` (`[B,N]` i1, true for a real token) masks
    padded keys in both attentions and leaves padded tokens out of the
    slice means. Window positions outside the sequence are masked, never
    attended as zero rows. The output projection `W_o` is not part of the
    op (apply it to the result; by linearity it commutes with the pooling).

    All shapes are static, the element type is f32, `N` is a multiple of
    `L` (pad the sequence and mask the padding), and `D` a multiple of
    `heads`. The paper's `alpha = 2` borrows half slices; it is rejected
    (only whole neighbouring slices, `alpha` in {1, 3}).

    Example (L = 16, alpha = 3, 4 heads):

    ```mlir
    %y = attic.slice_attention %x weights(%wq, %wk, %wv)
        positions(%pl, %pg) mask(%m : tensor<2x256xi1>)
        {slice = 16 : i64, extension = 3 : i64, heads = 4 : i64}
        : tensor<2x256x64xf32>, tensor<64x64xf32>, tensor<48x64xf32>,
          tensor<16x64xf32> -> tensor<2x256x64xf32>
    ```

    Lowering: `attic-expand-cst` rewrites it into `linalg.matmul`
    projections, `tensor.generate` gathers, an `attic.block_attention`
    with `#attic.block_diagonal<query = L, key = W>` and `block_q = L`,
    `block_k = W` for the local part, whose pooled epilogue writes each
    slice's masked mean (with L or W above 1024, or with
    `pool-epilogue=false`, an `attic.attention` with that layout and the
    means as a separate pass), and an `attic.attention` (dense, or causal
    with the output shifted by one slice) over the slice summaries.
  }];
  let arguments = (ins
    StaticShapeTensorOf<[F32]>:$input,
    StaticShapeTensorOf<[F32]>:$wq,
    StaticShapeTensorOf<[F32]>:$wk,
    StaticShapeTensorOf<[F32]>:$wv,
    StaticShapeTensorOf<[F32]>:$pos_local,
    StaticShapeTensorOf<[F32]>:$pos_global,
    Optional<StaticShapeTensorOf<[I1]>>:$mask,
    I64Attr:$slice,
    I64Attr:$extension,
    I64Attr:$heads,
    UnitAttr:$causal
  );
  let results = (outs StaticShapeTensorOf<[F32]>:$result);
  let assemblyFormat = [{
    $input `weights` `(` $wq `,` $wk `,` $wv `)`
    `positions` `(` $pos_local `,` $pos_global `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    attr-dict `:` type($input) `,` type($wq) `,` type($pos_local) `,`
    type($pos_global) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Tokens borrowed from each neighbouring slice: (alpha - 1) L / 2.
    int64_t getBorrowed() { return (getExtension() - 1) * getSlice() / 2; }
    /// Keys per window: alpha L, or (alpha + 1) L / 2 when causal.
    int64_t getWindow() {
      return getCausal() ? getBorrowed() + getSlice()
                         : 2 * getBorrowed() + getSlice();
    }
  }];
}

#endif // ATTIC_SLICE_OPS_TD
