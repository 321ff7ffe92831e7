//===- AtticLayouts.td - iteration layouts of block attention -*- tablegen -*-===//
//
// Which (query, key) pairs attention visits, as parametrized attributes
// behind one interface. Each layout answers, in IR that it emits itself:
//
//   - the element predicate: is key k visible to query q;
//   - the block visibility: for the rectangle of queries [q0, q1) and keys
//     [k0, k1), is some element visible (`any`), is every element visible
//     (`all`); skip = !any, full = all, partial otherwise;
//   - the key range: keys [kLo, kHi) outside of which no query of
//     [q0, q1) sees anything (the hull the tile loop iterates).
//
// The tile loop (attic-tile-block-attention) asks these questions and
// nothing else, so a new layout is one attribute here and its reference
// semantics in lib/Reference, not a change to any kernel.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_LAYOUTS_TD
#define ATTIC_LAYOUTS_TD

include "AtticDialect.td"

//===----------------------------------------------------------------------===//
// The interface
//===----------------------------------------------------------------------===//

def Attic_LayoutAttrInterface : AttrInterface<"LayoutAttrInterface"> {
  let cppNamespace = "::attic";
  let description = [{
    An iteration layout of `attic.attention` / `attic.block_attention`: the
    set of (query, key) pairs that are visited. Query and key positions are
    0-based indices into the sequences of `Nq` queries and `Nk` keys; the
    batch `b` and the query head `h` are available to layouts that depend
    on them. Layouts may read runtime tensors, the op's `layout_operands`,
    which they name by position.

    All IR is emitted through a `LayoutEnv` (builder, location, `Nq`, `Nk`,
    `b`, `h`, the operands in memref form) with constant folding, so that a
    layout whose inputs are constants classifies at compile time.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits the element predicate: an i1 that is true iff key `k` is
        visible to query `q` (both `index`, in [0, Nq) x [0, Nk)). Only
        arith ops and memref.load of the layout operands: targets evaluate
        it per element, per lane, or vectorized.
      }], "::mlir::Value", "buildElementPredicate",
      (ins "::attic::LayoutEnv &":$env, "::mlir::Value":$q, "::mlir::Value":$k)>,
    InterfaceMethod<[{
        Emits the visibility of the non-empty block of queries [q0, q1) and
        keys [k0, k1) (inside [0, Nq) x [0, Nk)): `any` is false only if no
        element is visible, `all` is true only if every element is. Atomic
        static layouts are exact; compositions and data-dependent layouts
        are sound (they may call a full or an empty block partial).
      }], "::attic::BlockVisibility", "buildBlockVisibility",
      (ins "::attic::LayoutEnv &":$env, "::mlir::Value":$q0, "::mlir::Value":$q1,
           "::mlir::Value":$k0, "::mlir::Value":$k1)>,
    InterfaceMethod<[{
        Emits the key range [kLo, kHi) (index, within [0, Nk]; kLo >= kHi
        when empty) that contains every key visible to a query of [q0, q1).
      }], "::attic::KeyRange", "buildKeyRange",
      (ins "::attic::LayoutEnv &":$env, "::mlir::Value":$q0, "::mlir::Value":$q1)>,
    InterfaceMethod<[{
        Checks the layout against the op it is on: `info` has the static
        sizes (kDynamic when unknown), the block sizes and the types of the
        layout operands. Errors name the layout parameter or operand.
      }], "::mlir::LogicalResult", "verifyLayout",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "const ::attic::LayoutShapeInfo &":$info)>,
    InterfaceMethod<[{
        True when the block visibility cannot be decided without running
        something (it reads runtime tensors, or it is irregular, like
        random blocks): attic-decompose then computes the block lists once
        with `attic.block_mask` instead of classifying every block pair in
        the tile loop.
      }], "bool", "needsBlockMask", (ins)>,
    InterfaceMethod<[{
        True when the visible pairs differ between batches (`batch`) or
        between query heads (`head`): block lists must then have B (or Hq)
        rows; otherwise one row serves all.
      }], "bool", "dependsOnBatch", (ins)>,
    InterfaceMethod<"See dependsOnBatch.", "bool", "dependsOnHead", (ins)>
  ];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Attic_AnyLayoutAttr : Attr<
    CPred<"::llvm::isa<::attic::LayoutAttrInterface>($_self)">,
    "attention layout (an attribute of LayoutAttrInterface)"> {
  let storageType = "::attic::LayoutAttrInterface";
  let returnType = "::attic::LayoutAttrInterface";
  let convertFromStorage = "$_self";
}


