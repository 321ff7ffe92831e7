//===- AtticKernelOps.td - kernelized (linear) attention -----*- tablegen -*-===//
//
// Kernelized attention (docs/kernelized.md, ../shared/papers/xformer.md
// section 3.3 and A12): softmax(q k^T) replaced by a feature-map kernel
// phi(q) phi(k)^T, computed in the order phi(Q) (phi(K)^T V), linear in N.
// One L1 op, expanded by attic-decompose into three L2 primitives (feature
// map, state reduce, chunked state scan) that attic-lower-state turns into
// upstream ops on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_KERNEL_OPS_TD
#define ATTIC_KERNEL_OPS_TD

include "AtticDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Attic_FeatureMap : I32EnumAttr<"FeatureMap",
    "the feature map phi of a kernelized attention", [
      I32EnumAttrCase<"EluPlusOne", 0, "elu_plus_one">,
      I32EnumAttrCase<"Relu", 1, "relu">,
      I32EnumAttrCase<"Cosformer", 2, "cosformer">,
      I32EnumAttrCase<"PerformerRelu", 3, "performer_relu">,
      I32EnumAttrCase<"FavorPlus", 4, "favor_plus">
    ]> {
  let cppNamespace = "::attic";
}

def Attic_KernelNorm : I32EnumAttr<"KernelNorm",
    "how a kernelized attention normalizes phi(q) S", [
      I32EnumAttrCase<"Linear", 0, "linear">,
      I32EnumAttrCase<"RmsNorm", 1, "rmsnorm">
    ]> {
  let cppNamespace = "::attic";
}

def Attic_F32Tensor : StaticShapeTensorOf<[F32]>;

def Attic_KernelizedAttentionOp : Attic_Op<"kernelized_attention", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "attention with a feature-map kernel instead of softmax, linear in N";
  let description = [{
    For `query [B,H,Nq,D]`, `key [B,H,Nk,D]` and `value [B,H,Nk,Dv]`,
    with `phi` the feature map (`F` features per row) and `j` ranging over
    the visible keys (`mask[b,j]` true when given; `j <= i` when `causal`):

    ```
    linear:   out[i] = sum_j (phi(q_i) . phi(k_j)) v_j / max(sum_j phi(q_i) . phi(k_j), eps)
    rmsnorm:  o[i]   = sum_j (phi(q_i) . phi(k_j)) v_j       (TransNormer's NormAttention)
              out[i] = o[i] / (sqrt(mean_e o[i,e]^2) + eps)
    ```

    computed as `phi(Q) (phi(K)^T V)`: never an `Nq x Nk` matrix.
    Non-causal: the state `S = sum_j phi(k_j)^T v_j` (`F x Dv`) and
    `z = sum_j phi(k_j)` once per head, then `phi(q_i) S` and
    `phi(q_i) . z`. Causal (`Nq = Nk`): the chunkwise-parallel form with
    chunks of `chunk` tokens (default: the largest divisor of `N` up to 64;
    it must divide `N`):
    a masked quadratic product inside each chunk plus `phi(q_i)` times the
    exclusive prefix sum of the chunk states.

    Feature maps (`x` a query or key row; `t` its 0-based position):

    | `feature_map`    | `phi(x)`                                                       | `F`  |
    |------------------|----------------------------------------------------------------|------|
    | `elu_plus_one`   | `elu(x) + 1` (linear attention)                                | `D`  |
    | `relu`           | `relu(x)`                                                      | `D`  |
    | `cosformer`      | `[relu(x) sin a_t, relu(x) cos a_t]`, `a_t = pi (t+1) / (2 m)`, `m = max(Nq, Nk)` | `2D` |
    | `performer_relu` | `relu(D^(-1/4) x W^T) + 0.001` (Performer, generalized ReLU)   | `p`  |
    | `favor_plus`     | `exp(D^(-1/4) x W^T - D^(-1/2) |x|^2 / 2 - c) / sqrt(p)` (FAVOR+) | `p`  |

    cosFormer's re-weighting `cos(a_i - a_j)` is one kernelized attention
    over the doubled features. `W` (`[p, D]`, `p = features`) is the
    `projection` operand when given, else drawn at compile time from the
    counter-based generator with `seed`: blocks of `D` orthonormal rows
    (Gram-Schmidt of Gaussian rows) scaled by the norms of independent
    Gaussian `D`-vectors, as FAVOR+'s positive orthogonal random features.
    A redraw is a new seed (or a new `projection`). FAVOR+'s stabilizer
    `c` is the maximum exponent of each query row; for the keys of query
    row `i`, it is the maximum exponent over the keys visible to `i`
    (unmasked, and `j <= i` when causal). Both cancel in the `linear`
    normalization up to `eps`, and neither depends on a key `i` cannot
    see: padded keys never change the real rows' outputs, and a causal
    row never depends on a later key (bitwise).

    `mask` (`[B,Nk]` i1) marks real keys; a padded key contributes nothing.
    A query with no visible key (all masked) gets 0 with `linear`
    (numerator 0 over `eps`).

    Example (Performer FAVOR+, 64 random features, causal):

    ```mlir
    %o = attic.kernelized_attention favor_plus %q, %k, %v
        {features = 64 : i64, seed = 7 : i64, causal, chunk = 32 : i64}
        : tensor<1x2x128x32xf32>, tensor<1x2x128x32xf32>,
          tensor<1x2x128x32xf32> -> tensor<1x2x128x32xf32>
    ```

    Lowering: `attic-decompose` rewrites it into `attic.feature_map` (twice),
    `attic.state_reduce` or `attic.state_scan`, and the normalization as
    upstream ops on tensors.
  }];
  let arguments = (ins
    Attic_FeatureMap:$feature_map,
    Attic_F32Tensor:$query,
    Attic_F32Tensor:$key,
    Attic_F32Tensor:$value,
    Optional<StaticShapeTensorOf<[I1]>>:$mask,
    Optional<Attic_F32Tensor>:$projection,
    DefaultValuedAttr<Attic_KernelNorm, "::attic::KernelNorm::Linear">:$normalize,
    OptionalAttr<I64Attr>:$features,
    OptionalAttr<I64Attr>:$seed,
    UnitAttr:$causal,
    OptionalAttr<I64Attr>:$chunk,
    DefaultValuedAttr<F32Attr, "1.0e-6">:$eps
  );
  let results = (outs Attic_F32Tensor:$result);
  let assemblyFormat = [{
    $feature_map $query `,` $key `,` $value
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`projection` `(` $projection^ `:` type($projection) `)`)?
    (`normalize` $normalize^)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "kKeywordAttrNames")
    `:` type($query) `,` type($key) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The attributes written with keywords (custom<KeywordAttrs>).
    static constexpr ::llvm::StringLiteral kKeywordAttrNames[] = {
        "feature_map", "normalize"};
    /// The number of features per row: D, 2D or the projection's rows.
    int64_t getFeatureCount();
    /// The chunk length of the causal form: `chunk`, else the largest
    /// divisor of N up to 64.
    int64_t getChunkOr();
    /// Whether the feature map projects with random features.
    bool isRandomFeatureMap() {
      return getFeatureMap() == ::attic::FeatureMap::PerformerRelu ||
             getFeatureMap() == ::attic::FeatureMap::FavorPlus;
    }
  }];
}

