//===- AtticHashOps.td - LSH attention and its L2 ops ------*- tablegen -*-===//
//
// Attention over keys grouped by content (../shared/papers/xformer.md A4,
// A5; docs/lsh.md): Reformer's LSH attention (attic.lsh_attention) and
// clustered attention (attic.clustered_attention), and the L2 primitives
// they decompose into besides the shared block-attention core:
// attic.lsh_hash (the random-rotation hash), attic.bucket_sort (the stable
// sort by bucket as a permutation and its inverse) and attic.kmeans.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_HASH_OPS_TD
#define ATTIC_HASH_OPS_TD

// Attic_F32Tensor and the dialect.
include "AtticKernelOps.td"

def Attic_LshAttentionOp : Attic_Op<"lsh_attention", [Pure]> {
  let summary = "Reformer's LSH attention: hash, sort, chunked attention, merge";
  let description = [{
    Shared-QK attention restricted to keys hashed near the query. For
    `qk [B,H,N,D]` (queries and keys are the same rows) and
    `value [B,H,N,Dv]`, per (batch, head) and per hash round `r` of
    `rounds`:

    1. hash: `h(x) = argmax([x R_r ; -x R_r])`, `R_r` a `[D, buckets/2]`
       Gaussian matrix drawn at compile time from `seed` (docs/lsh.md
       gives the draw); the first maximum wins;
    2. sort the tokens stably by (bucket, position): a permutation;
    3. split the sorted sequence into chunks of `chunk` tokens; each chunk
       attends to itself and the previous chunk (cyclically: chunk 0 to the
       last one), softmax over those `2 chunk` keys of
       `scale * dot(q_i, k_j)` (default `scale` = `1/sqrt(D)`); a query's
       own key gets the logit `-1e5` (Reformer's self-mask: it is used only
       when nothing else is visible); with `causal`, key `j` is visible to
       query `i` only when `j <= i` in the original order; with `mask`
       (`[B,N]` i1), only real keys are visible;
    4. un-sort the outputs and keep each row's log-sum-exp `lse_r`;

    and the rounds merge with their log-sum-exps:
    `out_i = sum_r exp(lse_r,i - L_i) o_r,i` with
    `L_i = log(sum_r exp(lse_r,i))`; a row that sees no key in any round is
    0. `buckets = 1` is the degenerate hash (every token in one bucket, no
    seed needed): with `chunk = N` it is full attention with the self-key
    rule.

    `buckets` is 1 or a positive even number up to 65536, `rounds` is in
    [1, 64] (default 1), `chunk` divides `N`; `seed` is required when
    `buckets > 1`, and the rotations drawn at compile time, D * rounds *
    buckets / 2 values, are at most 2^24. qk, value and the result are
    static f32 tensors.

    Example (two rounds of 16 buckets, chunks of 32):

    ```mlir
    %o = attic.lsh_attention %qk, %v
        {buckets = 16 : i64, rounds = 2 : i64, chunk = 32 : i64, seed = 1 : i64}
        : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
    ```

    Lowering: `attic-decompose` rewrites it, per round, into `attic.lsh_hash`,
    `attic.bucket_sort`, `attic.gather_rows` (the sorted queries; the keys
    and values of each chunk's window laid out one after another), one
    `attic.block_attention` with `#attic.block_diagonal<query = chunk,
    key = 2 chunk>` whose mask and score regions are the causal, padding
    and self-key rules and whose `lse` destination gives the round's
    log-sum-exp, and `attic.gather_rows` back to the original order; the
    rounds merge online on tensors. The rounds are one `scf.for` (the IR
    of one round), or one copy each with `iteration-loops=false` (the GPU
    pipelines).
  }];
  let arguments = (ins
    Attic_F32Tensor:$qk,
    Attic_F32Tensor:$value,
    Optional<StaticShapeTensorOf<[I1]>>:$mask,
    I64Attr:$buckets,
    DefaultValuedAttr<I64Attr, "1">:$rounds,
    I64Attr:$chunk,
    OptionalAttr<I64Attr>:$seed,
    UnitAttr:$causal,
    OptionalAttr<F32Attr>:$scale
  );
  let results = (outs Attic_F32Tensor:$result);
  let assemblyFormat = [{
    $qk `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    attr-dict `:` type($qk) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scale`, else 1/sqrt(D).
    float getEffectiveScale();
  }];
}

def Attic_LshHashOp : Attic_Op<"lsh_hash", [Pure]> {
  let summary = "random-rotation LSH: argmax([x R; -x R]) per row";
  let description = [{
    `buckets[b,h,i] = argmax_j [x[b,h,i,:] R ; -x[b,h,i,:] R]_j` for `x`
    `[B,H,N,D]` and `rotations` `[D,K]` (f32): a bucket in `[0, 2K)`, where
    `j < K` is column `j` of `x R` and `j >= K` column `j - K` negated. The
    first maximum wins; a row with NaN projections gets the first bucket
    whose projection compares greater than the ones before (0 if none).

    ```mlir
    %h = attic.lsh_hash %x, %r : tensor<1x4x1024x64xf32>, tensor<64x8xf32>
        -> tensor<1x4x1024xi64>
    ```
  }];
  let arguments = (ins Attic_F32Tensor:$x, Attic_F32Tensor:$rotations);
  let results = (outs StaticShapeTensorOf<[I64]>:$buckets);
  let assemblyFormat = [{
    $x `,` $rotations attr-dict `:` type($x) `,` type($rotations) `->`
    type($buckets)
  }];
  let hasVerifier = 1;
}

def Attic_BucketSortOp : Attic_Op<"bucket_sort", [Pure]> {
  let summary = "stable sort of each row's tokens by bucket: permutation and inverse";
  let description = [{
    For `buckets` `[B,H,N]` of i64 in `[0, num_buckets)`, sorts each
    (batch, head) row's positions by (bucket, position) (a stable counting
    sort): `perm[b,h,r]` is the position of the `r`-th token in that order
    and `inverse[b,h,i]` the row of token `i`, so
    `perm[b,h,inverse[b,h,i]] = i`. A bucket outside `[0, num_buckets)` is
    clamped into it. `num_buckets` is in [1, 2^24] (the sort keeps a
    histogram of `num_buckets` entries per 64 tokens).

    ```mlir
    %perm, %inv = attic.bucket_sort %h {num_buckets = 16 : i64}
        : tensor<1x4x1024xi64> -> tensor<1x4x1024xi64>, tensor<1x4x1024xi64>
    ```
  }];
  let arguments = (ins StaticShapeTensorOf<[I64]>:$buckets,
                       I64Attr:$num_buckets);
  let results = (outs StaticShapeTensorOf<[I64]>:$perm,
                      StaticShapeTensorOf<[I64]>:$inverse);
  let assemblyFormat = [{
    $buckets attr-dict `:` type($buckets) `->` type($perm) `,` type($inverse)
  }];
  let hasVerifier = 1;
}