def Attic_Alignment : I32EnumAttr<"Alignment",
    "where the diagonal of a positional layout sits when Nq != Nk", [
      I32EnumAttrCase<"TopLeft", 0, "top_left">,
      I32EnumAttrCase<"BottomRight", 1, "bottom_right">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::attic";
}

class Attic_Layout<string name, string layoutMnemonic, list<Trait> traits = []>
    : AttrDef<Attic_Dialect, name, !listconcat(traits, [
        DeclareAttrInterfaceMethods<Attic_LayoutAttrInterface>])> {
  let mnemonic = layoutMnemonic;
}

def Attic_AlignmentParameter : EnumParameter<Attic_Alignment> {
  let defaultValue = "::attic::Alignment::TopLeft";
}

// An integer parameter. MLIR's FieldParser<int64_t> reads `true` and `false`
// as 1 and 0 (an audit); this one refuses them.
def Attic_IntParameter : AttrParameter<"int64_t", ""> {
  let parser = "::parseIntParameter($_parser)";
}
def Attic_IntArrayParameter : ArrayRefParameter<"int64_t"> {
  let parser = "::parseIntArrayParameter($_parser)";
}

def Attic_DenseLayoutAttr : Attic_Layout<"DenseLayout", "dense"> {
  let summary = "every (query, key) pair";
  let description = [{
    Every key is visible to every query: `#attic.dense`.
  }];
}