def Attic_FeatureMapOp : Attic_Op<"feature_map", [Pure]> {
  let summary = "L2: a kernel feature map phi applied to each row";
  let description = [{
    `result[b,h,t,:] = phi(input[b,h,t,:])` for one of the feature maps of
    `attic.kernelized_attention` (the table there), on `[B,H,N,D]`
    producing `[B,H,N,F]`. `period` is cosFormer's `m` (required for
    `cosformer`); `projection` (`[p, D]`) is required for the random
    feature maps. FAVOR+ subtracts each row's largest exponent `c_t`
    before it exponentiates; the optional second result `stabilizer`
    (`[B,H,N]`, `favor_plus` only) returns those `c_t`, which
    `attic.state_reduce` and `attic.state_scan` take for the keys (their
    `stabilizer` operand) to put every key visible to a query on one
    scale.

    ```mlir
    %phi = attic.feature_map cosformer %x {period = 128 : i64}
        : tensor<1x2x128x16xf32> -> tensor<1x2x128x32xf32>
    %phik, %c = attic.feature_map favor_plus %k projection(%w : tensor<64x16xf32>)
        : tensor<1x2x128x16xf32> -> tensor<1x2x128x64xf32>, tensor<1x2x128xf32>
    ```

    Lowering (`attic-lower-state`): a `linalg.generic` per element; the
    random maps first project with one `linalg.matmul` on `[B*H*N, D]`
    (a BLAS call on the CPU), then reduce the stabilizer with
    `linalg.generic` reductions.
  }];
  let arguments = (ins
    Attic_FeatureMap:$map,
    Attic_F32Tensor:$input,
    Optional<Attic_F32Tensor>:$projection,
    OptionalAttr<I64Attr>:$period
  );
  let results = (outs Attic_F32Tensor:$result,
                      Optional<Attic_F32Tensor>:$stabilizer);
  let assemblyFormat = [{
    $map $input (`projection` `(` $projection^ `:` type($projection) `)`)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "kKeywordAttrNames")
    `:` type($input) `->` type($result) (`,` type($stabilizer)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The attributes written with keywords (custom<KeywordAttrs>).
    static constexpr ::llvm::StringLiteral kKeywordAttrNames[] = {"map"};
  }];
}

