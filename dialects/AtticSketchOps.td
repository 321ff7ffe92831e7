//===- AtticSketchOps.td - sketched and low-rank attention -*- tablegen -*-===//
//
// L1 ops of sketched and low-rank attention (docs/sketches.md): Skeinformer,
// Informer ProbSparse, Linformer, Nystromformer and the factorized random
// Synthesizer. attic-decompose rewrites each into the shared core
// (attic.attention / attic.block_attention) and tensor steps.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SKETCH_OPS_TD
#define ATTIC_SKETCH_OPS_TD

// Attic_F32Tensor and the dialect.
include "AtticKernelOps.td"

def Attic_SketchSampling : I32EnumAttr<"SketchSampling",
    "how Skeinformer chooses its sampled keys", [
      I32EnumAttrCase<"Importance", 0, "importance">,
      I32EnumAttrCase<"Uniform", 1, "uniform">
    ]> {
  let cppNamespace = "::attic";
}

def Attic_SketchNormalization : I32EnumAttr<"SketchNormalization",
    "how Skeinformer normalizes a row over its sampled keys", [
      I32EnumAttrCase<"Adaptive", 0, "adaptive">,
      I32EnumAttrCase<"Simple", 1, "simple">
    ]> {
  let cppNamespace = "::attic";
}

def Attic_SkeinformerAttentionOp : Attic_Op<"skeinformer_attention", [Pure]> {
  let summary = "Skeinformer: pilot-sampled column importance, sampled keys, adaptive row normalization";
  let description = [{
    Skeinformer (Chen et al., NAACL 2022, Algorithm 1; docs/sketches.md,
    ../shared/papers/skeinformer.md). For `query [B,H,Nq,D]`,
    `key [B,H,Nk,D]`, `value [B,H,Nk,Dv]` and `d = samples`, per (batch,
    head), with `s_ij = scale q_i . k_j` (`scale` default `1/sqrt(D)`):

    1. pilot rows `J`: `d` queries drawn uniformly with replacement (Philox
       stream 48 with `seed`, shared by all heads);
    2. `B_J = softmax(s_{J,.})` and the pilot outputs `B_J V`;
    3. column importance `w_j = |B_J[:, j]|_2 |v_j|_2`;
    4. the sampled keys `J'`: the `d` largest `ln w_j + G_j`, `G` Gumbel
       noise (Philox stream 49), i.e. sampling without replacement with
       probabilities proportional to `w` (`sampling uniform`: `G_j` alone,
       no pilot);
    5. adaptive row normalization: each missing logit of row `i` is the
       mean `g_i` of its sampled logits,
       `out_i = (sum_{J'} e^{s_ij} v_j + e^{g_i} sum_{j not in J'} v_j) /
                (sum_{J'} e^{s_ij} + (Nk - d) e^{g_i})`
       (`normalization simple`: `softmax_{J'}(s_i) V_{J'}`);
    6. with `pilot_reuse` (default) the pilot rows get their exact outputs.
       Under `sampling uniform` there are no pilot rows, so `pilot_reuse`
       has no effect (as in the authors' uniform ablation).

    `d = Nk` is exact attention. `samples` is in `[1, Nk]`; `seed` is
    required when `samples < Nk`.

    ```mlir
    %o = attic.skeinformer_attention %q, %k, %v {samples = 256 : i64, seed = 7 : i64}
        : tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32>,
          tensor<1x4x4096x64xf32> -> tensor<1x4x4096x64xf32>
    ```

    The paper's ablations: `sampling uniform` ("w/o column sampling"),
    `normalization simple` with `pilot_reuse = false` ("w/ simple row
    normalization"), `pilot_reuse = false` ("w/o pilot sampling
    reutilization").

    Lowering (`attic-decompose`): the pilot rows as constants,
    `attic.gather_rows`, one `attic.block_attention` of the pilot queries
    (outputs and log-sum-exps), the column norms from a batch matmul, the
    Gumbel-top-k selection, `attic.gather_rows` of the sampled keys and
    values, and one `attic.attention` over the `d` sampled keys plus one
    key carrying the fill term (the mean of the sampled keys, bias
    `ln(Nk - d)`, value the mean of the other values).
  }];
  let arguments = (ins
    Attic_F32Tensor:$query,
    Attic_F32Tensor:$key,
    Attic_F32Tensor:$value,
    I64Attr:$samples,
    OptionalAttr<I64Attr>:$seed,
    DefaultValuedAttr<Attic_SketchSampling, "::attic::SketchSampling::Importance">:$sampling,
    DefaultValuedAttr<Attic_SketchNormalization, "::attic::SketchNormalization::Adaptive">:$normalization,
    DefaultValuedAttr<BoolAttr, "true">:$pilot_reuse,
    OptionalAttr<F32Attr>:$scale
  );
  let results = (outs Attic_F32Tensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`sampling` $sampling^)?
    (`normalization` $normalization^)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "kKeywordAttrNames")
    `:` type($query) `,` type($key) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The attributes written with keywords (custom<KeywordAttrs>).
    static constexpr ::llvm::StringLiteral kKeywordAttrNames[] = {
        "sampling", "normalization"};
    /// `scale`, else 1/sqrt(D).
    float getEffectiveScale();
  }];
}

