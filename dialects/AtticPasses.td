//===- AtticPasses.td - attic passes -----------------------*- tablegen -*-===//

#ifndef ATTIC_PASSES_TD
#define ATTIC_PASSES_TD

include "mlir/Pass/PassBase.td"

def AtticDecompose : Pass<"attic-decompose"> {
  let summary = "Decompose attic pattern ops (L1) into attic.block_attention (L2)";
  let description = [{
    Rewrites `attic.attention` into `attic.block_attention` on tensors: the
    default scale `1/sqrt(D)` becomes explicit, `causal` is intersected
    with the layout (`#attic.causal`, or `#attic.intersect<[#attic.causal,
    L]>`), the destination is a `tensor.empty` of the result shape, and the
    tile sizes are chosen from the pass options (or are the block lists'
    `block_sizes`). A layout that needs run-time classification (document
    ids, random blocks) without given block lists gets an
    `attic.block_mask` in front that computes them, with one row per batch
    and per head only where the layout depends on them.

    `attic.kernelized_attention` becomes its L2 primitives: two
    `attic.feature_map` ops (random features without a `projection`
    operand drawn at compile time into an `arith.constant`),
    `attic.state_reduce` followed by the application of the state
    (`linalg.batch_matmul` and a `linalg.generic` for the denominator), or
    `attic.state_scan` when causal, and the normalization (`linear` or
    `rmsnorm`) as a `linalg.generic`.

    `attic.lsh_attention` and `attic.clustered_attention` become their
    grouping primitives and the shared core (docs/lsh.md); the sketched
    and low-rank ops (`attic.skeinformer_attention`,
    `attic.informer_attention`, `attic.linformer_attention`,
    `attic.nystrom_attention`, `attic.synthesizer_attention`) become
    `attic.attention` / `attic.block_attention` plus gathers, selections
    and batch matmuls on tensors (docs/sketches.md).

    The rewrite patterns are available through
    `attic::populateDecomposePatterns` for other pipelines.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"blockQ", "block-q", "int64_t", /*default=*/"128",
           "Query rows per block">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"128",
           "Key rows per block">,
    Option<"parallelScans", "parallel-scans", "bool", /*default=*/"false",
           "The top-k selections of Skeinformer, Informer and the improved "
           "clustered attention as ranks of independent keys (a thread per "
           "key on the GPU; rows of more than 4096 keys by a radix select, "
           "O(n + k^2) per row) instead of k passes over a row in one loop: "
           "for GPUs">,
    Option<"wideHeadBlockK", "wide-head-block-k", "int64_t",
           /*default=*/"0",
           "Key block of the block lists built for f16/bf16 attentions with "
           "heads wider than 64 (D or Dv) and no block_sizes of their own "
           "(0: block-k); attic-cuda-pipeline uses 64, as "
           "attic-tile-block-attention's option of that name does where "
           "there are no lists">,
    Option<"iterationLoops", "iteration-loops", "bool", /*default=*/"true",
           "Repeated steps as one scf.for (the IR of one step, whatever "
           "their number): attic.lsh_attention's hash rounds and "
           "attic.nystrom_attention's pseudo-inverse iterations, instead of "
           "one copy per step; the GPU pipelines turn it off (their kernels "
           "are launched from straight-line host code)">
  ];
}

def AtticExpandVcc : Pass<"attic-expand-vcc"> {
  let summary = "Expand the VCC ops and !attic.tree values into upstream ops on tensors";
  let description = [{
    (Runs on any op that holds the ops it lowers. Nested below the module,
    on `func.func`, it needs the runtime's `@attic_rt_report_error`
    declared in the module already where it reports errors.)

    Rewrites the VIP-token-centric compression ops (docs/vcc.md) into
    upstream ops on tensors, before bufferization: `linalg.generic` with
    parallel iterators and `tensor.generate` (an element computed on its
    own), `tensor.empty`/`extract`/`insert_slice`, `scf.for` with tensor
    iter_args, `scf.if`, `linalg.matmul`, `arith` and `math`.
    `attic-cpu-pipeline` runs it right after `attic-decompose`; one-shot
    bufferization then turns the tensors into buffers and the generic ops
    and `tensor.generate` into parallel loops.

    A value of `!attic.tree<B x n_c x d x f32, fanouts = [f_1, ..., f_L]>`
    is replaced by its component tensors: the root mean `[B,d]`, per level
    j < L the deltas (parent mean minus node mean) `[B,n_c/s_j,d]`, per
    level j <= L the valid-token counts `[B,n_c/s_j]` (f32) and the token
    validity `[B,n_c]` (i1). The replacement is upstream's 1:N dialect
    conversion (a type converter from the tree type to its components, one
    pattern per tree op) with the scf structural patterns, so a tree may be
    carried through `scf.for`/`scf.while` iter_args and `scf.if` results (a
    loop over layers: examples/vcc_encoder_loop.mlir). Trees that are
    function arguments or results or arguments of a function's blocks are
    rejected with an error, as is any use of a tree by an op other than the
    VCC ops and those scf ops.

    - `attic.vip_order`: per sequence, a count of the VIP tokens and one
      `scf.for` that places every token (stable; the excess VIP tokens of a
      sequence with more than `num_vip` stay in C in their order).
    - `attic.gather_rows`: one `tensor.generate` (indices clamped to the
      rows of `x`).
    - `attic.tree_build`: counts and mask-aware means level by level from
      the tokens up (count-weighted means of the children), then the deltas
      and the root; O(B n_c d).
    - `attic.tree_materialize`: the means level by level from the root down
      (parent minus delta), invalid tokens 0; O(B n_c d).
    - `attic.vcc_compress`: `tensor.generate` of `[P; node means]` (root
      minus the deltas on the path) and of the key bias (0, log s_j or
      -inf); O(B r d L).
    - `attic.tree_update` (Algorithm 2): the J nodes' count-weighted rows
      are summed into scratch for their ancestors, the root is recomputed,
      and the deltas of the J nodes and of their ancestors are rewritten;
      deltas strictly below J, counts and validity are kept;
      O(B |J| d L).
    - `attic.tree_select` (Algorithm 1): the levels from the root down,
      each with its candidates (static count: the root, then the children
      of the nodes split above). A level that decides something
      (0 < h_j < candidates) is scored for all sequences in loop nests: node
      means, LayerNorm statistics, keys (`LN(mean) * gamma + beta` times
      `key_weight` as one `linalg.matmul`, plus `key_bias`), the logits of every head and P row,
      softmax max and sum over the candidates, the scores (mean over heads
      and the voting P rows; -inf without valid tokens), and the top h_j
      (higher score, or equal score and lower index) by a radix select (32
      counting passes over order-preserving integer keys, then one scan). A scan per sequence
      then writes the children of the split candidates (the next level's
      candidates, ascending) and the kept ones' global ids into J, in
      canonical order; exactly h_j candidates are split whatever the scores
      (NaN included), so every write is in bounds, and a sequence whose
      valid candidates include NaN scores (logits that overflowed f32, or
      a NaN input) is reported to the runtime (`ATTIC_RT_VCC_SCORES`: the
      sequence, the level, the number of such candidates), since its
      selection has no meaning.
      O(B (m_j d^2 + n_p m_j d + 32 m_j)) per scored level of m_j
      candidates.

    Node ids are clamped to the tree's nodes, so that no J, not even one
    that is not a partition, makes the compiled code access memory out of
    bounds (the results for such a J are unspecified).

    The expansion is available to other pipelines as `attic::expandVcc`.

    Example:

    ```mlir
    // attic-opt --attic-expand-vcc
    func.func @round_trip(%c: tensor<2x8x4xf32>, %valid: tensor<2x8xi1>)
        -> tensor<2x8x4xf32> {
      %t = attic.tree_build %c, %valid : tensor<2x8x4xf32>, tensor<2x8xi1>
          -> !attic.tree<2x8x4xf32, fanouts = [2, 4]>
      %m = attic.tree_materialize %t
          : !attic.tree<2x8x4xf32, fanouts = [2, 4]> -> tensor<2x8x4xf32>
      return %m : tensor<2x8x4xf32>
    }
    ```

    becomes `linalg.generic` ops (each an element computed on its own,
    with `scf.for` loops over a node's children inside) that build the
    counts, means, deltas and root, and a `tensor.generate` of the tokens.

    With `parallel-scans` (what the GPU pipelines set), `attic.vip_order`
    has no loop over a whole sequence: after bufferization a sequential
    loop runs as a kernel of one GPU thread, which at n = 128K tokens is
    two passes of 128K dependent steps. Instead, with chunks of 64 tokens,
    every element is computed on its own (each a parallel loop after
    bufferization): the VIP count of each chunk (a loop over the chunk),
    the VIP tokens before each chunk (a loop over the chunks before it) and
    per sequence in all; `inverse[b, i]` from the count before i's chunk
    and a loop over the chunk up to i; `perm[b, r]` by bisection over the
    chunks' counts for the chunk that holds row r's token, then a loop over
    that chunk. O(n (64 + log(n / 64))) work, at most 64 + n / 64 steps
    per element. The reports of too many VIP tokens stay a loop over the
    sequences, in order. `attic.tree_select`'s per-level scan (which
    candidates are split, where their children and the kept ones' ids go)
    has the same treatment: the splits before a candidate have a closed
    form in the flagged candidates before it (chunk counts of 64 and a loop
    over one chunk), so every child row and J column is found by bisection;
    the tokens go into J as one slice. tree_select's split flags: a level
    with at most 4096 candidates ranks each candidate on its own (the
    candidates with a higher key, or an equal key and a lower index: a loop
    over the level's m keys per candidate, instead of a radix select of
    32 m steps in one thread per sequence); a larger level finds the
    threshold key 8 bits at a time (per digit a histogram per chunk of 64
    keys, its sum over the chunks, and a walk over the 256 digit values in
    a thread per sequence) and flags from chunk counts of the keys above
    and equal to it. `attic.tree_update`'s Algorithm 2 runs as two scf.forall over
    (sequence, feature), each thread owning one column of the scratch sums
    or of the deltas and looping only over J (scf-forall-to-parallel after
    bufferization makes each one kernel). The results are the same as the
    sequential form's.
  }];
  let options = [
    Option<"parallelScans", "parallel-scans", "bool", /*default=*/"false",
           "attic.vip_order, tree_select's per-level scan and split flags "
           "as independent elements (chunk counts, bisection, ranks) and "
           "tree_update as a thread per sequence and feature, instead of "
           "sequential scans: for GPUs">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

def AtticExpandCst : Pass<"attic-expand-cst"> {
  let summary = "Expand attic.slice_attention into projections and the shared attention core";
  let description = [{
    Rewrites composite slice attention (`attic.slice_attention`,
    docs/cst.md) into upstream ops on tensors and the shared attention core,
    before `attic-decompose`:

    - the projections `x Wq`, `x Wk`, `x Wv` as `linalg.matmul` on
      `[B*N, D]`, and the positional terms `P_l[E:E+L] Wq` and `P_l Wk`
      once (by linearity `(x + P) W = x W + P W`, so borrowed tokens are
      not projected again per window);
    - the queries `[B,H,N,d]` (plus the periodic `P_l Wq` row) and the
      extended windows of keys and values laid out one after another,
      `[B,H,(N/L)*W,d]`, with window position `e` of slice `s` holding
      token `s L - E + e` (keys plus row `e` of `P_l Wk`), and a key mask
      that hides positions outside the sequence and padded tokens;
    - the local attention as one `attic.block_attention` with layout
      `#attic.block_diagonal<query = L, key = W[, causal = true]>`,
      `block_q = L` and `block_k = W`, so that each query block visits
      exactly its own window (`O(N W d)` work), and whose pooled epilogue
      (`pool`, weights `m / max(1, count)`) writes the masked mean of each
      slice as the slice is finished, not in a pass over `[B,H,N,d]`.
      With `L` or `W` above 1024 (the tile loop's largest block), an
      `attic.attention` with the same layout and default tiles, and the
      means as a separate pass;
    - the global projections of the summaries (plus `P_g` for queries and
      keys) and one `attic.attention` over the `N/L` summaries (dense with
      the slices that hold a real token as the key mask; causal
      inclusive, its output then read one slice later and slice 0 set to
      0, which equals the paper's shifted query with a strict mask);
    - the broadcast-add of the global output to every token of its slice.

    The expansion is available to other pipelines as `attic::expandCst`.
    `attic-cpu-pipeline` and `attic-cuda-pipeline` run it before
    `attic-decompose`. `pool-epilogue=false` computes the means as a
    separate pass over the local output even when the slice fits a block
    (for comparisons; the result is the same to rounding).
  }];
  let options = [
    Option<"poolEpilogue", "pool-epilogue", "bool", /*default=*/"true",
           "Pool the slice means in the local attention's epilogue (false: "
           "a separate pass over its output)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

def AtticLowerState : Pass<"attic-lower-state"> {
  let summary = "Lower the kernelized and hashing primitives (feature map, state reduce, state scan, LSH hash, bucket sort) to linalg on tensors";
  let description = [{
    Rewrites the L2 primitives of kernelized attention
    (docs/kernelized.md) into upstream ops on tensors, before
    bufferization:

    - `attic.feature_map`: a `linalg.generic` per element (`elu_plus_one`,
      `relu`), an element-wise tensor over the doubled features
      (`cosformer`); the random maps project with one `linalg.matmul` of
      `[B*H*N, D]` by the transposed `[p, D]` projection, then apply
      `relu(.) + 0.001` or FAVOR+'s `exp(E - max) / sqrt(p)` with the
      maximum reduced per row (queries) or per (batch, head) (`keys`);
    - `attic.state_reduce`: masked key rows set to 0, the state as one
      `linalg.batch_matmul` over the `B*H` heads (features transposed),
      the normalizer as a `linalg.generic` reduction;
    - `attic.state_scan`: the chunk states as a `linalg.batch_matmul` over
      the `B*H*N/chunk` chunks, their exclusive prefix sums in an `scf.for`
      over the chunks (one parallel addition of `[B*H, F, Dv]` per step),
      the inter-chunk products as a `linalg.batch_matmul` into which the
      masked lower-triangular intra-chunk product accumulates;
    - `attic.lsh_hash` (LSH attention, docs/lsh.md): one `linalg.matmul`
      of the `[B*H*N, D]` rows by the `[D, K]` rotations, then the first
      maximum of `[xR, -xR]` per row in a `linalg.generic`;
    - `attic.bucket_sort`: a stable counting sort per (batch, head) in
      `scf.for` loops (counts, their exclusive prefix sums, then each token
      to the next free row of its bucket), sequential over the `B*H` rows.

    On the CPU the products become loops (OpenMP) or, for the projection,
    an sgemm call (`attic-linalg-to-blas`); on the GPU each parallel loop
    nest is a kernel (`attic-gpu-offload`). The rewrite is available to
    other pipelines as `attic::lowerStateOps`. `attic-cpu-pipeline` and
    `attic-cuda-pipeline` run it after `attic-decompose`.

    With `parallel-scans` (what the GPU pipelines set), a sequential loop
    that would run as a kernel of one GPU thread is written as independent
    elements instead, each giving exactly the sequential form's values:

    - `attic.state_scan`'s exclusive prefix sums over the chunks: an
      `scf.forall` over (`B*H`, state element), each thread adding its
      column in chunk order;
    - `attic.kmeans`'s sums and counts per cluster: an element each, a loop
      over the rows that adds only its cluster's rows (in row order);
    - `attic.bucket_sort`: with chunks of 64 tokens, the tokens of each
      chunk in each bucket, those of the chunks before it (a thread per
      (row, bucket)), each bucket's first row, each token's row (its
      bucket's first row plus the tokens of its bucket before it), and
      `perm` scattered from `inverse` by an `scf.forall`.
  }];
  let options = [
    Option<"parallelScans", "parallel-scans", "bool", /*default=*/"false",
           "Scans and scatters as independent elements instead of "
           "sequential loops (a thread per element on the GPU)">,
    Option<"iterationLoops", "iteration-loops", "bool", /*default=*/"true",
           "attic.kmeans's iterations as one scf.for (the IR of one "
           "iteration, whatever `iterations` is) instead of one copy per "
           "iteration; the GPU pipelines turn it off (their kernels are "
           "launched from straight-line host code)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def AtticLowerBlockMask : Pass<"attic-lower-block-mask"> {
  let summary = "Lower bufferized attic.block_mask to the loops that classify its blocks";
  let description = [{
    (Like `attic-expand-vcc` and `attic-tile-block-attention`, it runs on
    any op that holds the ops it lowers. Nested below the module, on
    `func.func`, it needs the runtime's `@attic_rt_report_error` declared
    in the module already where it reports errors: functions run in
    parallel there, and it may not add to the module.)

    Rewrites every memref-form `attic.block_mask` into two `scf.parallel`
    loops: one over every (batch, head, query block, key block) that
    stores the pair's exact class (skip, partial, full: the layout's block
    visibility and the mask region's intervals, and element by element
    where these call a pair partial and are not exact: document ids,
    compositions, mask regions) in an i8 scratch buffer, then one over
    (batch, head, query block) of its lists that scans the key blocks of
    the layout's key range, appending the full and the partial ones to
    their lists in ascending order and writing 0 past the counts. Counts
    over a list's capacity are reported to the runtime
    (`attic_rt_report_error`) and clamped; nothing is written out of
    bounds. The loops run wherever the function's loops run (OpenMP on the
    CPU, a kernel per loop nest with `attic-gpu-offload`).

    Example: `attic-opt --attic-lower-block-mask`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def AtticUnrollLayerLoops : Pass<"attic-unroll-layer-loops", "::mlir::ModuleOp"> {
  let summary = "Fully unroll the function-level scf.for loops over attic ops (loops over layers) for the GPU";
  let description = [{
    `attic-gpu-offload` launches kernels from straight-line host code: a
    loop at the top level of a function becomes one kernel, which cannot
    allocate or launch kernels itself. A loop over layers (an `scf.for`
    whose body holds attic ops, e.g. examples/vcc_encoder_loop.mlir with
    the VCC tree as an iter_arg) is therefore fully unrolled first, into
    one copy of its body per iteration, on tensors before
    `attic-expand-vcc`. So is a loop of repeated steps that attic's own
    lowering wrote, marked `attic.repeated_steps` (LSH attention's rounds,
    K-means's and Nystrom attention's iterations, with the
    `iteration-loops` options of `attic-decompose` and
    `attic-lower-state`), whose body may hold no attic op, and a loop
    around one: IR lowered by those passes in a user's pipeline reaches
    the GPU mapping too. Other loops without attic ops are left alone. A loop over
    attic ops whose trip count is not a compile-time constant, or above
    `max-trip-count`, is an error, as is a run that would make more than
    65536 copies of loop bodies in all (the copies of every loop add up,
    and a nested loop is unrolled once per copy of the loop around it:
    256 x 256 is over), and so is an `scf.while`, `scf.forall` or
    `scf.parallel` at the function level over attic ops. A loop is over
    attic ops when they are in its body or in the functions it calls (a
    loop that calls one function per layer is unrolled too; the pipelines
    inline the calls afterwards). On a module: it reads the functions that
    loops call. Part of `attic-cuda-pipeline` and of
    `attic-cpu-pipeline` with `emulate-cuda`; the CPU pipeline keeps the
    loop.

    Example:

    ```mlir
    %r = scf.for %l = %c0 to %c3 step %c1 iter_args(%t = %tree) -> (...) {
      ... attic.tree_select %t ... attic.tree_update %t ...
    }
    // becomes three copies of the body, %l = 0, 1, 2.
    ```
  }];
  let options = [
    Option<"maxTripCount", "max-trip-count", "int64_t", "256",
           "The most iterations a loop over attic ops may have (at most "
           "65536: each is a copy of the body)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def AtticHoistAllocs : Pass<"attic-hoist-allocs"> {
  let summary = "Move each memref.alloc above the parallel loops before it, so that they can fuse";
  let description = [{
    Upstream's `scf-parallel-loop-fusion` joins a run of parallel loops
    only while no op with a memory effect sits between them, and
    bufferization puts each buffer's `memref.alloc` right before the loop
    that writes it, which splits the runs. An allocation only creates a
    fresh buffer, so this pass moves each one to the start of the run of
    `scf.parallel` ops and memory-effect-free, region-free ops before it:
    no value changes, and the buffer lives longer by those loops only. It
    never moves an allocation past another op with a memory effect (a
    `memref.dealloc`, a copy, a call) or past the definition of one of its
    size operands. Part of the GPU mapping (`attic-cuda-pipeline` and the
    emulation: fewer kernels) and of `attic-cpu-pipeline` (fewer OpenMP
    regions), before `scf-parallel-loop-fusion` in both.

    Example: `attic-opt --attic-hoist-allocs`:

    ```mlir
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) { ... writes %a ... }
    %b = memref.alloc() : memref<8xf32>
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) { ... reads %a, writes %b ... }
    ```

    becomes

    ```mlir
    %b = memref.alloc() : memref<8xf32>
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) { ... writes %a ... }
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) { ... reads %a, writes %b ... }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def AtticInterchangeReductions : Pass<"attic-interchange-reductions"> {
  let summary = "Permute each linalg op's loops so that its reduction loops are innermost";
  let description = [{
    `convert-linalg-to-parallel-loops` makes one `scf.parallel` of a linalg
    op's leading parallel dims, then an `scf.for` per reduction dim with a
    nested `scf.parallel` of the parallel dims after it.
    `attic-gpu-offload` maps only the outer `scf.parallel` onto threads, so
    a reduction over the middle dim of `[B*H, N, F]` (a key sum, a k-means
    count) ran in `B*H` threads that each looped over `N*F` elements. This
    pass puts each linalg op's parallel dims first, in their order, and its
    reduction dims last, in theirs (`linalg::interchangeGenericOp`; named
    ops are generalized first), so that every parallel dim becomes a
    thread dim. Each output element accumulates its terms in the same
    order as before, so results are bitwise the same. Ops whose parallel
    dims already precede every reduction dim are left as they are. Part of
    the GPU mapping (`attic-cuda-pipeline` and the emulation), before
    `convert-linalg-to-parallel-loops`; the CPU pipeline keeps the original
    order, whose inner loops run over contiguous elements.

    Example: `attic-opt --attic-interchange-reductions`:

    ```mlir
    linalg.generic {indexing_maps = [affine_map<(b, n, f) -> (b, n, f)>,
                                     affine_map<(b, n, f) -> (b, f)>],
                    iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%k : memref<8x2048x128xf32>) outs(%sum : memref<8x128xf32>) { ... }
    ```

    becomes a `linalg.generic` with the maps `(b, f, n) -> (b, n, f)` and
    `(b, f, n) -> (b, f)` and the iterators `["parallel", "parallel",
    "reduction"]`: one thread per `(b, f)` on the GPU, where there was one
    per `b`.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def AtticDecomposeAggregates : Pass<"attic-decompose-aggregates"> {
  let summary = "Decompose linalg.softmax (linalg's aggregate ops) into linalg.generic ops";
  let description = [{
    linalg's aggregate ops (those that implement `AggregatedOpInterface`;
    in MLIR 22 `linalg.softmax` alone) have no lowering to loops of their
    own. This pass replaces each one on tensors by its
    decomposition, upstream's: for `linalg.softmax` the maximum along
    `dimension` (`arith.maxnumf`, which skips NaN, from a NaN fill),
    `exp(x - max)`, their sum and the division, as `linalg.generic` ops. Part of both pipelines, before
    bufferization. An aggregate op on buffers is an error, and so is a
    softmax of integers or `index` (upstream's decomposition crashed on
    them).

    Example:

    ```mlir
    %r = linalg.softmax dimension(1) ins(%x : tensor<2x8xf32>)
             outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
    // becomes
    %m = linalg.generic ... // max over dim 1 (arith.maxnumf)
    %p = linalg.generic ... // exp(x - max)
    %s = linalg.generic ... // sum over dim 1
    %r = linalg.generic ... // p / s
    ```

    A row that is all -inf gives NaN (`-inf - -inf`), and a NaN or +inf
    in a row makes the row NaN (through the sum), as the definition does.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AtticExactBf16Conversions : Pass<"attic-exact-bf16-conversions"> {
  let summary = "Round f64 and wide integers to bf16 once, not twice through f32";
  let description = [{
    Upstream's `arith-expand` turns `arith.truncf %x : f64 to bf16` into a
    truncf to f32 and then the bf16 rounding of f32, and LLVM converts an
    integer to bf16 through f32 the same way: two roundings to nearest,
    one bf16 ulp off where the first lands exactly on a bf16 midpoint
    (`1 + 2^-8 + 2^-30` became 1, not `1 + 2^-7`; `2^24 + 2^16 + 1` became
    `2^24`). This pass rewrites `truncf` f64 -> bf16 and `sitofp`/`uitofp`
    of integers wider than 24 bits to bf16 so that the step to f32 rounds
    to odd (to nearest, one ulp toward zero where that went away from zero,
    the last bit set where inexact): f32 has 16 more bits than bf16, so the
    final rounding to nearest even is the correct one. Integers of up to 53
    bits reach f64 exactly; up to 64 bits as their high and low 32 bits,
    whose sum is rounded to odd from its exact error; wider ones (up to
    1000 bits; wider is an error) to nearest, converted back and compared
    in their own width. NaN and infinities convert as before. Part of `attic-cpu-pipeline`, before `arith-expand`.

    Example:

    ```mlir
    %h = arith.truncf %x : f64 to bf16
    // becomes
    %n = arith.truncf %x : f64 to f32       // to nearest
    %b = arith.extf %n : f32 to f64
    ...                                     // toward zero, last bit set
    %h = arith.truncf %odd : f32 to bf16
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AtticExactMinMax : Pass<"attic-exact-min-max"> {
  let summary = "arith.maximumf / minimumf with IEEE-754 signed zeros, before arith-expand";
  let description = [{
    `arith.maximumf` and `arith.minimumf` order -0.0 below +0.0
    (IEEE-754 2019 maximum and minimum) and give NaN if either operand is
    NaN. Upstream's `arith-expand` in MLIR 22 lowers them to one ordered
    compare and a select, which gives the second operand where the two
    compare equal: `maximumf(+0.0, -0.0)` was -0.0, and `1 / maximumf(x, -0)`
    at x = +0 was -inf (an audit, 2026-12-01). This pass rewrites them
    first: where the operands compare equal, the result is the bitwise and
    (maximum) or or (minimum) of the two, which is +0 (or -0) for zeros of
    both signs and the operand itself otherwise; a NaN operand is the
    result as before. Ops with the `nsz` or `fast` fast-math flag are left
    to `arith-expand`. Part of `attic-cpu-pipeline`, before `arith-expand`.

    Example:

    ```mlir
    %m = arith.maximumf %a, %b : f32
    // becomes
    %gt = arith.cmpf ugt, %a, %b : f32
    %s = arith.select %gt, %a, %b : f32
    %eq = arith.cmpf oeq, %a, %b : f32
    %ai = arith.bitcast %a : f32 to i32
    %bi = arith.bitcast %b : f32 to i32
    %and = arith.andi %ai, %bi : i32
    %z = arith.bitcast %and : i32 to f32
    %e = arith.select %eq, %z, %s : f32
    %nan = arith.cmpf uno, %b, %b : f32
    %m = arith.select %nan, %b, %e : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AtticExpandStridedMetadata : Pass<"attic-expand-strided-metadata"> {
  let summary = "Upstream's expand-strided-metadata, also for expand_shapes with several dynamic sizes in one group";
  let description = [{
    Applies upstream's `expand-strided-metadata` patterns, and first
    rewrites each `memref.expand_shape` with two or more dynamic sizes in
    one reassociation group, which upstream's pattern in MLIR 22 cannot
    handle (it crashes). Such an op is valid IR: bufferizing a
    `tensor.expand_shape` into `tensor<?x?xf32>` whose sizes come from the
    data makes one. It becomes the source's
    `memref.extract_strided_metadata` and a `memref.reinterpret_cast` of
    its base buffer: the innermost dimension of a group keeps the source
    dimension's stride, each outer one that stride times the sizes inside
    it, and the offset is the source's.

    ```mlir
    %e = memref.expand_shape %a [[0, 1]] output_shape [%x, %y]
        : memref<?xf32> into memref<?x?xf32>
    // becomes
    %base, %offset, %size, %stride = memref.extract_strided_metadata %a
        : memref<?xf32> -> memref<f32>, index, index, index
    %e = memref.reinterpret_cast %base to offset: [0], sizes: [%x, %y],
        strides: [%y, 1] : memref<f32> to memref<?x?xf32>
    ```

    A static output size in a dimension the type leaves dynamic becomes
    an operand first, as in `attic-guard-tensor-indices`.

    Used in place of `expand-strided-metadata` by `attic-cpu-pipeline` and
    the CUDA pipelines. (The sizes are the op's; that their product is the
    source's size is checked at run time, for sizes from a
    `tensor.expand_shape`, by `attic-guard-tensor-indices`.)
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def AtticInlineAllocaScopes : Pass<"attic-inline-alloca-scopes"> {
  let summary = "Inline memref.alloca_scope ops that hold no memref.alloca";
  let description = [{
    `convert-scf-to-openmp` wraps each parallel loop body in a
    `memref.alloca_scope`, which canonicalization inlines only when nothing
    inside may allocate on the stack; a `func.call` (compiled code calls
    the runtime's `attic_rt_report_error`) may, as far as it knows, and the
    scope then makes `convert-scf-to-cf` fail. attic's CPU code allocates
    scratch on the heap and calls only the runtime, so this pass inlines
    every scope that holds no `memref.alloca`. Part of
    `attic-cpu-pipeline`, after the OpenMP conversion.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def AtticTileBlockAttention : Pass<"attic-tile-block-attention"> {
  let summary = "Turn bufferized attic.block_attention into the target-independent tile loop";
  let description = [{
    (Runs on any op that holds the ops it lowers, not on an
    `attic.block_attention` itself. Nested below the module, on
    `func.func`, it needs the runtime's `@attic_rt_report_error` declared
    in the module already where it reports errors: block lists and
    capture reads.)

    Rewrites every memref-form `attic.block_attention` into one
    `attic.tile.grid` over (batch, query head, query block), whose body
    loops over the visited key blocks with
    the `attic.tile` ops (AtticTileOps.td): the per-key logit term (with
    a key bias or mask; without, the keys past Nk are masked by the last
    block's classification as partial), `Q K^T`, the base-2 logits with
    the layout's element predicate in partial blocks (the scale folded
    into the exponent where there is no term or score region), the
    online-softmax update, `P V`, and the final `acc * (1 / l)` (0 for a
    row without a visible key; NaN, where there is no term or score
    region, for a row whose visible logits all overflowed to -inf).
    Everything that decides the result
    (visited blocks, masking, the softmax, the NaN policy) is written here
    once; `attic-cpu-map-tiles` and `attic-gpu-map-tiles` only map tiles.

    Visited blocks come from the layout (its key range, each block
    classified skip / full / partial by the layout's IR, constants folded)
    or from the block lists, which a check loop in front of the grid
    validates (bad counts and indices are reported to the runtime and
    skipped). Grouped-query attention reads key/value head `h / (Hq /
    Hkv)`.

    Operand sizes that the verifier could not compare (dynamic ones, such
    as slices of a size from the data) are compared in front of the grid
    as it compares static ones: a key or value whose B, Hkv, Nk or D, a
    bias or mask whose B, Hq or Nk, or an init or lse whose B, Hq, Nq or Dv
    differs from what the other operands imply, and an Hkv of 0 or one
    that does not divide Hq, is reported to the runtime
    (`ATTIC_RT_OPERAND_SHAPE`: "attention at line L: key dimension 0 is 1
    at run time, but B = 2 ...") and the grid gets no batches (nothing is
    computed). With static sizes nothing is emitted.

    `wide-head-block-k` (0: off) is the key block for heads wider than 64
    (D or Dv) in ops without block lists, where it is only a tiling choice:
    `attic-cuda-pipeline` uses 64, which keeps the tensor-core kernel's
    registers (scores, accumulator and Q fragments) within 255 per thread.

    `fit-block-k` (off by default) sets the key block of an op without
    block lists to Nk where Nk is static and smaller: one key block, with
    no keys past Nk to mask, so that the block is full where the layout
    allows (no per-element predicate) and no work is spent on padding
    columns. `attic-cpu-pipeline` turns it on (its micro-kernels take any
    block_k); the GPU kernels need multiples of 16 and keep their own.

    Example: `attic-opt --attic-tile-block-attention`; see
    test/Transforms/tile-block-attention.mlir.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
  let options = [
    Option<"wideHeadBlockK", "wide-head-block-k", "int64_t", /*default=*/"0",
           "Key block for heads wider than 64 without block lists (0: the "
           "op's block_k)">,
    Option<"fitBlockK", "fit-block-k", "bool", /*default=*/"false",
           "Without block lists, a static Nk below block_k becomes the key "
           "block">
  ];
}

def AtticReportBlockClasses : Pass<"attic-report-block-classes"> {
  let summary = "Report the compiler's block classification of each attention";
  let description = [{
    For every `attic.attention` and `attic.block_attention` on tensors with
    static query and key lengths, emits a remark with the classification
    the compiler decides without running anything: the layout's block
    visibility intersected with the mask region's (interval arithmetic),
    for batch 0 and head 0, in blocks of `block-q` x `block-k` (the op's
    own for block_attention, and for an attention with `block_sizes`).
    One row per query block, one character per
    key block: `F` full (the predicate is never evaluated), `P` partial,
    `.` skipped, `?` not decided at compile time (data-dependent layouts,
    mask regions that read captures: `attic.block_mask` classifies them at
    run time), then the visited-block counts. The IR is unchanged. A grid
    of more than 2^20 block pairs is not reported (the remark says so and
    asks for larger blocks); memory stays that of one block pair.

    A diagnostic tool, and how the classification is tested
    (test/Transforms/block-classes.test).
  }];
  let options = [
    Option<"blockQ", "block-q", "int64_t", /*default=*/"128",
           "Query block of attic.attention">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"128",
           "Key block of attic.attention">
  ];
}

def AtticCpuMapTiles : Pass<"attic-cpu-map-tiles"> {
  let summary = "Map tile loops onto the CPU: vector micro-kernels, fused row passes";
  let description = [{
    Maps every tile grid of `attic-tile-block-attention` (an
    `attic.tile.grid`, or the `scf.parallel` marked `attic.tile_grid` that
    one expands to) onto the CPU; the grid becomes a parallel loop
    (OpenMP in `attic-cpu-pipeline`), visited in zig-zag order over the
    query blocks so that contiguous shares carry equal work. It only maps
    tiles; what they compute is the tile loop's IR:

    - keys and values are packed once per (batch, kv head, key block) into
      f32 panels in front of the grid (K transposed `[D][block_k]`, keys
      along the vector lanes; V `[block_k][Dv]`), O(N*D) memory;
    - `attic.tile.qk` and `attic.tile.pv` become register-blocked
      micro-kernels (`register-rows` rows by `register-chunks` vectors,
      FMA over D and over the keys of the block);
    - consecutive row-local ops (`attic.tile.map`, `.map_rows`, `.reduce`,
      `.store`) become one loop over the rows that keeps each row's chunks
      in vector registers from op to op; the maps' regions are vectorized
      along the columns (gathers for loads with a column-dependent index)
      and unrolled over a row's chunks, except a region whose copies would
      exceed 4096 ops (a long modifier region), which runs in a loop over
      the chunks on the tiles' memory: code generation time grows faster
      than linearly with a kernel's size;
    - scratch tiles are heap buffers (64-byte aligned) padded to whole
      register tiles and vectors; padded lanes never reach a result.

    `vector-width` (f32 lanes) defaults to the host CPU's widest unit (16
    with AVX-512, 8 with AVX2). Available to other pipelines as
    `attic::mapTilesToCpu` (include/attic/Conversion/AtticToCPU).

    Limits, both errors naming the tile grid: a key block of at most 256
    vectors (block_k / vector-width; compile time grows faster than
    linearly with them), and head dims D and Dv of at most 16384 (the
    micro-kernels' code grows with them: 16384 lowers in about 0.4 s,
    65536 took 7 s and 2^20 did not finish; the CUDA targets, whose
    kernels loop over the head dim, take larger ones).

    Example: `attic-opt --attic-tile-block-attention
    --attic-cpu-map-tiles="vector-width=8"`.
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
  let summary = "Replace math.exp, math.exp2 and math.erf on f32 by upstream's polynomial approximations; f16/bf16 math in f32";
  let description = [{
    Without it `math.exp` lowers to a call of libm's `expf` per element, which
    keeps LLVM from vectorizing the softmax loops. Upstream's approximation
    (range reduction + polynomial, a few ulp in f32) is plain arithmetic that
    vectorizes. `math.exp2(x)` (the tile loop's base-2 softmax) becomes
    `math.exp(x * ln 2)` first. `math.erf` (exact GELU) becomes upstream's
    rational approximation (measured against libm's double erf over
    [-6, 6], 65536 points: at most 2.6e-7 absolute error, test/Integration/math-ops.test),
    which also vectorizes; LLVM has no erf intrinsic. Math ops on f16 and
    bf16 are computed in f32 (extended, then truncated). An exponential of
    NaN stays NaN (`select(x is NaN, x, exp(x))`: the approximation's
    fptosi is poison for NaN, and LLVM folded a constant NaN's exponential
    to 0). `math.log1p`, `expm1`, `cbrt`, `erfc`, `asinh`, `acosh` and
    `atanh` become libm calls here (vectors unrolled), where the pass runs
    on a module: math-to-llvm computes log1p as log(1 + x) and expm1 as
    exp(x) - 1 (6% off at 1e-7), and a later convert-math-to-libm left a
    vector cbrt's unrolling unlowered. A module that defines a symbol of
    such a libm name (`@log1pf`) other than a declaration of the libm
    function itself is an error: the call would reach the module's own
    function. Those ops inside an attic op's region (a modifier, a
    `tile.map` body) stay: a region admits no call, and the pipelines run
    this pass after the map-tiles passes have made the regions loops. Math
    on tensors is
    left alone (upstream's approximations take scalars and vectors; the
    pipelines run this pass after bufferization, on loops). Everything else is
    left to attic-cpu-pipeline's MathToLLVM (LLVM intrinsics) and MathToLibm
    (libm calls for cbrt, tan, atan, atan2, erfc, sinh, ...).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect", "::mlir::func::FuncDialect"
  ];
}

def AtticReadonlyArguments : Pass<"attic-readonly-arguments", "::mlir::func::FuncOp"> {
  let summary = "Mark the tensor arguments of public functions read-only for bufferization";
  let description = [{
    Tensors are values: a compiled function must not change its caller's
    inputs. One-shot bufferization with function boundaries treats argument
    buffers as writable unless an argument carries
    `bufferization.writable = false`, so an op that updates a tensor in
    place (for example the `linalg.generic` that
    `convert-elementwise-to-linalg` makes of `arith.addf %a, %b`, with `%a`
    as its init) would write into the caller's buffer. This pass adds
    `bufferization.writable = false` to every ranked-tensor argument of a
    public function with a body (an attribute already there is kept), so
    bufferization copies before such a write. `attic-cpu-pipeline` runs it
    before bufferization.

    Example: `func.func @f(%a: tensor<4xf32>)` becomes
    `func.func @f(%a: tensor<4xf32> {bufferization.writable = false})`.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def AtticLinalgToBlas : Pass<"attic-linalg-to-blas", "::mlir::ModuleOp"> {
  let summary = "Rewrite f32 linalg.matmul on memrefs into calls of the runtime's sgemm";
  let description = [{
    Dense GEMMs that are not attention (projections, the feed-forward layers
    of a transformer or VCC layer body) run through OpenBLAS: after
    bufferization, each `linalg.matmul` whose operands are 2-D f32 memrefs
    with a static unit stride in one dimension (row-major, any leading
    stride and offset, e.g. subviews; or column-major, read as a transpose)
    and whose indexing maps are the default ones or transpose A and/or B
    becomes a call of

    ```
    func.func private @attic_rt_sgemm(transA, transB, m, n, k,
        a, aOffset, lda, b, bOffset, ldb, c, cOffset, ldc)  // all index
    ```

    with the aligned base addresses and element offsets from
    `memref.extract_strided_metadata`; it computes `C += op(A) op(B)`
    like the matmul (runtime/lib/Blas.cpp; the CPU executable binds the
    symbol). Matmuls it cannot express are left alone for the loop
    lowering: other element types, tensors, a dynamic or non-unit inner
    stride, a column-major C, other indexing maps, and matmuls inside
    parallel loops (BLAS brings its own threads), and matmuls that are not
    host code of the module the pass runs on (in a nested module, which a
    run of the pass nested on it handles; in a `gpu.module` or a
    `gpu.launch` body, where a host call is invalid). The declaration is
    added once per module; a different symbol of that name is an error.

    A `linalg.batch_matmul` on static 3-D f32 memrefs whose maps keep the
    batch dim first (the state products of kernelized attention: one GEMM
    per head or per chunk) becomes an `scf.for` over the batch with one
    such call on rank-reduced subviews per step (the batch matmul's maps
    less the batch dim).

    Example: `attic-opt --attic-linalg-to-blas` rewrites
    `linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
    outs(%c : memref<64x16xf32>)` into `func.call @attic_rt_sgemm(%c0,
    %c0, %c64, %c16, %c32, ...)`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def AtticGpuMapTiles : Pass<"attic-gpu-map-tiles", "::mlir::ModuleOp"> {
  let summary = "Map tile loops onto the GPU: the tensor-core kernel or a thread per row";
  let description = [{
    Turns every tile grid of `attic-tile-block-attention` (an
    `attic.tile.grid` or its expanded form, an `scf.parallel` marked
    `attic.tile_grid`; on device buffers after
    `attic-gpu-offload`) into one `gpu.launch` on its own token chain,
    through the pattern with the highest benefit that applies (one
    rewrite: `attic::populateGpuMapTilesPatterns`). The launch has at least
    one block in each grid dim, and the kernel's body runs under a uniform
    `scf.if` that is false for an empty grid (B·Hq = 0 or no query block),
    so the host has no branch around the launch:

    - the tensor-core kernel (benefit 2, `TensorCoreTiles.cpp`): f16/bf16,
      D and Dv static multiples of 16 up to 128, block_q 16/32/64/128,
      block_k a multiple of 16 up to 128, tile.map regions of at most
      16384 ops once unrolled over a lane's block_k / 2 elements (a longer
      modifier region takes the thread-per-row kernel, whose compile time
      stays linear in its length). A warp per 16 query rows; R x C
      tiles in mma.sync fragments, row tiles two registers per lane, column
      tiles and the K and V blocks in shared memory; K and V copied with
      `cp.async` (V's copy overlapping Q K^T and the softmax, the next key
      block's K prefetched during P V where K and V fit together in 48
      KiB; `async-copies=false`: loads and stores through registers
      between one pair of barriers per key block, the kernel before
      cp.async, kept for A/B timing; `kv-stages=2`: rings of two K and
      two V blocks in dynamic shared memory, where they fit in 99 KiB,
      each block's K and V prefetched during the whole computation of the
      previous one, 2 barriers per block; `kv-stages=3`: three of each and
      the column tiles in two buffers, where they fit in 99 KiB (227 KiB
      for wgmma kernels), the prefetch written into the slot of three
      blocks before, 1 barrier per block); Q K^T and P V with
      `mma.sync.m16n8k16` and `ldmatrix`, reductions across the quad with
      shuffles, the regions of the tile maps cloned per register element;
      finite outputs past the 16-bit type's largest value are stored as
      that value (P V rounds P to 16 bits, the row sum adds the f32 P:
      the mean of V could round past it; docs/patterns.md);
      `wgmma=true` (sm_90a kernels): S = Q K^T as `wgmma.mma_async`
      m64n{block_k}k16 in inline PTX, a warpgroup per 64 query rows, Q's
      A fragments from registers and K (K-major) from a 128-byte swizzled
      tile (aligned to 1024 bytes at run time) through descriptors, where
      D is 64 or 128, block_q 64 or 128 and K and V fit in 48 KiB (else
      mma.sync); P V as m64n{Dv}k16 with P's fragments from registers and
      V N-major from the same kind of tile where Dv is 64 or 128 too (else
      mma.sync); `wgmma-overlap=true` (with `wgmma=true kv-stages=2`,
      where P V is a wgmma and a third V slot fits in 99 KiB): each key
      block's P V is issued after the next block's Q K^T, so that it runs
      during that block's softmax (FlashAttention-3's intra-warpgroup
      overlap; the product after the last block is added before the
      epilogue); `tma=true` (with `wgmma=true kv-stages=2` or 3, where
      both products are wgmmas): the rings' K and V blocks are TMA loads
      (`nvgpu.tma.async.load` of block_k x 64 boxes with the 128-byte
      swizzle, one per 64 columns, issued by thread 0; tensor maps made by
      `nvgpu.tma.create.descriptor` on the host before the launch)
      completing an mbarrier per K slot (`nvgpu.mbarrier.arrive.expect_tx`
      by thread 0, `try_wait.parity` by every thread) instead of cp.async
      by every thread; `warp-specialize=true` (with `tma=true`): one more
      warpgroup per block, the producer, issues the loads (one thread, in
      the tile loop's control flow without its tile ops), each slot with a
      "full" and an "empty" mbarrier; the consumers (the other warpgroups,
      an `scf.if` marked `attic.warp_roles`) wait for "full", compute, and
      arrive on "empty" after the wgmmas that read the slot have completed
      (with `wgmma-overlap`, the deferred P V in the next visited block);
      their barriers are named barriers of their own threads; `setmaxnreg`
      gives the producer 24 registers and the consumers 240; `ping-pong=true`
      (with both, block_q 128): the two consumer warpgroups take turns
      issuing each block's Q K^T and deferred P V (bar.sync on barrier 2 + w
      before, bar.arrive on the other's after);
    - a thread per query row (benefit 1, `MapTilesToGPU.cpp`), for anything
      else: each tile op a loop over its columns on the thread's private
      row of each tile.

    The tile loop's control flow (key-block loops, classification, block
    lists) is kept as it is: it depends only on (batch, head, query block,
    key block), so it is uniform in a thread block and the barriers inside
    it are reached by all threads. `tensor-cores=false` uses the SIMT
    mapping for every grid (its kernels are what `attic-gpu-emulate` can
    run on the CPU: no barriers, so a pooled epilogue `attic.tile.pool`
    becomes a second kernel launched after the grid's instead of a
    barrier and the block's threads summing its stored rows in the same
    kernel). The tensor-core kernel has no pooled epilogue: grids with one
    take the SIMT mapping. A grid no pattern maps is an error that says why.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Use the tensor-core kernel where it applies (else a thread per "
           "query row everywhere; the kernel's options below are then "
           "refused)">,
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"true",
           "The tensor-core kernel copies K and V with cp.async (false: "
           "loads and stores through registers, for A/B timing)">,
    Option<"kvStages", "kv-stages", "int64_t", /*default=*/"1",
           "Slots of the tensor-core kernel's K and V rings: 1, 2 (in "
           "dynamic shared memory, where two K and two V blocks fit in 99 "
           "KiB; else 1), or 3 (three of each, where they fit in 99 KiB, "
           "227 KiB for wgmma kernels; one barrier per key block instead of "
           "two; else 2); needs async-copies">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "The tensor-core kernel computes S = Q K^T with wgmma.mma_async "
           "(sm_90a; Q from registers, K in a 128-byte swizzled tile) where "
           "D is 64 or 128, block_q 64 or 128 and K and V fit in 48 KiB, "
           "and P V too where Dv is 64 or 128 (P from registers, V "
           "N-major), also in kv-stages=2 rings; needs async-copies">,
    Option<"wgmmaOverlap", "wgmma-overlap", "bool", /*default=*/"false",
           "With wgmma and kv-stages=2 or 3: each key block's P V (a wgmma) "
           "runs during the next block's softmax, its V kept in one more "
           "ring slot (where it fits and the grid's tile loops allow it; "
           "else P V is not deferred)">,
    Option<"tma", "tma", "bool", /*default=*/"false",
           "With wgmma and kv-stages=2 or 3: the rings' K and V blocks are "
           "TMA loads completing an mbarrier per slot (where both products "
           "are wgmmas; else cp.async)">,
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"false",
           "With tma: a producer warpgroup (one more per block) issues the "
           "rings' TMA loads, the consumer warpgroups wait for each slot's "
           "\"full\" mbarrier and release it on its \"empty\" one after "
           "their wgmmas have read it; setmaxnreg moves registers from the "
           "producer to the consumers (where the grid allows it; else the "
           "kernel of tma)">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"false",
           "With warp-specialize and wgmma-overlap: where block_q is 128, "
           "the two consumer warpgroups take turns issuing a block's wgmmas "
           "(named barriers 2 and 3), so that one's softmax runs during the "
           "other's products (else no effect)">
  ];
}

def AtticGpuOffload : Pass<"attic-gpu-offload", "::mlir::ModuleOp"> {
  let summary = "Run a bufferized function's computation on the GPU: device buffers, gpu.launch per loop nest";
  let description = [{
    Makes the public functions of a bufferized module (after one-shot
    bufferization, the deallocation pipeline, convert-bufferization-to-memref
    and convert-linalg-to-parallel-loops) keep their data on the device and
    compute in kernels, while their signature stays in host memory:

    - each memref argument is copied to a device buffer at entry (and back
      at exit unless it is marked `bufferization.writable = false`);
    - every `memref.alloc` becomes a `gpu.alloc`, every `memref.dealloc` a
      `gpu.dealloc`;
    - every top-level `scf.parallel` becomes a `gpu.launch` with one thread
      per iteration (the iteration space is linearized over a 1-D grid of
      `block-size` threads per block and delinearized in the kernel; nested
      loops run inside the thread, a nested `scf.parallel` written out as
      `scf.for` loops);
    - every `memref.copy` becomes a copy kernel (strided views included);
    - the remaining computation at the top level (sequential `scf.for`
      loops, loads and stores, `scf.if`) runs in a kernel of one thread,
      consecutive ops in one kernel; host work between them that does not
      depend on them (an allocation, a constant, a size) moves before the
      kernel, so that a scalar read and its store into a new buffer stay
      in one kernel;
    - calls of `attic_rt_report_error` (in kernels, or at the top level,
      where they run in a kernel of one thread) become an atomic
      count and a record in a device error buffer, which the host reads at
      exit and reports through the same runtime function;
    - returned memrefs are copied into fresh host buffers.

    Tile grids (`attic.tile.grid`, from `attic-tile-block-attention`)
    are left in place with device operands,
    for `attic-gpu-map-tiles`. Every async op is on
    a local token chain that ends in a blocking `gpu.wait`. What cannot be
    offloaded (an allocation inside a loop, a host use of a value computed
    on the device, a reduction `scf.parallel`, a call, a host op of the gpu
    dialect such as `gpu.launch` inside a loop or branch, which would run
    inside a kernel) is an error naming the op. A hand-written `gpu.launch`
    at the top level runs as written. Run the pass once: on its own output
    it offloads again (the arguments copied into a second set of device
    buffers). Functions of nested modules are left alone, as with any pass
    on a module: nest the pass on them
    (`--pass-pipeline='builtin.module(builtin.module(attic-gpu-offload))'`).

    Example: `attic-opt --attic-gpu-offload`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block of the parallel-loop kernels">
  ];
}

def AtticGpuEmulate : Pass<"attic-gpu-emulate", "::mlir::ModuleOp"> {
  let summary = "Run host-side gpu.launch kernels as CPU loops (testing the GPU mapping without a GPU)";
  let description = [{
    For testing on machines without a GPU: turns each `gpu.launch` in host
    code into an `scf.parallel` over (block x, y, z, thread x, y, z) with
    the body inlined (`gpu.block_id`, `gpu.thread_id`, `gpu.block_dim`,
    `gpu.grid_dim` replaced by the loop indices and sizes), and the host
    data movement into memref ops: `gpu.alloc` -> `memref.alloc`,
    `gpu.dealloc` -> `memref.dealloc`, `gpu.memcpy` -> `memref.copy`,
    `gpu.wait` removed. The result lowers with attic-cpu-pipeline's back
    end. Kernels whose threads communicate (barriers, shuffles, shared or
    private attributions, nvgpu/nvvm ops) cannot be emulated this way and
    are an error naming the op.

    Example: `attic-opt --attic-gpu-offload --attic-gpu-emulate`.
  }];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def AtticFail : Pass<"attic-fail"> {
  let summary = "Fail with a message (a pipeline's report of a bad option)";
  let description = [{
    Emits `message` as an error at the location of the op it runs on and
    fails. A pipeline builder that finds a bad option (attic-cuda-pipeline's
    `chip`, `format`, `block-q`, `block-k`) or a pass manager it cannot run
    on (attic-cpu-pipeline nested on `func.func`) adds this pass in place of
    its passes, so that the error reaches the user through the pass
    manager, at the point where the pipeline runs, with a non-zero exit.
    It runs on any op, so that it can take the place of a pipeline on any
    pass manager.

    Example: `attic-opt '--attic-fail=message="chip must be sm_80"'`.
  }];
  let options = [
    Option<"message", "message", "std::string", /*default=*/"\"failed\"",
           "The error to report">
  ];
}

def AtticCheckScope : Pass<"attic-check-scope", "::mlir::ModuleOp"> {
  let summary = "Reject input the pipelines would leave half lowered, fail on or get wrong: attic ops outside the module's top-level functions, tile loops, deallocations, float rounding modes, unsigned loop steps past the signed range";
  let description = [{
    attic's pipelines lower the attic ops of the functions at the top level
    of the module they run on (bufferization, the tile loop's mapping and
    the conversion to LLVM run on those functions). An attic op anywhere
    else (a nested `builtin.module`, a `gpu.module`, the module's body
    itself) would be left behind half lowered, with the pipeline
    succeeding. This pass, first in `attic-cpu-pipeline` and
    `attic-cuda-pipeline`, reports each such op instead: an error naming
    the op and the op it is inside of, and `pipeline` (for the message).
    A nested module is lowered by nesting the pipeline on it:
    `--pass-pipeline='builtin.module(builtin.module(attic-cpu-pipeline))'`,
    before the outer module: a function in a nested module (with a body)
    is refused too, since some of the outer pipeline's conversions walk
    the whole module and left it half lowered; a nested module the
    pipeline has lowered is left alone. A function with a body in a
    `gpu.module` (a `func.func` or a `gpu.func`) is refused as well: the
    pipelines make the kernels themselves (a `gpu.launch` in one crashed
    upstream's kernel outlining, and `attic-cpu-pipeline` left a `gpu.func`
    half lowered). A `gpu.launch` in a host function is refused unless
    `allow-launches` is set (`attic-cuda-pipeline`, the emulated and the
    simulated CUDA targets set it and offload such a function's data;
    `attic-cpu-pipeline` does not lower kernels, and left them half
    lowered with exit 0). A `gpu.launch` with async tokens is refused
    (the pipelines order a function's kernels themselves; an unwaited
    token raced the copy back), and so is one inside host control flow
    (`scf.if`, `scf.for`: the offload runs those as a kernel of one thread,
    and a kernel does not launch another), and a gpu op in a host function, or
    an op in a `gpu.launch`, without declared memory effects
    (`gpu.barrier`, `gpu.wait`): the pipelines' buffer deallocation cannot
    analyse it (upstream's message named neither the op's kind nor what
    to write instead).

    It also rejects, once per function, input that is already past two of
    the pipelines' own steps, which upstream's ownership-based deallocation
    would refuse with messages that name neither: the tile loop of
    `attic-tile-block-attention` (`attic.tile.*` ops: run the passes after
    it by name) and `memref.dealloc` (the pipelines place every
    deallocation themselves).

    And it rejects a float rounding mode other than the default
    (`arith.truncf %x downward`): the LLVM lowering emits a constrained
    fptrunc, which only assumes the mode, so the result would be rounded to
    nearest even without a word; and an `scf.for unsigned` whose constant
    step has its sign bit set (150 in i8), which MLIR 22's canonicalizer
    reads as negative, deleting the loop.

    Example: `attic-opt --attic-check-scope=pipeline=attic-cpu-pipeline`.
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string",
           /*default=*/"\"attic-cpu-pipeline or attic-cuda-pipeline\"",
           "The pipeline named in the error">,
    Option<"allowLaunches", "allow-launches", "bool", /*default=*/"false",
           "Take gpu.launch in host functions (attic-cuda-pipeline's)">
  ];
}

def AtticGuardTensorIndices
    : Pass<"attic-guard-tensor-indices", "::mlir::ModuleOp"> {
  let summary = "Check the bounds of tensor.extract/insert, extract_slice/insert_slice and memref.load/store; report, never access, outside";
  let description = [{
    Upstream, a `tensor.extract`, `tensor.insert`, `memref.load` or
    `memref.store` whose index is outside the tensor or memref is undefined
    behaviour, and compiled it reads or writes past the buffer: an index
    that comes from the data (a token id beyond an embedding table)
    segfaulted `attic-run`, or read another buffer's values. This pass
    checks every such access whose indices are not all known inside the
    static sizes (constants, the induction variable of an `scf.for` with
    constant bounds, a block or thread id of a `gpu.launch` of constant
    sizes, and sums, differences and products of those) against
    `0 <= index < size` for each dimension. Outside, the runtime's
    `attic_rt_report_error` is called with `ATTIC_RT_TENSOR_INDEX` (tensor
    ops) or `ATTIC_RT_MEMREF_INDEX` (memref ops) for each dimension out of
    bounds (the op's source line, the dimension, the index and the size),
    and nothing outside is touched: a read (`tensor.extract`, `memref.load`)
    gives 0, `tensor.insert` the unchanged tensor, and `memref.store`
    writes nothing. Reads and inserts on static nonzero sizes do that
    without a branch (the indices clamped to 0 and the result selected;
    the GPU offload takes no allocation in a branch); the others, and
    every `memref.store`, are put under an `scf.if`. The run then fails
    with `tensor.extract at line L: index I of dimension D is outside
    [0, S)` (or `memref.load`, ...) in attic-run and the AOT entry, or the
    report is taken by whoever runs the code (`attic_rt_take_error`).
    This covers the host code of the module's functions and the bodies of
    their `gpu.launch` ops (kernels report through the device's error
    record), and `memref.atomic_rmw` too (under an `scf.if`, 0 outside).
    An access through `tensor.cast` or `memref.cast` is checked against
    the cast's source (a cast to a larger static size is not checked
    itself). Left alone: accesses inside attic ops (modifier regions) and
    in the functions attic ops name (`mask_fn`, `score_fn`: the memref
    form's outlined regions), whose capture reads have their own check
    (host code that calls such a function too calls a private copy,
    `@name_host`, which is checked); functions in a `gpu.module` (they
    cannot call the runtime); reads of element types without a 0 (other
    than integers, index, floats and vectors of those); and other memory
    ops (`vector` loads and stores, and a `memref.subview` reaching
    outside its source, whose accesses are checked against the subview's
    sizes only; `affine.load`/`store` become memref ops before this pass
    in both pipelines).
    A `tensor.dim` or `memref.dim` whose dimension index is known at run
    time only, or whose operand is unranked, is checked against the rank
    the same way
    (`ATTIC_RT_DIM_INDEX`: the line, the index, the rank; the result is 0
    outside), and one whose constant index is outside the rank is an error
    here (upstream it is undefined: it read past the descriptor's sizes,
    and MLIR's folding crashed on -1). A linalg op of static shapes whose
    indexing map reaches outside its operand anywhere in the iteration
    space is an error here too, naming the operand, the map's result, the
    loop indices and the value (upstream's verifier checks the loop
    bounds' first and last points only, and a map such as `d0 mod 3` or
    `d1 - d0 + 3` read past the buffer; linear maps are checked at the
    corners of the iteration space, others by interval arithmetic and
    else by enumerating up to 2^24 points, beyond which the map is
    refused as unchecked; linalg ops of dynamic shapes are not checked,
    including those of a function with dynamic arguments that the entry
    calls with static tensors, since the inliner runs after this pass).
    Both pipelines run it first.

    Slices get stride 1 on their dims of size 1 (such a dim takes one
    element whatever its stride): MLIR 22 crashed folding the subview of a
    rank-reducing `extract_slice` with another stride there, after
    bufferization.

    A `tensor.expand_shape` or `memref.expand_shape` with a static output
    size in a dimension its type leaves dynamic (`output_shape [%d, 1]`
    into `?x?`) gets that size as an operand (an `arith.constant`):
    MLIR 22's canonicalization of `tensor.expand_shape` expects one size
    operand per dynamic dimension, and crashed on such a (valid) op.

    `tensor.extract_slice`, `tensor.insert_slice` and
    `tensor.parallel_insert_slice` whose offsets, sizes
    and strides are not known to stay inside static sizes (constants, an
    scf.for's induction variable over constant bounds, and sums,
    differences and products of those) are checked the same way per
    dimension (offset >= 0, size >= 0, stride >= 1 and
    offset + (size - 1) * stride < size of the dimension, computed without
    overflow): outside, `ATTIC_RT_SLICE_BOUNDS` is reported (the line, the
    dimension, the offset and the size), an extract_slice gives a
    `tensor.empty` of its sizes and an insert_slice leaves the destination
    unchanged (a `parallel_insert_slice`, reported as `tensor.insert_slice`,
    inserts an empty slice at offset 0 instead: `scf.forall.in_parallel`
    holds no `scf.if`), so nothing is read or written out of bounds. An
    extract_slice whose static sizes and strides fit at offset 0 of a
    static tensor takes its slice at offset 0 instead (an `arith.select` of
    the offsets, no branch: the GPU offload takes no allocation in a
    branch); its contents then do not matter, as the run reports the
    error.

    ```mlir
    %x = tensor.extract %t[%i] : tensor<?xf32>
    // becomes
    %c0 = arith.constant 0 : index
    %n = tensor.dim %t, %c0 : tensor<?xf32>
    %ok = ... %i >= 0 and %i < %n ...
    // attic_rt_report_error(8, line * 64 + 0, %i, %n) where %ok is false
    %x = scf.if %ok -> (f32) {
      %e = tensor.extract %t[%i] : tensor<?xf32>
      scf.yield %e : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %v, %m[%j] : memref<16xf32>
    // becomes (after the check of %j and its report)
    scf.if %ok2 {
      memref.store %v, %m[%j] : memref<16xf32>
    }
    ```

    A `tensor.cast` or `memref.cast` to a static size whose operand's
    size is dynamic (or from an unranked operand) is checked at run time
    too: upstream such a cast is undefined, and the static size was
    trusted (a returned cast of a 2-element slice to `tensor<4xf32>` gave
    two elements of garbage with exit 0; one of 1000 corrupted the heap).
    Each such size (the rank first, for an unranked operand), and a
    `memref.cast`'s static strides and offset where the operand's strided
    layout has them dynamic (a view whose stride came from the data, cast
    to `memref<4xf32>`, read the first four elements with exit 0), is
    compared with the operand's; a difference is reported
    (`ATTIC_RT_CAST_SIZE`: the line, the dimension, stride, offset or rank,
    the value at run time and the type's), and the cast then gives a new
    `tensor.empty` (or a `memref.alloc` that covers the type's strided
    layout, viewed as it by `memref.reinterpret_cast` and not freed, the
    run having failed) of its type, its dynamic sizes 0, under an
    `scf.if`. Through an unranked operand every static stride and the
    static offset are compared; the stride of a dimension of static size 1
    addresses nothing and is not. A `tensor.expand_shape` with dynamic
    sizes is checked the same way: per group, the operand's size against
    the product of the output sizes (overflow and negative sizes count as
    a difference; `ATTIC_RT_RESHAPE_SIZE`: the line, the group, both
    values); upstream a difference is undefined (an expand_shape of a
    5-element slice into [ceil(5/4), 4] returned four of its elements with
    exit 0), and the op then gives a new tensor of its type. With `branch-free` (the CUDA and
    emulated pipelines: attic-gpu-offload takes no allocation in a branch)
    the tensor is allocated in front of the cast (or the expand_shape) and
    chosen with `arith.select`, and a `memref.cast` is only reported, as it
    is in a `gpu.launch` body (where its strides and offset are not
    compared); the accesses through a cast are checked against its
    operand in every case. A `tensor.reshape` is checked likewise: its
    shape's entries must be at least 0, multiply to the operand's elements
    and equal the result type's static sizes (`ATTIC_RT_RESHAPE_SIZE`; a
    2x3 operand reshaped to 4x4 read 10 elements past it with exit 0).

    (An unranked operand or result is not checked.)

    A `tensor.empty`, `tensor.splat`, `tensor.generate`, `memref.alloc` or
    `bufferization.alloc_tensor` whose dynamic sizes are negative, or take
    2^63 bytes or more with the static ones, is reported
    (`ATTIC_RT_ALLOC_SIZE`: the line, the first negative dimension and its
    size) and its sizes become 0: the lowering's byte count wrapped, and a
    tensor.empty of 2^62 f32 got a small buffer that its fill wrote past.
    Static sizes alone of 2^63 bytes or more are an error here. A
    `tensor.pad` whose padding from the data is negative (undefined
    upstream: it shifted the result and could corrupt the heap) is
    reported the same way, and that padding becomes 0; where the result
    type's size is static, the padded size must be it (a padding of
    1000000 into `tensor<5xf32>` wrote past the buffer), else the op gives
    a new tensor of its type.
  }];
  let options = [
    Option<"branchFree", "branch-free", "bool", /*default=*/"false",
           "Allocate no replacement in a branch (for attic-gpu-offload): "
           "a tensor.cast's replacement is chosen with arith.select, a "
           "memref.cast is only reported">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AtticGuardIntegerDivision
    : Pass<"attic-guard-integer-division", "::mlir::ModuleOp"> {
  let summary = "Make integer divisions by zero (and MIN / -1) report, never trap";
  let description = [{
    Upstream, an integer division or remainder by zero, and a signed one of
    the smallest integer by -1, are undefined behaviour; compiled for x86
    they trap, and a divisor that comes from the data stopped `attic-run`
    with SIGFPE. This pass guards every `arith.divsi`, `divui`, `remsi`,
    `remui`, `ceildivsi`, `ceildivui` and `floordivsi`, and the index
    dialect's `divs`, `divu`, `rems`, `remu`, `ceildivs`, `ceildivu` and
    `floordivs`, of the function's own code whose divisor is not a
    constant other than 0 (and other than -1 for the signed ones); an
    `affine.apply` whose `floordiv`, `ceildiv` or `mod` divides by a
    symbol is first expanded into arith ops (as `lower-affine` would), and
    its report names the arith op at the apply's line. (Other affine ops
    with such maps are not expanded here; both pipelines run
    `lower-affine` before this pass, so their divisions are arith ops by
    then.) Where the divisor is 0, or the op is signed
    and divides the smallest integer by -1, it divides by 1 instead, its
    result is 0, and a call of the runtime's `attic_rt_report_error` with
    `ATTIC_RT_INT_DIVISION` (the op's source line and name, the divisor,
    the dividend) fails the run: `arith.divsi at line L: division by zero`
    or `arith.divsi at line L: -2147483648 / -1 overflows`. Scalars and
    vectors are guarded in place (a vector reports once, for any lane);
    divisions of whole tensors are first rewritten to `linalg.generic`
    (upstream's elementwise-to-linalg patterns), whose scalar division is
    then guarded. The check is a compare, a select and a branch that is
    never taken on valid data. Divisions inside attic ops (modifier
    regions) are left alone: their verifier admits only constant divisors
    other than 0, and other than -1 where signed. Both pipelines run it
    first, after `attic-guard-tensor-indices`.

    ```mlir
    %q = arith.divsi %a, %b : i32
    // becomes
    %bad = ... %b == 0 or (%a == -2147483648 and %b == -1) ...
    %d = arith.select %bad, %c1, %b : i32
    scf.if %bad {
      // attic_rt_report_error(10, line * 64 + 0, %b, %a)
    }
    %r = arith.divsi %a, %d {attic.divisor_checked} : i32
    %q = arith.select %bad, %c0, %r : i32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def AtticGuardLoopSteps : Pass<"attic-guard-loop-steps", "::mlir::ModuleOp"> {
  let summary = "Report scf.for/scf.parallel/scf.forall steps below 1 and induction variables that would wrap, and run no iteration instead of never ending";
  let description = [{
    A loop's step must be positive; upstream a step of 0 or a negative one
    is undefined, and compiled the loop never ended (a step from the data
    hung `attic-run`). For every `scf.for`, `scf.parallel` and
    `scf.forall` of the function's own code whose step is not a positive
    constant (a static `scf.forall` step of 0 verifies too), this pass
    checks the step before the loop: below 1 (for an unsigned `scf.for`,
    0), it calls the runtime's `attic_rt_report_error` with
    `ATTIC_RT_LOOP_STEP` (the loop's line, the dimension, the step), and
    the loop runs with step 1 and its upper bound set to its lower bound,
    so no iteration (its results are its initial values; an `scf.forall`
    is rebuilt with the checked steps and bounds). The run then
    fails with `scf loop at line L: the step S of dimension D is not
    positive`. Loops inside attic ops are left alone. Both pipelines run
    it first, after `attic-guard-integer-division`.

    An `scf.for` (or a dimension of an `scf.parallel` or `scf.forall`,
    which become `scf.for` loops in sequential code) whose induction
    variable may wrap around its type before
    it reaches the upper bound (its last value below the bound plus the
    step past the type's largest value, signed or unsigned as the loop
    compares; index is 64 bits) is checked too, unless the step is 1 or
    the upper bound and the step are constants that rule it out: the
    compiled loop compares with the upper bound only, so it went on from
    the smallest value (a hang, or 103 iterations of an i8 loop from 120
    to 125 by 10). Where it would wrap, `ATTIC_RT_LOOP_WRAP` is reported
    (the line, the dimension, the upper bound, the step) and the loop runs
    no iteration: `scf loop at line L: the induction variable of dimension
    D would wrap around its type before reaching the upper bound U (step
    S; ...)`.

    ```mlir
    scf.for %i = %lb to %ub step %s { ... }
    // becomes
    %bad = arith.cmpi sle, %s, %c0 : index
    scf.if %bad {
      // attic_rt_report_error(11, line * 64 + 0, %s, 0)
    }
    %step = arith.select %bad, %c1, %s : index
    %end = arith.select %bad, %lb, %ub : index
    scf.for %i = %lb to %end step %step { ... } {attic.step_checked}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect"];
}

def AtticOrderConstantGlobals
    : Pass<"attic-order-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Name and order bufferization's constant globals deterministically";
  let description = [{
    Upstream's `one-shot-bufferize` with `bufferize-function-boundaries`
    turns each constant tensor into a private `memref.global` named
    `__constant_<type>` (a numeric suffix for repeats), but in MLIR 22 the
    order in which it names and places them changes from run to run when
    several functions hold constants: the same input gave different output
    text and different `attic-compile` libraries (same results). This pass,
    right after bufferization in both pipelines, renames every private
    constant global whose name starts with `__constant_` to
    `__constant_<shape>x<element>`, then `_1`, `_2`, ... for repeats of a
    type, numbered in the order of their first use in the module (a walk in
    op order; unused ones after them, by their old names), and moves them
    in that order to the front of the module. Nothing else changes.

    ```mlir
    // Before (one of several orders):
    memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<[5.0, ...]>
    memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.0, ...]>
    // After: @__constant_4xf32 holds f1's [1.0, ...], @__constant_4xf32_1
    // f2's [5.0, ...], whatever the order before.
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def AtticGpuStripCompileTimes
    : Pass<"attic-gpu-strip-compile-times", "::mlir::ModuleOp"> {
  let summary = "Drop the compile times that gpu-module-to-binary records";
  let description = [{
    Upstream's `gpu-module-to-binary` records how long each step took in
    the properties of the `#gpu.object`s it makes (`LLVMIRToISATimeInMs`,
    `ISAToBinaryTimeInMs`): a wall-clock time, different from run to run.
    This pass, last in `attic-cuda-pipeline`, removes every property whose
    name ends in `TimeInMs`, so that the pipeline's output is the same for
    the same input (what lit tests and caches compare). Other properties
    (`O`) and the objects themselves are kept.
  }];
}

def AtticGpuCheckLibdevice
    : Pass<"attic-gpu-check-libdevice", "::mlir::ModuleOp"> {
  let summary = "Refuse kernels that call libdevice when the toolkit has none";
  let description = [{
    `convert-gpu-to-nvvm` lowers math ops without an NVVM instruction
    (`math.exp`, `math.tanh`, `arith.maxnumf` in the element-wise and
    thread-per-row kernels) to calls of libdevice's `__nv_*` functions,
    which `gpu-module-to-binary` links from
    `TOOLKIT/nvvm/libdevice/libdevice.10.bc`. Without that file upstream
    reports an error but the pass succeeds: the PTX it writes names
    functions nothing defines, ptxas and the driver refuse it, and
    `attic-opt` exited 0. This pass, right before `gpu-module-to-binary` in
    `attic-cuda-pipeline`, reports each kernel module that declares a
    `__nv_*` function when the file is missing, naming the functions and
    the path. Kernels without such calls (the tensor-core kernel) compile
    without a toolkit.

    It also refuses conversions between floats and integers wider than 64
    bits in kernels (`llvm.sitofp`, `uitofp`, `fptosi`, `fptoui`; from
    `arith` ops on i128, or attic-exact-bf16-conversions' rounding of
    them): NVPTX lowers them to compiler-rt calls it does not have, and
    LLVM aborted the process ("unsupported library call operation").
  }];
  let options = [
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"/usr/local/cuda\"",
           "The CUDA toolkit whose nvvm/libdevice/libdevice.10.bc is linked">,
  ];
}

def AtticGpuCheckHost : Pass<"attic-gpu-check-host", "::mlir::ModuleOp"> {
  let summary = "Reject host code that would compute on the CPU in a CUDA build";
  let description = [{
    After `attic-gpu-offload` and `attic-gpu-map-tiles`, the host code of a
    CUDA build may only move data and keep books: function structure and
    calls, `gpu` ops, memref allocation, views and metadata, loads and
    stores of host stack buffers (the offload's error record), `scf.if`
    and `scf.for`, constants, and integer/index arithmetic. Anything else
    (a float op, a load of a device buffer, a leftover `scf.parallel`)
    would run on the CPU, on device memory, and is an error naming the op.
    Kernels (`gpu.launch` bodies, `gpu.module`) are not checked here.
    Part of `attic-cuda-pipeline`.
  }];
}

def AtticGpuFuseLaunches : Pass<"attic-gpu-fuse-launches", "::mlir::ModuleOp"> {
  let summary = "Join independent kernels of attic-gpu-offload into one launch, each level of the dependence graph";
  let description = [{
    `attic-gpu-offload` makes each loop nest its own `gpu.launch`.
    `scf-parallel-loop-fusion` already joined the loops over one iteration
    space that feed each other element by element; the neighbours left are
    over different iteration spaces, and many are independent (in a VCC
    layer, the scores of one tree level and the sums of another). This pass
    joins each run of consecutive launches of `attic-gpu-offload`'s form (a
    1-D grid of 1-D blocks of one size, each on its own token chain, only
    effect-free host ops between them) that touch no common buffer where
    one of them writes, into one launch whose grid is the sum of their
    grids: block `b` runs the first body while `b` is below the first grid,
    the second body with `b` minus that grid, and so on. Every block takes
    one branch as a whole, so barriers stay legal, and the bodies are
    unchanged. The buffers come from the memory effects of the bodies' ops,
    traced through view ops to their `gpu.alloc`; a kernel that touches a
    buffer of another origin (which may alias), or has an effect on no
    value, is not joined. Part of the GPU mapping (`attic-cuda-pipeline`
    and the emulation), after `attic-gpu-offload`.

    Before joining, steps move down so that the neighbours are the levels
    of the dependence graph rather than the program order (which
    interleaves dependent steps: A1 B1 A2 B2, where B reads what A writes,
    becomes A1 A2 | B1 B2, two launches instead of A1 | B1 A2 | B2). A
    step's height is 0 when no later step depends on it, else one more
    than the highest later step that does; steps of one height never
    conflict. From the
    last step to the first, a step moves to the farthest place on its way
    down right below a step of its block size and height (or, when it has
    no partner where it is, of any height), past steps and host ops that
    it commutes with: no buffer that one writes and the other touches,
    host memory (function arguments, `memref.alloc`/`alloca`) never
    counting as a device buffer, allocations and waits free to pass. It
    stops at a copy of its buffers, a dealloc of one, or an op of unknown
    effect. A step has no result but the token of its own wait, so the
    moves keep the IR valid. If the moves would leave more launches than
    the original order, the original order stays. `levels=false` joins
    only the neighbours of the program order.

    Example: `attic-opt --attic-gpu-fuse-launches` makes

    ```mlir
    %t0 = gpu.wait async
    %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %n, ...)
        threads(...) in (%sx = %c256, ...) { ... writes %a ... }
    gpu.wait [%t1]
    %s0 = gpu.wait async
    %s1 = gpu.launch async [%s0] blocks(...) in (%gx2 = %m, ...)
        threads(...) in (%sx2 = %c256, ...) { ... writes %b ... }
    gpu.wait [%s1]
    ```

    one launch of `%n + %m` blocks whose body is `scf.if %bx < %n { first
    body } else { second body with %bx - %n }`.
  }];
  let options = [
    Option<"levels", "levels", "bool", /*default=*/"true",
           "Move kernels down to the levels of their dependence graph "
           "before joining (false: join only neighbours in program order)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def AtticGpuMergeChains : Pass<"attic-gpu-merge-chains", "::mlir::ModuleOp"> {
  let summary = "Run a function's consecutive GPU steps on one stream, synchronizing only where the host needs their results";
  let description = [{
    `attic-gpu-offload` gives every step (an allocation, a copy, a kernel, a
    free) a token chain of its own: `%t0 = gpu.wait async`, the step, and a
    blocking `gpu.wait [%t]`. `gpu-to-llvm` lowers each chain to a stream
    that is created, synchronized and destroyed, so the host waits for every
    kernel before it launches the next (a VCC layer is about 80 such steps).

    This pass joins a chain to the one before it when nothing between the
    first chain's blocking `gpu.wait` and the second chain's
    `gpu.wait async` needs the device's work to be done: the blocking wait
    and the new chain's start are erased, and the second chain continues
    from the first one's token. The ops allowed in between are the ones
    without memory effects (constants, index arithmetic, `memref.dim`,
    views) and fresh allocations (`memref.alloc`, `memref.alloca`: a buffer
    no pending step can use). A load or store on the host, a call, a
    `func.return`, an op with regions that has memory effects, a chain end
    with several tokens or a chain start with dependencies keeps the
    blocking wait. Chains are joined only within one block.

    The result of a function straight from `attic-gpu-offload` is one
    chain from the first copy to the copies of the results (the host waits
    once, before it reads the error record or returns). Kernels and copies
    stay in program order (one stream); `gpu.dealloc` in the middle of a
    chain is `mgpuMemFree` on that stream, which attic's runtime makes a
    stream-ordered `cuMemFreeAsync` (for buffers from `cuMemAllocAsync`, on
    devices with memory pools): the memory is released after the work
    enqueued before it, so no kernel reads freed memory and the host does
    not wait. Elsewhere it is `cuMemFree`, which waits for the device.

    Part of `attic-cuda-pipeline` (after `attic-gpu-check-host`; its
    `merge-chains=false` leaves one stream per step, for A/B timing), so
    the GPU simulator runs its output and checks that the host never reads
    a buffer a pending copy writes, that no token of a synchronized
    (destroyed) stream is used again, and that no stream is left live at
    the function's return.

    Example:

    ```mlir
    %t0 = gpu.wait async
    %t1 = gpu.launch async [%t0] blocks(...) threads(...) { ... }
    gpu.wait [%t1]
    %h = memref.alloc() : memref<4xf32>
    %u0 = gpu.wait async
    %u1 = gpu.memcpy async [%u0] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%u1]
    // becomes
    %t0 = gpu.wait async
    %t1 = gpu.launch async [%t0] blocks(...) threads(...) { ... }
    %h = memref.alloc() : memref<4xf32>
    %u1 = gpu.memcpy async [%t1] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%u1]
    ```
  }];
}

def AtticGpuCheckStreams : Pass<"attic-gpu-check-streams", "::mlir::ModuleOp"> {
  let summary = "Check that a host function's GPU steps that share a buffer are ordered by their streams, events or blocking waits";
  let description = [{
    A static check of the host code of `func.func` ops (not of kernels):
    on a GPU, steps on different streams run at the same time, while the
    emulated and simulated CUDA targets run them in the order they are
    issued, so a missing order shows only on a GPU. Streams are those of
    `gpu-to-llvm`: `gpu.wait async` creates one (with dependencies, it
    waits for events recorded after each dependency's op); an async op runs
    on its dependency's stream, after everything issued there before it,
    and its token names that stream; a blocking `gpu.wait [%t, ...]`
    synchronizes and destroys the stream of each token. The pass reports
    the first of these in each function, as an error at the later op with
    a note at the earlier one:

    - two async steps (`gpu.alloc`, `gpu.memcpy`, `gpu.memset`,
      `gpu.launch`, `gpu.launch_func`, `gpu.dealloc`, ...) that use one
      buffer, one of them writing it, on two streams that no event or
      blocking wait orders;
    - a host op that uses a buffer (a load or store, a call, `memref.copy`,
      a linalg op, `func.return` of it, a synchronous GPU op) while a step
      that uses it, one of them writing, may be pending;
    - a token of a stream that a blocking wait destroyed (also another
      token of it, or the same stream twice in one wait);
    - a `func.return` while a step may be pending, or while a stream the
      function created is live (a join leaves its dependencies' streams
      live);
    - forms that `gpu-to-llvm` does not lower as streams: a token passed
      through a region's results or arguments, taken as a function
      argument, or made by an op outside the `gpu` dialect (MLIR 22 lowers
      it as an event, so a wait on it synchronizes the wrong object); a
      join inside a loop on a token from outside it (the event is recorded
      once and destroyed in the first iteration); and, left unconverted, a
      step other than `gpu.wait async` with several dependencies, one with
      none (a kernel launch without one starts a stream, as `gpu.wait
      async` does), and an op with dependencies but no token.

    A buffer is a function argument, a `gpu.alloc`, `memref.alloc`,
    `alloca` or `get_global` result (one per global), joined with what
    may be it: views, casts, selects, TMA descriptors, the results and
    iteration arguments of regions (a loop's initial, iteration, yielded
    and result values all one). Distinct arguments are taken not to
    alias. A kernel reads a buffer from above its body when every use there
    is a declared read (through views and selects); any other use, and an
    op of unknown effects, writes it. `gpu.launch_func`, frees and memsets
    write all their buffers.

    Host control flow: an `scf.if` or `scf.index_switch` is checked path by
    path (and `affine.if`), `scf.execute_region` and `memref.alloca_scope` once, `scf.for`,
    `scf.while` and other ops with regions as two iterations in a row
    joined with the path that skips them, `scf.parallel` and `scf.forall`
    as two iterations at the same time (the buffers an iteration allocates
    and joins with no other buffer its own); after an op with regions, a step
    is done when every path finishes it. A function with several blocks
    (unstructured control flow) is not checked: a warning says so.

    Part of `attic-cuda-pipeline` (after `attic-gpu-merge-chains`) and of
    the emulated and simulated CUDA targets (before their kernels run on
    the CPU): an error there is a defect of attic's GPU mapping, and the
    program is not compiled rather than racing on the GPU.

    Example: the second kernel writes `%d` on a stream of its own while
    the first may still read it:

    ```mlir
    %t0 = gpu.wait async
    %t1 = gpu.launch async [%t0] blocks(...) threads(...) { ... reads %d ... }
    %u0 = gpu.wait async
    // error: 'gpu.launch' op may run on the GPU at the same time as an
    // earlier 'gpu.launch': both use argument #0, ...
    %u1 = gpu.launch async [%u0] blocks(...) threads(...) { ... writes %d ... }
    ```
  }];
}

def AtticGpuAnnotateKernels : Pass<"attic-gpu-annotate-kernels", "::mlir::ModuleOp"> {
  let summary = "Give every GPU kernel nvvm.minctasm = 1 (one block per SM at least), 16-byte aligned shared memory and its constant arguments as constants";
  let description = [{
    Sets `nvvm.minctasm = 1` (PTX `.minnctapersm 1`) on every `gpu.func`
    kernel that has none. With 128 threads and `.maxntid` alone, ptxas
    targets 3 blocks per SM on sm_80 (at most 168 registers per thread)
    and spills the D = 128 tensor-core kernel; one block per SM lets it
    use the registers it needs without spills.

    Sets `llvm.align = 16` on every workgroup attribution (shared memory)
    of a kernel that has none: the GPU-to-NVVM lowering otherwise aligns
    a buffer to its element type only (`.shared .align 2` for f16), and
    the tensor-core kernel's `ldmatrix` reads rows that must start on 16
    bytes.

    Passes every TMA tensor map (`!nvgpu.tensormap.descriptor`) that a
    kernel takes as an argument as the `!llvm.ptr` that
    `convert-nvgpu-to-nvvm` makes of it on the host, cast back at the
    kernel's entry (`convert-gpu-to-nvvm` does not convert an argument of
    the descriptor type). The tensor-core kernel writes these casts
    itself; this is for the kernels where a canonicalization before
    outlining folded them.

    Makes every kernel argument that all of the kernel's launches pass the
    same constant (an op without operands that folds to an attribute:
    `arith.constant` of any type) that constant inside the kernel, and
    drops it from the kernel and its launches. A canonicalization before
    outlining hoists the constants of a `gpu.launch` body into the host
    function (`gpu.launch` is not isolated from above) and
    `gpu-kernel-outlining` passes each as an argument: the NVPTX back end
    then did not see the trip counts of the key loops (a TMA producer's
    loop stayed rolled) nor the divisors it could fold (the dense f16
    D = 64 wgmma+TMA kernel took 93 parameters instead of 29). The
    default pipeline's kernels receive the tensor sizes of static shapes
    this way too, and are specialized on them as well: in
    `test/Conversion/Inputs/cuda_configs.mlir` ptxas reports as many or
    fewer registers for 34 of the 36 kernels of four configurations (2
    more for the two D = 64 causal ones with wgmma overlap) and no
    spills. An argument that the
    launches pass different constants or computed values stays.

    What the host computes from constants counts as a constant: the pure
    `arith` ops whose operands are all constants (and `memref.dim` of a
    static size) are folded, without rewriting the host code. The mapping
    passes build a grid's size and the check that it is not empty so, and
    outlining passes them on unfolded: the default pipeline's tensor-core
    kernels took that check as an `i1` argument that guarded their whole
    body, and read their grid size from `%nctaid`. When every launch of a
    kernel has the same grid (block) sizes, constants or folded, the
    kernel gets `known_grid_size` (`known_block_size`) where outlining set
    none, and its `gpu.grid_dim` (`gpu.block_dim`) ops become those
    constants. All of this is part of the inlining (off with
    `inline-constants=false`).

    Part of `attic-cuda-pipeline`, after kernel outlining.

    Example:

    ```mlir
    gpu.func @k() workgroup(%s : memref<8xf16, #gpu.address_space<workgroup>>) kernel
    // becomes
    gpu.func @k() workgroup(%s : memref<8xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
        kernel attributes {nvvm.minctasm = 1 : i32}
    ```
  }];
  let options = [
    Option<"inlineConstants", "inline-constants", "bool", /*default=*/"true",
           "Make kernel arguments that every launch passes the same "
           "constant constants in the kernel (false: leave them arguments, "
           "for A/B timing)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def AtticGpuDedupKernels : Pass<"attic-gpu-dedup-kernels", "::mlir::ModuleOp"> {
  let summary = "Keep one of each set of identical outlined kernel modules";
  let description = [{
    `gpu-kernel-outlining` gives every `gpu.launch` a `gpu.module` of its
    own, and code that repeats a computation (a stack of VCC layers, the
    same projection per layer) launches many kernels that differ only in
    their module's name. Each module is compiled on its own (LLVM's NVPTX
    back end, then a ptxas process for a cubin) and loaded on its own at
    run time.

    This pass compares the kernel modules' contents (their target
    attributes and the text of every op in them, printed in a local scope
    without locations) and keeps the first module of each set of equal
    ones: the `gpu.launch_func` ops of the others (every reference to them)
    name the kept module instead, and they are erased. Identical text is
    identical semantics, so nothing else changes; modules that differ in
    anything (a constant, a memref layout, a static offset) stay apart.

    Part of `attic-cuda-pipeline`, after kernel outlining. On the
    16-layer VCC encoder (`attic-gen vcc-encoder --layers=16`) it leaves
    201 of 431 modules (then attic-gpu-merge-kernel-modules makes them one)
    (docs/cuda.md).

    Example:

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel { ... } }
    gpu.module @f_kernel_0 { gpu.func @f_kernel(...) kernel { ... } }  // same ops
    gpu.launch_func @f_kernel_0::@f_kernel ...
    // becomes
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel { ... } }
    gpu.launch_func @f_kernel::@f_kernel ...
    ```
  }];
}

def AtticGpuMergeKernelModules
    : Pass<"attic-gpu-merge-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "Move the outlined kernels into one gpu.module (one per set of equal module attributes)";
  let description = [{
    `gpu-kernel-outlining` puts every kernel in a `gpu.module` of its own,
    and `gpu-module-to-binary` compiles each module on its own: one run of
    LLVM's NVPTX back end and, for a cubin, one ptxas process per kernel.
    This pass moves the kernels of all modules with equal attributes
    (targets, offloading handler) into the first of them, so that they
    are compiled, and loaded at run time, together.

    A kernel moved from module `@m` is renamed `@m` (module names are
    unique; where `@m` holds several kernels, `@m_<kernel>`), and any
    other symbol of `@m` whose name the destination already has gets a
    unique name, with its uses in `@m`. Every `gpu.launch_func @m::@k`
    (every reference to a moved symbol) then names `@dest::@new`. The
    kernels' code and launches are otherwise unchanged; ptxas allocates
    registers per entry function, as before.

    Part of `attic-cuda-pipeline`, after `attic-gpu-dedup-kernels`
    (bench/results/cuda/compile-time-kernel-modules.md).

    Example:

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel { ... } }
    gpu.module @f_kernel_0 { gpu.func @f_kernel(...) kernel { ... } }
    gpu.launch_func @f_kernel_0::@f_kernel ...
    // becomes
    gpu.module @f_kernel {
      gpu.func @f_kernel(...) kernel { ... }
      gpu.func @f_kernel_0(...) kernel { ... }
    }
    gpu.launch_func @f_kernel::@f_kernel_0 ...
    ```
  }];
}

def AtticNvvmExternDynamicShared
    : Pass<"attic-nvvm-extern-dynamic-shared", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare the dynamic shared memory symbol of MLIR's GPU-to-NVVM lowering as PTX's `.extern .shared` array";
  let description = [{
    MLIR 22 lowers `gpu.dynamic_shared_memory` to the address of an
    *internal* zero-length array in address space 3
    (`llvm.mlir.global internal @__dynamic_shmem__N`). The NVPTX backend
    prints that as a static shared variable of its own
    (`.shared .align 16 .b8 __dynamic_shmem__0;`, 16 bytes that ptxas
    places among the kernel's other static shared variables), so a kernel
    with static shared memory as well would address its dynamic buffer
    over them. CUDA's dynamic shared memory is an unsized `.extern
    .shared` array, which the driver places after all static shared
    memory. This pass gives every zero-length array global in address
    space 3 of a `gpu.module` external linkage, which the NVPTX backend
    prints as `.extern .shared .align 16 .b8 __dynamic_shmem__0[];`.

    Part of `attic-cuda-pipeline`, on each `gpu.module` after
    `convert-gpu-to-nvvm`.

    Example:

    ```mlir
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // becomes
    llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // ATTIC_PASSES_TD