def Attic_CausalLayoutAttr : Attic_Layout<"CausalLayout", "causal"> {
  let summary = "keys at or before the query's diagonal";
  let description = [{
    Key `k` is visible to query `q` iff `k <= q + off`, with `off = 0`
    when aligned `top_left` (the default, as PyTorch SDPA's `is_causal`)
    and `off = Nk - Nq` when aligned `bottom_right` (the queries are the
    last Nq positions of the key sequence: KV caches, chunked prefill, as
    FlashAttention's causal with Nq != Nk).

    ```mlir
    #attic.causal                  // top-left
    #attic.causal<bottom_right>
    ```
  }];
  let parameters = (ins Attic_AlignmentParameter:$align);
  let assemblyFormat = "(`<` $align^ `>`)?";
}

def Attic_WindowLayoutAttr : Attic_Layout<"WindowLayout", "window"> {
  let summary = "a band of keys around the query's diagonal (sliding window)";
  let description = [{
    Key `k` is visible to query `q` iff
    `-left <= k - (q + off) <= right`: `left` keys before the diagonal,
    `right` keys after it (both >= 0), `off` as for `#attic.causal`
    (`align`, default `top_left`). `right = 0` is causal sliding-window
    attention (Mistral: a window of W tokens is `left = W - 1`).

    ```mlir
    #attic.window<left = 4095, right = 0>
    #attic.window<left = 256, right = 256, align = bottom_right>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$left, Attic_IntParameter:$right,
                        Attic_AlignmentParameter:$align);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attic_DilatedLayoutAttr : Attic_Layout<"DilatedLayout", "dilated"> {
  let summary = "a sliding window that keeps every dilation-th key";
  let description = [{
    Longformer's dilated sliding window: key `k` is visible to query `q`
    iff, with `d = k - (q + off)`, `-left <= d <= right` and `d` is a
    multiple of `dilation` (>= 1). `off` and `align` as for
    `#attic.causal`.

    ```mlir
    #attic.dilated<left = 512, right = 512, dilation = 4>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$left, Attic_IntParameter:$right,
                        Attic_IntParameter:$dilation,
                        Attic_AlignmentParameter:$align);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attic_StridedLayoutAttr : Attic_Layout<"SparseStridedLayout", "strided"> {
  let summary = "Sparse Transformer's strided pattern";
  let description = [{
    Child et al.'s strided pattern with stride `l`: with `d = k - (q +
    off)`, key `k` is visible to query `q` iff `|d| < l` (the local part)
    or `d` is a multiple of `l` (the strided part). The decoder of the
    paper intersects it with `#attic.causal`.

    ```mlir
    #attic.intersect<[#attic.causal, #attic.strided<stride = 128>]>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$stride,
                        Attic_AlignmentParameter:$align);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attic_FixedLayoutAttr : Attic_Layout<"FixedLayout", "fixed"> {
  let summary = "Sparse Transformer's fixed pattern";
  let description = [{
    Child et al.'s fixed pattern with block length `l = block` and `c =
    summary` summary columns per block: key `k` is visible to query `q`
    iff `q / l == k / l` (the same block) or `k mod l >= l - c` (the last
    `c` keys of every block summarize it). `0 <= summary <= block`.

    ```mlir
    #attic.intersect<[#attic.causal, #attic.fixed<block = 128, summary = 8>]>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$block,
                        Attic_IntParameter:$summary);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attic_GlobalLayoutAttr : Attic_Layout<"GlobalLayout", "global"> {
  let summary = "global tokens: they see every key and every query sees them";
  let description = [{
    Longformer's global attention: key `k` is visible to query `q` iff `q`
    or `k` is one of the global `tokens` (positions, at least one, sorted
    ascending, distinct, >= 0; `tokens = []` does not parse: with no global
    token, leave the layout out). Positions at or past a sequence's length
    name no token of it.

    ```mlir
    #attic.union<[#attic.window<left = 256, right = 256>,
                  #attic.global<tokens = [0]>]>
    ```
  }];
  let parameters = (ins Attic_IntArrayParameter:$tokens);
  let assemblyFormat = "`<` `tokens` `=` `[` $tokens `]` `>`";
  let genVerifyDecl = 1;
}

def Attic_SinksLayoutAttr : Attic_Layout<"SinksLayout", "sinks"> {
  let summary = "the first keys, visible to every query (attention sinks, prefix)";
  let description = [{
    Key `k` is visible to every query iff `k < count` (`count` >= 0).
    StreamingLLM's attention sinks (with a window), and the prefix of a
    prefix-LM (with `#attic.causal`).

    ```mlir
    #attic.intersect<[#attic.causal, #attic.union<[
        #attic.sinks<count = 4>, #attic.window<left = 1023, right = 0>]>]>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$count);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attic_DocumentsLayoutAttr : Attic_Layout<"DocumentsLayout", "documents"> {
  let summary = "block-diagonal by document (segment) ids: packed sequences";
  let description = [{
    Key `k` is visible to query `q` of batch `b` iff
    `query_ids[b, q] == key_ids[b, k]`: the documents packed into one
    sequence do not see each other. `query_ids` and `key_ids` are the
    positions of the two id tensors among the op's `layout_operands`
    (`[B, Nq]` and `[B, Nk]` of i32 or i64; self-attention passes one
    tensor for both). Data-dependent: `attic-decompose` classifies the
    blocks at run time with `attic.block_mask`.

    ```mlir
    #attic.documents<query_ids = 0, key_ids = 0>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$query_ids,
                        Attic_IntParameter:$key_ids);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// A Philox seed: an integer in [0, 2^64). MLIR's parser of a uint64_t
// field read -1 as 2^64 - 1 without a word (an audit).
def Attic_SeedParameter : AttrParameter<"uint64_t", "a seed in [0, 2^64)"> {
  let parser = "::parseSeed($_parser)";
}

def Attic_RandomLayoutAttr : Attic_Layout<"RandomLayout", "random"> {
  let summary = "BigBird's random key blocks, drawn from a Philox seed";
  let description = [{
    Queries and keys are grouped into logical blocks of `block` positions;
    query block `I` of query head `h` sees `count` random key blocks
    (`block` >= 1, `count` in [1, 16])

    ```
    R(h, I, t) = philox4x32(seed; counter = (t / 4, I, h, 0))[t mod 4]
                 mod ceil(Nk / block),   t in [0, count)
    ```

    (Philox4x32-10 with key `seed`; the counter's words from low to high;
    duplicates are drawn as one block). Key `k` is visible to query `q` iff
    `k / block` is one of `R(h, q / block, t)`. The draw depends on the
    head and not on the batch, as in BigBird, and it is the same on every
    target. Irregular: `attic-decompose` classifies the blocks at run time
    with `attic.block_mask`; blocks of the tile loop that are multiples of
    `block` are never partial.

    ```mlir
    #attic.union<[#attic.window<left = 64, right = 64>,
                  #attic.global<tokens = [0]>,
                  #attic.random<block = 64, count = 3, seed = 42>]>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$block, Attic_IntParameter:$count,
                        Attic_SeedParameter:$seed);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attic_BlockedLayoutAttr : Attic_Layout<"BlockedLayout", "blocked"> {
  let summary = "a layout of blocks: the inner layout on block indices";
  let description = [{
    Groups queries and keys into blocks of `size` positions and applies
    `layout` to the block indices: key `k` is visible to query `q` iff
    `layout` visits `(q / size, k / size)` for `ceil(Nq / size)` query
    blocks and `ceil(Nk / size)` key blocks. BigBird's block patterns (a
    window of blocks, global blocks, random blocks) are layouts of this kind.
    Its block visibility is exact when the inner layout's is: every block
    pair of a rectangle holds an element pair of it. The inner layout may
    not contain `#attic.documents` (its ids are per token, not per block);
    intersect a blocked layout with the documents instead.

    ```mlir
    // BigBird: 3 blocks of 64 around the diagonal, the first block global,
    // 3 random blocks per query block.
    #attic.blocked<size = 64, layout = #attic.union<[
        #attic.window<left = 1, right = 1>, #attic.global<tokens = [0]>,
        #attic.random<block = 1, count = 3, seed = 42>]>>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$size,
                        "::attic::LayoutAttrInterface":$layout);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attic_BlockDiagonalLayoutAttr : Attic_Layout<"BlockDiagonalLayout", "block_diagonal"> {
  let summary = "query block i sees exactly key block i (rectangular blocks)";
  let description = [{
    Queries are grouped in blocks of `query` positions and keys in blocks of
    `key` positions; key `k` is visible to query `q` iff they are in blocks
    of the same index, `q / query == k / key`. With `causal = true`, the
    pair must also satisfy the bottom-right aligned causal condition inside
    its block: `k mod key <= q mod query + (key - query)` (the last query of
    a block sees every key of its block).

    This is the layout of attention over per-block key sets that were laid
    out one after another: composite slice attention (`attic.slice_attention`)
    lays out each slice's extended window of `alpha * L` keys (or
    `(alpha + 1) L / 2` causally) and attends slice `s`'s `L` queries to
    window `s`; a chunked attention over "this chunk and the previous one"
    is the same with `key = 2 * query`. Its block visibility is exact.

    ```mlir
    // CST, L = 16, alpha = 3: queries of slice s see window s of 48 keys.
    #attic.block_diagonal<query = 16, key = 48>
    // causal CST, L = 16, alpha = 3: the left-extended window of 32 keys.
    #attic.block_diagonal<query = 16, key = 32, causal = true>
    ```
  }];
  let parameters = (ins Attic_IntParameter:$query, Attic_IntParameter:$key,
                        DefaultValuedParameter<"bool", "false">:$causal);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attic_IntersectLayoutAttr : Attic_Layout<"IntersectLayout", "intersect"> {
  let summary = "the pairs that every layout visits";
  let description = [{
    A key is visible iff it is visible under each of `layouts` (at least
    one). Block visibility: `all` is exact (every component full), `any`
    is sound (no component empty).

    ```mlir
    #attic.intersect<[#attic.causal, #attic.documents<query_ids = 0, key_ids = 0>]>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$layouts);
  let assemblyFormat = "`<` $layouts `>`";
  let genVerifyDecl = 1;
}

def Attic_UnionLayoutAttr : Attic_Layout<"UnionLayout", "union"> {
  let summary = "the pairs that some layout visits";
  let description = [{
    A key is visible iff it is visible under one of `layouts` (at least
    one), with one softmax over the union (a pair visited by two components
    counts once). Block visibility: `any` is exact (some component not
    empty), `all` is sound (some component full).

    ```mlir
    #attic.union<[#attic.window<left = 256, right = 256>, #attic.global<tokens = [0, 1]>]>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$layouts);
  let assemblyFormat = "`<` $layouts `>`";
  let genVerifyDecl = 1;
}

#endif // ATTIC_LAYOUTS_TD