def Attic_InformerAttentionOp : Attic_Op<"informer_attention", [Pure]> {
  let summary = "Informer ProbSparse: exact attention for the top-u queries, mean(V) for the rest";
  let description = [{
    Informer's ProbSparse attention (Zhou et al. 2021, as run by the
    Skeinformer authors; docs/sketches.md). Each query `i` samples `U` keys
    uniformly with replacement (Philox stream 50 with `seed`, shared by all
    batches and heads) and gets the sparsity measure
    `M_i = max_t (q_i . k_{j_t}) - (sum_t q_i . k_{j_t}) / Nk`; the `u`
    queries of largest `M` (ties: the lower index) get exact softmax
    attention over all keys, the others the mean of all values.
    `U = samples`, else `min(Nk, max(1, factor * ceil(ln Nk)))`;
    `u = active`, else `min(Nq, max(1, factor * ceil(ln Nq)))`; `factor`
    defaults to 5 and must be in [1, 1000], `samples` in [1, Nk], `active`
    in [1, Nq]. `u = Nq` is exact attention; `seed` is required when `u < Nq`.

    ```mlir
    %o = attic.informer_attention %q, %k, %v {factor = 5 : i64, seed = 3 : i64}
        : tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32>,
          tensor<1x4x4096x64xf32> -> tensor<1x4x4096x64xf32>
    ```

    Lowering (`attic-decompose`): the measure in a parallel loop (the
    generator inline), the `u` largest per head, `attic.gather_rows` of the
    active queries, one `attic.attention` of them over all keys (the shared
    core), and a select between its rows and the mean of V.
  }];
  let arguments = (ins
    Attic_F32Tensor:$query,
    Attic_F32Tensor:$key,
    Attic_F32Tensor:$value,
    DefaultValuedAttr<I64Attr, "5">:$factor,
    OptionalAttr<I64Attr>:$active,
    OptionalAttr<I64Attr>:$samples,
    OptionalAttr<I64Attr>:$seed,
    OptionalAttr<F32Attr>:$scale
  );
  let results = (outs Attic_F32Tensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value attr-dict `:` type($query) `,` type($key) `,`
    type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scale`, else 1/sqrt(D).
    float getEffectiveScale();
    /// u: `active`, else min(Nq, max(1, factor * ceil(ln Nq))).
    int64_t getActiveCount();
    /// U: `samples`, else min(Nk, max(1, factor * ceil(ln Nk))).
    int64_t getSampleCount();
  }];
}

def Attic_LinformerAttentionOp : Attic_Op<"linformer_attention", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "Linformer: softmax attention over keys and values projected along the sequence";
  let description = [{
    Linformer (Wang et al. 2020; docs/sketches.md):
    `out = softmax(scale Q (E K)^T) (F V)` per (batch, head), with the
    projections along the sequence `E = key_projection` and
    `F = value_projection` (default: `E`, shared by keys and values), each
    `[Hp, P, Nk]` with `Hp = 1` (shared by the heads) or `H`, the same
    `Hp` for both. Sharing
    across layers is passing the same tensor to several ops. With `mask`
    (`[B,Nk]` i1) padded key and value rows are zero before the
    projection.

    ```mlir
    %o = attic.linformer_attention %q, %k, %v projection(%e : tensor<1x256x4096xf32>)
        : tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32>,
          tensor<1x4x4096x64xf32> -> tensor<1x4x4096x64xf32>
    ```

    Lowering (`attic-decompose`): the projections as batch matmuls (sgemm
    on the CPU), then one `attic.attention` over the `P` projected keys.
  }];
  let arguments = (ins
    Attic_F32Tensor:$query,
    Attic_F32Tensor:$key,
    Attic_F32Tensor:$value,
    Attic_F32Tensor:$key_projection,
    Optional<Attic_F32Tensor>:$value_projection,
    Optional<StaticShapeTensorOf<[I1]>>:$mask,
    OptionalAttr<F32Attr>:$scale
  );
  let results = (outs Attic_F32Tensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value `projection` `(` $key_projection `:`
    type($key_projection) `)`
    (`value_projection` `(` $value_projection^ `:` type($value_projection) `)`)?
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "{}")
    `:` type($query) `,` type($key) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scale`, else 1/sqrt(D).
    float getEffectiveScale();
  }];
}