def Attic_ClusteredAttentionOp : Attic_Op<"clustered_attention", [Pure]> {
  let summary = "clustered attention: K-means over the queries, centroid attention broadcast";
  let description = [{
    Clustered attention (Vyas et al. 2020; ../shared/papers/xformer.md A5,
    docs/lsh.md): per (batch, head), the `Nq` queries of `query [B,H,Nq,D]`
    are grouped into `clusters` clusters by K-means (below); each centroid
    (the mean of its cluster's queries) attends to every key of
    `key [B,H,Nk,D]` with softmax attention,
    `y_c = softmax(scale * c . K^T) V` (`scale` default `1/sqrt(D)`; with
    `mask` (`[B,Nk]` i1) only real keys), and every query gets its
    cluster's `y_c`. With `clusters = Nq` every query is its own cluster and
    the result is exact attention.

    With `topk` (the improved variant), each cluster's `topk` keys of
    largest centroid attention `A_cj` (real keys only; the first on ties)
    are recomputed exactly for every query `i` of the cluster, and keep
    their centroid mass `m_c = sum_{j in T_c} A_cj`; the other keys keep the
    centroid's weights:

    ```
    out_i = m_c sum_{j in T_c} softmax_{T_c}(scale q_i . k_j) v_j
            + sum_{j not in T_c} A_cj v_j
    ```

    With `topk = Nk` it is exact attention for every cluster count.

    K-means: the initial centroid `c` is the query at position
    `floor(c Nq / C) + (u_c mod (floor((c+1) Nq / C) - floor(c Nq / C)))`
    (one query drawn from each of `C` equal segments), `u_c` the first word
    of Philox block `c` of stream 32 with `seed` (the second word its high
    half where the segment has 2^32 rows or more); then `iterations` times:
    assign every query to its nearest centroid (squared Euclidean distance
    `|c|^2 - 2 q.c`, the first on ties), and move each centroid to the mean
    of its queries (a cluster that lost all keeps its centroid). The
    clusters and centroids of the last iteration are used.

    `clusters` is in `[1, Nq]`, `iterations` in `[1, 100]`, `topk` in
    `[1, Nk]`; `seed` is required when `clusters < Nq` (the initial
    centroids are drawn).

    ```mlir
    %o = attic.clustered_attention %q, %k, %v
        {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64}
        : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>,
          tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
    ```

    Lowering: `attic-decompose` rewrites it into `attic.kmeans`, one
    `attic.attention` of the centroids (the shared core) and an
    `attic.gather_rows` that broadcasts each cluster's row to its queries.
    With `topk`: the centroids' attention matrix `[B,H,C,Nk]` on tensors
    (the top keys are chosen from it), the top keys and values gathered per
    cluster, the queries sorted by cluster (`attic.bucket_sort`), one
    `attic.attention` of the sorted queries over the gathered keys whose
    mask region lets query `i` see only its cluster's keys (classified at
    run time by `attic.block_mask`), the correction per cluster, and the
    inverse gather.
  }];
  let arguments = (ins
    Attic_F32Tensor:$query,
    Attic_F32Tensor:$key,
    Attic_F32Tensor:$value,
    Optional<StaticShapeTensorOf<[I1]>>:$mask,
    I64Attr:$clusters,
    DefaultValuedAttr<I64Attr, "10">:$iterations,
    OptionalAttr<I64Attr>:$seed,
    OptionalAttr<I64Attr>:$topk,
    OptionalAttr<F32Attr>:$scale
  );
  let results = (outs Attic_F32Tensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `->`
    type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scale`, else 1/sqrt(D).
    float getEffectiveScale();
  }];
}

def Attic_KMeansOp : Attic_Op<"kmeans", [Pure]> {
  let summary = "K-means of each (batch, head)'s rows: centroids and assignment";
  let description = [{
    K-means over the `N` rows of `x [B,H,N,D]` per (batch, head), with the
    seeded initialization and the iteration of `attic.clustered_attention`
    (`clusters` centroids, `iterations` rounds of assign-then-update):
    `centroids [B,H,C,D]` (f32) and `assignment [B,H,N]` (i64, each row's
    cluster in the last iteration; the centroids are the means of those
    clusters, or the previous centroid for an empty one).

    ```mlir
    %c, %a = attic.kmeans %q {clusters = 16 : i64, iterations = 5 : i64, seed = 1 : i64}
        : tensor<1x4x256x64xf32> -> tensor<1x4x16x64xf32>, tensor<1x4x256xi64>
    ```
  }];
  let arguments = (ins Attic_F32Tensor:$x, I64Attr:$clusters,
                       I64Attr:$iterations, I64Attr:$seed);
  let results = (outs Attic_F32Tensor:$centroids,
                      StaticShapeTensorOf<[I64]>:$assignment);
  let assemblyFormat = [{
    $x attr-dict `:` type($x) `->` type($centroids) `,` type($assignment)
  }];
  let hasVerifier = 1;
}

#endif // ATTIC_HASH_OPS_TD