def Attic_StateReduceOp : Attic_Op<"state_reduce",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "L2: the state phi(K)^T V and the normalizer sum phi(K) of each head";
  let description = [{
    For `features [B,H,N,F]` (`phi(K)`) and `value [B,H,N,Dv]`:

    ```
    state[b,h,f,e]    = sum_j m_j features[b,h,j,f] value[b,h,j,e]   [B,H,F,Dv]
    normalizer[b,h,f] = sum_j m_j features[b,h,j,f]                  [B,H,F]
    ```

    with `m_j = mask[b,j]` (`[B,N]` i1) when given, else 1. With
    `stabilizer` (`[B,H,N]`, FAVOR+'s per-key `c_j` from
    `attic.feature_map`), `m_j` is also scaled by `exp(c_j - M)`, `M` the
    maximum of `c_j` over the unmasked keys of the head: the features of
    all keys on the scale of the largest (a masked key never sets it).

    ```mlir
    %s, %z = attic.state_reduce %phik, %v
        : tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32>
        -> tensor<1x2x16x8xf32>, tensor<1x2x16xf32>
    ```

    Lowering (`attic-lower-state`): one `linalg.batch_matmul` over the
    `B*H` heads with the features transposed, and one `linalg.generic`
    reduction for the normalizer.
  }];
  let arguments = (ins
    Attic_F32Tensor:$features,
    Attic_F32Tensor:$value,
    Optional<StaticShapeTensorOf<[I1]>>:$mask,
    Optional<Attic_F32Tensor>:$stabilizer
  );
  let results = (outs Attic_F32Tensor:$state, Attic_F32Tensor:$normalizer);
  let assemblyFormat = [{
    $features `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`stabilizer` `(` $stabilizer^ `:` type($stabilizer) `)`)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "{}") `:` type($features) `,` type($value) `->` type($state) `,`
    type($normalizer)
  }];
  let hasVerifier = 1;
}

def Attic_StateScanOp : Attic_Op<"state_scan",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "L2: causal kernelized products by chunks and a prefix scan of the state";
  let description = [{
    For `query_features [B,H,N,F]` (`phi(Q)`), `key_features [B,H,N,F]`
    (`phi(K)`) and `value [B,H,N,Dv]`, the causal numerator and
    denominator:

    ```
    numerator[b,h,i,e] = sum_(j <= i) m_j (phi(q_i) . phi(k_j)) value[b,h,j,e]   [B,H,N,Dv]
    denominator[b,h,i] = sum_(j <= i) m_j (phi(q_i) . phi(k_j))                  [B,H,N]
    ```

    computed in the chunkwise-parallel form with chunks of `chunk` tokens
    (`chunk` divides `N`): inside chunk `c`, the lower-triangular
    `chunk x chunk` product; across chunks, `phi(q_i)` times the exclusive
    prefix sum over the earlier chunks of `phi(K_c)^T V_c` (`F x Dv`) and
    of `sum phi(K_c)`. Never an `N x N` matrix.

    With `stabilizer` (`[B,H,N]`, FAVOR+'s per-key `c_j` from
    `attic.feature_map`), key `j` counts for row `i` with the factor
    `exp(c_j - m_i)`, `m_i` the maximum of `c_j` over the keys visible to
    `i` (unmasked, `j <= i`): no row depends on a later key, not even
    through the scale. The chunk states are kept on the scale of the
    largest `c_j` so far and rescaled when it grows (as an online
    softmax rescales its sums).

    ```mlir
    %num, %den = attic.state_scan %phiq, %phik, %v {chunk = 32 : i64}
        : tensor<1x2x128x16xf32>, tensor<1x2x128x16xf32>,
          tensor<1x2x128x8xf32> -> tensor<1x2x128x8xf32>, tensor<1x2x128xf32>
    ```

    Lowering (`attic-lower-state`): `linalg.batch_matmul` over the
    `B*H*N/chunk` chunks for the chunk states, the intra-chunk scores and
    products and the inter-chunk products; the prefix scan as a loop over
    the chunks whose step is one parallel addition of the `[B*H, F, Dv]`
    states.
  }];
  let arguments = (ins
    Attic_F32Tensor:$query_features,
    Attic_F32Tensor:$key_features,
    Attic_F32Tensor:$value,
    Optional<StaticShapeTensorOf<[I1]>>:$mask,
    Optional<Attic_F32Tensor>:$stabilizer,
    I64Attr:$chunk
  );
  let results = (outs Attic_F32Tensor:$numerator,
                      Attic_F32Tensor:$denominator);
  let assemblyFormat = [{
    $query_features `,` $key_features `,` $value
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`stabilizer` `(` $stabilizer^ `:` type($stabilizer) `)`)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "{}") `:` type($query_features) `,` type($key_features) `,`
    type($value) `->` type($numerator) `,` type($denominator)
  }];
  let hasVerifier = 1;
}

#endif // ATTIC_KERNEL_OPS_TD
