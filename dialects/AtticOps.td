//===- AtticOps.td - attic operations ----------------------*- tablegen -*-===//

#ifndef ATTIC_OPS_TD
#define ATTIC_OPS_TD

include "AtticDialect.td"
include "AtticLayouts.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"

def Attic_AttentionElement : AnyTypeOf<[F32, F16, BF16]>;
def Attic_Tensor4D : RankedTensorOf<[F32, F16, BF16]>;
// The optional operands' constraints name the operand: ODS's message
// numbers it only ("operand #3 must be ranked tensor of ..."), and its
// number depends on which optional operands precede it (an audit).
def Attic_KeyBias : RankedTensorOf<[F32, F16, BF16], [],
                                   "the key bias, a ranked tensor">;
def Attic_KeyMask : RankedTensorOf<[I1], [], "the key mask, a ranked tensor">;
def Attic_IndexTensor : RankedTensorOf<[I32], [],
                                       "a block list, a ranked tensor">;
def Attic_LayoutOperand : AnyTypeOf<[RankedTensorOf<[AnyType]>, MemRefOf<[AnyType]>]>;
def Attic_Capture : AnyTypeOf<[RankedTensorOf<[AnySignlessInteger, Index, F32, F16, BF16, F64]>,
                               MemRefOf<[AnySignlessInteger, Index, F32, F16, BF16, F64]>],
    "ranked tensor or memref of signless integers, index, f16, bf16, f32 or f64">;

//===----------------------------------------------------------------------===//
// L1: attic.attention
//===----------------------------------------------------------------------===//

