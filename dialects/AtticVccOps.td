//===- AtticVccOps.td - VIP-token-centric compression ops --*- tablegen -*-===//
//
// The ops of VIP-token-centric compression (VCC, docs/vcc.md and
// ../shared/papers/vcc.md): reorder a sequence into [P; C], build the tree
// state T(C) of C, and per layer select the node partition J, compress to
// [P; means of J], write the layer's rows back (Algorithm 2); materialize C
// once at the end. All on ranked tensors with static shapes.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_VCC_OPS_TD
#define ATTIC_VCC_OPS_TD

include "AtticDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Attic_StaticF32Tensor : StaticShapeTensorOf<[F32]>;
def Attic_StaticI64Tensor : StaticShapeTensorOf<[I64]>;
def Attic_StaticI1Tensor : StaticShapeTensorOf<[I1]>;
def Attic_RowTensor : StaticShapeTensorOf<[F32, F16, BF16, I1]>;

//===----------------------------------------------------------------------===//
// Reordering
//===----------------------------------------------------------------------===//

def Attic_VipOrderOp : Attic_Op<"vip_order", [Pure]> {
  let summary = "stable order that puts the VIP tokens first";
  let description = [{
    For every sequence `b` of N tokens, `perm[b]` is the stable partition
    of the token indices that puts the VIP tokens (`vip[b, i]` true) first
    (paper eq 6): the VIP tokens in their original order, then the others
    in theirs. `perm[b, r]` is the original index of row `r` of the
    reordered sequence, and `inverse` is its inverse permutation
    (`inverse[b, perm[b, r]] = r`).

    The first `num_vip` (n_p) rows of the reordered sequence are the VIP
    rows P, which VCC keeps exact; the other N - n_p rows are C, which it
    compresses. A sequence with fewer than n_p VIP tokens fills the spare P
    rows with its first non-VIP tokens (they stay exact too). A sequence
    with more than n_p VIP tokens is an error that only the data shows (n_p
    is static): the compiled code reports it to the runtime
    (`attic_rt_report_error`, code `ATTIC_RT_TOO_MANY_VIP`, with the
    sequence, its VIP count and n_p), and whoever runs it must take the
    report (`attic_rt_take_error`) and fail the run, as `attic-run` and
    `CpuExecutable` do ("attic.vip_order: sequence 0 has 9 VIP tokens, more
    than num_vip = 8"). The order it computes in that case is still a
    permutation (the first n_p VIP tokens are P, the excess ones lead C), so
    nothing is read or written out of bounds. `num_vip` is in [1, N].

    Operands and results: `vip` is `[B,N]` of i1; `perm` and `inverse` are
    `[B,N]` of i64.

    Example:

    ```mlir
    %perm, %inverse = attic.vip_order %vip {num_vip = 8 : i64}
        : tensor<2x136xi1> -> tensor<2x136xi64>, tensor<2x136xi64>
    ```
  }];
  let arguments = (ins Attic_StaticI1Tensor:$vip, I64Attr:$num_vip);
  let results = (outs Attic_StaticI64Tensor:$perm,
                      Attic_StaticI64Tensor:$inverse);
  let assemblyFormat = [{
    $vip attr-dict `:` type($vip) `->` type($perm) `,` type($inverse)
  }];
  let hasVerifier = 1;
}

def Attic_GatherRowsOp : Attic_Op<"gather_rows", [Pure]> {
  let summary = "batched row gather";
  let description = [{
    Gathers rows of every sequence: `result[b, r] = x[b, indices[b, r]]`
    for `r` in [0, M). `x` is `[B,N,D]` (rows of D features) or `[B,N]` (one
    value per row, e.g. a padding mask) of f32, f16, bf16 or i1; `indices`
    is `[B,M]` of i64 with values in [0, N) (not checked at runtime: the
    compiled code clamps an index outside [0, N) to the nearest row, so it
    never reads out of bounds); the result is `[B,M,D]` or `[B,M]` of the
    element type of `x`.

    With the `perm` of `attic.vip_order` it reorders a sequence (and its
    padding mask) into [P; C]; with `inverse` it restores the original
    order at the end.

    Example:

    ```mlir
    %xp = attic.gather_rows %x[%perm]
        : tensor<2x136x64xf32>, tensor<2x136xi64> -> tensor<2x136x64xf32>
    ```
  }];
  let arguments = (ins Attic_RowTensor:$x, Attic_StaticI64Tensor:$indices);
  let results = (outs Attic_RowTensor:$result);
  let assemblyFormat = [{
    $x `[` $indices `]` attr-dict `:` type($x) `,` type($indices) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tree state
//===----------------------------------------------------------------------===//

def Attic_TreeBuildOp : Attic_Op<"tree_build", [Pure]> {
  let summary = "builds the VCC tree state T(C) of a batch of sequences";
  let description = [{
    Builds the tree state (see `!attic.tree`) of the tokens C bottom-up
    (paper eqs 14, 15): the count of a node is the number of valid tokens
    (`valid[b, i]` true) it covers, its mean is the mean of those tokens (0
    when there are none; invalid tokens do not contribute, whatever their
    values), and the tree keeps the root mean, each non-root node's delta
    (parent mean minus node mean), the counts and the validity.

    Operands: `tokens` is `[B,n_c,d]` of f32 and `valid` is `[B,n_c]` of
    i1, with B, n_c and d those of the result type. Cost O(B n_c d), once
    per stack of VCC layers.

    `mean_eps` (default 0, finite, >= 0) reproduces the VCC authors' block
    means: a node above the tokens then has mean (sum of its valid tokens)
    / (count + mean_eps), as their `to_coarse` with 1e-4. Give
    `attic.tree_update` the same value, so that recomputed means follow the
    same rule.

    Example:

    ```mlir
    %t = attic.tree_build %c, %valid : tensor<2x128x64xf32>, tensor<2x128xi1>
        -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
    ```
  }];
  let arguments = (ins Attic_StaticF32Tensor:$tokens,
                       Attic_StaticI1Tensor:$valid,
                       DefaultValuedAttr<F32Attr, "0.0f">:$mean_eps);
  let results = (outs Attic_TreeType:$tree);
  let assemblyFormat = [{
    $tokens `,` $valid attr-dict `:` type($tokens) `,` type($valid) `->`
    qualified(type($tree))
  }];
  let hasVerifier = 1;
}

def Attic_TreeSelectOp : Attic_Op<"tree_select", [Pure]> {
  let summary = "selects the node partition J coarse-to-fine (Algorithm 1)";
  let description = [{
    Chooses, for every sequence `b`, the set J of tree nodes whose means
    become the compressed rows: a partition of the n_c tokens into nodes,
    refined where the VIP tokens attend (paper Algorithm 1 with per-level
    budgets, scores of section 3.6).

    `budgets` = [h_1, ..., h_L] gives, per level j, the number of level-j
    nodes to split. J starts as {root}; for j = L down to 1, the level-j
    nodes in J (the candidates: the root at j = L, below it the
    f_{j+1} * h_{j+1} children of the nodes split at level j + 1) are
    scored, and the h_j candidates with the highest scores are replaced by
    their f_j children each. Ties go to the lower index; candidates without
    valid tokens score -inf and are taken last. Tokens (level 0) are never
    split.

    Scores of the candidates x of one level (section 3.6; no count bias, no
    VIP keys: candidates compete only within their level):

    ```
    k_x      = LN(m_x) * key_weight + key_bias     split into `heads` heads of d/heads
    p[e,i,x] = softmax over x of (scale * dot(query[b,e,i,:], k_x[e]))
    score[x] = mean over i of (mean over e of p[e,i,x])
    ```

    where m_x is the node mean read from the tree, LN is a layer norm over
    d with `ln_gamma`, `ln_beta` and epsilon 1e-5, `key_weight` is
    `[d_in, d_out]`, and a candidate without valid tokens has logit -inf.
    These are the attention LayerNorm and key projection of the layer that
    then runs on the compressed sequence. `query` is `[B,H,n_p,d/H]`: the
    layer's queries of the n_p P rows (already layer-normalized and
    projected). Every P row votes, spare P rows included, unless
    `vote_mask` `[B, n_p]` (i1) is given: then only the rows where it is
    true vote (their probabilities are summed, the sum still divided by
    n_p), which is what the VCC authors' selector does with the
    importance mask, so that spare P rows (fewer VIP tokens than n_p) do
    not move the selection.

    The result is J as global node ids (see `!attic.tree`), `[B,|J|]` of
    i64, in canonical order (ascending ids: level ascending, then index).
    The size of J is static. With h_0 = 0, J holds f_{j+1} * h_{j+1} - h_j
    level-j nodes for j < L and 1 - h_L roots, so
    `|J| = 1 + sum over j of h_j * (f_j - 1)`: every split replaces one
    node by f_j (for a binary tree, 1 + the sum of the budgets). The
    verifier requires L budgets, 0 <= h_L <= 1 and
    0 <= h_j <= f_{j+1} * h_{j+1} (a level cannot split more nodes than the
    level above produced), `heads` dividing d, and a finite positive
    `scale`.

    The two-resolution scheme of the paper's experiments is fanouts
    [k, n_c/k] with budgets [h, 1]: the root is split into the n_c/k blocks
    of k tokens, h of which are split into tokens; J holds h * k tokens,
    then n_c/k - h blocks.

    Only a level that decides something (0 < h_j < its number of
    candidates) is scored: with h_j = 0 every candidate stays in J, with h_j
    equal to the candidates every one is split. The semantics are those of
    `attic::ref::vcc::selectJ` with budgets [0, h_1, ..., h_L] and
    `segmentScores` with the P rows weighted by `vote_mask` (all 1 without
    it; LN with the biased
    variance); `attic-run --check` compares with them.

    Lowered by `attic-expand-vcc` (and so `attic-cpu-pipeline`) to loops
    over the candidates of each level: O(B (m_j d^2 + n_p m_j d)) per
    scored level of m_j candidates (the top h_j by a radix select, 32
    counting passes over the scores, not by comparing every pair).

    Example (48 tokens, then 5 blocks):

    ```mlir
    %j = attic.tree_select %t, %q, %wk, %bk, %gamma, %beta
        {budgets = [3, 1], heads = 4 : i64, scale = 2.500000e-01 : f32}
        : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>,
          tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
        -> tensor<2x53xi64>
    ```
  }];
  let arguments = (ins
    Attic_TreeType:$tree,
    Attic_StaticF32Tensor:$query,
    Attic_StaticF32Tensor:$key_weight,
    Attic_StaticF32Tensor:$key_bias,
    Attic_StaticF32Tensor:$ln_gamma,
    Attic_StaticF32Tensor:$ln_beta,
    Optional<Attic_StaticI1Tensor>:$vote_mask,
    I64ArrayAttr:$budgets,
    I64Attr:$heads,
    F32Attr:$scale
  );
  let results = (outs Attic_StaticI64Tensor:$nodes);
  let assemblyFormat = [{
    $tree `,` $query `,` $key_weight `,` $key_bias `,` $ln_gamma `,` $ln_beta
    (`vote_mask` `(` $vote_mask^ `:` type($vote_mask) `)`)?
    attr-dict `:` qualified(type($tree)) `,` type($query) `,`
    type($key_weight) `,` type($key_bias) `,` type($ln_gamma) `,`
    type($ln_beta) `->` type($nodes)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// h_1, ..., h_L.
    ::llvm::SmallVector<int64_t> getBudgetValues();
    /// The number of J nodes per level 0..L (static; see the description).
    ::llvm::SmallVector<int64_t> getSelectedNodesPerLevel() {
      return getTree().getType().getSelectedNodesPerLevel(getBudgetValues());
    }
  }];
}

def Attic_VccCompressOp : Attic_Op<"vcc_compress", [Pure]> {
  let summary = "assembles the compressed sequence [P; means of J] and its key bias";
  let description = [{
    Builds the r = n_p + |J| rows that a VCC layer runs on, and their
    additive key bias (paper Claim 6.2, section 3.8):

    ```
    compressed[b,r]   = vip_rows[b,r]    for r < n_p (the P rows)
    compressed[b,r]   = m(nodes[b,r-n_p]) for r >= n_p (the J nodes)
    key_bias[b,r]     = 0                for r < n_p
                      = log(s_j)         for a level-j node with valid tokens
                      = -inf             for a node without valid tokens
    ```

    where m is the node mean read from the tree top-down (eq 16/63: the
    parent mean minus the node's delta; 0 for a node without valid tokens).
    With `bias_eps` (default 0, finite, >= 0) the biases are log(s_j +
    bias_eps) for J nodes and log(1 + bias_eps) for P rows: the VCC
    authors' log(num_dups + 1e-4) (with 0, the exact forms above). The
    bias, given to the layer's attention as `attic.attention`'s key
    bias, weights a row standing for s_j tokens s_j times, so that the
    layer on the r rows equals the exact layer on the sequence where every
    node's mean is repeated s_j times.

    Operands: `vip_rows` (P) is `[B,n_p,d]` of f32; `nodes` (J) is `[B,|J|]`
    of i64 global node ids and must be a partition of the tokens in
    canonical order, as `attic.tree_select` returns (not checked at
    runtime), so 1 <= |J| <= n_c. Results: `compressed` is `[B,n_p+|J|,d]`
    and `key_bias` is `[B,n_p+|J|]`, both f32. Cost O(B r d L).

    Unchecked J: the compiled code clamps every id to [0, number of nodes)
    and never accesses memory out of bounds; for a J that is not a
    partition in canonical order the rows and biases are those of the
    clamped ids, which is not meaningful.

    Example:

    ```mlir
    %sx, %bias = attic.vcc_compress %p, %t, %j
        : tensor<2x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>,
          tensor<2x53xi64> -> tensor<2x61x64xf32>, tensor<2x61xf32>
    ```
  }];
  let arguments = (ins
    Attic_StaticF32Tensor:$vip_rows,
    Attic_TreeType:$tree,
    Attic_StaticI64Tensor:$nodes,
    DefaultValuedAttr<F32Attr, "0.0f">:$bias_eps
  );
  let results = (outs Attic_StaticF32Tensor:$compressed,
                      Attic_StaticF32Tensor:$key_bias);
  let assemblyFormat = [{
    $vip_rows `,` $tree `,` $nodes attr-dict `:` type($vip_rows) `,`
    qualified(type($tree)) `,` type($nodes) `->` type($compressed) `,`
    type($key_bias)
  }];
  let hasVerifier = 1;
}

def Attic_TreeUpdateOp : Attic_Op<"tree_update", [Pure]> {
  let summary = "writes a layer's rows for J back into the tree (Algorithm 2)";
  let description = [{
    `rows` are the layer's output rows for the J nodes: the rows after the
    n_p P rows of the layer's output on the compressed sequence, in J's
    order. They are the new means of the J nodes (paper Claim 6.5), and the
    result is the tree of the new tokens, in which every valid token of a J
    node moved by the same amount, its row minus the node's old mean (Claim
    6.4). Algorithm 2, with dirty propagation:

    - a J node with valid tokens takes its row as its mean; a J node
      without valid tokens ignores its row (its mean stays 0);
    - level by level from the tokens up, a node is dirty when it is in J or
      has a dirty child (then all its children are dirty: J is a
      partition); a dirty node above J takes the count-weighted mean of its
      children's means, and every dirty non-root node gets its delta
      recomputed (parent mean minus node mean); the root's mean is its row
      when the root is in J;
    - the deltas of the nodes strictly below J nodes are not touched: all
      their tokens moved by the same amount, so the differences still hold.
      Counts and validity do not change.

    `mean_eps` (default 0; that of `attic.tree_build`): a recomputed node
    mean is the sum of its children's token sums over (count + mean_eps),
    a child's token sum being its mean times its count (+ mean_eps above
    the tokens).

    With the root split, |J| + (sum of the budgets) - 1 deltas are rewritten
    (2 |J| - 2 for a binary tree): O(|J| d) work per layer.

    Operands: `nodes` (J) is `[B,|J|]` of i64 global node ids, a partition
    of the tokens in canonical order as `attic.tree_select` returns (not
    checked at runtime); `rows` is `[B,|J|,d]` of f32. The result has the
    type of `tree`.

    Unchecked J: the compiled code clamps every id to [0, number of nodes)
    and never accesses memory out of bounds, but for a J that is not a
    partition (overlapping nodes, tokens covered by no node) the resulting
    tree is unspecified.

    Example:

    ```mlir
    %t2 = attic.tree_update %t, %j, %yj
        : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64>,
          tensor<2x53x64xf32> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
    ```
  }];
  let arguments = (ins
    Attic_TreeType:$tree,
    Attic_StaticI64Tensor:$nodes,
    Attic_StaticF32Tensor:$rows,
    DefaultValuedAttr<F32Attr, "0.0f">:$mean_eps
  );
  let results = (outs Attic_TreeType:$result);
  let assemblyFormat = [{
    $tree `,` $nodes `,` $rows attr-dict `:` qualified(type($tree)) `,`
    type($nodes) `,` type($rows) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Attic_TreeMaterializeOp : Attic_Op<"tree_materialize", [Pure]> {
  let summary = "materializes the tokens C from the tree";
  let description = [{
    Reads every token from the tree top-down (paper eq 66: each level's
    means are the parents' means minus the deltas): `result[b, i]` is the
    value of token i, or 0 where `valid[b, i]` is false. The result is
    `[B,n_c,d]` of f32. Cost O(B n_c d), once after the last VCC layer.

    Example:

    ```mlir
    %c = attic.tree_materialize %t
        : !attic.tree<2x128x64xf32, fanouts = [16, 8]> -> tensor<2x128x64xf32>
    ```
  }];
  let arguments = (ins Attic_TreeType:$tree);
  let results = (outs Attic_StaticF32Tensor:$result);
  let assemblyFormat = [{
    $tree attr-dict `:` qualified(type($tree)) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // ATTIC_VCC_OPS_TD