def Attic_NystromAttentionOp : Attic_Op<"nystrom_attention", [Pure]> {
  let summary = "Nystromformer: segment-mean landmarks and an iterative pseudo-inverse";
  let description = [{
    Nystromformer (Xiong et al. 2021; docs/sketches.md). With
    `p = landmarks` dividing `Nq` and `Nk`, `Qt` and `Kt` the segment means
    of the queries and keys (`p` segments of consecutive rows) and
    `S(X, Y) = softmax(scale X Y^T)`:

    ```
    out = S(Q, Kt) pinv(S(Qt, Kt)) S(Qt, K) V  (+ conv(V))
    ```

    The pseudo-inverse of `A = S(Qt, Kt)` is `iterations` (default 6)
    steps of `Z = 1/4 Z (13 I - A Z (15 I - A Z (7 I - A Z)))` from
    `Z_0 = A^T / (max_j sum_i |A_ij| * max_i sum_j |A_ij|)`, per (batch,
    head). The optional skip `conv` (`[H, W]`, `W` odd) adds the depthwise
    convolution of V along the sequence,
    `sum_t conv[h, t] v[b, h, i + t - W/2, :]` (zero outside; needs
    `Nq = Nk`). `landmarks = Nq = Nk` with enough iterations is exact
    attention.

    ```mlir
    %o = attic.nystrom_attention %q, %k, %v {landmarks = 64 : i64}
        : tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32>,
          tensor<1x4x4096x64xf32> -> tensor<1x4x4096x64xf32>
    ```

    Lowering (`attic-decompose`): the segment means,
    `W = attic.attention(Qt, K, V)` and `out = attic.attention(Q, Kt, Z W)`
    (the shared core twice), the `p x p` softmax and the iteration as batch
    matmuls (an `scf.for` over the iterations; one copy each with
    `iteration-loops=false`, the GPU pipelines), and the convolution
    element-wise.
  }];
  let arguments = (ins
    Attic_F32Tensor:$query,
    Attic_F32Tensor:$key,
    Attic_F32Tensor:$value,
    Optional<Attic_F32Tensor>:$conv,
    I64Attr:$landmarks,
    DefaultValuedAttr<I64Attr, "6">:$iterations,
    OptionalAttr<F32Attr>:$scale
  );
  let results = (outs Attic_F32Tensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`conv` `(` $conv^ `:` type($conv) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scale`, else 1/sqrt(D).
    float getEffectiveScale();
  }];
}

def Attic_SynthesizerAttentionOp : Attic_Op<"synthesizer_attention", [Pure]> {
  let summary = "factorized random Synthesizer: softmax(R1 R2^T) V per head";
  let description = [{
    The factorized random synthetic attention of Synthesizer (Tay et al.
    2021; docs/sketches.md): `out = softmax(scale R1 R2^T) V` per (batch,
    head), with the learned, randomly initialized factors `r1 [H,Nq,k]` and
    `r2 [H,Nk,k]` in place of the queries and keys; `value` is
    `[B,H,Nk,Dv]`. `scale` defaults to 1. `causal` lets query `i` see the
    keys `j <= i`; `mask` (`[B,Nk]` i1) marks real keys. A row with no
    visible key is 0.

    ```mlir
    %o = attic.synthesizer_attention %r1, %r2, %v {causal}
        : tensor<4x1024x8xf32>, tensor<4x1024x8xf32>,
          tensor<2x4x1024x64xf32> -> tensor<2x4x1024x64xf32>
    ```

    Lowering (`attic-decompose`): one `attic.attention` with `R1` and `R2`
    (broadcast over the batch) as queries and keys.
  }];
  let arguments = (ins
    Attic_F32Tensor:$r1,
    Attic_F32Tensor:$r2,
    Attic_F32Tensor:$value,
    Optional<StaticShapeTensorOf<[I1]>>:$mask,
    UnitAttr:$causal,
    DefaultValuedAttr<F32Attr, "1.0">:$scale
  );
  let results = (outs Attic_F32Tensor:$result);
  let assemblyFormat = [{
    $r1 `,` $r2 `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    attr-dict `:` type($r1) `,` type($r2) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // ATTIC_SKETCH_OPS_TD