def Attic_AttentionOp : Attic_Op<"attention", [Pure, AttrSizedOperandSegments,
    IsolatedFromAbove]> {
  let summary = "softmax attention (scaled dot product) over an iteration layout";
  let description = [{
    Computes, for every batch `b`, query head `h` and query `i`,

    ```
    logit[j] = scale * dot(query[b,h,i,:], key[b,hk,j,:]) + key_bias[b,(h,)j]
    result[b,h,i,:] = sum_j softmax(logit)[j] * value[b,hk,j,:]
    ```

    over the keys `j` that are visible: `key_mask[b,j]` is true (when the
    mask is given), the `layout` visits `(i, j)` (default `#attic.dense`;
    `causal` intersects it with `#attic.causal`, top-left aligned as
    PyTorch SDPA's `is_causal`), the block lists allow it (below), and the
    bias is not `-inf`. A query row with no visible key yields 0, never
    NaN. Without a bias, key mask or score region, a row whose visible
    logits all overflow f32 to `-inf` (finite inputs, a huge scale) yields
    NaN, not 0 (docs/layouts.md, NaN policy).

    Operands: `query` is `[B,Hq,Nq,D]`, `key` is `[B,Hkv,Nk,D]`, `value` is
    `[B,Hkv,Nk,Dv]`; the query and key lengths may differ and so may `D` and
    `Dv`. Grouped-query (and multi-query) attention: `Hq` is a multiple of
    `Hkv`, and query head `h` reads key/value head `hk = h / (Hq / Hkv)`.
    Query, key and value share one element type (f32, f16 or bf16), which
    is also the result's; the result is `[B,Hq,Nq,Dv]`. The optional
    additive key bias is `[B,Nk]` or `[B,Hq,Nk]` of f32, f16 or bf16; the
    optional key padding mask is `[B,Nk]` of i1. `scale` defaults to
    `1/sqrt(D)`; where D is dynamic or 0 there is no default and `scale` must
    be given (the verifier runs on the IR as written, before attic-run or
    attic-compile specialize the shapes). Logits, the softmax statistics and the accumulation are f32
    whatever the element type. Dimensions may be dynamic; those that are
    static must agree.

    `layout` is any attribute of `LayoutAttrInterface` (AtticLayouts.td:
    dense, causal, window, dilated, strided, fixed, global, sinks,
    documents, random, and their intersections and unions); the tensors it
    reads (document ids) are the `layout_operands`, named by position.

    Block lists (FlexAttention's BlockMask) are optional: with `blocks`,
    queries and keys are grouped into blocks of `block_sizes = [bq, bk]`
    (each in `[1, 1024]`),
    and key `j` is visible to query `i` only if the key block of `j` is in
    the query block's full list, or it is in its partial list and the
    layout (and the mask region) visit `(i, j)`. See `attic.block_mask`,
    which computes them. Without block lists, `block_sizes` are the tile
    sizes that `attic-decompose` gives the `attic.block_attention` (default:
    the pass's options), for a producer that knows its layout's blocks.

    Modifier regions (FlexAttention's mask_mod and score_mod; see
    docs/patterns.md): the optional `mask` region decides whether key `k`
    is visible to query `q` of batch `b` and query head `h`; it is
    intersected with the layout. The optional `score` region rewrites each
    visible logit before the key bias is added:

    ```
    logit[j] = score(scale * dot(query[b,h,i,:], key[b,hk,j,:]), b, h, i, j)
               + key_bias[b,(h,)j]
    ```

    A score of `-inf` hides the key. The regions read the `captures` (ranked
    tensors: a bias table, document ids, per-head slopes, lengths) through
    their trailing block arguments:

    ```
    mask  ^bb0(%b: index, %h: index, %q: index, %k: index, %c0: T0, ...):
            ... attic.yield %visible : i1
    score ^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index,
               %c0: T0, ...):
            ... attic.yield %new_score : f32
    ```

    They hold arith ops and math's float functions (those every target
    evaluates; docs/patterns.md lists them) on scalars, `tensor.extract` (or, in
    the memref form, `memref.load`) of the captures and `tensor.dim`
    (`memref.dim`) of a capture at a constant dimension below its rank,
    and are evaluated on
    every (b, h, q, k) of `[0,B) x [0,Hq) x [0,Nq) x [0,Nk)` that the
    compiled code visits, so every index they read must be inside the
    capture for all of them (a read outside is a run-time error, never an
    out-of-bounds access). A score region's read indices must not be
    computed from the score: the check before the kernel visits every
    (b, h, q, k) but cannot enumerate scores. Mask regions whose predicate is (piecewise)
    affine in q and k are classified per block by the compiler (interval
    arithmetic over the block's index ranges); others are classified at run
    time by an `attic.block_mask` that `attic-decompose` puts in front.

    Example:

    ```mlir
    %o = attic.attention %q, %k, %v scale 0.125
        layout(#attic.intersect<[#attic.causal, #attic.window<left = 255, right = 0>]>)
        bias(%b : tensor<1x4096xf32>) mask(%m : tensor<1x4096xi1>)
        : tensor<1x8x4096x64xf16>, tensor<1x2x4096x64xf16>,
          tensor<1x2x4096x64xf16> -> tensor<1x8x4096x64xf16>
    ```

    Lowering: `attic-decompose` rewrites it into `attic.block_attention`
    (flash-style tiled online softmax; an Nq x Nk matrix is never built),
    with an `attic.block_mask` in front when the layout is data-dependent
    or irregular.
  }];
  let arguments = (ins
    Attic_Tensor4D:$query,
    Attic_Tensor4D:$key,
    Attic_Tensor4D:$value,
    Optional<Attic_KeyBias>:$key_bias,
    Optional<Attic_KeyMask>:$key_mask,
    Variadic<Attic_LayoutOperand>:$layout_operands,
    Variadic<Attic_Capture>:$captures,
    Optional<Attic_IndexTensor>:$kv_num_blocks,
    Optional<Attic_IndexTensor>:$kv_indices,
    Optional<Attic_IndexTensor>:$full_kv_num_blocks,
    Optional<Attic_IndexTensor>:$full_kv_indices,
    UnitAttr:$causal,
    OptionalAttr<F32Attr>:$scale,
    OptionalAttr<Attic_AnyLayoutAttr>:$layout,
    OptionalAttr<DenseI64ArrayAttr>:$block_sizes
  );
  let regions = (region MaxSizedRegion<1>:$mask_region,
                        MaxSizedRegion<1>:$score_region);
  let results = (outs Attic_Tensor4D:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`causal` $causal^)? (`scale` $scale^)?
    (`layout` `(` $layout^ `)`)?
    (`layout_operands` `(` $layout_operands^ `:` type($layout_operands) `)`)?
    (`bias` `(` $key_bias^ `:` type($key_bias) `)`)?
    (`mask` `(` $key_mask^ `:` type($key_mask) `)`)?
    (`blocks` `(` $kv_num_blocks^ `,` $kv_indices `,` $full_kv_num_blocks `,`
        $full_kv_indices `:` type($kv_num_blocks) `,` type($kv_indices) `,`
        type($full_kv_num_blocks) `,` type($full_kv_indices) `)`)?
    (`block_sizes` $block_sizes^)?
    (`captures` `(` $captures^ `:` type($captures) `)`)?
    (`mask_mod` custom<ModifierRegion>($mask_region)^)? (`score_mod` custom<ModifierRegion>($score_region)^)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "kKeywordAttrNames")
    `:` type($query) `,` type($key) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The attributes written with keywords (custom<KeywordAttrs>).
    static constexpr ::llvm::StringLiteral kKeywordAttrNames[] = {
        "causal", "scale", "layout", "block_sizes"};
    /// The scale in effect: the attribute, or 1/sqrt(D) when it is absent.
    /// Fails when it is absent and D is dynamic.
    ::mlir::FailureOr<float> getEffectiveScale();
    /// The layout in effect: `layout` (default dense), intersected with
    /// #attic.causal when `causal` is set.
    ::attic::LayoutAttrInterface getEffectiveLayout();
    /// The [block_q, block_k] that attic-decompose tiles with: `block_sizes`
    /// when present, else the given defaults.
    std::pair<int64_t, int64_t> getTileSizesOr(int64_t blockQ, int64_t blockK) {
      if (std::optional<::llvm::ArrayRef<int64_t>> sizes = getBlockSizes())
        return {(*sizes)[0], (*sizes)[1]};
      return {blockQ, blockK};
    }
  }];
}

//===----------------------------------------------------------------------===//
// L2: attic.block_attention
//===----------------------------------------------------------------------===//

def Attic_ShapedOperand : AnyTypeOf<[RankedTensorOf<[AnyType]>, MemRefOf<[AnyType]>]>;

def Attic_BlockAttentionOp : Attic_Op<"block_attention", [
    AttrSizedOperandSegments, IsolatedFromAbove,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<RegionBranchOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface]> {
  let summary = "tiled online-softmax attention over an iteration layout";
  let description = [{
    The core op of layer L2. It has the semantics of `attic.attention` with
    an explicit `scale` and `layout`, and it says how the work is tiled:
    queries are taken in blocks of `block_q` rows and keys in blocks of
    `block_k` rows (each in `[1, 1024]`), each (query block, key block) pair that the layout
    visits is processed with an online (flash-style) softmax whose running
    maximum, running sum and accumulator are f32, so no `Nq x Nk` matrix is
    ever materialized.

    Which pairs: a layout answers, per pair of blocks, skip (never loaded),
    full (every element visible; the element predicate is not evaluated)
    or partial (the predicate masks elements). Static layouts are
    classified by the IR the layout emits; with block lists
    (`blocks(...)`, as produced by `attic.block_mask`), the key blocks of
    query block `qb` of batch `b` and head `h` are
    `full_kv_indices[b,h,qb,0:full_kv_num_blocks[b,h,qb]]` (full) and
    `kv_indices[b,h,qb,0:kv_num_blocks[b,h,qb]]` (partial); the lists are
    `[B',H',ceil(Nq/block_q)]` and `[B',H',ceil(Nq/block_q),L]` of i32 with
    `B'` 1 or B and `H'` 1 or Hq (1: the same lists for all). Indices
    outside `[0, ceil(Nk/block_k))` and counts above `L` are reported to
    the runtime as errors (`attic_rt_report_error`) and skipped, never
    read out of bounds.

    Grouped-query attention: `key` and `value` may have `Hkv` heads with
    `Hq` a multiple of `Hkv`.

    The op is in destination-passing style: `init` (`[B,Hq,Nq,Dv]`, element
    type of `value`) is the destination. On tensors it returns the result; on
    memrefs (after one-shot bufferization) it writes `init` and has no
    result. The additive `key_bias` (`[B,Nk]` or `[B,Hq,Nk]`) and the i1
    `key_mask` (`[B,Nk]`) are optional score modifiers applied per key.

    With the optional second destination `lse` (`[B,Hq,Nq]` of f32), the op
    also writes each query row's log-sum-exp of its visible logits,
    `lse[b,h,i] = log(sum_j exp(logit[j]))` (natural log, the logits after
    the scale, the score region and the bias), and `-inf` for a row with no
    visible key; it is at least `-FLT_MAX * ln 2` (about -2.3587e38, the
    base-2 logits' floor: a row whose visible keys all have a bias below
    that has that lse, docs/layouts.md). It is what merges attention over disjoint or repeated key
    sets (the rounds of LSH attention, split-KV decoding):
    `o = sum_r exp(lse_r - lse) o_r` with `lse = log(sum_r exp(lse_r))`. On
    tensors the op then has two results, the output and the lse.

    With `pool(%weights : ... into %pool : ...)`, weights `[B,Nq]` of f32
    and the destination `%pool` (`[B,Hq,ceil(Nq/block_q),Dv]` of f32), the
    op also writes, for each
    query block `qb`, the weighted sum of its result rows (as stored, i.e.
    rounded to the result's element type):
    `pool[b,h,qb,:] = sum_{i in block qb} weights[b,i] * result[b,h,i,:]`,
    summed in ascending `i`. It is an epilogue of the tile loop (each
    query block is pooled when it is finished, while its rows are in
    cache), not a pass over the result: the masked slice means of
    `attic.slice_attention` (weights `m_i / max(1, sum m)`) are this with
    `block_q = L`. On tensors it is the last result.

    The `mask` and `score` regions and their `captures` are those of
    `attic.attention`: the mask region is evaluated only in partial blocks
    (with the layout's predicate), the score region on every element of a
    visited block. Without block lists, a block pair is skipped, full or
    partial by the intersection of the layout's classification and the mask
    region's (interval arithmetic over the block's index ranges).

    In the memref form the regions are functions: one-shot bufferization
    outlines each into a private `func.func` (its capture arguments become
    memrefs and its `tensor.extract`s `memref.load`s) named by `mask_fn` /
    `score_fn`, because upstream's buffer deallocation does not accept ops
    with regions on buffers. A memref-form op has no regions; a tensor-form
    op has no functions.

    Example:

    ```mlir
    %r = attic.block_attention
        ins(%q, %k, %v : tensor<1x4x256x64xf32>, tensor<1x4x256x64xf32>,
                         tensor<1x4x256x64xf32>)
        outs(%init : tensor<1x4x256x64xf32>)
        {layout = #attic.causal, scale = 0.125 : f32,
         block_q = 64 : i64, block_k = 64 : i64} -> tensor<1x4x256x64xf32>
    ```

    Lowering: `attic-tile-block-attention` turns the memref form into the
    target-independent tile loop (attic.tile ops), which
    `attic-cpu-map-tiles` and `attic-gpu-map-tiles` map onto a target.
  }];
  let arguments = (ins
    Attic_ShapedOperand:$query,
    Attic_ShapedOperand:$key,
    Attic_ShapedOperand:$value,
    Optional<Attic_ShapedOperand>:$key_bias,
    Optional<Attic_ShapedOperand>:$key_mask,
    Variadic<Attic_ShapedOperand>:$layout_operands,
    Variadic<Attic_Capture>:$captures,
    Optional<Attic_ShapedOperand>:$kv_num_blocks,
    Optional<Attic_ShapedOperand>:$kv_indices,
    Optional<Attic_ShapedOperand>:$full_kv_num_blocks,
    Optional<Attic_ShapedOperand>:$full_kv_indices,
    Optional<Attic_ShapedOperand>:$pool_weights,
    Attic_ShapedOperand:$init,
    Optional<Attic_ShapedOperand>:$lse_init,
    Optional<Attic_ShapedOperand>:$pool_init,
    Attic_AnyLayoutAttr:$layout,
    F32Attr:$scale,
    ConfinedAttr<I64Attr, [IntPositive]>:$block_q,
    ConfinedAttr<I64Attr, [IntPositive]>:$block_k,
    OptionalAttr<FlatSymbolRefAttr>:$mask_fn,
    OptionalAttr<FlatSymbolRefAttr>:$score_fn
  );
  let regions = (region MaxSizedRegion<1>:$mask_region,
                        MaxSizedRegion<1>:$score_region);
  let results = (outs Variadic<RankedTensorOf<[AnyType]>>:$result);
  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,` type($value) `)`
    (`bias` `(` $key_bias^ `:` type($key_bias) `)`)?
    (`mask` `(` $key_mask^ `:` type($key_mask) `)`)?
    (`layout_operands` `(` $layout_operands^ `:` type($layout_operands) `)`)?
    (`blocks` `(` $kv_num_blocks^ `,` $kv_indices `,` $full_kv_num_blocks `,`
        $full_kv_indices `:` type($kv_num_blocks) `,` type($kv_indices) `,`
        type($full_kv_num_blocks) `,` type($full_kv_indices) `)`)?
    (`captures` `(` $captures^ `:` type($captures) `)`)?
    (`pool` `(` $pool_weights^ `:` type($pool_weights) `into` $pool_init `:`
        type($pool_init) `)`)?
    `outs` `(` $init `:` type($init)
        (`,` `lse` $lse_init^ `:` type($lse_init))? `)`
    (`mask_mod` custom<ModifierRegion>($mask_region)^)? (`score_mod` custom<ModifierRegion>($score_region)^)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "{}") (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The destinations: `init`, then `lse_init` and `pool_init` when they
    /// are given (the three operand segments are adjacent).
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(
          getOperation(), getInitMutable().getOperandNumber(),
          1 + (getLseInit() ? 1 : 0) + (getPoolInit() ? 1 : 0));
    }
    /// Whether runtime block lists decide which blocks are visited.
    bool hasBlockLists() { return static_cast<bool>(getKvNumBlocks()); }
    /// The mask (score) modifier: the region, or in the memref form the
    /// body of the outlined function; nullptr when there is none.
    ::mlir::Region *getMaskModifier();
    ::mlir::Region *getScoreModifier();
  }];
}

//===----------------------------------------------------------------------===//
// L2: attic.block_mask
//===----------------------------------------------------------------------===//

def Attic_BlockMaskOp : Attic_Op<"block_mask", [
    AttrSizedOperandSegments, IsolatedFromAbove,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<RegionBranchOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface]> {
  let summary = "run-time block classification of a layout (create_block_mask)";
  let description = [{
    Classifies every (query block, key block) pair of `layout` for queries
    `[0, query_len)` and keys `[0, key_len)` in blocks of `block_q` and
    `block_k` (each in `[1, 1024]`; lengths from the data that are negative,
    or whose query blocks are not the lists', are reported at run time),
    and writes the block lists that `attic.block_attention`
    takes (FlexAttention's BlockMask): for batch `b`, query head `h` and
    query block `qb`, the partial key blocks (some but not all elements
    visible) in ascending order into `kv_indices[b,h,qb,:]` with their
    number in `kv_num_blocks[b,h,qb]`, and the full key blocks likewise
    into `full_kv_indices` / `full_kv_num_blocks`. Skipped blocks are in
    neither list; entries past a count are 0.

    The lists are `[B',H',ceil(query_len/block_q)]` and
    `[B',H',ceil(query_len/block_q),L]` of i32 (the destinations `outs`).
    `B'` and `H'` are the batches and heads to classify for (1 when the
    layout does not depend on them: the lists then serve every batch or
    head; with a layout or mask region that does, one row holds the first
    batch's or head's blocks, and an attention with several that takes
    the lists straight from this op is refused). A query block with more than `L` partial (or full) key blocks is
    reported to the runtime as an error; `L = ceil(key_len/block_k)` always
    suffices. The classification is exact, like FlexAttention's: a listed
    full block has every element visible, a partial one some but not all.
    The layout's block visibility decides where it is exact (static atomic
    layouts, random blocks); where it is sound only (document ids, whose
    per-block id ranges can overlap without a shared id; intersections and
    unions), a pair it calls partial is checked element by element. So the
    lists are a function of the layout and the sizes alone, whichever
    attention reuses them (with another layout, or none).

    The result is an ordinary tensor: compute it once and pass it to every
    attention that shares the layout, across calls and layers.

    With a `mask` region (that of `attic.attention`, reading `captures`),
    the pattern classified is the layout intersected with the region:
    interval arithmetic over the block's index ranges where it models the
    region, and every element of a block pair that it cannot decide
    (every pair that the layout does not skip, for a region that reads
    captures or compares floats: O(Nq Nk) scalar work, as
    create_block_mask). In
    the memref form the region is the private function `mask_fn`, as for
    `attic.block_attention`.

    Example:

    ```mlir
    %n, %i, %fn, %fi = attic.block_mask
        layout(#attic.documents<query_ids = 0, key_ids = 0>)
        layout_operands(%doc : tensor<1x4096xi32>)
        sizes(%c4096, %c4096)
        outs(%e0, %e1, %e2, %e3 : tensor<1x1x32xi32>, tensor<1x1x32x32xi32>,
                                  tensor<1x1x32xi32>, tensor<1x1x32x32xi32>)
        {block_q = 128 : i64, block_k = 128 : i64}
        -> tensor<1x1x32xi32>, tensor<1x1x32x32xi32>, tensor<1x1x32xi32>,
           tensor<1x1x32x32xi32>
    ```

    Lowering: `attic-lower-block-mask` (memref form) turns it into a
    parallel loop over the block pairs (b, h, qb, kb) that classifies each,
    then a parallel loop over (b, h, qb) that scans the key blocks the
    layout's key range allows.
  }];
  let arguments = (ins
    Variadic<Attic_ShapedOperand>:$layout_operands,
    Variadic<Attic_Capture>:$captures,
    Index:$query_len,
    Index:$key_len,
    Attic_ShapedOperand:$kv_num_blocks_init,
    Attic_ShapedOperand:$kv_indices_init,
    Attic_ShapedOperand:$full_kv_num_blocks_init,
    Attic_ShapedOperand:$full_kv_indices_init,
    Attic_AnyLayoutAttr:$layout,
    ConfinedAttr<I64Attr, [IntPositive]>:$block_q,
    ConfinedAttr<I64Attr, [IntPositive]>:$block_k,
    OptionalAttr<FlatSymbolRefAttr>:$mask_fn
  );
  let regions = (region MaxSizedRegion<1>:$mask_region);
  let results = (outs Variadic<RankedTensorOf<[I32]>>:$results);
  let assemblyFormat = [{
    `layout` `(` $layout `)`
    (`layout_operands` `(` $layout_operands^ `:` type($layout_operands) `)`)?
    (`captures` `(` $captures^ `:` type($captures) `)`)?
    `sizes` `(` $query_len `,` $key_len `)`
    `outs` `(` $kv_num_blocks_init `,` $kv_indices_init `,`
        $full_kv_num_blocks_init `,` $full_kv_indices_init `:`
        type($kv_num_blocks_init) `,` type($kv_indices_init) `,`
        type($full_kv_num_blocks_init) `,` type($full_kv_indices_init) `)`
    (`mask_mod` custom<ModifierRegion>($mask_region)^)?
    attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "kKeywordAttrNames") (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The attributes written with keywords (custom<KeywordAttrs>).
    static constexpr ::llvm::StringLiteral kKeywordAttrNames[] = {"layout"};
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(getOperation(),
          getOperation()->getNumOperands() - 4, 4);
    }
    /// See BlockAttentionOp::getMaskModifier.
    ::mlir::Region *getMaskModifier();
  }];
}

//===----------------------------------------------------------------------===//
// attic.yield: the terminator of modifier regions
//===----------------------------------------------------------------------===//

def Attic_YieldOp : Attic_Op<"yield", [Pure, Terminator,
    ParentOneOf<["AttentionOp", "BlockAttentionOp", "BlockMaskOp"]>]> {
  let summary = "the value of a mask or score region";
  let description = [{
    Ends a `mask` region (one i1: the key is visible) or a `score` region
    (one f32: the new score) of `attic.attention`, `attic.block_attention`
    or `attic.block_mask`. The parent op checks the type.

    ```mlir
    attic.yield %visible : i1
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

include "AtticTileOps.td"
include "AtticVccOps.td"
include "AtticSliceOps.td"
include "AtticKernelOps.td"
include "AtticHashOps.td"
include "AtticSketchOps.td"

#endif // ATTIC_OPS_TD
